"""End to end: `mcp-lint check` on real third-party servers, as a user runs it.

These pin what mcp-lint reports on servers it was not written against, so a rule change that
starts crying wolf on well-known servers (or stops seeing their real gaps) shows up here.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.cli import main
from mcp_lint.jury.base import COMPONENTS
from mcp_lint.reach.targets import StdioTarget

pytestmark = pytest.mark.thirdparty

SECURITY_CODES = ("MCP301", "MCP302")
CONFIGURATION = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def documented_figures() -> dict[str, tuple[int, int, float]]:
    """The table of docs/configuration.md ("Which profile"): per reference server, its findings,
    those failing under `default`, and its rubric score."""
    rows: dict[str, tuple[int, int, float]] = {}
    for line in CONFIGURATION.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[1].isdigit() and cells[2].isdigit():
            rows[cells[0]] = (int(cells[1]), int(cells[2]), float(cells[3]))
    return rows


def lint(target: StdioTarget, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, dict[str, Any]]:
    env_args = [item for key, value in target.env.items() for item in ("--env", f"{key}={value}")]
    code = main(
        ["check", "--isolated", "--format", "json", *env_args, *extra, "--", target.command, *target.args]
    )
    out = capsys.readouterr().out
    return code, json.loads(out)


def findings(document: dict[str, Any]) -> dict[str, list[str]]:
    [server] = document["servers"]
    assert server["error"] is None, server["error"]
    result = {tool["name"]: [finding["code"] for finding in tool["findings"]] for tool in server["tools"]}
    result["(server)"] = [finding["code"] for finding in server["findings"]]
    return result


def test_time_server_is_clean_on_deterministic_rules(
    time_server: StdioTarget, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document = lint(time_server, capsys, "--ignore", "MCP7")
    assert code == 0
    assert document["servers"][0]["name"] == "mcp-server-time"
    assert findings(document) == {"get_current_time": [], "convert_time": [], "(server)": []}


def test_time_server_gets_every_rubric_score(
    time_server: StdioTarget, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = lint(time_server, capsys)
    for tool in document["servers"][0]["tools"]:
        assert set(tool["scores"]) == set(COMPONENTS)
        assert all(1 <= value <= 5 for value in tool["scores"].values())
        assert list(tool["judges"]) == ["offline"]
    assert document["jury"]["judges"] == ["offline"] and document["jury"]["unscored"] == []


def test_git_server_parameters_without_descriptions(
    git_server: StdioTarget, capsys: pytest.CaptureFixture[str]
) -> None:
    code, document = lint(git_server, capsys, "--select", "MCP2,MCP3,MCP4,MCP5", "--profile", "strict")
    found = findings(document)
    assert code == 1
    assert len(found) == 13  # 12 tools and the server row
    assert "MCP202" in found["git_status"] and "MCP202" in found["git_commit"]
    assert not any(code.startswith(SECURITY_CODES) for codes in found.values() for code in codes)
    # git_log and git_diff do different things; their descriptions must not read as near duplicates.
    assert "MCP403" not in found["git_log"] and "MCP403" not in found["git_diff"]


def test_fetch_server_overrides_the_agents_earlier_instructions(
    fetch_server: StdioTarget, capsys: pytest.CaptureFixture[str]
) -> None:
    # Its description tells the model that it "originally did not have internet access and was
    # advised to refuse", and that this tool now grants it: text that overrides the agent's
    # instructions, the best-known real case of hidden instructions. Nothing else is wrong with it.
    code, document = lint(fetch_server, capsys, "--ignore", "MCP7")
    assert code == 1
    assert findings(document) == {"fetch": ["MCP301"], "(server)": []}


def test_filesystem_server_no_false_alarms(
    filesystem_server: StdioTarget, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = lint(filesystem_server, capsys, "--ignore", "MCP7")
    found = findings(document)
    assert len(found) == 15
    assert "MCP202" in found["read_text_file"]
    flagged = [code for codes in found.values() for code in codes]
    # Its annotations are right and its descriptions are plain: no poisoning, no contradiction.
    assert not [code for code in flagged if code.startswith((*SECURITY_CODES, "MCP50"))]


def test_memory_server_nested_arrays_without_descriptions(
    memory_server: StdioTarget, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = lint(memory_server, capsys, "--select", "MCP2")
    found = findings(document)
    # `entities` has no description of its own, but every field of its items has one and the tool's
    # description names it ("Create multiple new entities"): nothing an agent would have to guess.
    assert found["create_entities"] == []
    assert found["read_graph"] == []


def test_everything_server_only_real_gaps(
    everything_server: StdioTarget, capsys: pytest.CaptureFixture[str]
) -> None:
    _, document = lint(everything_server, capsys, "--ignore", "MCP7")
    found = findings(document)
    assert len(found) == 14
    assert found["echo"] == [] and found["get-sum"] == []
    assert not any(code.startswith(SECURITY_CODES) for codes in found.values() for code in codes)


@pytest.mark.parametrize(
    ("fixture", "fails_by_default"),
    [
        ("time_server", False),
        ("git_server", False),
        ("fetch_server", True),  # hidden-instructions: it overrides the agent's earlier instructions
        ("everything_server", False),
        ("filesystem_server", False),
        ("memory_server", False),
    ],
)
def test_reference_servers_under_each_profile(
    fixture: str, fails_by_default: bool, request: pytest.FixtureRequest, capsys: pytest.CaptureFixture[str]
) -> None:
    # The default gate is one a good server passes: the reference servers' smells are warnings, and
    # only fetch's poisoned description fails it. strict fails on every smell (docs/configuration.md).
    target: StdioTarget = request.getfixturevalue(fixture)
    code, document = lint(target, capsys)
    summary = document["summary"]
    assert summary["total"] > 0 and summary["serversUnderMinScore"] == []
    assert (code, summary["failing"] > 0) == ((1, True) if fails_by_default else (0, False))
    # The figures the docs quote are this run's (issue 22: they had drifted from what a run gives).
    measured = (summary["total"], summary["failing"], document["servers"][0]["score"]["overall"])
    assert documented_figures()[target.name] == measured, f"update docs/configuration.md: {measured}"
    code, document = lint(target, capsys, "--profile", "strict")
    assert code == 1 and document["summary"]["failing"] == document["summary"]["total"]
