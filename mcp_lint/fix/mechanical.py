"""Mechanical fixes: edits of a description that follow from one finding alone, like ruff's safe fixes.

Three findings of the run have one right edit, so `--fix` makes it whatever the jury says:
- a name the description uses as a parameter that the schema spells differently (phantom-parameter,
  MCP203, when it says which real parameter is meant: `total_thoughts` for `totalThoughts`) becomes
  the schema's name, wherever the description writes it as a word of its own; only another spelling
  of the same identifier (case, separators, a plural), never a guessed typo;
- a tool name the description writes in another case or with other separators than the server's
  tool (dangling-tool-reference, MCP405, when it says which tool is meant: `Playwright_expect_response`
  for `playwright_expect_response`) becomes that tool's name; never a guess at another name;
- invisible characters in the description (invisible-characters, MCP302: zero-width, bidi, tag and
  control characters, ANSI escapes) are removed. A byte-order mark that opens the text stays, as the
  rule leaves it.

`repair` works on the findings the run made, so a rule the user turned off changes nothing here.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from mcp_lint.check.functions.poisoning import clean_text
from mcp_lint.model import Finding, Tool
from mcp_lint.words import singular

PHANTOM = "MCP203"
INVISIBLE = "MCP302"
DANGLING = "MCP405"
# The phantom-parameter rule's suggestion when it knows the real name.
_MEANT = re.compile(r"^Did you mean `([^`\n]+)`\?$")


@dataclass(frozen=True)
class Repair:
    """The description after the mechanical fixes, and one note per fix (`MCP203 `a` -> `b``)."""

    text: str
    notes: tuple[str, ...] = ()


def _folded(name: str) -> str:
    return singular(name.replace("_", "").replace("-", "").lower())


def _same_name(written: str, meant: str) -> bool:
    """Whether `written` is `meant` in another spelling: an identifier (a separator or an inner
    capital: `total_thoughts`, `filterGroup`) that differs only in case, separators or a plural. A
    guess at a typo (`numeric_filter` for `metric_filter`) or a plain word of prose (`colors` for
    `color`) may be another thing the text talks about, so it is left to the author."""
    identifier = "_" in written or "-" in written or any(char.isupper() for char in written[1:])
    return identifier and _folded(written) == _folded(meant)


def _same_tool(written: str, meant: str) -> bool:
    """Whether `written` is the tool `meant` with other case or separators (`Playwright_expect_response`
    for `playwright_expect_response`, `get-metrics` for `get_metrics`): no plural, no typo."""
    return written != meant and _flat(written) == _flat(meant)


def _flat(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def _renamed(text: str, old: str, new: str) -> str:
    # As a word of its own: `max_results` in "max_results_total" is another name.
    return re.sub(rf"(?<![\w.-]){re.escape(old)}(?![\w-])", new, text)


def repair(tool: Tool, findings: Iterable[Finding]) -> Repair:
    """`tool`'s description with the mechanical fixes its findings call for."""
    text = tool.description
    notes: list[str] = []
    own = {str(name) for name in tool.properties}
    for finding in sorted(findings, key=lambda item: (item.code, item.subject or "")):
        if finding.tool != tool.name or finding.path != "description":
            continue
        if finding.code == PHANTOM and finding.subject and finding.suggestion:
            match = _MEANT.match(finding.suggestion)
            if match is None or match.group(1) not in own or finding.subject in own:
                continue
            if not _same_name(finding.subject, match.group(1)):
                continue
            fixed = _renamed(text, finding.subject, match.group(1))
            if fixed != text:
                text = fixed
                notes.append(f"{PHANTOM} `{finding.subject}` -> `{match.group(1)}`")
        elif finding.code == DANGLING and finding.subject and finding.suggestion:
            match = _MEANT.match(finding.suggestion)
            if match is None or not _same_tool(finding.subject, match.group(1)):
                continue
            fixed = _renamed(text, finding.subject, match.group(1))
            if fixed != text:
                text = fixed
                notes.append(f"{DANGLING} `{finding.subject}` -> `{match.group(1)}`")
        elif finding.code == INVISIBLE:
            head = "\ufeff" if text.startswith("\ufeff") else ""
            fixed = head + clean_text(text[len(head) :])
            if fixed != text:
                text = fixed
                notes.append(f"{INVISIBLE} invisible characters removed")
    return Repair(text, tuple(notes))
