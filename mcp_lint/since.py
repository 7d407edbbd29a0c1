"""`--since REF`: lint only the tools whose definition changed since a git ref (pull request mode).

The base is a snapshot as it was committed at REF: the snapshot target's own file, or for a live
server the committed snapshot named by `--since-snapshot`. A tool is kept when its name, title,
description, input schema or annotations differ from every tool of the base, so a renamed, edited or
new tool is linted and an untouched one is not. Server-wide rules (the context budget, naming
consistency) then see only the changed tools: lint everything on the main branch as well.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from mcp_lint.errors import UsageError
from mcp_lint.model import ServerSnapshot, Tool
from mcp_lint.reach.client_config import UnreachableTarget
from mcp_lint.reach.targets import SnapshotTarget

# What an agent sees of a tool; outputSchema, icons and _meta do not change how it is chosen or called.
DEFINITION_FIELDS = ("name", "title", "description", "inputSchema", "annotations")


def definition(raw: Any) -> str:
    """A tool's definition as one comparable string (key order and whitespace do not count)."""
    if not isinstance(raw, dict):
        return json.dumps(raw, sort_keys=True)
    return json.dumps({key: raw.get(key) for key in DEFINITION_FIELDS}, sort_keys=True, ensure_ascii=False)


def read_at(path: Path, ref: str, option: str = "--since") -> str | None:
    """The text of `path` as committed at `ref`, or None when the file did not exist there."""
    import git

    try:
        repo = git.Repo(path.resolve().parent, search_parent_directories=True)
    except (git.InvalidGitRepositoryError, git.NoSuchPathError):
        raise UsageError(f"{option} {ref}: {path} is not in a git repository") from None
    root = Path(repo.working_tree_dir or ".").resolve()
    try:
        relative = path.resolve().relative_to(root).as_posix()
    except ValueError:
        raise UsageError(f"{option} {ref}: {path} is outside the repository at {root}") from None
    try:
        repo.git.rev_parse("--verify", "--quiet", f"{ref}^{{commit}}")
    except git.GitCommandError:
        raise UsageError(
            f"{option} {ref}: no such commit in {root}; fetch it first "
            "(actions/checkout needs fetch-depth: 0)"
        ) from None
    try:
        text: str = repo.git.show(f"{ref}:{relative}")
    except git.GitCommandError:
        return None  # the file is new since REF: every tool in it is new
    return text


def base_definitions(path: Path, ref: str, option: str = "--since") -> Counter[str]:
    """The definitions of the tools in the snapshot `path` as committed at `ref` (empty when new)."""
    from mcp_lint.reach.targets import snapshot_listing

    text = read_at(path, ref, option)
    if text is None:
        return Counter()
    try:
        listing = snapshot_listing(json.loads(text))
    except json.JSONDecodeError:
        listing = None
    if listing is None:
        raise UsageError(f"{option} {ref}: {path} at {ref} is not a snapshot")
    tools = listing if isinstance(listing, list) else listing["tools"]
    return Counter(definition(tool) for tool in tools)


def changed_tools(snapshot: ServerSnapshot, base: Counter[str]) -> ServerSnapshot:
    """The snapshot with only the tools whose definition the base does not have."""
    remaining = Counter(base)
    kept: list[Tool] = []
    for tool in snapshot.tools:
        key = definition(tool.raw)
        if remaining[key] > 0:
            remaining[key] -= 1
            continue
        kept.append(tool)
    return replace(snapshot, tools=tuple(kept))


def base_paths(targets: Sequence[Any], ref: str, since_snapshot: Path | None) -> dict[str, Path]:
    """For each target (by name), the file whose committed version at `ref` is its base. Refuses, before
    any server starts, a live target without --since-snapshot: there is nothing to compare it with."""
    # An unreachable target fails the run with exit 3 anyway; it needs no base.
    live = [target for target in targets if not isinstance(target, SnapshotTarget | UnreachableTarget)]
    if live and since_snapshot is None:
        raise UsageError(
            f"--since {ref}: {live[0].name} is a live server; commit a snapshot of it "
            "(mcp-lint snapshot -o tools.json ...) and pass --since-snapshot tools.json"
        )
    if len(live) > 1:
        raise UsageError(
            f"--since-snapshot holds one server and {len(live)} live servers were given; "
            "pick one with --server, or lint their committed snapshots"
        )
    paths: dict[str, Path] = {}
    for target in targets:
        if isinstance(target, SnapshotTarget):
            if str(target.path) == "-":
                raise UsageError(f"--since {ref}: a snapshot on stdin has no history; pass its file path")
            paths[target.name] = target.path
        elif since_snapshot is not None and not isinstance(target, UnreachableTarget):
            paths[target.name] = since_snapshot
    return paths
