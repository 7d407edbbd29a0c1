"""server.json validation: every rule the gate checks before anything runs, each problem one line
naming its JSON path, exit 2.

The messages are golden (tests/fixtures/golden/registry-invalid.txt); regenerate after an intended
change with `MCP_LINT_UPDATE_GOLDEN=1 pytest tests/registry/test_entry.py`.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from registry_support import entry_document, gate, package, write_entry

from mcp_lint.registry.entry import (
    PUBLISHED_SCHEMAS,
    SCHEMA_URL,
    load_entry,
    validate_entry,
    version_problem,
)

GOLDEN = Path(__file__).resolve().parent.parent / "fixtures" / "golden" / "registry-invalid.txt"
UPDATE = os.environ.get("MCP_LINT_UPDATE_GOLDEN") == "1"
OLD_SCHEMA = SCHEMA_URL.format(date="2025-07-09")

# A 2025-07 entry as publishers wrote it before the camelCase rename: every old name is a line.
SNAKE_CASE_ENTRY: dict[str, Any] = {
    "$schema": OLD_SCHEMA,
    "name": "io.github.example/weather",
    "description": "Weather forecasts and alerts",
    "version": "1.0.0",
    "website_url": "https://example.com",
    "packages": [
        {
            "registry_type": "npm",
            "identifier": "@example/weather",
            "version": "1.0.0",
            "runtime_hint": "npx",
            "transport": {"type": "stdio"},
            "environment_variables": [{"name": "API_KEY", "is_required": True, "is_secret": True}],
        }
    ],
}

CASES: dict[str, Any] = {
    "snake-case-2025-07": SNAKE_CASE_ENTRY,
    "version-range": entry_document(version="^1.2.0"),
    "version-latest": entry_document(version="latest"),
    "version-wildcard": entry_document(version="1.x"),
    "version-too-long": entry_document(version="1." * 130),
    "version-missing": {k: v for k, v in entry_document().items() if k != "version"},
    "name-no-slash": entry_document(name="weather"),
    "name-two-slashes": entry_document(name="io.github.example/weather/v2"),
    "name-too-long": entry_document(name="io.github.example/" + "w" * 190),
    "name-not-a-string": entry_document(name=42),
    "description-empty": entry_document(description=""),
    "description-too-long": entry_document(description="Forecasts " * 11),
    "schema-unknown": entry_document(**{"$schema": "https://example.com/server.schema.json"}),
    "schema-missing": {k: v for k, v in entry_document().items() if k != "$schema"},
    "registry-type-unknown": entry_document(packages=[package(registryType="cargo")]),
    "identifier-missing": entry_document(
        packages=[{k: v for k, v in package().items() if k != "identifier"}]
    ),
    "package-version-range": entry_document(packages=[package(version=">=1.0")]),
    "package-version-missing": entry_document(
        packages=[{k: v for k, v in package().items() if k != "version"}]
    ),
    "transport-missing": entry_document(packages=[{k: v for k, v in package().items() if k != "transport"}]),
    "transport-unknown": entry_document(packages=[package(transport={"type": "http"})]),
    "transport-url-missing": entry_document(packages=[package(transport={"type": "streamable-http"})]),
    "transport-url-invalid": entry_document(
        packages=[package(transport={"type": "sse", "url": "localhost:8080"})]
    ),
    "transport-url-undefined-variable": entry_document(
        packages=[package(transport={"type": "streamable-http", "url": "http://localhost:{port}/mcp"})]
    ),
    "argument-positional-without-value": entry_document(
        packages=[package(packageArguments=[{"type": "positional", "description": "a folder"}])]
    ),
    "argument-named-without-name": entry_document(
        packages=[package(runtimeHint="uvx", runtimeArguments=[{"type": "named", "value": "x"}])]
    ),
    "argument-type-unknown": entry_document(
        packages=[package(packageArguments=[{"type": "flag", "name": "-v"}])]
    ),
    "env-missing-name": entry_document(packages=[package(environmentVariables=[{"isRequired": True}])]),
    "env-wrong-types": entry_document(
        packages=[
            package(
                environmentVariables=[
                    {
                        "name": "MODE",
                        "isRequired": "yes",
                        "format": "enum",
                        "choices": ["a", "b"],
                        "default": "c",
                    }
                ]
            )
        ]
    ),
    "mcpb-without-sha": entry_document(
        packages=[
            package(
                registryType="mcpb",
                identifier="https://github.com/example/weather/releases/download/v1.0.0/weather.mcpb",
            )
        ]
    ),
    "mcpb-bad-sha": entry_document(
        packages=[
            package(
                registryType="mcpb",
                identifier="https://github.com/example/weather/releases/download/v1.0.0/weather.mcpb",
                fileSha256="ABC",
            )
        ]
    ),
    "remote-type-stdio": entry_document(
        packages=[], remotes=[{"type": "stdio", "url": "https://example.com/mcp"}]
    ),
    "remote-url-missing": entry_document(packages=[], remotes=[{"type": "streamable-http"}]),
    "remote-url-undefined-variable": entry_document(
        packages=[], remotes=[{"type": "streamable-http", "url": "https://{tenant}.example.com/mcp"}]
    ),
    "remote-header-without-name": entry_document(
        packages=[],
        remotes=[{"type": "sse", "url": "https://example.com/sse", "headers": [{"value": "Bearer x"}]}],
    ),
    "nothing-to-start": entry_document(packages=[]),
    "packages-not-an-array": entry_document(packages={"registryType": "pypi"}),
    "meta-too-large": entry_document(
        _meta={"io.modelcontextprotocol.registry/publisher-provided": {"blob": "x" * 5000}}
    ),
    "not-json": '{"name": "io.github.example/weather",',
    "not-an-object": "[]",
}


def _run_all(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.chdir(tmp_path)
    sections: list[str] = []
    for name, document in CASES.items():
        write_entry(tmp_path, document)
        code, out, err = gate(["--cache-dir", str(tmp_path / "cache"), "--no-color"], capsys)
        assert out == "", f"{name}: an invalid entry prints no report"
        sections.append(f"## {name}\nexit {code}\n{err}")
    return "\n".join(sections)


def test_every_validation_error_is_one_line_per_problem_with_exit_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    actual = _run_all(tmp_path, capsys, monkeypatch)
    if UPDATE:
        GOLDEN.write_text(actual, encoding="utf-8")
    assert actual == GOLDEN.read_text(encoding="utf-8")
    for section in actual.split("## ")[1:]:
        name, code, *lines = section.strip().splitlines()
        assert code == "exit 2", name
        errors = [line for line in lines if line.startswith("mcp-lint: error: ")]
        assert errors, f"{name}: at least one error line"
        assert all(line.startswith("mcp-lint: error: server.json: ") for line in errors), name
    assert not (tmp_path / "cache").exists(), "nothing is installed for an invalid entry"


def test_snake_case_names_each_get_a_line_and_no_duplicate_missing_line() -> None:
    problems = [str(problem) for problem in validate_entry(SNAKE_CASE_ENTRY).problems]
    paths = [line.split(":", 1)[0] for line in problems]
    assert paths == [
        "website_url",
        "packages[0].registry_type",
        "packages[0].runtime_hint",
        "packages[0].environment_variables",
        "packages[0].environment_variables[0].is_required",
        "packages[0].environment_variables[0].is_secret",
    ]
    assert all("silently ignores" in line for line in problems)


def test_a_valid_entry_becomes_a_frozen_record() -> None:
    document = entry_document(
        packages=[
            package(
                runtimeHint="uvx",
                packageArguments=[
                    {"type": "named", "name": "--local-timezone", "value": "UTC"},
                    {"type": "positional", "valueHint": "folder", "isRequired": True},
                ],
                environmentVariables=[{"name": "TOKEN", "isRequired": True, "isSecret": True}],
            )
        ],
        remotes=[
            {
                "type": "streamable-http",
                "url": "https://{tenant}.example.com/mcp",
                "variables": {"tenant": {"isRequired": True}},
                "headers": [{"name": "Authorization", "value": "Bearer {token}", "variables": {"token": {}}}],
            }
        ],
    )
    validation = validate_entry(document)
    assert validation.problems == ()
    entry = validation.entry
    assert entry is not None
    first = entry.packages[0]
    assert (first.registry_type, first.identifier, first.version, first.runtime_hint) == (
        "pypi",
        "weather-mcp",
        "1.0.0",
        "uvx",
    )
    assert [argument.label for argument in first.package_arguments] == ["--local-timezone", "folder"]
    assert first.environment_variables[0].input.is_secret
    remote = entry.remotes[0].transport
    assert remote.type == "streamable-http" and set(remote.variables) == {"tenant"}
    assert remote.headers[0].input.variables["token"].is_required is False
    with pytest.raises(AttributeError):
        entry.name = "other"  # type: ignore[misc]


@pytest.mark.parametrize("url", sorted(PUBLISHED_SCHEMAS))
def test_every_published_schema_is_accepted(url: str) -> None:
    assert validate_entry(entry_document(**{"$schema": url})).problems == ()


@pytest.mark.parametrize(
    ("version", "exact"),
    [
        ("1.2.0", True),
        ("2026.10.19", True),
        ("1.0.0-beta.1", True),
        ("v2.0.0", True),
        ("~1.2", False),
        ("1.2.*", False),
        ("<2", False),
        ("1.0.0 - 2.0.0", False),
        ("1 || 2", False),
        ("*", False),
        ("LATEST", False),
    ],
)
def test_exact_versions_and_ranges(version: str, exact: bool) -> None:
    assert (version_problem(version) is None) is exact


def test_ownership_markers_are_warned_about_not_enforced(tmp_path: Path) -> None:
    document = entry_document(
        packages=[
            package(),
            package(registryType="npm", identifier="@example/weather"),
            package(
                registryType="mcpb",
                identifier="https://github.com/example/weather/releases/download/v1/weather.bundle",
                fileSha256="a" * 64,
            ),
        ]
    )
    (tmp_path / "package.json").write_text(json.dumps({"name": "@example/weather"}), encoding="utf-8")
    (tmp_path / "README.md").write_text("# Weather\n", encoding="utf-8")
    validation = load_entry(write_entry(tmp_path, document))
    assert validation.entry is not None and validation.problems == ()
    warnings = [str(warning) for warning in validation.warnings]
    assert warnings == [
        "packages[0]: README.md does not say `mcp-name: io.github.example/weather`; the registry refuses a "
        "pypi package whose README lacks it (an HTML comment will do)",
        'packages[1]: package.json has no "mcpName": "io.github.example/weather"; the registry refuses an '
        "npm package without it",
        'packages[2].identifier: the registry needs "mcp" in an mcpb file\'s URL',
    ]
    (tmp_path / "package.json").write_text(
        json.dumps({"name": "@example/weather", "mcpName": "io.github.example/weather"}), encoding="utf-8"
    )
    (tmp_path / "README.md").write_text("<!-- mcp-name: io.github.example/weather -->\n", encoding="utf-8")
    assert len(load_entry(tmp_path / "server.json").warnings) == 1, "only the mcpb URL is left"


def test_a_missing_file_is_one_problem(tmp_path: Path) -> None:
    validation = load_entry(tmp_path / "server.json")
    assert validation.entry is None
    assert [str(problem) for problem in validation.problems] == ["(entry): no such file"]
