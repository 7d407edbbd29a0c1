"""Mechanical fixes: edits of a description that follow from one finding alone, like ruff's safe fixes.

Two findings of the run have one right edit, so `--fix` makes it whatever the jury says:
- a tool name the description writes in another case or with other separators than the server's
  tool (dangling-tool-reference, MCP405, when it says which tool is meant: `Playwright_expect_response`
  for `playwright_expect_response`) becomes that tool's name; never a guess at another name, and
  never inside a call in code when the tool's name is not an identifier;
- invisible characters in the description (invisible-characters, MCP302: zero-width, bidi, tag and
  control characters, ANSI escapes) are removed. A byte-order mark that opens the text stays, as the
  rule leaves it.

`repair` works on the findings the run made, so a rule the user turned off changes nothing here.

A phantom parameter (MCP203) spelt like a real one is not renamed: on servers nobody tuned on, all 9
such renames stated something false (the other spelling named a field of the result, or of the API
the tool calls, not the parameter), and the rule is 46% precise there (docs/precision.md).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from mcp_lint.check.functions.poisoning import clean_text
from mcp_lint.model import Finding, Tool

INVISIBLE = "MCP302"
DANGLING = "MCP405"
# The phantom-parameter rule's suggestion when it knows the real name.
_MEANT = re.compile(r"^Did you mean `([^`\n]+)`\?$")


@dataclass(frozen=True)
class Repair:
    """The description after the mechanical fixes, and one note per fix (`MCP203 `a` -> `b``)."""

    text: str
    notes: tuple[str, ...] = ()


def _same_tool(written: str, meant: str) -> bool:
    """Whether `written` is the tool `meant` with other case or separators (`Playwright_expect_response`
    for `playwright_expect_response`, `get-metrics` for `get_metrics`): no plural, no typo."""
    return written != meant and _flat(written) == _flat(meant)


def _flat(name: str) -> str:
    return name.replace("_", "").replace("-", "").lower()


def _renamed(text: str, old: str, new: str) -> str:
    # As a word of its own: `max_results` in "max_results_total" is another name. A name called in
    # code (`add_ticket_reply(ticket_id=1)`) is not renamed to one no language could call there
    # (`add-ticket-reply`): the example would stop being code.
    call = "" if new.isidentifier() else r"(?!\s*\()"
    return re.sub(rf"(?<![\w.-]){re.escape(old)}(?![\w-]){call}", new, text)


def repair(tool: Tool, findings: Iterable[Finding]) -> Repair:
    """`tool`'s description with the mechanical fixes its findings call for."""
    text = tool.description
    notes: list[str] = []
    for finding in sorted(findings, key=lambda item: (item.code, item.subject or "")):
        if finding.tool != tool.name or finding.path != "description":
            continue
        if finding.code == DANGLING and finding.subject and finding.suggestion:
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
