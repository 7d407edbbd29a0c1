"""Reading and writing the user's files: one-line errors on the way in, no half-written file out."""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path
from typing import BinaryIO

from mcp_lint.errors import UsageError

# No snapshot, config, env file or jury cache comes near this; /dev/zero or a runaway generator would.
MAX_INPUT_BYTES = 64 * 1024 * 1024
_READ_CHUNK = 1024 * 1024
_BINARY_CLOEXEC = getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)


def file_kind(mode: int) -> str:
    """What a non-regular file is, for a message: "a FIFO", "a character device", ..."""
    kinds = (
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    )
    return next((name for test, name in kinds if test(mode)), "not a regular file")


class InputFileError(UsageError):
    """An input file that cannot be read; `detail` is the reason alone, for callers that word their own."""

    def __init__(self, where: str, detail: str, reason: str) -> None:
        super().__init__(f"{where}: {detail}")
        self.detail = detail
        # "missing", "unreadable" (an OSError), "special" (not a regular file) or "too-large"
        self.reason = reason


def read_input_bytes(path: Path, what: str, missing: str = "no such file", label: str | None = None) -> bytes:
    """The bytes of the regular file `path` (`what`: "a snapshot", "a config file", ...), at most
    MAX_INPUT_BYTES, or a one-line InputFileError that starts with `label` (default: the path).

    Opened with O_NONBLOCK, so a FIFO cannot block the open; the type is then checked on the open
    descriptor (no window between check and read), and the read stops one byte past the cap, so
    neither /dev/zero nor a file growing under us is read without limit.
    """
    where = str(path) if label is None else label
    flags = (
        os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    )
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        raise InputFileError(where, missing, "missing") from None
    except OSError as exc:
        raise InputFileError(where, f"cannot read: {exc.strerror or exc}", "unreadable") from None
    try:
        info = os.fstat(fd)
        if stat.S_ISDIR(info.st_mode):
            raise InputFileError(where, "cannot read: Is a directory", "unreadable")
        if not stat.S_ISREG(info.st_mode):
            kind = file_kind(info.st_mode)
            detail = f"is {kind}, not a regular file; mcp-lint reads {what} only from a regular file"
            raise InputFileError(where, detail, "special")
        chunks: list[bytes] = []
        size = 0
        while size <= MAX_INPUT_BYTES:
            chunk = os.read(fd, min(_READ_CHUNK, MAX_INPUT_BYTES + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise InputFileError(where, f"cannot read: {exc.strerror or exc}", "unreadable") from None
    finally:
        os.close(fd)
    if size > MAX_INPUT_BYTES:
        detail = f"larger than {MAX_INPUT_BYTES // (1024 * 1024)} MiB, the most mcp-lint reads for {what}"
        raise InputFileError(where, detail, "too-large")
    return b"".join(chunks)


def decode_input(data: bytes, where: str) -> str:
    """UTF-8 text (a byte-order mark allowed: editors on Windows often save configs with one)."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError(f"{where}: not UTF-8 text; save it as UTF-8") from None


def read_input_file(path: Path, what: str, missing: str = "no such file", label: str | None = None) -> str:
    """The text of a user's input file: regular files only, at most MAX_INPUT_BYTES, UTF-8."""
    data = read_input_bytes(path, what, missing, label)
    return decode_input(data, str(path) if label is None else label)


def read_input_stream(stream: BinaryIO, what: str, label: str = "-") -> bytes:
    """At most MAX_INPUT_BYTES of a stream (a snapshot on stdin), or a UsageError naming the cap."""
    data = stream.read(MAX_INPUT_BYTES + 1)
    if len(data) > MAX_INPUT_BYTES:
        raise UsageError(
            f"{label}: more than {MAX_INPUT_BYTES // (1024 * 1024)} MiB on stdin, "
            f"the most mcp-lint reads for {what}"
        )
    return data


def read_text(path: Path, missing: str = "no such file", what: str = "an input file") -> str:
    """The file's text, or a UsageError that names the file and what to do."""
    return read_input_file(path, what, missing)


def write_text_atomic(path: Path, text: str) -> None:
    """Write so a reader never sees half a file: temp file in the same folder, flushed, then renamed.

    The result gets the permissions a plain `open(path, "w")` would give it: an existing file keeps
    its mode, a new one gets 0o666 less the umask. (`tempfile.mkstemp` would leave it 0o600, which
    hides a committed cache or a CI report from the group that is meant to read it.)

    Only a regular file is ever replaced. A symlink is written through: its target is replaced and
    the link stays. A FIFO or a character device (`-o /dev/stdout`, `-o >(gzip > r.gz)`, /dev/null)
    is written into, as `open(path, "w")` would, never swapped for a regular file; anything else
    that is not a regular file (a block device, a socket) is refused.
    """
    target = Path(os.path.realpath(path)) if path.is_symlink() else path
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    if info is not None and not stat.S_ISREG(info.st_mode):
        _write_special(target, info.st_mode, text)
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    keep_mode = stat.S_IMODE(info.st_mode) if info is not None else None
    fd, temp = _create_temp(target)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        if keep_mode is not None:
            os.chmod(temp, keep_mode)
        os.replace(temp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def append_text(path: Path, text: str) -> None:
    """Append `text` to a regular file (created if missing), a FIFO being read, or a terminal, as one
    write; a FIFO nobody reads fails at once instead of hanging, and anything else is refused."""
    try:
        info: os.stat_result | None = os.stat(path)
    except FileNotFoundError:
        info = None
    flags = os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOCTTY", 0) | _BINARY_CLOEXEC
    if info is None or stat.S_ISREG(info.st_mode):
        fd = os.open(path, flags | os.O_CREAT, 0o666)
    elif stat.S_ISFIFO(info.st_mode):
        fd = _open_fifo(path, flags)
    elif stat.S_ISCHR(info.st_mode):
        fd = os.open(path, flags)
    else:
        raise OSError(
            errno.EINVAL,
            f"is {file_kind(info.st_mode)}; mcp-lint appends only to a regular file, a FIFO or a terminal",
        )
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(text)


def _open_fifo(path: Path, flags: int) -> int:
    """Without a reader, open() on a FIFO would wait forever; non-blocking it fails at once instead."""
    try:
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        if exc.errno == errno.ENXIO:
            raise OSError(errno.ENXIO, "is a FIFO that no process is reading") from None
        raise
    os.set_blocking(fd, True)
    return fd


def _write_special(path: Path, mode: int, text: str) -> None:
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "Is a directory")
    if not (stat.S_ISFIFO(mode) or stat.S_ISCHR(mode)):
        raise OSError(
            errno.EINVAL,
            f"is {file_kind(mode)}; mcp-lint writes only to a regular file, a FIFO or a terminal",
        )
    flags = os.O_WRONLY | getattr(os, "O_NOCTTY", 0) | _BINARY_CLOEXEC
    fd = _open_fifo(path, flags) if stat.S_ISFIFO(mode) else os.open(path, flags)
    with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
        stream.write(text)


def unwritable_reason(path: Path, folder: bool = False) -> str | None:
    """Why `path` cannot be written as a file (or, with `folder`, filled with files), else None.

    Asked before a long run, so a bad output path fails at once instead of after the work. Nothing is
    created: the nearest folder that exists gets a temporary file that is removed again, which catches
    what permission bits do not show (a read-only mount, /proc, /sys, a full quota).
    """
    if not folder and path.is_symlink():
        path = Path(os.path.realpath(path))  # written through: the target's folder is what matters
    nearest = path if folder else path.parent
    try:
        if path.is_dir() and not folder:
            return "is a folder, not a file"
        if not folder and path.exists() and not path.is_file():
            kind = path.stat().st_mode
            # A FIFO or a terminal is written into, not replaced: its folder needs no new file.
            if stat.S_ISFIFO(kind) or stat.S_ISCHR(kind):
                return None
            return f"is {file_kind(kind)}; mcp-lint writes only to a regular file, a FIFO or a terminal"
        if folder and path.exists() and not path.is_dir():
            return "is a file, not a folder"
        while not nearest.exists() and nearest.parent != nearest:
            nearest = nearest.parent
        if not nearest.is_dir():
            return f"{nearest} is a file, not a folder"
        fd, temp = _create_temp(nearest / ".mcp-lint-probe")
        os.close(fd)
        temp.unlink()
    except OSError as exc:
        return f"cannot write in {nearest}: {exc.strerror or exc}"
    return None


def _create_temp(path: Path) -> tuple[int, Path]:
    # os.open with 0o666 lets the kernel apply the umask, which mkstemp's fixed 0o600 does not; reading
    # the umask instead would mean setting it, which is not thread-safe.
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0) | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        temp = path.with_name(f".{path.name}.{secrets.token_hex(6)}.tmp")
        try:
            return os.open(temp, flags, 0o666), temp
        except FileExistsError:
            continue
    raise FileExistsError(f"{path.parent}: could not create a temporary file next to {path.name}")
