"""Turn what the user asked for (paths, `-- COMMAND`, `--url`, config servers) into targets."""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mcp_lint.config import Settings, config_key
from mcp_lint.errors import UsageError
from mcp_lint.files import read_input_stream
from mcp_lint.model import value_record
from mcp_lint.reach.client_config import (
    UnreachableTarget,
    is_client_config,
    parse_json_document,
    read_json_document,
    server_entry_to_target,
    server_table,
    targets_from_client_config,
)
from mcp_lint.reach.targets import (
    HttpTarget,
    SnapshotTarget,
    StdioTarget,
    Target,
    snapshot_listing,
    snapshot_problem,
)

# Client configs a project commonly keeps, looked for when no target is given.
PROJECT_CONFIGS = (".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json")


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Request:
    """The targets part of the command line."""

    paths: tuple[str, ...] = ()
    command: tuple[str, ...] = ()
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    servers: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)


_RUNNERS = {
    "python",
    "python3",
    "node",
    "npx",
    "uvx",
    "uv",
    "run",
    "deno",
    "bun",
    "bunx",
    "pipx",
    "tool",
    "mcp",
}
_SCRIPT_SUFFIXES = (".py", ".js", ".ts", ".mjs", ".cjs")
# Runner options whose value is not the server (uv run --with mcp[cli] ..., uvx --from pkg ...).
_OPTIONS_WITH_VALUE = {"--with", "--directory", "--from", "--python", "-p", "--package", "--prefix", "-m"}


# Script names that say nothing about the server: every Node package builds a dist/index.js.
_GENERIC_NAMES = frozenset(
    {
        "index",
        "main",
        "server",
        "app",
        "cli",
        "run",
        "start",
        "__main__",
        "stdio",
        "mcp",
        "bin",
        "dist",
        "build",
    }
)


def is_generic_name(name: str) -> bool:
    """Whether a name taken from a command line is a generic script name rather than the server's."""
    return name.lower() in _GENERIC_NAMES


def command_name(command: Sequence[str]) -> str:
    """A readable server name from a command line: the script or package it runs."""
    program = Path(command[0]).name
    if program not in _RUNNERS and not program.startswith(("python", "node")):
        # An installed server binary names itself (mcp-server-time --local-timezone UTC).
        return program
    args = list(command[1:])
    for part in args:
        if part.endswith(_SCRIPT_SUFFIXES) and not part.startswith("-"):
            return Path(part).stem
    skip_next = False
    for part in args:
        if skip_next:
            skip_next = part.startswith("-")
            if not skip_next and args[args.index(part) - 1] == "-m":
                return part
            continue
        if part in _OPTIONS_WITH_VALUE:
            skip_next = True
            continue
        if part.startswith("-") or part in _RUNNERS:
            continue
        if part.startswith("@"):
            return part.split("/")[-1].rsplit("@", 1)[0] or part
        return Path(part).name.split("@")[0] or part
    return Path(command[0]).name


def parse_header(text: str) -> tuple[str, str]:
    name, colon, value = text.partition(":")
    if not colon or not name.strip():
        raise UsageError(
            f"--header {text!r}: expected NAME:VALUE, e.g. --header 'Authorization: Bearer $TOKEN'"
        )
    return name.strip(), value.strip()


def parse_env_pair(text: str, where: str = "--env") -> tuple[str, str]:
    key, equals, value = text.partition("=")
    if not equals or not key:
        raise UsageError(f"{where} {text!r}: expected KEY=VALUE")
    return key, value


def _configured_snapshot(name: str, value: Any, key: str, base: Path) -> SnapshotTarget:
    """The target of a `snapshot = "..."` entry, read now: a missing or broken file is a mistake in
    the config (exit 2, naming the entry), not a server that could not be reached (exit 3)."""
    if not isinstance(value, str) or not value:
        raise UsageError(
            f'{key}: snapshot must be the path of a saved snapshot, e.g. snapshot = "tools.json"'
        )
    path = base / value
    fix = (
        "fix the path (relative to the config's folder), or save one with "
        f"`mcp-lint snapshot -o {path} -- COMMAND`"
    )
    try:
        data = read_json_document(path, f"no such file; {fix}")
    except UsageError as error:
        raise UsageError(f"{key}: snapshot {error}") from None
    if snapshot_listing(data) is None:
        raise UsageError(
            f"{key}: snapshot {path}: not a snapshot: expected a JSON object with a 'tools' array, "
            "or an array of tools"
        )
    problem = snapshot_problem(snapshot_listing(data))
    if problem is not None:
        raise UsageError(f"{key}: snapshot {path}: {problem}")
    return SnapshotTarget(name=name, path=path, document=data, origin=str(path))


def _configured_servers(settings: Settings, request: Request) -> list[Target | UnreachableTarget]:
    entries = settings.servers
    names = list(entries)
    where = str(settings.config_path) if settings.config_path else "settings"
    table = config_key(settings.config_path, "servers")  # [tool.mcp-lint.servers] in pyproject.toml
    if request.servers:
        missing = [name for name in request.servers if name not in entries]
        if missing:
            available = ", ".join(sorted(entries)) or "none"
            raise UsageError(f"--server {missing[0]!r}: not in [{table}] of {where}; available: {available}")
        names = [name for name in names if name in request.servers]
    base = settings.base_dir
    targets: list[Target | UnreachableTarget] = []
    for name in names:
        entry: Mapping[str, Any] = entries[name]
        if "snapshot" in entry:
            targets.append(_configured_snapshot(name, entry["snapshot"], f"{where} [{table}.{name}]", base))
            continue
        translated = {("envFile" if key == "env-file" else key): value for key, value in entry.items()}
        targets.append(
            server_entry_to_target(
                name,
                translated,
                where=f"{where} [{table}.{name}]",
                base_dir=base,
                workspace=base,
                variables={**os.environ, **request.env},
                extra_env=request.env,
            )
        )
    return targets


_NOTHING_TO_LINT = (
    "nothing to lint: pass `-- COMMAND ARGS`, `--url URL`, a snapshot or client config file, "
    "or name servers under [servers] in mcp-lint.toml"
)
_ALTERNATIVES = "pass `-- COMMAND ARGS`, `--url URL`, or a snapshot or client config file"


def _no_servers(path: Path, data: Mapping[str, Any], *, looked_up: bool) -> UsageError:
    """A client config that yields no target: empty, or every entry disabled."""
    key, entries = server_table(data)
    if entries:
        # Only disabled entries are left out without a --server filter.
        what = f"no servers in {key} (all {len(entries)} disabled)"
        fix = "pick one with --server to lint it anyway"
    else:
        what, fix = f"no servers in {key}", "add a server to it"
    if looked_up:
        # The user named no target; say which project config was found and what else they can pass.
        return UsageError(f"nothing to lint: {path} has {what}; {fix}, or {_ALTERNATIVES}")
    return UsageError(f"{path}: {what}; {fix}")


def _not_a_config(request: Request, what: str) -> UsageError:
    return UsageError(
        f"--server {request.servers[0]!r}: {what}, not a client config; --server picks entries of a "
        "client config or of [servers] in mcp-lint.toml: drop it or pass a client config"
    )


STDIN = "-"


def _read_stdin() -> Any:
    """The snapshot piped to `-`, read once, here; JSON or JSONC like a snapshot file."""
    if sys.stdin is None or sys.stdin.isatty():
        raise UsageError(
            "-: stdin is a terminal; pipe a snapshot in, e.g. "
            "`mcp-lint snapshot -- python server.py | mcp-lint check -` (a file named '-' is ./-)"
        )
    try:
        # Capped like a file: `check - < /dev/zero` is one line, not a MemoryError.
        text = read_input_stream(sys.stdin.buffer, "a snapshot", label="stdin").decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UsageError("stdin: not UTF-8 text; pipe a UTF-8 snapshot") from None
    except OSError as exc:
        raise UsageError(
            f"stdin: cannot read: {exc.strerror or exc}; pass the snapshot's path instead"
        ) from None
    return parse_json_document(text, "stdin")


def _not_a_target(where: object, data: Any) -> UsageError:
    error = data.get("error") if isinstance(data, Mapping) and "jsonrpc" in data else None
    if isinstance(error, Mapping):
        # A saved failure: say so rather than call a JSON-RPC response "neither".
        return UsageError(
            f"{where}: a JSON-RPC error response ({error.get('message', 'no message')!s}), not a tools/list "
            "result; save a successful response, or use `mcp-lint snapshot`"
        )
    return UsageError(
        f"{where}: neither a snapshot (an object with a 'tools' array, also inside a JSON-RPC response) "
        "nor a client config ('mcpServers', 'servers' or 'mcp.servers'); see `mcp-lint check --help`"
    )


def snapshot_name(listing: Any, default: str) -> str:
    name = listing.get("name") if isinstance(listing, Mapping) else None
    return name if isinstance(name, str) else default


def _from_stdin(request: Request) -> list[Target | UnreachableTarget]:
    data = _read_stdin()
    if is_client_config(data):
        raise UsageError(
            "stdin: a client config, which mcp-lint reads from its file only (its relative paths, cwd "
            "and envFile resolve from the file's folder); pass the file's path instead of -"
        )
    listing = snapshot_listing(data)
    if listing is None:
        raise _not_a_target("stdin", data)
    problem = snapshot_problem(listing)
    if problem is not None:
        raise UsageError(f"stdin: {problem}")
    if request.servers:
        raise _not_a_config(request, "stdin holds a snapshot of one server")
    name = snapshot_name(listing, "stdin")
    return [SnapshotTarget(name=name, path=Path(STDIN), document=data, origin="stdin")]


def _from_path(
    text: str, request: Request, *, strict: bool, looked_up: bool = False
) -> tuple[list[Target | UnreachableTarget], list[str]]:
    """The targets of one path, and the server names it offers to --server (a client config's entries).

    `strict`: a --server name this file lacks is an error here (with several files, resolve_targets
    checks across all of them). `looked_up` marks a project config mcp-lint found by itself.
    """
    if text == STDIN:
        return _from_stdin(request), []
    path = Path(text)
    if path.is_dir():
        found = [path / name for name in PROJECT_CONFIGS if (path / name).is_file()]
        if not found:
            raise UsageError(f"{path}: a folder with no {', '.join(PROJECT_CONFIGS)}; pass a file instead")
        path = found[0]
    data = read_json_document(path)
    if is_client_config(data):
        targets = targets_from_client_config(
            path, data, only=request.servers, extra_env=request.env, strict=strict
        )
        if not targets and not request.servers:
            # Never lint something else instead: the file was meant to name the servers.
            raise _no_servers(path, data, looked_up=looked_up)
        return targets, [str(name) for name in server_table(data)[1]]
    if looked_up:
        # Found by name, not given: a project's .mcp.json names its servers, and a snapshot (or `[]`)
        # there would be linted as a server with no tools and pass the gate.
        raise UsageError(
            f"{path}: not a client config (no 'mcpServers', 'servers' or 'mcp.servers'), and mcp-lint "
            "looked for one as no target was given; fix it, or pass the file as a target: "
            f"mcp-lint check {path}"
        )
    listing = snapshot_listing(data)
    if listing is None:
        raise _not_a_target(path, data)
    problem = snapshot_problem(listing)
    if problem is not None:
        raise UsageError(f"{path}: {problem}")
    if request.servers:
        raise _not_a_config(request, f"{path} is a snapshot of one server")
    # Reflect builds the snapshot from this document: the file is parsed once, by one rule (JSONC).
    name = snapshot_name(listing, path.stem)
    return [SnapshotTarget(name=name, path=path, document=data, origin=str(path))], []


def resolve_targets(request: Request, settings: Settings) -> list[Target | UnreachableTarget]:
    if request.headers and not request.url:
        raise UsageError("--header applies to --url only; put headers for configured servers in their config")
    if request.servers and request.command:
        raise _not_a_config(request, "`-- COMMAND` starts one server")
    if request.servers and request.url:
        raise _not_a_config(request, "--url names one server")
    targets: list[Target | UnreachableTarget] = []
    if request.command:
        key = _configured_key(settings, request.command)
        name = key or command_name(request.command)
        targets.append(
            StdioTarget(
                name=name,
                command=request.command[0],
                args=tuple(request.command[1:]),
                env=dict(request.env),
                provisional_name=key is None and is_generic_name(name),
            )
        )
    if request.url:
        parts = urlsplit(request.url)
        if parts.scheme not in {"http", "https"} or not parts.netloc:
            raise UsageError(f"--url {request.url!r}: expected an http:// or https:// URL")
        targets.append(
            HttpTarget(name=urlsplit(request.url).netloc, url=request.url, headers=dict(request.headers))
        )
    available: list[str] = []
    if request.paths.count(STDIN) > 1:
        raise UsageError("-: stdin given more than once; it can be read only once")
    for text in request.paths:
        found, names = _from_path(text, request, strict=len(request.paths) == 1)
        targets.extend(found)
        available.extend(names)
    if request.servers and len(request.paths) > 1:
        missing = [name for name in request.servers if name not in available]
        if missing:
            raise UsageError(
                f"--server {missing[0]!r}: no such server in {', '.join(request.paths)}; "
                f"available: {', '.join(sorted(set(available))) or 'none'}"
            )
    if not (request.command or request.url or request.paths):
        # The defaults stand in only for a missing target, never for one that turned out empty.
        if settings.servers:
            targets = _configured_servers(settings, request)
        else:
            for name in PROJECT_CONFIGS:
                if Path(name).is_file():
                    # Strict: a --server name must be in the one file that is linted.
                    targets, _ = _from_path(name, request, strict=True, looked_up=True)
                    break
    if not targets:
        raise UsageError(_NOTHING_TO_LINT)
    return _unique_names(targets)


def _configured_key(settings: Settings, command: Sequence[str]) -> str | None:
    """The key of the configured server started by exactly this command, so a server has one name
    (the config's) whether it is linted through the config or with `-- COMMAND`."""
    for key, entry in settings.servers.items():
        args = entry.get("args", [])
        if entry.get("command") == command[0] and isinstance(args, list) and list(args) == list(command[1:]):
            return key
    return None


def _unique_names(targets: list[Target | UnreachableTarget]) -> list[Target | UnreachableTarget]:
    # Real names are reserved first, so a suffixed duplicate never takes a name a target really has.
    reserved = {target.name for target in targets}
    taken: set[str] = set()
    unique: list[Target | UnreachableTarget] = []
    for target in targets:
        name, counter = target.name, 1
        while name in taken:
            counter += 1
            name = f"{target.name}-{counter}"
            if name in reserved:
                name = target.name
        taken.add(name)
        unique.append(target if name == target.name else replace(target, name=name))
    return unique
