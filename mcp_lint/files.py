"""Reading and writing the user's files: one-line errors on the way in, no half-written file out."""

from __future__ import annotations

import contextlib
import os
import secrets
import stat
from pathlib import Path

from mcp_lint.errors import UsageError


def read_text(path: Path, missing: str = "no such file") -> str:
    """The file's text, or a UsageError that names the file and what to do."""
    try:
        # utf-8-sig: editors on Windows often save configs with a byte-order mark.
        return path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise UsageError(f"{path}: {missing}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 text; save it as UTF-8") from None
    except OSError as exc:
        raise UsageError(f"{path}: cannot read: {exc.strerror or exc}") from None


def write_text_atomic(path: Path, text: str) -> None:
    """Write so a reader never sees half a file: temp file in the same folder, flushed, then renamed.

    The result gets the permissions a plain `open(path, "w")` would give it: an existing file keeps
    its mode, a new one gets 0o666 less the umask. (`tempfile.mkstemp` would leave it 0o600, which
    hides a committed cache or a CI report from the group that is meant to read it.)
    """
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        keep_mode: int | None = stat.S_IMODE(path.stat().st_mode)
    except OSError:
        keep_mode = None
    fd, temp = _create_temp(path)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        if keep_mode is not None:
            os.chmod(temp, keep_mode)
        os.replace(temp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temp.unlink()
        raise


def unwritable_reason(path: Path, folder: bool = False) -> str | None:
    """Why `path` cannot be written as a file (or, with `folder`, filled with files), else None.

    Asked before a long run, so a bad output path fails at once instead of after the work. Nothing is
    created: the nearest folder that exists gets a temporary file that is removed again, which catches
    what permission bits do not show (a read-only mount, /proc, /sys, a full quota).
    """
    nearest = path if folder else path.parent
    try:
        if path.is_dir() and not folder:
            return "is a folder, not a file"
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
