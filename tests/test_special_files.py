"""Special files and huge files as inputs, and `-o` onto a symlink, a FIFO or a device node.

Inputs: a FIFO must not block, /dev/zero must not be read until memory runs out, and a file past
the size cap is refused; each with one line that names the file, exit 2. Outputs: only a regular
file is ever replaced; a symlink is written through, a FIFO or character device is written into.
"""

from __future__ import annotations

import io
import os
import stat
import sys
from pathlib import Path

import pytest

from mcp_lint import files
from mcp_lint.cli import main
from mcp_lint.files import (
    MAX_INPUT_BYTES,
    InputFileError,
    read_input_file,
    read_input_stream,
    unwritable_reason,
    write_text_atomic,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX special files")
SNAPSHOT = Path(__file__).parent / "fixtures" / "golden" / "smelly-snapshot.json"


@pytest.fixture
def fifo(tmp_path: Path) -> Path:
    path = tmp_path / "pipe"
    os.mkfifo(path)
    return path


@pytest.fixture
def too_big(tmp_path: Path) -> Path:
    path = tmp_path / "huge.json"
    with path.open("wb") as handle:
        handle.truncate(MAX_INPUT_BYTES + 1)  # sparse: costs no disk
    return path


def lint(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(args)
    return code, capsys.readouterr().err


def one_error_line(err: str, *parts: str) -> None:
    assert err.count("\n") == 1 and err.startswith("mcp-lint: error: "), err
    for part in parts:
        assert part in err, err


def test_a_fifo_is_refused_without_blocking(fifo: Path) -> None:
    with pytest.raises(InputFileError) as caught:
        read_input_file(fifo, "a snapshot")
    assert caught.value.reason == "special"
    assert (
        str(caught.value)
        == f"{fifo}: is a FIFO, not a regular file; mcp-lint reads a snapshot only from a regular file"
    )


def test_dev_zero_is_refused_without_reading_it() -> None:
    with pytest.raises(InputFileError, match="is a character device, not a regular file"):
        read_input_file(Path("/dev/zero"), "a config file")


def test_a_file_over_the_cap_is_refused_with_the_cap_named(too_big: Path) -> None:
    with pytest.raises(InputFileError) as caught:
        read_input_file(too_big, "a snapshot")
    assert caught.value.reason == "too-large"
    assert str(caught.value) == f"{too_big}: larger than 64 MiB, the most mcp-lint reads for a snapshot"


def test_stdin_is_read_up_to_the_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(files, "MAX_INPUT_BYTES", 8)
    assert read_input_stream(io.BytesIO(b"12345678"), "a snapshot") == b"12345678"
    with pytest.raises(
        files.UsageError, match="more than 0 MiB on stdin, the most mcp-lint reads for a snapshot"
    ):
        read_input_stream(io.BytesIO(b"123456789"), "a snapshot")


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "too-big"])
def test_special_and_huge_inputs_end_in_one_line_and_exit_2(
    kind: str, fifo: Path, too_big: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = {"fifo": fifo, "dev-zero": Path("/dev/zero"), "too-big": too_big}[kind]
    expected = {"fifo": "is a FIFO", "dev-zero": "is a character device", "too-big": "larger than 64 MiB"}[
        kind
    ]
    config = tmp_path / "client.mcp.json"
    config.write_text(
        f'{{"mcpServers": {{"a": {{"command": "true", "envFile": "{bad}"}}}}}}', encoding="utf-8"
    )
    cases = [
        (["check", "--isolated", str(bad)], f"{bad}: "),
        (["check", "--config", str(bad), str(SNAPSHOT)], f"{bad}: "),
        (["check", "--isolated", "--env-file", str(bad), "--", "true"], f"--env-file {bad}: "),
        (["check", "--isolated", str(config)], f"cannot read env file {bad}: "),
        (["cache", "stats", "--cache-file", str(bad)], f"jury cache {bad}: "),
    ]
    for args, names in cases:
        code, err = lint(args, capsys)
        assert code == 2, (args, err)
        one_error_line(err, names, expected)


def test_o_writes_through_a_symlink_to_its_target(tmp_path: Path) -> None:
    target = tmp_path / "reports" / "report.json"
    target.parent.mkdir()
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "latest.json"
    link.symlink_to(target)
    write_text_atomic(link, "new\n")
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text(encoding="utf-8") == "new\n"
    assert unwritable_reason(link) is None


def test_o_through_a_dangling_symlink_creates_its_target(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    link = tmp_path / "latest.json"
    link.symlink_to(target)
    write_text_atomic(link, "new\n")
    assert link.is_symlink() and target.read_text(encoding="utf-8") == "new\n"


def test_o_writes_into_a_fifo_a_process_reads(fifo: Path) -> None:
    reader = os.open(fifo, os.O_RDONLY | os.O_NONBLOCK)
    try:
        write_text_atomic(fifo, "report\n")
        assert os.read(reader, 100) == b"report\n"
    finally:
        os.close(reader)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert unwritable_reason(fifo) is None


def test_o_onto_a_fifo_nobody_reads_fails_at_once_and_keeps_it(
    fifo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(OSError, match="is a FIFO that no process is reading"):
        write_text_atomic(fifo, "report\n")
    code, err = lint(["check", "--isolated", "-o", str(fifo), str(SNAPSHOT)], capsys)
    assert code == 2
    one_error_line(err, f"-o {fifo}: cannot write the report: is a FIFO that no process is reading")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)


def test_o_writes_into_a_character_device_and_keeps_it(tmp_path: Path) -> None:
    node = tmp_path / "null"
    try:
        os.mknod(node, stat.S_IFCHR | 0o666, os.makedev(1, 3))  # /dev/null's numbers, in tmp_path
    except (PermissionError, OSError) as exc:
        pytest.skip(f"cannot create a device node here: {exc}")
    try:
        write_text_atomic(node, "report\n")
    except PermissionError:
        pytest.skip("device nodes are not usable on this file system (nodev)")
    assert stat.S_ISCHR(os.stat(node).st_mode)
    assert [path.name for path in tmp_path.iterdir()] == ["null"]  # no temp file left beside it


def test_o_refuses_a_socket(tmp_path: Path) -> None:
    import socket

    path = tmp_path / "s"
    with socket.socket(socket.AF_UNIX) as server:
        server.bind(str(path))
        assert unwritable_reason(path) == (
            "is a socket; mcp-lint writes only to a regular file, a FIFO or a terminal"
        )
        with pytest.raises(OSError, match="is a socket"):
            write_text_atomic(path, "x")
        assert stat.S_ISSOCK(os.stat(path).st_mode)
