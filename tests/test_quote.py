"""Error messages quote user-supplied values, but never more than QUOTE_LIMIT characters of them."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_lint.cli import main
from mcp_lint.errors import QUOTE_LIMIT, quote

SNAPSHOT = Path(__file__).parent / "fixtures" / "golden" / "smelly-snapshot.json"
HUGE = "x" * 1_000_000


def test_quote_keeps_short_values_and_cuts_long_ones() -> None:
    assert quote("MCP301") == "'MCP301'"
    assert quote("y" * QUOTE_LIMIT) == repr("y" * QUOTE_LIMIT)
    assert quote("y" * (QUOTE_LIMIT + 1)) == f"{'y' * QUOTE_LIMIT!r}... ({QUOTE_LIMIT + 1} characters)"
    assert quote(list(range(100)), limit=10) == "[0, 1, 2, ... (390 characters)"


@pytest.mark.parametrize(
    "args",
    [
        ["check", "--isolated", "--select", HUGE, str(SNAPSHOT)],
        ["check", "--isolated", "--ignore", f"MCP1,{HUGE}", str(SNAPSHOT)],
        ["check", "--isolated", "--fail-on", HUGE, str(SNAPSHOT)],
        ["rule", HUGE],
        ["check", "--isolated", "--", HUGE],
    ],
    ids=["select", "ignore", "fail-on", "rule", "command"],
)
def test_a_megabyte_value_is_not_echoed_whole(
    args: list[str], capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    code = main(args)
    captured = capsys.readouterr()
    assert code in (2, 3)
    for stream in (captured.out, captured.err):
        # the text report may name the server after its command: that is the reporter's to cap
        assert all(len(line) < 1000 for line in stream.splitlines() if "error" in line), stream[:300]
    assert "(1,000,000 characters)" in captured.out + captured.err


def test_a_long_unknown_config_key_is_cut(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    config = tmp_path / "mcp-lint.toml"
    config.write_text(f"{'k' * 5000} = 1\n", encoding="utf-8")
    code = main(["check", "--config", str(config), str(SNAPSHOT)])
    err = capsys.readouterr().err
    assert code == 2 and "(5,000 characters)" in err and len(err) < 600
