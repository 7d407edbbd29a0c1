"""Turn what the user asked for (paths, `-- COMMAND`, `--url`, config servers) into targets."""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from mcp_lint.config import Settings
from mcp_lint.errors import UsageError
from mcp_lint.reach.client_config import (
    UnreachableTarget,
    is_client_config,
    read_json_document,
    server_entry_to_target,
    targets_from_client_config,
)
from mcp_lint.reach.targets import HttpTarget, SnapshotTarget, StdioTarget, Target

# Client configs a project commonly keeps, looked for when no target is given.
PROJECT_CONFIGS = (".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json")


@dataclass(frozen=True)
class Request:
    """The targets part of the command line."""

    paths: tuple[str, ...] = ()
    command: tuple[str, ...] = ()
    url: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    servers: tuple[str, ...] = ()
    env: Mapping[str, str] = field(default_factory=dict)


_RUNNERS = {"python", "python3", "node", "npx", "uvx", "uv", "run", "deno", "bun", "bunx", "pipx", "tool"}


def command_name(command: Sequence[str]) -> str:
    """A readable server name from a command line: the first script or package it runs."""
    for part in command[1:]:
        if part.startswith("-") or part in _RUNNERS:
            continue
        if part.startswith("@"):
            return part.split("/")[-1].rsplit("@", 1)[0] or part
        return Path(part).stem if part.endswith((".py", ".js", ".ts", ".mjs", ".cjs")) else Path(part).name
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


def _configured_servers(settings: Settings, request: Request) -> list[Target | UnreachableTarget]:
    entries = settings.servers
    names = list(entries)
    if request.servers:
        missing = [name for name in request.servers if name not in entries]
        if missing:
            available = ", ".join(sorted(entries)) or "none"
            raise UsageError(
                f"--server {missing[0]!r}: not in [servers] of the config; available: {available}"
            )
        names = [name for name in names if name in request.servers]
    base = settings.base_dir
    where = str(settings.config_path) if settings.config_path else "settings"
    targets: list[Target | UnreachableTarget] = []
    for name in names:
        entry: Mapping[str, Any] = entries[name]
        if "snapshot" in entry:
            targets.append(SnapshotTarget(name=name, path=base / str(entry["snapshot"]), origin=where))
            continue
        translated = {("envFile" if key == "env-file" else key): value for key, value in entry.items()}
        targets.append(
            server_entry_to_target(
                name,
                translated,
                where=f"{where} [servers.{name}]",
                base_dir=base,
                workspace=base,
                variables={**os.environ, **request.env},
                extra_env=request.env,
            )
        )
    return targets


def _from_path(text: str, request: Request) -> list[Target | UnreachableTarget]:
    path = Path(text)
    if path.is_dir():
        found = [path / name for name in PROJECT_CONFIGS if (path / name).is_file()]
        if not found:
            raise UsageError(f"{path}: a folder with no {', '.join(PROJECT_CONFIGS)}; pass a file instead")
        path = found[0]
    data = read_json_document(path)
    if is_client_config(data):
        return targets_from_client_config(path, data, only=request.servers, extra_env=request.env)
    if isinstance(data, list) or (isinstance(data, Mapping) and isinstance(data.get("tools"), list)):
        name = (
            data.get("name") if isinstance(data, Mapping) and isinstance(data.get("name"), str) else path.stem
        )
        return [SnapshotTarget(name=str(name), path=path, origin=str(path))]
    raise UsageError(
        f"{path}: neither a snapshot (an object with a 'tools' array) nor a client config "
        "('mcpServers' or 'servers'); see `mcp-lint check --help`"
    )


def resolve_targets(request: Request, settings: Settings) -> list[Target | UnreachableTarget]:
    targets: list[Target | UnreachableTarget] = []
    if request.command:
        targets.append(
            StdioTarget(
                name=command_name(request.command),
                command=request.command[0],
                args=tuple(request.command[1:]),
                env=dict(request.env),
            )
        )
    if request.url:
        scheme = urlsplit(request.url).scheme
        if scheme not in {"http", "https"}:
            raise UsageError(f"--url {request.url!r}: expected an http:// or https:// URL")
        targets.append(
            HttpTarget(name=urlsplit(request.url).netloc, url=request.url, headers=dict(request.headers))
        )
    for text in request.paths:
        targets.extend(_from_path(text, request))
    if not targets:
        if settings.servers:
            targets = _configured_servers(settings, request)
        else:
            for name in PROJECT_CONFIGS:
                if Path(name).is_file():
                    targets = _from_path(name, request)
                    break
    if not targets:
        raise UsageError(
            "nothing to lint: pass `-- COMMAND ARGS`, `--url URL`, a snapshot or client config file, "
            "or name servers under [servers] in mcp-lint.toml"
        )
    return _unique_names(targets)


def _unique_names(targets: list[Target | UnreachableTarget]) -> list[Target | UnreachableTarget]:
    seen: dict[str, int] = {}
    unique: list[Target | UnreachableTarget] = []
    for target in targets:
        count = seen.get(target.name, 0)
        seen[target.name] = count + 1
        unique.append(target if count == 0 else replace(target, name=f"{target.name}-{count + 1}"))
    return unique
