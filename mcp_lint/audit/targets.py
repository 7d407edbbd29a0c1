"""What an audit runs: one job per target, read once on this machine and carried whole by the job.

A target is a server.json (a job gates it: install, start, lint), a snapshot (a job lints it), a
registry export (a JSON list of server.json entries, or the registry's list answer `{"servers":
[...]}` whose items may wrap the entry as `{"server": {...}}`: one job per entry), or a folder, walked
for the `.json` files among these. A job holds the file's text, so a worker on another machine needs
no access to the operator's files, and the same job gives the same report on every engine.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp_lint.errors import UsageError
from mcp_lint.files import InputFileError, decode_input, read_input_bytes
from mcp_lint.reach.client_config import parse_json_document
from mcp_lint.reach.targets import snapshot_listing

SNAPSHOT = "snapshot"
ENTRY = "server.json"

# Keys only a server.json (or a registry's list item around one) has at its top level.
_ENTRY_KEYS = frozenset({"packages", "remotes", "$schema", "server"})


@dataclass(frozen=True)
class Job:
    """One target of the audit. `target` keys it in the store; `label` is where reports say it came
    from (the file's path, or `export.json#name@version` for an entry of an export)."""

    target: str
    kind: str  # SNAPSHOT or ENTRY
    label: str
    text: str


@dataclass(frozen=True)
class Discovery:
    jobs: tuple[Job, ...]
    skipped: tuple[str, ...] = ()  # files of a folder that are none of the targets, with why


def _is_entry(data: Any) -> bool:
    return isinstance(data, Mapping) and bool(_ENTRY_KEYS & set(data)) and "tools" not in data


def _export_items(data: Any) -> list[Any] | None:
    """The entries of a registry export, or None when `data` is not one."""
    if isinstance(data, Mapping) and isinstance(data.get("servers"), list) and "tools" not in data:
        items: list[Any] = data["servers"]
    elif isinstance(data, list) and data and all(_is_entry(item) for item in data):
        items = data
    else:
        return None
    return [item["server"] if isinstance(item, Mapping) and "server" in item else item for item in items]


def _entry_key(item: Any, index: int) -> str:
    if isinstance(item, Mapping):
        name, version = item.get("name"), item.get("version")
        if isinstance(name, str) and isinstance(version, str):
            return f"{name}@{version}"
        if isinstance(name, str):
            return name
    return f"[{index}]"


def _from_export(path: Path, items: Sequence[Any]) -> list[Job]:
    jobs: list[Job] = []
    seen: set[str] = set()
    for index, item in enumerate(items):
        key = _entry_key(item, index)
        if key in seen:  # the same name and version listed twice: told apart by position
            key = f"{key}[{index}]"
        seen.add(key)
        label = f"{path}#{key}"
        jobs.append(Job(target=label, kind=ENTRY, label=label, text=json.dumps(item, ensure_ascii=False)))
    return jobs


def _classify(path: Path) -> tuple[list[Job], str | None]:
    """The jobs of one file, or why it is none of the targets."""
    try:
        text = decode_input(read_input_bytes(path, "an audit target"), str(path))
    except InputFileError as error:
        return [], str(error)
    try:
        data = parse_json_document(text, str(path))
    except UsageError as error:
        return [], str(error)
    items = _export_items(data)
    if items is not None:
        return _from_export(path, items), None
    if _is_entry(data):
        return [Job(target=str(path), kind=ENTRY, label=str(path), text=text)], None
    if snapshot_listing(data) is not None:
        return [Job(target=str(path), kind=SNAPSHOT, label=str(path), text=text)], None
    return [], (
        f"{path}: neither a server.json, a snapshot (a `tools` list) nor a registry export "
        "(a list of server.json entries)"
    )


def _walk(folder: Path) -> Iterable[Path]:
    # Sorted, so the jobs (and the store's order of recording under one worker) are the same each run.
    return sorted(
        path
        for path in folder.rglob("*.json")
        if path.is_file() and not any(part.startswith(".") for part in path.relative_to(folder).parts)
    )


def discover(paths: Sequence[str]) -> Discovery:
    """The jobs of the given paths. A path that is missing, or a file given by name that is no
    target, is a UsageError: an audit never silently leaves out what it was asked for. A file of a
    folder that is no target is skipped and listed."""
    if not paths:
        raise UsageError("no target: name server.json files, snapshots, registry exports or folders of them")
    jobs: list[Job] = []
    skipped: list[str] = []
    for text in paths:
        path = Path(text)
        if path.is_dir():
            found = list(_walk(path))
            if not found:
                raise UsageError(
                    f"{path}: a folder with no .json file; name a folder of server.json files or snapshots"
                )
            for item in found:
                more, why = _classify(item)
                jobs.extend(more)
                if why is not None:
                    skipped.append(why)
            continue
        if not path.exists() and not path.is_symlink():
            raise UsageError(
                f"{path}: no such file or folder; name a server.json, a snapshot, an export or a folder"
            )
        more, why = _classify(path)
        if why is not None:
            raise UsageError(why)
        jobs.extend(more)
    unique: dict[str, Job] = {}
    for job in jobs:
        unique.setdefault(job.target, job)  # a file named twice (or inside a named folder) runs once
    if not unique:
        raise UsageError(f"nothing to audit in {', '.join(paths)}: no server.json, snapshot or export found")
    return Discovery(tuple(unique.values()), tuple(skipped))
