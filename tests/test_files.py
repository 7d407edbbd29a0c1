"""Writing the user's files: atomic, and with the permissions a plain write would give."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcp_lint.files import unwritable_reason, write_text_atomic

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")


@pytest.fixture
def umask_027() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_new_file_gets_0666_less_the_umask(tmp_path: Path, umask_027: None) -> None:
    target = tmp_path / "deep" / "report.json"
    write_text_atomic(target, "{}\n")
    assert target.read_text(encoding="utf-8") == "{}\n"
    assert mode(target) == 0o640
    assert [p.name for p in target.parent.iterdir()] == ["report.json"]


def test_existing_file_keeps_its_mode(tmp_path: Path, umask_027: None) -> None:
    target = tmp_path / "report.txt"
    target.write_text("old", encoding="utf-8")
    target.chmod(0o604)
    write_text_atomic(target, "new")
    assert target.read_text(encoding="utf-8") == "new" and mode(target) == 0o604


def test_a_failed_write_leaves_the_old_file_and_no_temp(tmp_path: Path) -> None:
    target = tmp_path / "report.txt"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(UnicodeEncodeError):
        write_text_atomic(target, "half \udc80 written")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["report.txt"]


def test_unwritable_reason_creates_nothing(tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file").write_text("x", encoding="utf-8")
    assert unwritable_reason(tmp_path / "new" / "deeper" / "report.json") is None
    assert unwritable_reason(tmp_path / "file") is None  # replaced atomically
    assert unwritable_reason(tmp_path / "folder", folder=True) is None
    assert unwritable_reason(tmp_path / "new-folder", folder=True) is None
    assert unwritable_reason(tmp_path / "folder") == "is a folder, not a file"
    assert unwritable_reason(tmp_path / "file", folder=True) == "is a file, not a folder"
    assert unwritable_reason(tmp_path / "file" / "x.json") == f"{tmp_path / 'file'} is a file, not a folder"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file", "folder"]
    assert list((tmp_path / "folder").iterdir()) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux")
def test_unwritable_reason_tries_a_real_file(tmp_path: Path) -> None:
    # Permission bits say nothing here (root may write anywhere); creating a file does.
    assert unwritable_reason(Path("/proc/x.json")) == "cannot write in /proc: No such file or directory"
