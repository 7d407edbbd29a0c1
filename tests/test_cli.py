"""The command line as users meet it: exit codes, one-line errors, help, rule docs, outputs."""

from __future__ import annotations

import json
import os
import signal
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
    # the jury flags are applied too: the judges and the cache file the run will use
    jury_flags = ["--jury", "openai/gpt-4.1-mini", "--cache-file", "verdicts.json", "--frozen"]
    code, out, _ = run(["check", "--show-settings", *jury_flags], capsys)
    jury = json.loads(out)["jury"]
    assert code == 0 and jury["models"] == ["openai/gpt-4.1-mini"]
    assert jury["cache"] == "verdicts.json" and jury["frozen"] is True and jury["refresh"] is False
    code, out, _ = run(["check", "--show-settings", "--no-cache"], capsys)
    assert code == 0 and json.loads(out)["jury"]["cache"] is None


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
        [sys.executable, "-m", "mcp_lint", "rule", "MCP101"], capture_output=True, text=True
    )
    assert result.returncode == 0 and "missing-description" in result.stdout


def lint_stdin(data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    command = [sys.executable, "-m", "mcp_lint", "check", "-", "--isolated", *args]
    return subprocess.run(command, input=data, capture_output=True)


def test_snapshot_on_stdin_is_linted_like_the_file(capsys: pytest.CaptureFixture[str]) -> None:
    piped = lint_stdin(SNAPSHOT.read_bytes(), "--format", "json", "--ignore", "MCP7")
    code, out, _ = run(["check", str(SNAPSHOT), "--isolated", "--format", "json", "--ignore", "MCP7"], capsys)
    assert piped.returncode == code == 1, piped.stderr
    from_stdin, from_file = json.loads(piped.stdout), json.loads(out)
    assert from_stdin["servers"][0]["origin"] == "stdin"
    for report in (from_stdin, from_file):
        del report["servers"][0]["origin"]
    assert from_stdin == from_file


def commented(text: str) -> str:
    """The snapshot as a person might keep it: a `//` comment and trailing commas (JSONC)."""
    assert text.rstrip().endswith("}\n  ]\n}")
    return "// saved from the staging server\n" + text.rstrip()[: -len("}\n  ]\n}")] + "},\n  ],\n}\n"


def test_snapshot_with_comments_and_trailing_commas_is_linted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Read by the client configs' JSONC rule, once: never refused by a second, strict parse (exit 3)."""
    saved = tmp_path / "smelly.json"
    saved.write_text(commented(SNAPSHOT.read_text(encoding="utf-8")), encoding="utf-8")
    args = ["--isolated", "--format", "json", "--ignore", "MCP7"]
    code, out, err = run(["check", str(saved), *args], capsys)
    expected_code, expected, _ = run(["check", str(SNAPSHOT), *args], capsys)
    assert code == expected_code == 1, err
    report, plain = json.loads(out), json.loads(expected)
    assert report["summary"]["serversFailed"] == 0 and report["summary"]["total"] > 0
    for document in (report, plain):
        del document["servers"][0]["origin"]
    assert report == plain
    piped = lint_stdin(commented(SNAPSHOT.read_text(encoding="utf-8")).encode(), *args[1:])
    assert piped.returncode == 1, piped.stderr
    assert [server["tools"] for server in json.loads(piped.stdout)["servers"]] == [
        server["tools"] for server in plain["servers"]
    ]


def test_configured_snapshot_with_comments_is_linted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "smelly.json").write_text(commented(SNAPSHOT.read_text(encoding="utf-8")), encoding="utf-8")
    (tmp_path / "mcp-lint.toml").write_text('[servers.smelly]\nsnapshot = "smelly.json"\n', encoding="utf-8")
    code, out, err = run(["check", "--format", "json", "--ignore", "MCP7"], capsys)
    assert code == 1, err
    assert json.loads(out)["summary"]["serversFailed"] == 0


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


@pytest.mark.parametrize("value", ["nan", "inf", "NaN", "infinity"])
def test_timeout_must_be_finite_and_is_refused_before_any_server_starts(
    value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    started = tmp_path / "started"
    server = ["--", sys.executable, "-c", f"open({str(started)!r}, 'w'); import time; time.sleep(30)"]
    code, _, err = run(["check", "--timeout", value, *server], capsys)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"mcp-lint: error: --timeout {value.lower()[:3]}") and "--timeout 30" in err
    assert not started.exists()


def _marker_server(marker: Path) -> list[str]:
    """A stdio server command that leaves `marker` behind if it is ever started."""
    return ["--", sys.executable, "-c", f"open({str(marker)!r}, 'w'); import time; time.sleep(30)"]


def _output_cases(tmp_path: Path) -> list[tuple[str, str]]:
    (tmp_path / "outdir").mkdir()
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    cases = [("outdir", "is a folder, not a file"), ("afile/report.json", "afile is a file, not a folder")]
    if sys.platform.startswith("linux"):
        cases += [("/proc/x.json", "cannot write in /proc"), ("/sys/foo", "cannot write in /sys")]
    return cases


def test_unwritable_report_path_is_one_line_before_any_server_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "started"
    for output, problem in _output_cases(tmp_path):
        code, out, err = run(["check", "-o", output, *_marker_server(marker)], capsys)
        assert code == 2 and out == "" and err.count("\n") == 1, (output, err)
        assert err.startswith(f"mcp-lint: error: -o {output}: {problem}"), err
        assert not marker.exists()


def test_report_write_failure_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(path: Path, text: str) -> None:
        raise PermissionError(13, "Permission denied", str(path))

    monkeypatch.setattr("mcp_lint.commands.reports.write_text_atomic", refuse)
    code, _, err = run(["check", str(SNAPSHOT), "-o", "report.txt"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert err == "mcp-lint: error: -o report.txt: cannot write the report: Permission denied\n"


@pytest.mark.parametrize(
    ("output", "expected"),
    [
        (None, "2 servers to snapshot"),
        ("-", "-o -: stdout takes one snapshot, not 2"),
        ("all-snap.json", "-o all-snap.json: 2 servers need a folder, not a .json file"),
        ("existing", "-o existing: is a file, not a folder"),
    ],
)
def test_snapshot_of_several_servers_needs_a_folder_before_any_server_starts(
    output: str | None, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "started"
    (tmp_path / "existing").write_text("keep", encoding="utf-8")
    flags = ["-o", output] if output else []
    code, out, err = run(["snapshot", *flags, str(SNAPSHOT), *_marker_server(marker)], capsys)
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"mcp-lint: error: {expected}") and "-o FOLDER" in err
    assert not marker.exists()
    assert sorted(path.name for path in tmp_path.iterdir()) == ["existing"]
    assert (tmp_path / "existing").read_text(encoding="utf-8") == "keep"


def test_snapshot_output_problems_are_one_line_before_any_server_starts(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    marker = tmp_path / "started"
    for output, problem in _output_cases(tmp_path)[1:]:
        code, _, err = run(["snapshot", "-o", output, *_marker_server(marker)], capsys)
        assert code == 2 and err.count("\n") == 1, (output, err)
        assert err.startswith(f"mcp-lint: error: -o {output}: {problem}"), err
        assert not marker.exists()


def test_snapshot_of_several_servers_writes_one_file_each(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["snapshot", "-o", "snaps", str(SNAPSHOT), str(SNAPSHOT)], capsys)
    assert code == 0 and "5 tools" in err
    assert sorted(path.name for path in (tmp_path / "snaps").iterdir()) == ["smelly-2.json", "smelly.json"]
    (tmp_path / "one").mkdir()
    assert run(["snapshot", "-o", "one", str(SNAPSHOT)], capsys)[0] == 0
    assert [path.name for path in (tmp_path / "one").iterdir()] == ["smelly.json"]


def test_snapshot_write_failure_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    def refuse(path: Path, document: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("mcp_lint.commands.snapshot.write_json_atomic", refuse)
    code, _, err = run(["snapshot", "-o", "tools.json", str(SNAPSHOT)], capsys)
    assert code == 2
    assert err == "mcp-lint: error: -o tools.json: cannot write tools.json: No space left on device\n"


def _running(pid: int) -> bool:
    """Whether `pid` is a live process; a zombie waiting to be reaped has stopped."""
    try:
        stat_line = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: ask the kernel
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return stat_line.rsplit(")", 1)[1].split()[0] != "Z"


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
@pytest.mark.parametrize(
    ("signum", "code", "message"),
    [(signal.SIGTERM, 143, "mcp-lint: terminated"), (signal.SIGINT, 130, "mcp-lint: aborted")],
)
def test_a_signal_stops_the_spawned_server_too(signum: int, code: int, message: str, tmp_path: Path) -> None:
    # The server writes its pid to a FIFO and keeps it open: the test reads the pid as soon as the
    # server runs, and reads end of file when the server has died (nothing else holds it open). No
    # polling: if either never comes, pytest-timeout ends the test.
    pid_file = tmp_path / "server.pid"
    os.mkfifo(pid_file)
    server = (
        f"import os, time; pipe = open({str(pid_file)!r}, 'w'); pipe.write(f'{{os.getpid()}}\\n'); "
        "pipe.flush(); time.sleep(120)"
    )
    lint = subprocess.Popen(
        [sys.executable, "-m", "mcp_lint", "check", "--timeout", "60", "--", sys.executable, "-c", server],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A background job (`nohup`, `&`, some CI runners) inherits SIGINT as ignored, and Python then
        # installs no KeyboardInterrupt handler: give mcp-lint the default disposition a terminal has.
        preexec_fn=_default_sigint,
    )
    server_pid = 0
    try:
        with pid_file.open(encoding="utf-8") as pipe:
            server_pid = int(pipe.readline())
            lint.send_signal(signum)
            _, err = lint.communicate()
            assert lint.returncode == code
            assert err.strip().splitlines() == [message]
            assert pipe.read() == ""  # end of file: the server has died (else this waits)
    finally:
        if lint.poll() is None:
            lint.kill()
            lint.wait()
        if server_pid and _running(server_pid):
            os.kill(server_pid, signal.SIGKILL)


def test_main_leaves_the_callers_sigterm_handler_in_place(capsys: pytest.CaptureFixture[str]) -> None:
    before = signal.getsignal(signal.SIGTERM)
    assert run(["rules"], capsys)[0] == 0
    assert signal.getsignal(signal.SIGTERM) is before


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ["check", "--fail-on", "severe"],
            "invalid value for '--fail-on' / '--audit-level': 'severe' is not one of",
        ),
        (["check", "--timeout", "abc"], "invalid value for '--timeout': 'abc'"),
        (["check", "--bogus"], "no such option '--bogus'"),
        (["check", "--ser", "x"], "no such option '--ser'; did you mean --server"),
        (
            ["check", "--format", "xml"],
            "invalid value for '--format': 'xml' is not one of 'text', 'json', 'sarif', 'github', 'markdown'",
        ),
        (["check", "--url"], "option '--url' requires an argument"),
        (["rule"], "missing argument 'CODE-or-NAME'"),
        (["lint"], "no such command 'lint'"),
    ],
)
def test_click_usage_errors_are_one_line(
    args: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run(args, capsys)
    command = "mcp-lint" if args[0] == "lint" else f"mcp-lint {args[0]}"
    assert code == 2 and out == "" and err.count("\n") == 1
    assert err.startswith(f"mcp-lint: error: {expected}")
    assert err.endswith(f" (see '{command} --help')\n")


def test_fail_on_is_case_insensitive_like_the_config(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["check", "--show-settings", "--isolated", "--fail-on", "HIGH"], capsys)
    assert code == 0 and json.loads(out)["fail-on"] == "high"
    assert run(["check", str(SNAPSHOT), "--fail-on", "None"], capsys)[0] == 0


def test_a_bare_group_prints_its_help(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["cache"], capsys)
    assert code == 2 and "Commands:" in err and "prune" in err


def test_snapshot_help_lists_only_the_exit_codes_it_returns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(["snapshot", "--help"], capsys)
    block = out.split("Exit codes:", 1)[1].split("\n\n", 1)[0]
    assert code == 0 and [line.split()[0] for line in block.splitlines() if line.strip()] == ["0", "2", "3"]


def test_a_fractional_rubric_threshold_is_accepted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "mcp-lint.toml").write_text(
        "[rules]\nunclear-purpose = { threshold = 2.5 }\n", encoding="utf-8"
    )
    args = ["check", str(SNAPSHOT), "--select", "MCP701", "--format", "json", "--profile", "strict"]
    code, out, err = run(args, capsys)
    assert code == 1 and err == ""
    # The finding's message says it (the text report shows a tool's rubric as one line of scores).
    messages = [
        f["message"] for server in json.loads(out)["servers"] for t in server["tools"] for f in t["findings"]
    ]
    assert any("(purpose 2/5, threshold 2.5)" in message for message in messages)


def _finding_codes(report: str) -> set[str]:
    return {
        f["code"]
        for server in json.loads(report)["servers"]
        for tool in server["tools"]
        for f in tool["findings"]
    }


def test_select_and_ignore_take_categories(capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(["check", str(SNAPSHOT), "--format", "json", "--select", "security,schema"], capsys)
    found = _finding_codes(out)
    assert "MCP301" in found and found <= {"MCP301", "MCP302"} | {f"MCP20{n}" for n in range(1, 6)}
    _, out, _ = run(["check", str(SNAPSHOT), "--format", "json", "--ignore", "rubric"], capsys)
    found = _finding_codes(out)
    assert found and not any(code.startswith("MCP7") for code in found)


@pytest.mark.parametrize("option", ["--select", "--ignore"])
def test_a_selector_matching_nothing_names_the_option(
    option: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(["check", str(SNAPSHOT), option, "MCP1,securty"], capsys)
    assert code == 2 and err.count("\n") == 1
    assert err.startswith(f"mcp-lint: error: {option} 'securty' matches no rule (did you mean security?)")
    assert "categories (server, description, schema, security" in err


@pytest.mark.parametrize(
    ("args", "command"),
    [
        (["rules"], "mcp-lint rules"),
        (["rule", "MCP101"], "mcp-lint rule"),
        (["cache", "stats"], "mcp-lint cache stats"),
    ],
)
def test_commands_that_start_no_server_refuse_a_server_command(
    args: list[str], command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = run([*args, "--", "python", "server.py"], capsys)
    assert code == 2 and out == ""
    assert err.startswith(f"mcp-lint: error: unexpected `-- python server.py`: {command} starts no server")
    assert err.endswith("; drop everything from `--` on\n") and err.count("\n") == 1


def test_report_over_an_input_of_the_run_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    snapshot = tmp_path / "tools.json"
    snapshot.write_bytes(SNAPSHOT.read_bytes())
    config = tmp_path / "mcp-lint.toml"
    config.write_text('select = ["ALL"]\n', encoding="utf-8")
    for output in ("tools.json", str(snapshot), "mcp-lint.toml", ".mcp-lint/jury-cache.json"):
        code, out, err = run(["check", "tools.json", "--format", "json", "-o", output], capsys)
        assert code == 2 and out == "", output
        assert err.count("\n") == 1 and "this run reads that file" in err, err
    assert snapshot.read_bytes() == SNAPSHOT.read_bytes()
    assert config.read_text(encoding="utf-8") == 'select = ["ALL"]\n'


def test_a_folder_given_as_the_jury_cache_is_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "cache").mkdir()
    for args in (
        ["cache", "stats", "--cache-file", "cache"],
        ["check", str(SNAPSHOT), "--cache-file", "cache"],
    ):
        code, _, err = run(args, capsys)
        assert code == 2 and err.count("\n") == 1 and "is a folder" in err and "jury-cache.json" in err, err


def test_a_fragment_of_a_rule_name_is_suggested(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(["rule", "phantom"], capsys)
    assert code == 2 and "phantom-parameter" in err


def test_a_check_run_in_process_leaves_the_garbage_collector_as_it_found_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    import gc

    # check runs without the cyclic collector (a one-shot batch); whoever runs it in-process gets it back
    assert gc.isenabled()
    assert main(["check", "--isolated", "--format", "json", str(SNAPSHOT)]) in (0, 1)
    assert json.loads(capsys.readouterr().out)["servers"]
    assert gc.isenabled()
    gc.disable()
    try:
        main(["check", "--isolated", "--format", "json", str(SNAPSHOT)])
        assert not gc.isenabled()  # nor turns it on for a caller that had it off
    finally:
        gc.enable()


def test_a_check_run_in_process_ends_without_a_collection_walking_what_it_made() -> None:
    # Turned back on, the collector must not walk the run's objects in one young collection (some
    # 55,000 objects here): they go to the oldest generation unexamined. Measured in a fresh process,
    # where the run's imports are among what it makes; each collection's size is taken as it starts.
    script = (
        "import contextlib, gc, io\n"
        "from mcp_lint.cli import main\n"
        "walked = []\n"
        "def seen(phase, info):\n"
        "    if phase == 'start':\n"
        "        walked.append(sum(len(gc.get_objects(g)) for g in range(info['generation'] + 1)))\n"
        "gc.callbacks.append(seen)\n"
        "with contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['check', '--isolated', '--format', 'json', {str(SNAPSHOT)!r}])\n"
        "print(max(walked, default=0), gc.isenabled(), gc.get_freeze_count())\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    largest, enabled, frozen = result.stdout.split()
    assert int(largest) < 20_000, result.stdout
    assert enabled == "True" and frozen == "0"  # the collector is back on, nothing left frozen


def test_the_program_freezes_what_is_left_for_its_exit_and_a_caller_in_process_does_not() -> None:
    # An exit handler registered before main() runs after main's own: it sees what the interpreter's
    # last collection will see. The program (no argv) leaves every object frozen, so that collection
    # walks none; main(argv) in a process that goes on leaves nothing frozen.
    script = (
        "import atexit, gc, sys\n"
        "atexit.register(lambda: print('frozen', gc.get_freeze_count() > 0))\n"
        "from mcp_lint.cli import main\n"
        "sys.argv = ['mcp-lint', '--version']\n"
        "code = main() if sys.argv_mode == 'program' else main(['--version'])\n"
    )
    for mode, frozen in (("program", "True"), ("in-process", "False")):
        result = subprocess.run(
            [sys.executable, "-c", f"import sys; sys.argv_mode = {mode!r}\n" + script],
            capture_output=True,
            text=True,
            check=True,
            cwd=ROOT,
        )
        assert result.stdout.splitlines()[-1] == f"frozen {frozen}", (mode, result.stdout, result.stderr)
