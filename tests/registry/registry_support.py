"""Helpers for the registry tests: server.json documents, a seeded install cache, the gate's output."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.cli import main
from mcp_lint.registry.entry import LATEST_SCHEMA, validate_entry
from mcp_lint.registry.launch import cache_entry, installer_for, write_manifest

SERVERS = Path(__file__).resolve().parent.parent / "servers"


def entry_document(**fields: Any) -> dict[str, Any]:
    """A valid entry with one stdio PyPI package; `fields` replace or add top-level keys."""
    document: dict[str, Any] = {
        "$schema": LATEST_SCHEMA,
        "name": "io.github.example/weather",
        "description": "Weather forecasts and alerts",
        "version": "1.0.0",
        "packages": [package()],
    }
    document.update(fields)
    return document


def package(**fields: Any) -> dict[str, Any]:
    item: dict[str, Any] = {
        "registryType": "pypi",
        "identifier": "weather-mcp",
        "version": "1.0.0",
        "transport": {"type": "stdio"},
    }
    item.update(fields)
    return item


def write_entry(folder: Path, document: Any, name: str = "server.json") -> Path:
    path = folder / name
    path.write_text(json.dumps(document, indent=2) if not isinstance(document, str) else document, "utf-8")
    return path


def seed_install(cache_dir: Path, document: dict[str, Any], index: int, argv: list[str]) -> Path:
    """Put a finished install of `packages[index]` in the cache, started by `argv`: the gate then
    launches it as it would a real install, with no network."""
    validation = validate_entry(document)
    assert validation.entry is not None, validation.problems
    chosen = validation.entry.packages[index]
    installer = installer_for(chosen)
    assert installer is not None, chosen.registry_type
    folder = cache_entry(cache_dir, chosen, installer.name)
    folder.mkdir(parents=True)
    write_manifest(folder, chosen, installer.name, argv)
    return folder


def fixture_server(name: str, *args: str) -> list[str]:
    return [sys.executable, str(SERVERS / name), *args]


def gate(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["gate", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err
