"""The calibration corpus: 408 real MCP tool descriptions with a three-model LLM jury's rubric scores
(see `data/NOTICE.md` for its sources and licence)."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

CORPUS = Path(__file__).resolve().parent / "data" / "jury-calibration.jsonl"


def load_rows(path: Path | None = None) -> list[dict[str, Any]]:
    """One dict per tool: `source`, `server`, `tool`, `description`, `input_schema`, `judges`,
    `jury_median`."""
    with (path or CORPUS).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def sibling_names(rows: Sequence[Mapping[str, Any]]) -> list[list[str]]:
    """For each row, the other tools of its server, as the runtime passes them to the jury."""
    servers: dict[str, list[str]] = {}
    for row in rows:
        servers.setdefault(str(row["server"]), []).append(str(row["tool"]))
    return [[name for name in servers[str(row["server"])] if name != row["tool"]] for row in rows]
