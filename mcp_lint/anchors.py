"""The locate stage: where in the repository each finding is shown, found once and attached to the
result, so that SARIF and GitHub annotations only render it.

In order of preference:
1. `source`: the tool's registration in the repository's source (see `mcp_lint.locate`), the region
   covering its description; only this one can annotate a pull request's diff. When the tool has a
   proposed description and the literal is exactly located and verified, the anchor also carries the
   literal to write over it (the same one `check --fix` writes), for SARIF `fixes`.
2. `config`: the line of the server's entry in the config file that named it (the target's origin).
3. `placeholder`: `mcp-lint/servers/<name>` at line 1, a stable repository-relative path that is no
   file, so code scanning still accepts the result (it rejects the whole upload for one without a
   location).
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

from mcp_lint.fix.edit import replacement
from mcp_lint.locate import SourceIndex
from mcp_lint.model import Anchor, RunResult, ServerReport, placeholder_anchor
from mcp_lint.reach.targets import snapshot_listing


def _origin_path(origin: str | None) -> str | None:
    """The file part of a target's origin: `path` or `path [servers.name]`; None for stdin and
    settings given without a file."""
    if not origin or origin in {"stdin", "settings"}:
        return None
    return origin.split(" [", 1)[0]


def _entry_pattern(server: str) -> re.Pattern[str]:
    name = re.escape(server)
    # A JSON key `"name":`, a TOML table `[servers.name]` / `[tool.mcp-lint.servers."name"]`, or
    # an inline `name = {` entry.
    return re.compile(
        rf'"{name}"\s*:|^\s*\[(?:tool\.mcp-lint\.)?servers\.(?:{name}|"{name}")\]|^\s*"?{name}"?\s*=\s*\{{'
    )


def _server_anchor(index: SourceIndex, report: ServerReport, cwd: str) -> Anchor:
    origin = report.snapshot.origin if report.snapshot else None
    path = _origin_path(origin)
    relative = index.relative(path, cwd) if path else None
    if relative is not None and (index.root / relative).is_file():
        line = index.line_of(relative, _entry_pattern(report.name)) or 1
        return Anchor("config", relative, line)
    return placeholder_anchor(report.name)


def _replacement(index: SourceIndex, anchor: Anchor, description: str) -> str | None:
    """The literal holding `description`, only where the anchor's region is exact and holds the
    served description."""
    located = anchor.source
    if located is None or not located.exact or not located.verified:
        return None
    try:
        source = (index.root / located.path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    return replacement(located, source, description).text


def _is_snapshot(text: str) -> bool:
    """Whether a JSON file's text is a saved `tools/list` (what `mcp-lint snapshot` writes, or a
    JSON-RPC response holding one): a record of what a server sent, not where its tools are defined."""
    try:
        data = json.loads(text)
    except ValueError:
        return False
    return isinstance(data, dict) and snapshot_listing(data) is not None


def _replayed(index: SourceIndex, report: ServerReport, cwd: str) -> bool:
    """Whether the server's tools came from a snapshot file rather than a running server."""
    path = _origin_path(report.snapshot.origin if report.snapshot else None)
    if path is None or not path.lower().endswith(".json"):
        return False
    relative = index.relative(path, cwd)
    if relative is not None:
        return _is_snapshot(index.text(relative))
    try:
        return _is_snapshot((Path(cwd) / path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError):
        return False


def _locate_server(index: SourceIndex, report: ServerReport, cwd: str) -> ServerReport:
    server_anchor = _server_anchor(index, report, cwd)
    descriptions = {tool.name: tool.description for tool in report.snapshot.tools} if report.snapshot else {}
    # A running server's tools are defined in code: a snapshot of them lying in the folder is a copy,
    # and a finding anchored there would point at a file the fix is not made in.
    live = report.snapshot is not None and not _replayed(index, report, cwd)
    anchors: dict[str, Anchor] = {}
    for finding in report.findings:
        tool = finding.tool
        if tool is None or tool in anchors:
            continue
        skip = frozenset(
            location.path
            for location in index.locations(tool, descriptions.get(tool))
            if live and location.language == "json" and _is_snapshot(index.text(location.path))
        )
        located = index.find(tool, descriptions.get(tool), skip)
        if located is None:
            anchors[tool] = server_anchor
            continue
        anchor = Anchor("source", located.path, located.region.start_line, located.region, located)
        proposal = report.proposals.get(tool)
        if proposal is not None and proposal.description is not None:
            anchor = replace(anchor, replacement=_replacement(index, anchor, proposal.description))
        anchors[tool] = anchor
    parameters: dict[tuple[str, str], Anchor] = {}
    for finding in report.findings:
        parameter = finding.parameter
        tool_anchor = anchors.get(finding.tool) if finding.tool is not None else None
        if parameter is None or tool_anchor is None or tool_anchor.source is None or finding.tool is None:
            continue
        key = (finding.tool, parameter)
        if key not in parameters:
            region = index.parameter(tool_anchor.source, parameter)
            if region is not None:
                parameters[key] = Anchor("source", tool_anchor.path, region.start_line, region)
    return replace(report, anchors=anchors, anchor=server_anchor, parameter_anchors=parameters)


def locate(result: RunResult, cwd: str) -> RunResult:
    """Attach to every server its anchor and to every tool with a finding its own (the server's when
    the tool is not found in the repository holding `cwd`)."""
    index = SourceIndex.for_directory(cwd)
    return replace(result, servers=tuple(_locate_server(index, report, cwd) for report in result.servers))
