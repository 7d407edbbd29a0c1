"""Mechanical fixes: edits of a description that follow from one finding alone, like ruff's safe fixes.

Two findings of the run have one right edit, so `--fix` makes it whatever the jury says:
- a tool name the description writes in another case or with other separators than the server's
  tool (dangling-tool-reference, MCP405, when it says which tool is meant: `Playwright_expect_response`
  for `playwright_expect_response`), or without the product prefix the tool naming it has too, on
  a server whose every tool has one (`update_issue` in `jira_assign_issue`'s text, for
  `jira_update_issue`), becomes that tool's name;
  never a guess at another name, and
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
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass

from mcp_lint.check.functions.poisoning import clean_text
from mcp_lint.model import Finding, Tool, value_record

INVISIBLE = "MCP302"
DANGLING = "MCP405"
# The phantom-parameter rule's suggestion when it knows the real name.
_MEANT = re.compile(r"^Did you mean `([^`\n]+)`\?$")


@value_record
@dataclass(frozen=True, eq=False, repr=False)
class Repair:
    """The description after the mechanical fixes, and one note per fix (`MCP203 `a` -> `b``)."""

    text: str
    notes: tuple[str, ...] = ()


def _same_tool(written: str, meant: str) -> bool:
    """Whether `written` is the tool `meant` with other case or separators (`Playwright_expect_response`
    for `playwright_expect_response`, `get-metrics` for `get_metrics`): no plural, no typo."""
    return written != meant and flat_name(written) == flat_name(meant)


def _head(name: str) -> str:
    """A name's first word with the separator after it (`jira_` of `jira_update_issue`), or ""."""
    found = re.match(r"[A-Za-z0-9]+[_-]", name)
    return found.group(0) if found else ""


def _namespaced(names: Collection[str]) -> bool:
    """Whether every tool of the server opens with a product prefix some other tool shares (`jira_`,
    `confluence_`), and not with a verb several share: then a bare name in a text is the tool as
    it was called before the server prefixed its tools. On a server where only some tools carry the
    prefix (`prometheus_query_range` beside `group_alerts_by_service`), `query_range` may be the
    API the tool calls."""
    heads = Counter(_head(name) for name in names)
    if len(names) < 2 or "" in heads or any(count < 2 for count in heads.values()):
        return False
    return len(heads) * 3 <= len(names)


def _unprefixed(written: str, meant: str, own: str, names: Collection[str]) -> bool:
    """Whether `written` is the tool `meant` without the product prefix it shares with the tool whose
    description names it (`update_issue` in `jira_assign_issue`'s text, for `jira_update_issue`) on a
    server whose every tool is prefixed (`_namespaced`): the tools were prefixed after the text
    was written, and the bare name is no tool of it."""
    if not meant.endswith(written) or len(meant) == len(written) or not re.search(r"[_-]", written):
        return False
    prefix = meant[: len(meant) - len(written)]
    return prefix == _head(meant) and own.startswith(prefix) and _namespaced(names)


def flat_name(name: str) -> str:
    """A name without case or separators: `label_id`, `labelId` and `label-id` alike."""
    return name.replace("_", "").replace("-", "").lower()


def _word(name: str) -> str:
    """`name` as a word of its own: `max_results` in "max_results_total" is another name."""
    return rf"(?<![\w.-]){re.escape(name)}(?![\w-])"


def _renamed(text: str, old: str, new: str) -> str:
    # A name called in code (`add_ticket_reply(ticket_id=1)`) is not renamed to one no language could
    # call there (`add-ticket-reply`): the example would stop being code.
    call = "" if new.isidentifier() else r"(?!\s*\()"
    return re.sub(_word(old) + call, new, text)


def _values(schema: object) -> Iterator[str]:
    """Every `enum` and `const` value a schema holds, at any depth, as strings."""
    if isinstance(schema, Mapping):
        for key, value in schema.items():
            if key == "enum" and isinstance(value, list):
                yield from (str(item) for item in value if isinstance(item, str))
            elif key == "const" and isinstance(value, str):
                yield value
            else:
                yield from _values(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from _values(item)


_QUOTE = "[\"'`]?"


def _a_value(tool: Tool, written: str) -> bool:
    """Whether the text gives `written` as a value of one of the tool's own parameters, not as a
    tool: a value its schema lists (`enum`, `const`), or one the text sets a parameter to
    (`mode: clearAll`, `mode="clearAll"`, "set `mode` to clearAll"). Respelt as a tool, it would
    document a value the schema rejects."""
    if any(flat_name(value) == flat_name(written) for value in _values(tool.input_schema)):
        return True
    # On the parameter's line, and not called: "variables:" closing a line before an example call
    # `search_module(...)` on the next is a heading, not a value.
    value = _QUOTE + re.escape(written) + r"(?![\w(-])"
    for name in tool.properties:
        param = rf"(?<![\w-]){_QUOTE}{re.escape(str(name))}{_QUOTE}"
        if re.search(
            rf"{param}[ \t]*[:=][ \t]*{value}|\b[Ss]et(?:s|ting)?[ \t]+{param}[ \t]+to[ \t]+{value}",
            tool.description,
        ):
            return True
    return False


# What may stand between two names of a list: "after a, b, or c", "a -> b -> c", "a/b".
_BETWEEN = r"\s*(?:,|/|->|\u2192)?\s*(?:(?:or|and|then)\s+)?"


def _all_prefixed(
    text: str, prefixes: Collection[str], tool: Tool, names: Collection[str]
) -> tuple[str, list[str]] | None:
    """The text after its bare names got their prefix back, with every other name of the server the
    text writes without the same prefix given it too (the rule reports one such name of a
    description, but a list names several: "after explore_area, plan_route, or directions"); None
    when one is left that cannot be respelt with the same certainty (a plain word such as
    `directions` beside a respelt name of the list, which may be a word of prose elsewhere): the
    text gets all of its names or none, never a half-respelt list."""
    notes: list[str] = []
    own = tool.name
    full = "|".join(re.escape(name) for name in sorted(names, key=len, reverse=True))
    named = rf"(?<![\w.-])(?:{full})(?![\w-])"
    for prefix in sorted(prefixes):
        bare = sorted(
            name[len(prefix) :] for name in names if name.startswith(prefix) and name[len(prefix) :]
        )
        left = [written for written in bare if written not in names and re.search(_word(written), text)]
        respelt = [
            written
            for written in left
            if _unprefixed(written, prefix + written, own, names) and not _a_value(tool, written)
        ]
        for written in respelt:
            fixed = _renamed(text, written, prefix + written)
            if fixed != text:
                text = fixed
                notes.append(f"{DANGLING} `{written}` -> `{prefix + written}`")
        for written in left:
            if written in respelt:
                continue
            plain = _word(written)
            if re.search(rf"{named}{_BETWEEN}{plain}|{plain}{_BETWEEN}{named}", text):
                return None
    return text, notes


def repair(tool: Tool, findings: Iterable[Finding], names: Collection[str] = ()) -> Repair:
    """`tool`'s description with the mechanical fixes its findings call for; `names` are the
    server's tool names (a bare name is given its prefix back only when every one has one, and
    then every bare name of the text or none)."""
    names = {*names, tool.name} if names else set()
    whole = _repair(tool, findings, names, prefixes=True)
    if whole is not None:
        return whole
    return _repair(tool, findings, names, prefixes=False) or Repair(tool.description)


def _repair(tool: Tool, findings: Iterable[Finding], names: Collection[str], prefixes: bool) -> Repair | None:
    text = tool.description
    notes: list[str] = []
    added: set[str] = set()
    for finding in sorted(findings, key=lambda item: (item.code, item.subject or "")):
        if finding.tool != tool.name or finding.path != "description":
            continue
        if finding.code == DANGLING and finding.subject and finding.suggestion:
            match = _MEANT.match(finding.suggestion)
            if match is None or _a_value(tool, finding.subject):
                continue  # a value of its own parameter is no tool, however it is spelt
            if _unprefixed(finding.subject, match.group(1), tool.name, names):
                if not prefixes:
                    continue
                added.add(match.group(1)[: len(match.group(1)) - len(finding.subject)])
            elif not _same_tool(finding.subject, match.group(1)):
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
    if added:
        rest = _all_prefixed(text, added, tool, names)
        if rest is None:
            return None
        text, more = rest
        notes.extend(more)
    return Repair(text, tuple(notes))
