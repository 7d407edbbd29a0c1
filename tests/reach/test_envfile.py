"""The one env-file reader, shared by --env-file and VS Code's envFile."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_lint.errors import UsageError
from mcp_lint.reach.envfile import parse_env_file


def test_reads_assignments_exports_quotes_and_skips_comments(tmp_path: Path) -> None:
    path = tmp_path / "ci.env"
    path.write_text("# a comment\n\nexport A='one'\nB = \"two\"\nC=x=y\n", encoding="utf-8")
    assert parse_env_file(path, unreadable="--env-file ci.env: cannot read") == {
        "A": "one",
        "B": "two",
        "C": "x=y",
    }


@pytest.mark.parametrize("line", ["not an assignment", "=value"])
def test_a_bad_line_names_the_file_and_line(tmp_path: Path, line: str) -> None:
    path = tmp_path / "ci.env"
    path.write_text(f"A=1\n{line}\n", encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        parse_env_file(path, unreadable="unused")
    assert str(caught.value) == f"{path}:2: expected KEY=VALUE"


def test_an_unreadable_file_starts_with_the_callers_words(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as caught:
        parse_env_file(tmp_path / "missing.env", unreadable="--env-file missing.env: cannot read")
    assert str(caught.value) == "--env-file missing.env: cannot read: No such file or directory"
