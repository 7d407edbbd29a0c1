"""Where in the repository a finding is shown: SARIF and GitHub annotations need a file and a line.

In order of preference:
1. `source`: the tool's registration in the repository's source (see `mcp_lint.locate`), the region
   covering its description; only this one can annotate a pull request's diff.
2. `config`: the line of the server's entry in the config file that named it (the target's origin).
3. `placeholder`: `mcp-lint/servers/<name>` at line 1, a stable repository-relative path that is no
   file, so code scanning still accepts the result (it rejects the whole upload for one without a
   location).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal
from urllib.parse import quote

from mcp_lint.locate import Region, SourceIndex, SourceLocation
from mcp_lint.model import Finding, ServerReport
from mcp_lint.report import ReportOptions

AnchorKind = Literal["source", "config", "placeholder"]
PLACEHOLDER_PREFIX = "mcp-lint/servers/"


@dataclass(frozen=True)
class Anchor:
    kind: AnchorKind
    # Repository-relative, forward slashes, not yet percent-encoded (see `uri`).
    path: str
    start_line: int = 1
    # Columns too, for source anchors only: a config line or a placeholder is just a line.
    region: Region | None = None
    source: SourceLocation | None = None

    @property
    def uri(self) -> str:
        # Percent-encoding ':' keeps a path such as `c:x` from ever parsing as a URI scheme.
        return quote(self.path, safe="/")


def placeholder_path(server: str) -> str:
    return PLACEHOLDER_PREFIX + server.replace("/", "_")


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


class Anchors:
    """Resolves and caches the anchor of every finding of a run."""

    def __init__(self, options: ReportOptions) -> None:
        self.options = options
        self._index: SourceIndex | None = None
        self._config: dict[str, Anchor | None] = {}

    @property
    def index(self) -> SourceIndex:
        if self._index is None:
            self._index = SourceIndex.for_directory(self.options.cwd)
        return self._index

    def _descriptions(self, report: ServerReport) -> Mapping[str, str]:
        snapshot = report.snapshot
        return {tool.name: tool.description for tool in snapshot.tools} if snapshot else {}

    def source(self, report: ServerReport, tool: str) -> SourceLocation | None:
        return self.index.find(tool, self._descriptions(report).get(tool))

    def _config_anchor(self, report: ServerReport) -> Anchor | None:
        if report.name not in self._config:
            origin = report.snapshot.origin if report.snapshot else None
            path = _origin_path(origin)
            relative = self.index.relative(path, self.options.cwd) if path else None
            anchor = None
            if relative is not None and (self.index.root / relative).is_file():
                line = self.index.line_of(relative, _entry_pattern(report.name)) or 1
                anchor = Anchor("config", relative, line)
            self._config[report.name] = anchor
        return self._config[report.name]

    def for_finding(self, report: ServerReport, finding: Finding) -> Anchor:
        if finding.tool is not None:
            located = self.source(report, finding.tool)
            if located is not None:
                return Anchor("source", located.path, located.region.start_line, located.region, located)
        return self.for_server(report)

    def for_server(self, report: ServerReport) -> Anchor:
        return self._config_anchor(report) or Anchor("placeholder", placeholder_path(report.name))
