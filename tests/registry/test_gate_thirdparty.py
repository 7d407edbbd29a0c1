"""The gate installs real servers itself from a server.json: mcp-server-time from PyPI and
server-memory from npm, at the versions `.ci/run` pins, plus packages that do not exist.

These need the network to PyPI and npm, so they run where MCP_LINT_THIRDPARTY=1 (`bash .ci/run` sets
it) and skip elsewhere. Installs are cached in .ci/work/gate-cache: only the first run installs.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from registry_support import entry_document, gate, package, write_entry

from mcp_lint.registry.entry import validate_entry
from mcp_lint.registry.launch import cache_entry

pytestmark = [
    pytest.mark.thirdparty,
    pytest.mark.skipif(
        os.environ.get("MCP_LINT_THIRDPARTY") != "1",
        reason="the gate's install tests need PyPI and npm: run `bash .ci/run` (MCP_LINT_THIRDPARTY=1)",
    ),
]

CACHE = Path(__file__).resolve().parents[2] / ".ci" / "work" / "gate-cache"
TIME_VERSION = "2026.10.19"  # as pinned in .ci/run
NPM_VERSION = "2026.8.31"


def _run(
    folder: Path, document: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, dict[str, Any]]:
    write_entry(folder, document)
    code, _, err = gate(
        ["server.json", "--cache-dir", str(CACHE), "--verdict", "verdict.json", "-o", "report.txt"], capsys
    )
    verdict = json.loads((folder / "verdict.json").read_text(encoding="utf-8"))
    return code, err, verdict


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_pypi_server_installed_by_the_gate_passes_and_the_second_run_is_cached(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = entry_document(
        name="io.github.modelcontextprotocol/time",
        version=TIME_VERSION,
        packages=[
            package(
                identifier="mcp-server-time",
                version=TIME_VERSION,
                runtimeHint="uvx",
                packageArguments=[{"type": "named", "name": "--local-timezone", "value": "UTC"}],
            )
        ],
    )
    code, err, verdict = _run(here, document, capsys)
    assert code == 0, err
    assert verdict["packages"][0]["tools"] == 2 and verdict["pass"] is True
    code, err, verdict = _run(here, document, capsys)
    assert code == 0, err
    assert "packages[0]: started from the install cache" in err


def test_an_npm_server_installed_by_the_gate_passes(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    document = entry_document(
        name="io.github.modelcontextprotocol/memory",
        version=NPM_VERSION,
        packages=[
            package(
                registryType="npm",
                identifier="@modelcontextprotocol/server-memory",
                version=NPM_VERSION,
                runtimeHint="npx",
                environmentVariables=[{"name": "MEMORY_FILE_PATH", "default": str(here / "memory.jsonl")}],
            )
        ],
    )
    code, err, verdict = _run(here, document, capsys)
    assert code == 0, err
    assert verdict["packages"][0]["server"] == "server-memory" and verdict["packages"][0]["tools"] == 9


@pytest.mark.parametrize(
    ("kind", "identifier", "installer_says"),
    [
        ("pypi", "mcp-lint-test-no-such-package", "pip failed: ERROR: Could not find a version"),
        ("npm", "@mcp-lint-test/no-such-package", "npm failed: npm error 404"),
    ],
)
def test_a_package_that_does_not_exist_is_exit_3_in_one_line(
    here: Path, capsys: pytest.CaptureFixture[str], kind: str, identifier: str, installer_says: str
) -> None:
    document = entry_document(packages=[package(registryType=kind, identifier=identifier, version="1.0.0")])
    code, err, verdict = _run(here, document, capsys)
    assert code == 3
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"mcp-lint: error: packages[0]: cannot install {kind} {identifier}")
    assert installer_says in lines[0]
    assert verdict["status"] == "unreachable"
    assert not list(CACHE.glob(f"registry/{kind}/*no-such-package*")), "a failed install is not cached"


def test_install_scripts_run_only_when_allowed_and_the_gate_says_so(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = entry_document(
        name="io.github.modelcontextprotocol/memory",
        version=NPM_VERSION,
        packages=[
            package(
                registryType="npm",
                identifier="@modelcontextprotocol/server-memory",
                version=NPM_VERSION,
                environmentVariables=[{"name": "MEMORY_FILE_PATH", "default": str(here / "memory.jsonl")}],
            )
        ],
    )
    write_entry(here, document)
    args = ["server.json", "--cache-dir", str(CACHE), "-o", "report.txt", "--allow-install-scripts"]
    code, _, err = gate(args, capsys)
    assert code == 0, err
    ran = [line for line in err.splitlines() if "install-time code ran" in line]
    assert (
        ran
        == [
            "mcp-lint: warning: packages[0]: install-time code ran (--allow-install-scripts): npm ran the "
            "install scripts of the package and its dependencies"
        ]
        or "started from the install cache" in err
    ), err
    chosen = validate_entry(document).entry
    assert chosen is not None
    with_scripts = cache_entry(CACHE, chosen.packages[0], "npm+scripts")
    assert with_scripts.is_dir(), "installed under the key of an install with scripts"
    assert with_scripts != cache_entry(CACHE, chosen.packages[0], "npm"), "kept apart from one without"
    code, _, err = gate(args, capsys)
    assert code == 0 and "install-time code ran" not in err and "started from the install cache" in err
