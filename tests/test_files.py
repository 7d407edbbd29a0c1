"""Writing the user's files: atomic, and with the permissions a plain write would give."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from mcp_lint.files import write_text_atomic

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
