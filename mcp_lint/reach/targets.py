"""Where a server is: the records the reach stage produces and the reflect stage consumes."""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp_lint.model import value_record


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class StdioTarget:
    """Spawn `command args` and talk MCP over its stdin/stdout.

    `env` holds only what the user named (config or --env); the spawner adds the SDK's safe
    defaults, so the linter's own secrets never reach the server under test.
    """

    name: str
    command: str
    args: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)
    cwd: str | None = None
    origin: str | None = None
    # True when `name` is only a generic script name (`node dist/index.js` -> "index"): the name the
    # server reports in `serverInfo` then replaces it once the server answers.
    provisional_name: bool = False


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class HttpTarget:
    """Connect over Streamable HTTP, or SSE (`transport="sse"`, or as the fallback of `"auto"`)."""

    name: str
    url: str
    headers: Mapping[str, str] = field(default_factory=dict)
    transport: str = "auto"
    origin: str | None = None


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class SnapshotTarget:
    """Replay a saved `tools/list` reflection; nothing is spawned.

    `document` is the saved JSON, parsed once by reach (which had to read it to tell a snapshot from
    a client config); reflect builds the snapshot from it and never reads `path` (`-` for stdin).
    `origin` is where reports say the tools came from: the file's path, or `stdin`.
    """

    name: str
    path: Path
    document: Any
    origin: str | None = None


def snapshot_listing(data: Any) -> Any:
    """The saved `tools/list` result in a parsed document, or None when it holds none.

    Accepted: an object with a `tools` array (what `mcp-lint snapshot` writes), a bare array of
    tools, or either wrapped in the JSON-RPC response it came in (`{"jsonrpc": "2.0", "result": ...}`).
    """
    if isinstance(data, Mapping) and "jsonrpc" in data and "result" in data:
        data = data["result"]
    if isinstance(data, list) or (isinstance(data, Mapping) and isinstance(data.get("tools"), list)):
        return data
    return None


def snapshot_problem(listing: Any) -> str | None:
    """What makes a saved listing unusable beyond its `tools`: a key `mcp-lint snapshot` writes in
    one shape ("observations": an array) found in another."""
    saved = listing.get("observations") if isinstance(listing, Mapping) else None
    if saved is not None and not isinstance(saved, list):
        return (
            '"observations" must be an array of {"kind", "detail"} objects, as `mcp-lint snapshot` writes it'
        )
    return None


Target = StdioTarget | HttpTarget | SnapshotTarget


def describe(target: Target) -> str:
    """A short human description for messages: what was started or contacted."""
    if isinstance(target, StdioTarget):
        # Quoted like a shell would take it, and kept on one line for error messages.
        return shlex.join([target.command, *target.args]).replace("\n", "\\n")
    if isinstance(target, HttpTarget):
        return target.url
    return str(target.path)
