"""`mcp-lint gate` end to end without the network: packages seeded in the install cache start the
fixture servers, and a remote is a local Streamable HTTP server the test starts."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from registry_support import SERVERS, entry_document, fixture_server, gate, package, seed_install, write_entry

from mcp_lint.registry.verdict import VERDICT_VERSION

SECRET = "s3cr3t-do-not-print"


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MCP_LINT_CACHE_DIR", raising=False)
    return tmp_path


def all_findings(report: dict[str, Any]) -> list[dict[str, Any]]:
    return [
        finding
        for server in report["servers"]
        for finding in [*server["findings"], *(f for tool in server["tools"] for f in tool["findings"])]
    ]


def _gate(here: Path, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str, dict[str, Any]]:
    code, out, err = gate(["--cache-dir", str(here / "cache"), "--verdict", "verdict.json", *args], capsys)
    verdict = json.loads((here / "verdict.json").read_text(encoding="utf-8"))
    return code, out, err, verdict


def test_a_package_from_the_cache_is_linted_and_judged(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = entry_document(packages=[package(identifier="smelly-mcp")])
    write_entry(here, document)
    seed_install(here / "cache", document, 0, fixture_server("smelly_server.py"))
    code, out, err, verdict = _gate(here, capsys, "--format", "json")
    report = json.loads(out)
    assert report["profile"] == "registry"
    findings = all_findings(report)
    failing = [finding for finding in findings if finding["fails"]]
    assert {finding["severity"] for finding in failing} <= {"high", "critical"}
    assert code == (1 if failing or report["summary"]["serversUnderMinScore"] else 0)
    assert "packages[0]: started from the install cache" in err
    assert verdict["verdictVersion"] == VERDICT_VERSION
    assert verdict["entry"] == {
        "name": "io.github.example/weather",
        "version": "1.0.0",
        "schema": document["$schema"],
        "file": "server.json",
    }
    assert verdict["status"] == ("fail" if failing else "pass") and verdict["exitCode"] == code
    assert verdict["pass"] is (code == 0)
    judged = verdict["packages"][0]
    assert (judged["registryType"], judged["identifier"], judged["version"]) == (
        "pypi",
        "smelly-mcp",
        "1.0.0",
    )
    assert judged["tools"] == len(report["servers"][0]["tools"])
    assert judged["score"] == pytest.approx(report["servers"][0]["score"]["overall"], abs=0.001)
    assert sum(verdict["counts"].values()) == len(findings)
    assert judged["failing"] == len(failing) == verdict["failing"]
    assert verdict["mcpLint"] and isinstance(verdict["rubricVersion"], int)
    assert verdict["jury"] == ["offline"]


def test_the_registry_profile_fails_on_high_findings_only(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = entry_document(packages=[package(identifier="good-mcp")])
    write_entry(here, document)
    seed_install(here / "cache", document, 0, fixture_server("good_server.py"))
    code, out, _, verdict = _gate(here, capsys, "--format", "json")
    report = json.loads(out)
    findings = all_findings(report)
    assert findings, "good_server still has smells"
    assert not any(finding["severity"] in {"high", "critical"} for finding in findings)
    assert not any(finding["fails"] for finding in findings), "moderate findings warn under registry"
    assert code == 0 and verdict["status"] == "pass"


def test_a_server_that_crashes_on_start_is_exit_3_in_one_line(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = entry_document(
        packages=[
            package(
                identifier="inventory-mcp",
                environmentVariables=[{"name": "API_TOKEN", "isRequired": True, "isSecret": True}],
                # The secret is an argument too: the crash message quotes the command line.
                packageArguments=[
                    {
                        "type": "named",
                        "name": "--token",
                        "value": "{t}",
                        "variables": {"t": {"isSecret": True, "isRequired": True}},
                    }
                ],
            )
        ]
    )
    write_entry(here, document)
    seed_install(here / "cache", document, 0, fixture_server("crash_server.py"))
    code, out, err, verdict = _gate(here, capsys, "--env", f"API_TOKEN={SECRET}", "--env", f"t={SECRET}")
    assert code == 3
    errors = [line for line in err.splitlines() if line.startswith("mcp-lint: error: ")]
    assert len(errors) == 1 and "inventory-mcp" in errors[0], err
    assert SECRET not in out + err, "a secret is never printed"
    assert SECRET not in (here / "verdict.json").read_text(encoding="utf-8")
    assert "***" in errors[0]
    assert verdict["status"] == "unreachable" and verdict["packages"][0]["error"]


def test_a_required_secret_that_is_missing_is_exit_2_naming_it(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = entry_document(
        packages=[package(environmentVariables=[{"name": "API_TOKEN", "isRequired": True, "isSecret": True}])]
    )
    write_entry(here, document)
    code, out, err, verdict = _gate(here, capsys)
    assert code == 2 and out == ""
    assert err == (
        "mcp-lint: error: server.json: packages[0].environmentVariables[0]: API_TOKEN is required and has no "
        "default; pass --env API_TOKEN=VALUE (a secret: it is never printed)\n"
    )
    assert verdict["status"] == "invalid" and "API_TOKEN is required" in verdict["error"]
    assert not (here / "cache").exists(), "nothing installed before every input has a value"


def test_nuget_is_not_supported_yet_exit_3(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_entry(here, entry_document(packages=[package(registryType="nuget", identifier="Weather.Mcp")]))
    code, _, err, verdict = _gate(here, capsys)
    assert code == 3
    assert err.strip() == (
        "mcp-lint: error: packages[0] (nuget Weather.Mcp@1.0.0): nuget packages (dnx) are not supported by "
        "the gate yet"
    )
    assert verdict["pass"] is False and verdict["status"] == "unreachable"


def test_an_invalid_entry_writes_an_invalid_verdict(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_entry(here, entry_document(version="^1.2.0"))
    code, _, _, verdict = _gate(here, capsys)
    assert code == 2
    assert verdict["status"] == "invalid" and verdict["entry"]["name"] is None
    assert verdict["problems"] == [
        'version: "^1.2.0" is a range; the registry needs one exact version, e.g. "1.2.0"'
    ]


def test_an_llm_jury_needs_frozen(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    write_entry(here, entry_document())
    code, _, err = gate(["--jury", "openai/gpt-4.1-mini"], capsys)
    assert code == 2
    assert "registry profile calls no model" in err


def test_the_default_entry_is_server_json_in_the_working_folder(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = gate([], capsys)
    assert code == 2
    assert err == "mcp-lint: error: server.json: (entry): no such file\n"


# -- a remote ----------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def http_server() -> Iterator[int]:
    process = subprocess.Popen(
        [sys.executable, str(SERVERS / "http_server.py"), "--bearer", "tok3n-value"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        lines: list[str] = []
        reader = threading.Thread(target=lambda: lines.append(process.stdout.readline()), daemon=True)  # type: ignore[union-attr]
        reader.start()
        reader.join(timeout=20)
        assert lines and lines[0].startswith("LISTENING "), lines
        port = int(lines[0].split()[1])
        with socket.create_connection(("127.0.0.1", port), timeout=5):
            pass
        yield port
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _remote_entry(port: int) -> dict[str, Any]:
    return entry_document(
        packages=[],
        remotes=[
            {
                "type": "streamable-http",
                "url": "http://127.0.0.1:{port}/mcp",
                "variables": {"port": {"default": str(port)}},
                "headers": [
                    {
                        "name": "Authorization",
                        "value": "Bearer {token}",
                        "variables": {"token": {"isRequired": True, "isSecret": True}},
                    }
                ],
            }
        ],
    )


def test_a_remote_is_linted_over_streamable_http(
    here: Path, capsys: pytest.CaptureFixture[str], http_server: int
) -> None:
    write_entry(here, _remote_entry(http_server))
    # The server listens on loopback: the gate refuses it unless the operator allows private targets.
    code, out, err, verdict = _gate(
        here, capsys, "--allow-private-network", "--env", "token=tok3n-value", "--format", "json"
    )
    report = json.loads(out)
    assert code in (0, 1), err
    assert [tool["name"] for tool in report["servers"][0]["tools"]] == [
        "convert_length",
        "add",
        "days_between",
    ]
    remote = verdict["remotes"][0]
    assert remote["type"] == "streamable-http" and remote["url"] == "http://127.0.0.1:{port}/mcp"
    assert remote["server"] == f"127.0.0.1:{http_server}" and remote["tools"] == 3
    assert "tok3n-value" not in out + err + json.dumps(verdict)


def test_a_remote_that_refuses_the_token_is_exit_3(
    here: Path, capsys: pytest.CaptureFixture[str], http_server: int
) -> None:
    write_entry(here, _remote_entry(http_server))
    code, _, err, _ = _gate(
        here, capsys, "--allow-private-network", "--env", "token=wrong-value", "--timeout", "5"
    )
    assert code == 3
    assert "wrong-value" not in err


def test_the_gates_text_report_points_at_no_config(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Issue 22: gate reads no config, yet its footer told the user to edit pyproject.toml.
    document = entry_document(packages=[package(identifier="smelly-mcp")])
    write_entry(here, document)
    seed_install(here / "cache", document, 0, fixture_server("smelly_server.py"))
    _, out, _, _ = _gate(here, capsys, "--no-color")
    assert "findings" in out and "jury: offline" in out
    assert "pyproject" not in out and "per-tool-ignores" not in out and "--update-baseline" not in out
