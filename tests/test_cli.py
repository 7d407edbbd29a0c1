"""The command line as users meet it: exit codes, one-line errors, help, rule docs, outputs."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_lint.cli import main

ROOT = Path(__file__).resolve().parent.parent
SNAPSHOT = ROOT / "tests" / "fixtures" / "golden" / "smelly-snapshot.json"
EXAMPLE = ROOT / "examples" / "weather_server.py"


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture(autouse=True)
def _isolated_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No config file from the repository may leak into these tests.
    monkeypatch.chdir(tmp_path)


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["--version"], capsys)
    assert code == 0 and out.startswith("mcp-lint, version ")


def test_help_documents_exit_codes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", "--help"], capsys)
    assert code == 0
    for line in ("0  no finding", "1  findings", "2  usage", "3  a server", "4  the jury"):
        assert line in out


def test_findings_fail_the_run_at_the_default_threshold(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", str(SNAPSHOT), "--ignore", "MCP7"], capsys)
    assert code == 1
    assert "hidden-instructions" in out


@pytest.mark.parametrize(
    ("fail_on", "expected"),
    [("critical", 1), ("none", 0)],
)
def test_fail_on_moves_the_threshold(fail_on: str, expected: int, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, _ = run(["check", str(SNAPSHOT), "--fail-on", fail_on], capsys)
    assert code == expected


def test_info_findings_never_fail(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "mcp-lint.toml").write_text('[rules]\nhidden-instructions = "info"\n', encoding="utf-8")
    code, _, _ = run(["check", str(SNAPSHOT), "--select", "MCP301", "--fail-on", "info"], capsys)
    assert code == 0


def test_exit_zero_passes_findings_but_not_unreachable_servers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(["check", str(SNAPSHOT), "--exit-zero"], capsys)[0] == 0
    config = tmp_path / ".mcp.json"
    config.write_text(json.dumps({"mcpServers": {"gone": {"command": "mcp-lint-no-such-command"}}}))
    code, _, err = run(["check", str(config), "--exit-zero", "--fail-on", "none"], capsys)
    assert code == 3
    assert err.strip().count("\n") == 0
    assert "mcp-lint-no-such-command" in err and "not found" in err


def test_select_and_ignore_by_name_code_and_prefix(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(
        ["check", str(SNAPSHOT), "--format", "json", "--select", "MCP2,hidden-instructions"], capsys
    )
    codes = {
        finding["code"]
        for server in json.loads(out)["servers"]
        for tool in server["tools"]
        for finding in tool["findings"]
    }
    assert "MCP301" in codes and all(code.startswith("MCP2") or code == "MCP301" for code in codes)
    _, out, _ = run(
        ["check", str(SNAPSHOT), "--format", "json", "--select", "MCP2", "--ignore", "MCP202"], capsys
    )
    codes = {
        finding["code"]
        for server in json.loads(out)["servers"]
        for tool in server["tools"]
        for finding in tool["findings"]
    }
    assert codes and "MCP202" not in codes


def test_unknown_selector_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check", str(SNAPSHOT), "--select", "MCP9999"], capsys)
    assert code == 2
    assert "MCP9999" in err and "mcp-lint rules" in err


def test_unknown_config_key_names_the_key(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mcp-lint]\nfail_on = "high"\n', encoding="utf-8")
    code, _, err = run(["check", str(SNAPSHOT)], capsys)
    assert code == 2
    assert "'fail_on'" in err and "pyproject.toml" in err


def test_show_settings_reflects_file_and_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / ".mcp-lint.toml").write_text('fail-on = "high"\ntimeout = 5\n', encoding="utf-8")
    code, out, _ = run(["check", "--show-settings", "--timeout", "7"], capsys)
    settings = json.loads(out)
    assert code == 0
    assert settings["fail-on"] == "high" and settings["timeout"] == 7.0
    assert settings["config-file"].endswith(".mcp-lint.toml")


def test_nothing_to_lint_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check"], capsys)
    assert code == 2 and "nothing to lint" in err


def test_client_config_without_servers_is_exit_2_and_lints_nothing_else(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A project .mcp.json next to it must not be linted instead (it would fail: exit 3).
    (tmp_path / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"broken": {"command": sys.executable, "args": ["-c", "pass"]}}}),
        encoding="utf-8",
    )
    (tmp_path / "nosrv.json").write_text('{"mcpServers": {}}', encoding="utf-8")
    code, out, err = run(["check", "nosrv.json"], capsys)
    assert (code, out) == (2, "")
    assert err == 'mcp-lint: error: nosrv.json: no servers in "mcpServers"; add a server to it\n'


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([], ".mcp.json: no server named 'nope'; available: time"),
        ([str(SNAPSHOT)], f"--server 'nope': {SNAPSHOT} is a snapshot of one server, not a client config"),
        (
            ["--", sys.executable, "server.py"],
            "--server 'nope': `-- COMMAND` starts one server, not a client",
        ),
    ],
)
def test_server_that_matches_nothing_is_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    (tmp_path / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"time": {"command": sys.executable, "args": ["-c", "pass"]}}}),
        encoding="utf-8",
    )
    code, out, err = run(["check", "--server", "nope", *args], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"mcp-lint: error: {message}") and err.count("\n") == 1


def test_missing_snapshot_in_the_config_is_exit_2_naming_the_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "mcp-lint.toml").write_text('[servers.saved]\nsnapshot = "missing.json"\n', encoding="utf-8")
    code, out, err = run(["check"], capsys)
    assert (code, out) == (2, "")
    assert err.startswith(f"mcp-lint: error: {tmp_path / 'mcp-lint.toml'} [servers.saved]: snapshot ")
    assert "missing.json: no such file" in err and err.count("\n") == 1


def test_missing_file_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check", "no-such-file.json"], capsys)
    assert code == 2
    assert err.count("\n") == 1 and "no-such-file.json" in err


def test_bad_json_names_line_and_column(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "tools.json"
    broken.write_text('{"tools": [\n  {"name": "x",}\n', encoding="utf-8")
    code, _, err = run(["check", str(broken)], capsys)
    assert code == 2 and "tools.json:" in err and "not valid JSON" in err


def test_tools_without_a_name_are_reported_as_rejected_not_linted_by_placeholder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "weird.json").write_text('{"tools": [1, null, {"name": 3}]}', encoding="utf-8")
    code, out, _ = run(["check", "weird.json", "--format", "json"], capsys)
    tools = json.loads(out)["servers"][0]["tools"]
    assert code == 1
    # MCP003 for each entry (never MCP401 on "<tool #1>"), and no jury score for a tool nobody can call.
    assert [[f["code"] for f in tool["findings"]] for tool in tools] == [["MCP003"]] * 3
    assert [tool["scores"] for tool in tools] == [None] * 3
    code, out, _ = run(["check", "weird.json", "--select", "MCP003,MCP401", "--no-color"], capsys)
    assert code == 1 and out.count("MCP003 sdk-rejected-tool: Clients cannot use this tool: it") == 3
    assert "MCP401" not in out


def test_rules_lists_every_rule_and_rule_prints_docs(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["rules"], capsys)
    assert code == 0
    assert "MCP203  phantom-parameter" in out
    code, out, _ = run(["rule", "phantom-parameter"], capsys)
    assert code == 0
    for heading in ("## What it does", "## Why is this bad?", "## Example", "## Use instead"):
        assert heading in out
    assert run(["rule", "MCP203"], capsys)[1] == out


def test_unknown_rule_suggests_close_names(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["rule", "phantom-parameters"], capsys)
    assert code == 2 and "did you mean phantom-parameter" in err


def test_output_file_is_written_and_stdout_stays_empty(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "out" / "report.json"
    code, out, _ = run(["check", str(SNAPSHOT), "--format", "json", "-o", str(target)], capsys)
    assert code == 1 and out == ""
    assert json.loads(target.read_text(encoding="utf-8"))["version"] == 1
    assert [path.name for path in target.parent.iterdir()] == ["report.json"]


def test_color_only_when_asked_or_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "\x1b[" not in run(["check", str(SNAPSHOT)], capsys)[1]
    assert "\x1b[" in run(["check", str(SNAPSHOT), "--color"], capsys)[1]
    monkeypatch.setenv("NO_COLOR", "1")
    monkeypatch.setenv("FORCE_COLOR", "1")
    assert "\x1b[" not in run(["check", str(SNAPSHOT)], capsys)[1]


def test_snapshot_then_check_replays_the_live_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    saved = tmp_path / "tools.json"
    code, _, err = run(["snapshot", "-o", str(saved), "--", sys.executable, str(EXAMPLE)], capsys)
    assert code == 0 and "4 tools" in err
    document = json.loads(saved.read_text(encoding="utf-8"))
    assert [tool["name"] for tool in document["tools"]] == [
        "get_forecast",
        "current_conditions",
        "delete_alert",
        "get_forcast",
    ]
    live = run(["check", "--format", "json", "--", sys.executable, str(EXAMPLE)], capsys)
    replay = run(["check", str(saved), "--format", "json"], capsys)
    strip = lambda text: [  # noqa: E731 - origins differ by design, everything else must match
        {**server, "origin": None, "name": None} for server in json.loads(text)["servers"]
    ]
    assert live[0] == replay[0] == 1
    assert strip(live[1]) == strip(replay[1])


def test_module_entry_point_runs() -> None:
    result = subprocess.run(
        [sys.executable, "-m", "mcp_lint", "rule", "MCP101"], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0 and "missing-description" in result.stdout


def lint_stdin(data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "mcp_lint", "check", "-", "--isolated", *args]
    return subprocess.run(command, input=data, capture_output=True, timeout=120)


def test_snapshot_on_stdin_is_linted_like_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    piped = lint_stdin(SNAPSHOT.read_bytes(), "--format", "json", "--ignore", "MCP7")
    code, out, _ = run(["check", str(SNAPSHOT), "--isolated", "--format", "json", "--ignore", "MCP7"], capsys)
    assert piped.returncode == code == 1, piped.stderr
    from_stdin, from_file = json.loads(piped.stdout), json.loads(out)
    assert from_stdin["servers"][0]["origin"] == "stdin"
    for report in (from_stdin, from_file):
        del report["servers"][0]["origin"]
    assert from_stdin == from_file


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b'{"mcpServers": {}}', "stdin: a client config, which mcp-lint reads from its file only"),
        (b'{"tools": [', "stdin:1:12: not valid JSON: Expecting value"),
        (b"", "stdin:1:1: not valid JSON: Expecting value"),
        (
            b'{"jsonrpc": "2.0", "id": 1, "error": {"message": "boom"}}',
            "stdin: a JSON-RPC error response (boom)",
        ),
    ],
)
def test_what_stdin_cannot_be_linted_is_one_line_exit_2(data: bytes, message: str) -> None:
    result = lint_stdin(data)
    assert result.returncode == 2 and result.stdout == b""
    assert (
        result.stderr.decode().startswith(f"mcp-lint: error: {message}") and result.stderr.count(b"\n") == 1
    )


def test_env_and_env_file_reach_the_server_but_our_secrets_do_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-parent-secret")
    env_file = tmp_path / "server.env"
    env_file.write_text("# for the server\nexport FROM_FILE='one'\nSHARED=file\n", encoding="utf-8")
    server = ROOT / "tests" / "servers" / "env_echo_server.py"
    args = ["--env-file", str(env_file), "--env", "SHARED=flag", "--env", "FROM_FLAG=two"]
    code, out, _ = run(
        ["check", "--format", "json", "--select", "MCP101", *args, "--", sys.executable, str(server)], capsys
    )
    [tool] = json.loads(out)["servers"][0]["tools"]
    assert code == 0
    saved = tmp_path / "tools.json"
    run(["snapshot", "-o", str(saved), *args, "--", sys.executable, str(server)], capsys)
    description = json.loads(saved.read_text(encoding="utf-8"))["tools"][0]["description"]
    names = set(description.split(": ", 1)[1].split(","))
    assert {"FROM_FILE", "FROM_FLAG", "SHARED"} <= names
    assert "OPENAI_API_KEY" not in names
    assert tool["name"]


def test_bad_env_flag_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["check", "--env", "NOEQUALS", "--", sys.executable, str(EXAMPLE)], capsys)
    assert code == 2 and "KEY=VALUE" in err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")
def test_output_file_gets_normal_permissions(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "report.json"
    old = os.umask(0o022)
    try:
        code, _, _ = run(["check", str(SNAPSHOT), "--format", "json", "-o", str(target)], capsys)
    finally:
        os.umask(old)
    assert code == 1 and stat.S_IMODE(target.stat().st_mode) == 0o644


@pytest.mark.parametrize(
    ("rules", "key"),
    [
        ('unclear-purpose = { threshold = "x" }', "rules.unclear-purpose.threshold"),
        ('jury-disagreement = { spread = "x" }', "rules.jury-disagreement.spread"),
        ("unclear-purpose = { threshold = 9 }", "rules.unclear-purpose.threshold"),
    ],
)
def test_bad_rule_option_is_a_config_error_naming_file_and_key(
    rules: str, key: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "pyproject.toml").write_text(f"[tool.mcp-lint.rules]\n{rules}\n", encoding="utf-8")
    code, _, err = run(["check", str(SNAPSHOT)], capsys)
    assert code == 2 and err.count("\n") == 1
    assert f"{tmp_path / 'pyproject.toml'}: {key}: expected" in err and "internal error" not in err
