"""Read MCP client configs (Claude Desktop, Claude Code `.mcp.json`, Cursor, VS Code) into targets.

Variables expand the way the clients do (`${VAR}`, `${VAR:-default}`, `${env:VAR}`,
`${workspaceFolder}`, `${userHome}`). A variable that cannot be resolved, or a VS Code
`${input:...}` prompt, makes that one server unreachable with a clear reason: a linter in CI
must never stop and ask.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mcp_lint.errors import UsageError, quote
from mcp_lint.files import read_text
from mcp_lint.limits import load_json
from mcp_lint.model import value_record
from mcp_lint.reach.envfile import parse_env_file
from mcp_lint.reach.targets import HttpTarget, StdioTarget, Target

_VARIABLE = re.compile(r"\$\{([^}]*)\}")
_HTTP_TYPES = {"http": "http", "streamable-http": "http", "streamableHttp": "http", "sse": "sse"}
# The key naming a remote server's address, and the transport it implies when no "type" says: Windsurf
# writes `serverUrl`, Gemini CLI `httpUrl` for Streamable HTTP (its `url` is SSE, which "auto" falls
# back to).
_URL_KEYS = {"url": "auto", "serverUrl": "auto", "httpUrl": "http"}


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class UnreachableTarget:
    """A configured server that cannot be started as written; reported with exit 3."""

    name: str
    reason: str


class _Unresolved(Exception):
    pass


def strip_json_comments(text: str) -> str:
    """Blank out // and /* */ comments and trailing commas outside strings (VS Code's JSONC).

    Every removed character becomes a space (newlines stay), so a JSON error still points at the
    line and column the user sees in the editor.
    """
    out = list(text)
    index, length = 0, len(text)
    in_string = False
    last_comma: int | None = None
    while index < length:
        char = text[index]
        if in_string:
            if char == "\\":
                index += 2
                continue
            if char == '"':
                in_string = False
            index += 1
            continue
        if char == '"':
            in_string = True
            last_comma = None
        elif text.startswith("//", index):
            end = text.find("\n", index)
            end = length if end < 0 else end
            out[index:end] = " " * (end - index)
            index = end
            continue
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            end = length if end < 0 else end + 2
            out[index:end] = [c if c == "\n" else " " for c in text[index:end]]
            index = end
            continue
        elif char == ",":
            last_comma = index
        elif char in "}]":
            if last_comma is not None:
                out[last_comma] = " "
            last_comma = None
        elif not char.isspace():
            last_comma = None
        index += 1
    return "".join(out)


def read_json_document(path: Path, missing: str = "no such file") -> Any:
    """JSON, or JSONC as VS Code writes it; errors name the file, line and column."""
    return parse_json_document(read_text(path, missing, what="a snapshot or client config"), str(path))


def parse_json_document(text: str, where: str) -> Any:
    """JSON, or JSONC as VS Code writes it; errors name `where`, the line and the column.

    Nested deeper than MAX_JSON_DEPTH or holding a number longer than MAX_INT_DIGITS: a UsageError
    that names the limit (the parser itself would raise RecursionError or ValueError)."""
    try:
        return load_json(text, where)
    except json.JSONDecodeError as strict_error:
        first_error = strict_error
    stripped = strip_json_comments(text)
    try:
        return load_json(stripped, where)
    except json.JSONDecodeError as lenient_error:
        # Blame the strict parser's spot unless it stopped at a comment JSONC allows.
        pos = first_error.pos
        in_comment = pos < len(text) and stripped[pos] != text[pos] and text[pos] != ","
        error = lenient_error if in_comment else first_error
        raise UsageError(f"{where}:{error.lineno}:{error.colno}: not valid JSON: {error.msg}") from None


def _server_tables(data: Any) -> list[tuple[str, Mapping[str, Any]]]:
    # Claude Desktop, Claude Code and Cursor: "mcpServers"; VS Code's mcp.json: "servers"; VS Code's
    # settings.json: "mcp": {"servers": ...}. The first one present wins.
    if not isinstance(data, Mapping):
        return []
    found = [
        (f'"{key}"', data[key]) for key in ("mcpServers", "servers") if isinstance(data.get(key), Mapping)
    ]
    nested = data.get("mcp")
    if isinstance(nested, Mapping) and isinstance(nested.get("servers"), Mapping):
        found.append(('"mcp"."servers"', nested["servers"]))
    return found


def is_client_config(data: Any) -> bool:
    return bool(_server_tables(data))


def server_table(data: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """A client config's server entries, and their key as the file spells it (for messages)."""
    tables = _server_tables(data)
    if not tables:
        raise ValueError("not a client config")
    return tables[0]


def is_disabled(entry: Any) -> bool:
    return isinstance(entry, Mapping) and bool(entry.get("disabled"))


def _workspace_folder(path: Path) -> Path:
    folder = path.resolve().parent
    return folder.parent if folder.name in {".vscode", ".cursor"} else folder


def _expand(value: str, variables: Mapping[str, str], workspace: Path) -> str:
    def replace(match: re.Match[str]) -> str:
        expression = match.group(1)
        if expression.startswith("input:"):
            raise _Unresolved(
                f"${{{expression}}} asks the user for a value; mcp-lint never prompts: "
                "replace it with ${env:NAME} and export NAME"
            )
        if expression in {"workspaceFolder", "workspaceRoot"}:
            return str(workspace)
        if expression == "userHome":
            return str(Path.home())
        name, has_default, default = expression.removeprefix("env:").partition(":-")
        if has_default:
            # POSIX `:-`: the default also covers a variable that is set but empty.
            return variables.get(name) or default
        if name in variables:
            return variables[name]
        if ":" in name:
            raise _Unresolved(
                f"${{{expression}}} is a variable mcp-lint cannot resolve; write the value instead"
            )
        raise _Unresolved(f"${{{expression}}} is not set; export {name} or pass --env {name}=VALUE")

    return _VARIABLE.sub(replace, value)


def _strings(value: Any, where: str) -> list[str]:
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, (str, int, float)) for item in value):
        raise UsageError(f"{where}: expected a list of strings")
    return [str(item) for item in value]


def _string_map(value: Any, where: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, Mapping):
        raise UsageError(f"{where}: expected an object of string values")
    # JSON true/3/null in an env block mean the text a shell would see, not Python's repr.
    return {str(key): item if isinstance(item, str) else json.dumps(item) for key, item in value.items()}


def server_entry_to_target(
    name: str,
    entry: Any,
    *,
    where: str,
    base_dir: Path,
    workspace: Path,
    variables: Mapping[str, str],
    extra_env: Mapping[str, str],
) -> Target | UnreachableTarget:
    """One `mcpServers`/`servers` entry (or a `[servers]` table in our config) to a target."""
    if not isinstance(entry, Mapping):
        raise UsageError(f"{where}: server {quote(name)} must be an object")
    try:
        kind = entry.get("type")
        if kind is not None and not isinstance(kind, str):
            raise UsageError(
                f"{where}: server {quote(name)} has 'type' {quote(kind)}; it must be a string such as "
                '"stdio" or "http"'
            )
        url_key = next((key for key in _URL_KEYS if entry.get(key) is not None), None)
        if url_key is not None or kind in _HTTP_TYPES:
            url = entry.get(url_key) if url_key else None
            if not isinstance(url, str) or not url:
                raise UsageError(f"{where}: server {quote(name)} has type {quote(kind)} but no 'url'")
            headers = {
                key: _expand(value, variables, workspace)
                for key, value in _string_map(entry.get("headers"), f"{where}: {name}.headers").items()
            }
            transport = _HTTP_TYPES.get(str(kind), "auto") if kind else _URL_KEYS[url_key or "url"]
            expanded = _expand(url, variables, workspace)
            if not expanded.startswith(("http://", "https://")):
                raise UsageError(
                    f"{where}: server {quote(name)} url {quote(expanded)} is not an http:// or https:// URL"
                )
            return HttpTarget(
                name=name,
                url=expanded,
                headers=headers,
                transport=transport,
                origin=where,
            )
        command = entry.get("command")
        if isinstance(command, list):
            parts = _strings(command, f"{where}: {name}.command")
            if not parts:
                raise UsageError(f"{where}: server {quote(name)} has an empty 'command'")
            command, args = parts[0], parts[1:]
        else:
            args = _strings(entry.get("args"), f"{where}: {name}.args")
        if not isinstance(command, str) or not command:
            raise UsageError(f"{where}: server {quote(name)} needs a 'command' (stdio) or a 'url' (HTTP)")
        env: dict[str, str] = {}
        env_file = entry.get("envFile")
        if isinstance(env_file, str):
            env_path = base_dir / _expand(env_file, variables, workspace)
            env.update(parse_env_file(env_path, unreadable=f"{where}: cannot read env file {env_path}"))
        env.update(
            {
                key: _expand(value, variables, workspace)
                for key, value in _string_map(entry.get("env"), f"{where}: {name}.env").items()
            }
        )
        env.update(extra_env)
        cwd_value = entry.get("cwd")
        # Clients start project servers from the project folder, so relative paths in args resolve there.
        cwd = (
            str(base_dir / _expand(cwd_value, variables, workspace))
            if isinstance(cwd_value, str)
            else str(workspace)
        )
        return StdioTarget(
            name=name,
            command=_expand(command, variables, workspace),
            args=tuple(_expand(arg, variables, workspace) for arg in args),
            env=env,
            cwd=cwd,
            origin=where,
        )
    except _Unresolved as unresolved:
        return UnreachableTarget(name, f"server {quote(name)} in {where}: {unresolved}")


def targets_from_client_config(
    path: Path,
    data: Mapping[str, Any],
    *,
    only: tuple[str, ...] = (),
    extra_env: Mapping[str, str] | None = None,
    strict: bool = True,
) -> list[Target | UnreachableTarget]:
    """`strict=False` lets a caller combining several files check `only` across all of them."""
    _, entries = server_table(data)
    names = [name for name, entry in entries.items() if not is_disabled(entry)]
    if only:
        missing = [name for name in only if name not in entries]
        if missing and strict:
            available = ", ".join(sorted(entries)) or "none"
            raise UsageError(
                f"{path}: no server named {', '.join(map(repr, missing))}; available: {available}"
            )
        names = [name for name in entries if name in only]
    variables = {**os.environ, **(extra_env or {})}
    workspace = _workspace_folder(path)
    return [
        server_entry_to_target(
            str(name),
            entries[name],
            where=str(path),
            base_dir=workspace,
            workspace=workspace,
            variables=variables,
            extra_env=extra_env or {},
        )
        for name in names
    ]
