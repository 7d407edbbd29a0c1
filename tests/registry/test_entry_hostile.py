"""server.json values the gate must refuse before it installs anything: names an installer would take
as options, URLs or paths, versions that are no folder name, and documents too deep or with numbers
too long to parse. Each is one line naming the JSON path, exit 2."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from registry_support import entry_document, gate, package, write_entry

from mcp_lint.registry.entry import validate_entry


def problems_of(document: dict[str, Any]) -> list[str]:
    return [str(problem) for problem in validate_entry(document).problems]


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MCP_LINT_CACHE_DIR", raising=False)
    return tmp_path


@pytest.mark.parametrize("version", ["..", ".", "../../x", "1.0/../..", " 1.0", "1.0\n"])
def test_a_version_that_is_no_folder_name_is_invalid(version: str) -> None:
    for kind in ("pypi", "npm"):
        found = problems_of(entry_document(packages=[package(registryType=kind, version=version)]))
        assert any(line.startswith("packages[0].version: ") for line in found), (kind, found)


# -- names an installer would take as options or URLs ------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "identifier"),
    [
        ("npm", "--registry=http://127.0.0.1:4873"),
        ("npm", "-g"),
        ("npm", "https://evil.example.com/pkg.tgz"),
        ("npm", "git+https://github.com/evil/pkg.git"),
        ("npm", "github:evil/pkg"),
        ("npm", "../local-folder"),
        ("npm", "file:/etc"),
        ("pypi", "--index-url=http://127.0.0.1/simple"),
        ("pypi", "-e"),
        ("pypi", "https://evil.example.com/pkg.whl"),
        ("pypi", "pkg @ https://evil.example.com/pkg.whl"),
        ("pypi", "./local"),
        ("nuget", "-Source"),
    ],
)
def test_an_identifier_that_is_no_package_name_is_invalid(kind: str, identifier: str) -> None:
    found = problems_of(entry_document(packages=[package(registryType=kind, identifier=identifier)]))
    assert any(line.startswith("packages[0].identifier: ") for line in found), found


@pytest.mark.parametrize(
    ("kind", "identifier"),
    [("npm", "@modelcontextprotocol/server-memory"), ("npm", "weather_mcp.js"), ("pypi", "mcp-server-time")],
)
def test_real_package_names_stay_valid(kind: str, identifier: str) -> None:
    assert problems_of(entry_document(packages=[package(registryType=kind, identifier=identifier)])) == []


def test_an_option_like_identifier_is_exit_2_in_one_line(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    write_entry(here, entry_document(packages=[package(registryType="npm", identifier="--global")]))
    code, out, err = gate(["--cache-dir", str(here / "cache")], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mcp-lint: error: server.json: packages[0].identifier: ")
    assert not (here / "cache").exists()


# -- documents too deep or too large -----------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("[" * 100_000 + "]" * 100_000, "nested more than"),
        ('{"a": ' * 300 + "1" + "}" * 300, "nested more than"),
        ('{"version": ' + "9" * 5000 + "}", "digits"),
    ],
)
def test_a_deep_or_huge_document_is_one_line_exit_2(
    here: Path, capsys: pytest.CaptureFixture[str], text: str, says: str
) -> None:
    write_entry(here, text)
    code, out, err = gate(["--cache-dir", str(here / "cache")], capsys)
    assert code == 2 and out == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mcp-lint: error: server.json: (entry): "), err
    assert says in lines[0] and "internal error" not in err


def test_a_server_json_that_is_no_utf8_is_one_line_and_an_invalid_verdict(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (here / "server.json").write_bytes(b'{"name": "\xff"}')
    code, out, err = gate(["--cache-dir", str(here / "cache"), "--verdict", "verdict.json"], capsys)
    assert code == 2 and out == ""
    assert err == "mcp-lint: error: server.json: (entry): not UTF-8 text (byte 10); save it as UTF-8\n"
    verdict = json.loads((here / "verdict.json").read_text(encoding="utf-8"))
    assert verdict["status"] == "invalid" and verdict["problems"] == [
        "(entry): not UTF-8 text (byte 10); save it as UTF-8"
    ]


def test_a_lone_surrogate_in_an_entry_reaches_the_verdict_escaped(
    here: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # json.dumps escapes the surrogate: the file is ASCII, the parsed value holds a lone \ud800.
    write_entry(here, json.dumps(entry_document(packages=[], remotes=[{"type": "sse", "url": "\ud800"}])))
    code, out, err = gate(["--cache-dir", str(here / "cache"), "--verdict", "verdict.json"], capsys)
    assert code == 2 and out == "" and "internal error" not in err
    assert err.startswith("mcp-lint: error: server.json: remotes[0].url: ")
    verdict = json.loads((here / "verdict.json").read_text(encoding="utf-8"))
    assert verdict["status"] == "invalid" and verdict["problems"][0].startswith('remotes[0].url: "\ud800"')


@pytest.mark.parametrize("kind", ["pypi", "npm"])
def test_a_dot_dot_version_is_exit_2_and_the_install_cache_is_kept(
    here: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """For real, through the gate: nothing under the cache folder is touched."""
    cache = here / "cache"
    kept = cache / "registry" / kind / "someone-else" / "1.0.0" / "launch.json"
    kept.parent.mkdir(parents=True)
    kept.write_text("{}", encoding="utf-8")
    write_entry(here, entry_document(packages=[package(registryType=kind, version="..")]))
    code, out, err = gate(["--cache-dir", str(cache)], capsys)
    assert code == 2 and out == "", err
    assert err.startswith("mcp-lint: error: server.json: packages[0].version: "), err
    assert kept.read_text(encoding="utf-8") == "{}"
    assert sorted(path.relative_to(cache).as_posix() for path in cache.rglob("*")) == [
        "registry",
        f"registry/{kind}",
        f"registry/{kind}/someone-else",
        f"registry/{kind}/someone-else/1.0.0",
        f"registry/{kind}/someone-else/1.0.0/launch.json",
    ]
