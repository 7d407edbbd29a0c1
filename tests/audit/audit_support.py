"""Helpers for the audit tests: a corpus of real snapshots and server.json entries that install from
a seeded cache (no network), and the store's rows without the columns that say when and how fast."""

from __future__ import annotations

import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

from mcp_lint.audit.store import TIMING_COLUMNS

TESTS = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(TESTS / "registry"))

from registry_support import entry_document, fixture_server, package, seed_install, write_entry  # noqa: E402

SNAPSHOTS = TESTS / "precision" / "snapshots"
HERE = Path(__file__).resolve().parent


def snapshots(count: int) -> list[Path]:
    return sorted(SNAPSHOTS.glob("*.json"))[:count]


def entries(folder: Path, cache: Path) -> list[Path]:
    """Four server.json files: a passing and a smelly package started from the seeded cache, an
    entry the gate cannot install (nuget: unreachable) and an invalid one (error)."""
    folder.mkdir(parents=True, exist_ok=True)
    good = entry_document(name="io.github.example/good", packages=[package(identifier="good-mcp")])
    smelly = entry_document(name="io.github.example/smelly", packages=[package(identifier="smelly-mcp")])
    seed_install(cache, good, 0, fixture_server("good_server.py"))
    seed_install(cache, smelly, 0, fixture_server("smelly_server.py"))
    nuget = entry_document(
        name="io.github.example/dotnet",
        packages=[package(registryType="nuget", identifier="Example.Mcp", runtimeHint="dnx")],
    )
    invalid = entry_document(name="no-slash", version="latest")
    paths = []
    for name, document in (("good", good), ("smelly", smelly), ("nuget", nuget), ("invalid", invalid)):
        sub = folder / name
        sub.mkdir(exist_ok=True)
        paths.append(write_entry(sub, document))
    return paths


def seeded_entry(
    folder: Path, cache: Path, name: str, argv: list[str], environment: dict[str, str] | None = None
) -> Path:
    """One server.json whose package starts `argv` (seeded in `cache`), with `environment` set."""
    variables = [{"name": key, "value": value} for key, value in (environment or {}).items()]
    chosen = package(identifier=f"{name}-mcp", **({"environmentVariables": variables} if variables else {}))
    document = entry_document(name=f"io.github.example/{name}", packages=[chosen])
    seed_install(cache, document, 0, argv)
    sub = folder / name
    sub.mkdir(parents=True, exist_ok=True)
    return write_entry(sub, document)


def stored_rows(store: Path) -> dict[str, dict[str, Any]]:
    """Every result row by target, without the timing columns (where two engines may differ)."""
    db = sqlite3.connect(store)
    db.row_factory = sqlite3.Row
    try:
        rows = db.execute("SELECT * FROM results").fetchall()
    finally:
        db.close()
    return {
        row["target"]: {key: value for key, value in dict(row).items() if key not in TIMING_COLUMNS}
        for row in rows
    }


def runs(store: Path) -> list[tuple[int, int, int]]:
    """(id, targets run, targets skipped) of every audit the store has seen."""
    db = sqlite3.connect(store)
    try:
        return [tuple(row) for row in db.execute("SELECT id, targets, skipped FROM runs ORDER BY id")]
    finally:
        db.close()


def rows_by_run(store: Path) -> dict[int, int]:
    db = sqlite3.connect(store)
    try:
        return dict(db.execute("SELECT run_id, count(*) FROM results GROUP BY run_id").fetchall())
    finally:
        db.close()


def report_of(store: Path, target: str) -> Any:
    db = sqlite3.connect(store)
    try:
        (text,) = db.execute("SELECT report FROM results WHERE target = ?", (target,)).fetchone()
    finally:
        db.close()
    return None if text is None else json.loads(text)


__all__ = ["HERE", "entries", "fixture_server", "seeded_entry", "snapshots", "stored_rows", "write_entry"]
