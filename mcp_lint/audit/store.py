"""The audit's SQLite store: one row per target and rule set, written in its own transaction the
moment its job ends, so an audit that is killed keeps every record it made.

`results` is keyed by (target, rule_set_hash): an audit under changed rules adds rows beside the old
ones, and re-running a target under the same rules replaces its row. `runs` says which audit wrote
each row (engine, workers, how many targets it ran and skipped).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import mcp_lint
from mcp_lint.audit.job import SEVERITIES, JobResult
from mcp_lint.errors import McpLintError, UsageError

SCHEMA_VERSION = 1
DEFAULT_STORE = Path(".mcp-lint") / "audit.sqlite"

_SCHEMA = f"""
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    started TEXT NOT NULL,
    engine TEXT NOT NULL,
    workers INTEGER,
    rule_set_hash TEXT NOT NULL,
    mcp_lint_version TEXT NOT NULL,
    targets INTEGER NOT NULL,
    skipped INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS results (
    target TEXT NOT NULL,
    rule_set_hash TEXT NOT NULL,
    kind TEXT NOT NULL,
    package TEXT,
    version TEXT,
    status TEXT NOT NULL,
    exit_code INTEGER,
    score REAL,
    {", ".join(f"{label} INTEGER NOT NULL DEFAULT 0" for label in SEVERITIES)},
    failing_codes TEXT NOT NULL,
    report TEXT,
    error TEXT,
    mcp_lint_version TEXT NOT NULL,
    duration REAL NOT NULL,
    install_seconds REAL NOT NULL,
    start_seconds REAL NOT NULL,
    lint_seconds REAL NOT NULL,
    run_id INTEGER NOT NULL REFERENCES runs(id),
    recorded TEXT NOT NULL,
    PRIMARY KEY (target, rule_set_hash)
);
"""

# The columns that say when and how fast a row was made, not what it says: two engines differ here only.
TIMING_COLUMNS = frozenset(
    {"duration", "install_seconds", "start_seconds", "lint_seconds", "run_id", "recorded"}
)


@dataclass(frozen=True)
class Row:
    """A stored record, as the report reads it."""

    target: str
    kind: str
    package: str | None
    version: str | None
    status: str
    exit_code: int | None
    score: float | None
    counts: dict[str, int]
    failing_codes: tuple[str, ...]
    error: str | None
    duration: float


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class Store:
    """An open store. Every write commits at once; nothing is held in memory between jobs."""

    def __init__(self, path: Path) -> None:
        self.path = path
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # isolation_level None: no implicit transaction; each write below is its own BEGIN...COMMIT.
            self._db = sqlite3.connect(path, isolation_level=None, timeout=30.0)
            # WAL with synchronous NORMAL: a committed row survives the audit being killed (not a power
            # cut before the next checkpoint) at a fraction of a millisecond per row instead of an fsync
            # each (about 20 ms here), which would cap one driver near 3,000 rows a minute.
            self._db.execute("PRAGMA journal_mode = WAL")
            self._db.execute("PRAGMA synchronous = NORMAL")
            self._db.executescript(_SCHEMA)
            found = self._db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
            if found is None:
                self._db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA_VERSION),))
            elif found[0] != str(SCHEMA_VERSION):
                raise UsageError(
                    f"--store {path}: written by another mcp-lint (store schema {found[0]}, this one "
                    f"reads {SCHEMA_VERSION}); give a new --store file"
                )
        except (sqlite3.Error, OSError) as error:
            raise UsageError(
                f"--store {path}: cannot use it as the audit store ({_reason(error)}); "
                "give a writable path for a new or existing mcp-lint audit store"
            ) from None

    def close(self) -> None:
        self._db.close()

    def start_run(self, engine: str, workers: int | None, rule_set: str, targets: int, skipped: int) -> int:
        cursor = self._db.execute(
            "INSERT INTO runs (started, engine, workers, rule_set_hash, mcp_lint_version, targets, skipped)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (_now(), engine, workers, rule_set, mcp_lint.__version__, targets, skipped),
        )
        return int(cursor.lastrowid or 0)

    def recorded(self, rule_set: str) -> set[str]:
        """The targets that already have a row under this rule set."""
        rows = self._db.execute("SELECT target FROM results WHERE rule_set_hash = ?", (rule_set,))
        return {str(row[0]) for row in rows}

    def record(self, result: JobResult, rule_set: str, run_id: int) -> None:
        """Write one job's row, replacing an older one for the same target and rule set."""
        values: dict[str, Any] = {
            "target": result.target,
            "rule_set_hash": rule_set,
            "kind": result.kind,
            "package": result.package,
            "version": result.version,
            "status": result.status,
            "exit_code": result.exit_code,
            "score": result.score,
            **{label: int(result.counts.get(label, 0)) for label in SEVERITIES},
            "failing_codes": json.dumps(list(result.failing_codes)),
            "report": result.report,
            "error": result.error,
            "mcp_lint_version": mcp_lint.__version__,
            "duration": round(result.duration, 6),
            "install_seconds": round(result.timings.install, 6),
            "start_seconds": round(result.timings.start, 6),
            "lint_seconds": round(result.timings.lint, 6),
            "run_id": run_id,
            "recorded": _now(),
        }
        columns = ", ".join(values)
        marks = ", ".join("?" for _ in values)
        try:
            with self._db:  # one transaction: the row is in the file, whole, when this returns
                self._db.execute("BEGIN IMMEDIATE")
                self._db.execute(
                    f"INSERT OR REPLACE INTO results ({columns}) VALUES ({marks})", list(values.values())
                )
        except sqlite3.Error as error:
            raise McpLintError(
                f"--store {self.path}: cannot record {result.target} ({_reason(error)}); the rows recorded "
                "so far are kept: free the disk or fix the file, then run again with --resume"
            ) from None

    def rows(self, rule_set: str, targets: Iterable[str]) -> list[Row]:
        """The rows of these targets under this rule set, in the order the targets are given."""
        wanted = list(targets)
        found: dict[str, Row] = {}
        query = (
            "SELECT target, kind, package, version, status, exit_code, score, "
            f"{', '.join(SEVERITIES)}, failing_codes, error, duration FROM results WHERE rule_set_hash = ?"
        )
        for record in self._db.execute(query, (rule_set,)):
            target, kind, package, version, status, code, score, *rest = record
            counts = dict(zip(SEVERITIES, rest[: len(SEVERITIES)], strict=True))
            failing, error, duration = rest[len(SEVERITIES) :]
            found[target] = Row(
                target,
                kind,
                package,
                version,
                status,
                code,
                score,
                counts,
                tuple(json.loads(failing)),
                error,
                duration,
            )
        return [found[target] for target in wanted if target in found]


def _reason(error: BaseException) -> str:
    if isinstance(error, OSError):
        return error.strerror or str(error)
    return str(error)
