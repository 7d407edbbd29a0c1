"""Mechanical fixes: edits of a description that follow from one finding alone, like ruff's safe fixes.

Two findings of the run have one right edit, so `--fix` makes it whatever the jury says:
- a name the description uses as a parameter that the schema spells differently (phantom-parameter,
  MCP203, when it says which real parameter is meant: `total_thoughts` for `totalThoughts`) becomes
  the schema's name, wherever the description writes it as a word of its own;
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

PHANTOM = "MCP203"
INVISIBLE = "MCP302"
# The phantom-parameter rule's suggestion when it knows the real name.
_MEANT = re.compile(r"^Did you mean `([^`\n]+)`\?$")


@dataclass(frozen=True)
class Repair:
    """The description after the mechanical fixes, and one note per fix (`MCP203 `a` -> `b``)."""

    text: str
    notes: tuple[str, ...] = ()


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
            fixed = _renamed(text, finding.subject, match.group(1))
            if fixed != text:
                text = fixed
                notes.append(f"{PHANTOM} `{finding.subject}` -> `{match.group(1)}`")
        elif finding.code == INVISIBLE:
            head = "\ufeff" if text.startswith("\ufeff") else ""
            fixed = head + clean_text(text[len(head) :])
            if fixed != text:
                text = fixed
                notes.append(f"{INVISIBLE} invisible characters removed")
    return Repair(text, tuple(notes))
