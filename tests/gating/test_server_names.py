"""One name per server however it is reached (issue 22): the config key when the config has the
server, and the name it reports in serverInfo accepted as an alias by the baseline and per-tool
ignores, so keys written one way carry over to the other. Real runs of a real server."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.cli import main

SERVERS = Path(__file__).resolve().parents[1] / "servers"
# good_server.py calls itself "good-server" in serverInfo; the config calls it "units".
REPORTED = "good-server"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    # Saved as server.py: a generic script name, which is how a server gets its serverInfo name.
    shutil.copy(SERVERS / "good_server.py", tmp_path / "server.py")
    shutil.copy(SERVERS / "_common.py", tmp_path / "_common.py")
    (tmp_path / "mcp-lint.toml").write_text(
        f'[servers.units]\ncommand = {json.dumps(sys.executable)}\nargs = ["server.py"]\n', encoding="utf-8"
    )
    return tmp_path


def lint(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any]]:
    code = main(["check", "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_the_config_key_names_the_server_however_it_is_started(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, configured = lint(capsys)
    _, by_command = lint(capsys, "--", sys.executable, "server.py")
    names = [s["name"] for s in configured["servers"]]
    assert names == [s["name"] for s in by_command["servers"]] == ["units"]
    _, isolated = lint(capsys, "--isolated", "--", sys.executable, "server.py")
    assert [s["name"] for s in isolated["servers"]] == [REPORTED], "no config: the serverInfo name"


def test_a_baseline_under_the_reported_name_holds_through_the_config(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--isolated", "--update-baseline", "--", sys.executable, "server.py"]) == 0
    capsys.readouterr()
    recorded = json.loads((project / ".mcp-lint" / "baseline.json").read_text(encoding="utf-8"))
    assert recorded["findings"] and {entry["server"] for entry in recorded["findings"]} == {REPORTED}
    _, report = lint(capsys)
    assert report["summary"]["total"] > 0
    assert report["summary"]["baselined"] == report["summary"]["total"]
    assert report["baseline"]["stale"] == []
    # Updated through the config, the entries move to the config's name.
    assert main(["check", "--update-baseline"]) == 0
    capsys.readouterr()
    rewritten = json.loads((project / ".mcp-lint" / "baseline.json").read_text(encoding="utf-8"))
    assert {entry["server"] for entry in rewritten["findings"]} == {"units"}


def test_a_per_tool_ignore_under_the_reported_name_silences(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _, before = lint(capsys)
    finding = next(f for tool in before["servers"][0]["tools"] for f in tool["findings"])
    tool = next(t["name"] for t in before["servers"][0]["tools"] if finding in t["findings"])
    config = project / "mcp-lint.toml"
    config.write_text(
        config.read_text(encoding="utf-8")
        + f'\n[per-tool-ignores]\n"{REPORTED}/{tool}" = {{ codes = ["{finding["code"]}"], reason = "ok" }}\n',
        encoding="utf-8",
    )
    _, after = lint(capsys)
    codes = [f["code"] for t in after["servers"][0]["tools"] if t["name"] == tool for f in t["findings"]]
    assert finding["code"] not in codes
    assert after["unusedSuppressions"] == []
