"""Description overrides: rewrites kept outside the server's source, served by `mcp-lint proxy`.

`mcp-lint check --fix` writes here (default `.mcp-lint/overrides.json`) when it cannot find a
description's source literal to edit; `mcp-lint proxy --overrides FILE` serves them to a client
without touching the server. The file is plain JSON a team may commit (docs/fix.md):

    {"version": 1,
     "servers": {"weather": {"get_forecast": {
         "description": "Get the forecast for one city. ...",
         "original": "Get forecast.",
         "parts": {"purpose": "Get the forecast for one city.", "guidelines": "Use it when ..."}}}}}

`parts` holds the rewrite's components (purpose, guidelines, limitations, parameters, examples), in
that order when joined; a component the rewrite did not touch is absent. `served_description`
decides what a client sees when only some components are chosen.

An entry may instead (or as well) hold a `patch`: a JSON merge patch (RFC 7396) of the tool's
`inputSchema` and `annotations`, which `check --fix --unsafe-fixes` writes for a schema or annotation
fix (`{"inputSchema": {"properties": {"limit": {"minimum": 1, "maximum": 100}}}}`) and the proxy
applies to the tool it lists. An entry without `description` leaves the description as it is.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, get_args

from mcp_lint.errors import UsageError, quote
from mcp_lint.files import read_input_file, write_text_atomic
from mcp_lint.limits import load_json
from mcp_lint.model import value_record

OVERRIDES_VERSION = 1
DEFAULT_OVERRIDES_PATH = Path(".mcp-lint/overrides.json")

# The five parts of a rewrite, in the order they are joined (length is a property of the whole).
Part = Literal["purpose", "guidelines", "limitations", "parameters", "examples"]
PARTS: tuple[Part, ...] = get_args(Part)


# The parts of a tool's entry a patch may change: what it accepts and what it claims, never its name.
PATCHABLE = ("inputSchema", "annotations")


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Override:
    server: str
    tool: str
    description: str | None  # None: the server's own description is served
    original: str = ""
    parts: Mapping[str, str] = field(default_factory=dict)
    patch: Mapping[str, Any] = field(default_factory=dict)  # a JSON merge patch of inputSchema/annotations


def merge_patch(target: Any, patch: Any) -> Any:
    """RFC 7396: `patch` applied to `target` (neither is changed); a null removes a key."""
    if not isinstance(patch, Mapping):
        return patch
    merged = dict(target) if isinstance(target, Mapping) else {}
    for key, value in patch.items():
        if value is None:
            merged.pop(key, None)
        else:
            merged[key] = merge_patch(merged.get(key), value)
    return merged


def combined(old: Override | None, new: Override) -> Override:
    """`new` filed over `old` for the same tool: a new description replaces the old one (with its
    parts), a new patch is merged over the old patch; what `new` does not set is kept from `old`."""
    if old is None:
        return new
    if new.description is None:
        text, original, parts = old.description, old.original, old.parts
    else:
        text, original, parts = new.description, new.original, new.parts
    return Override(new.server, new.tool, text, original, parts, merge_patch(old.patch, new.patch))


def merge_overrides(
    old: Mapping[tuple[str, str], Override], new: Mapping[tuple[str, str], Override]
) -> dict[tuple[str, str], Override]:
    merged = dict(old)
    for key, override in new.items():
        merged[key] = combined(merged.get(key), override)
    return merged


def served_description(override: Override, components: Collection[str] | None = None) -> str | None:
    """What a client is shown: the whole rewrite, or the original with only the chosen parts changed.

    With `components`, the purpose part replaces the original's text only when purpose is chosen;
    every other chosen part is appended after it. Parts not chosen are left out, so a team can try
    "purpose,guidelines" alone, the small subsets the research found often did as well as the whole.
    """
    if override.description is None or components is None or set(PARTS) <= set(components):
        return override.description
    chosen = [part for part in PARTS if part in components and override.parts.get(part, "").strip()]
    if not chosen:
        return override.original or override.description
    lead = override.parts["purpose"].strip() if "purpose" in chosen else (override.original.strip())
    rest = [override.parts[part].strip() for part in chosen if part != "purpose"]
    return " ".join(text for text in (lead, *rest) if text)


def parse_components(text: str, where: str = "--components") -> tuple[Part, ...]:
    """A comma-separated list of parts, e.g. "purpose,guidelines"; a UsageError names an unknown one."""
    chosen: list[Part] = []
    for raw in text.split(","):
        name = raw.strip().lower()
        if not name:
            continue
        if name not in PARTS:
            raise UsageError(f"{where}: unknown component {quote(name)}; use some of: {', '.join(PARTS)}")
        if name not in chosen:
            chosen.append(name)
    if not chosen:
        raise UsageError(f"{where}: no component given; use some of: {', '.join(PARTS)}")
    return tuple(chosen)


def _patch(data: Any, where: str) -> dict[str, Any]:
    if not isinstance(data, Mapping):
        raise UsageError(
            f'{where}.patch: must be an object such as {{"annotations": {{"readOnlyHint": true}}}}, '
            f"got {quote(data)}"
        )
    for key, value in data.items():
        if key not in PATCHABLE:
            raise UsageError(
                f"{where}.patch: cannot change {quote(key)}; a patch changes only {' and '.join(PATCHABLE)}"
            )
        if not isinstance(value, Mapping):
            raise UsageError(
                f"{where}.patch.{key}: must be an object (a JSON merge patch), got {quote(value)}"
            )
    return dict(data)


def _override(server: str, tool: str, data: Any, where: str) -> Override:
    if not isinstance(data, Mapping) or not ("description" in data or "patch" in data):
        raise UsageError(f'{where}: an override must be an object with a "description" or a "patch"')
    description = data.get("description")
    if description is not None and not isinstance(description, str):
        raise UsageError(f"{where}.description: must be a string, got {quote(description)}")
    patch = _patch(data["patch"], where) if "patch" in data else {}
    parts = data.get("parts", {})
    if not isinstance(parts, Mapping) or not all(isinstance(value, str) for value in parts.values()):
        raise UsageError(f"{where}.parts: must map component names to strings")
    unknown = sorted(set(parts) - set(PARTS))
    if unknown:
        raise UsageError(
            f"{where}.parts: unknown component {quote(unknown[0])}; use some of: {', '.join(PARTS)}"
        )
    original = data.get("original", "")
    return Override(
        server, tool, description, original if isinstance(original, str) else "", dict(parts), patch
    )


def parse_overrides(data: Any, where: str) -> dict[tuple[str, str], Override]:
    """(server, tool) -> Override. A server named "*" applies to every server the proxy fronts."""
    if not isinstance(data, Mapping) or not isinstance(data.get("servers"), Mapping):
        raise UsageError(f'{where}: not an overrides file: expected {{"version": 1, "servers": {{...}}}}')
    version = data.get("version", OVERRIDES_VERSION)
    if version != OVERRIDES_VERSION:
        raise UsageError(
            f"{where}: overrides version {quote(version)} is not supported; this mcp-lint reads 1"
        )
    found: dict[tuple[str, str], Override] = {}
    for server, tools in data["servers"].items():
        if not isinstance(tools, Mapping):
            raise UsageError(f"{where}: servers.{server} must map tool names to overrides")
        for tool, entry in tools.items():
            found[(str(server), str(tool))] = _override(
                str(server), str(tool), entry, f"{where}: servers.{server}.{tool}"
            )
    return found


def read_overrides(path: Path) -> dict[tuple[str, str], Override]:
    text = read_input_file(
        path, "an overrides file", "no such overrides file; `mcp-lint check --fix` writes one"
    )
    try:
        data = load_json(text, str(path))
    except ValueError as error:
        raise UsageError(f"{path}: not JSON ({error})") from None
    return parse_overrides(data, str(path))


def overrides_document(overrides: Mapping[tuple[str, str], Override]) -> dict[str, Any]:
    servers: dict[str, dict[str, Any]] = {}
    for (server, tool), override in sorted(overrides.items()):
        entry: dict[str, Any] = {}
        if override.description is not None:
            entry["description"] = override.description
        if override.original and override.description is not None:
            entry["original"] = override.original
        if override.parts:
            entry["parts"] = {part: override.parts[part] for part in PARTS if part in override.parts}
        if override.patch:
            entry["patch"] = dict(override.patch)
        servers.setdefault(server, {})[tool] = entry
    return {"version": OVERRIDES_VERSION, "servers": servers}


def write_overrides(path: Path, overrides: Mapping[tuple[str, str], Override]) -> None:
    """Merge `overrides` into the file at `path` (entries for other tools are kept), atomically."""
    merged = merge_overrides(read_overrides(path) if path.exists() else {}, overrides)
    write_text_atomic(path, json.dumps(overrides_document(merged), indent=2, ensure_ascii=False) + "\n")


def find_override(
    overrides: Mapping[tuple[str, str], Override], servers: str | Iterable[str], tool: str
) -> Override | None:
    """The override of `tool` filed under the first of `servers` (a name, or the names a server may be
    filed under, the preferred first) that has one, else under "*"."""
    for server in (servers,) if isinstance(servers, str) else servers:
        override = overrides.get((server, tool))
        if override is not None:
            return override
    return overrides.get(("*", tool))
