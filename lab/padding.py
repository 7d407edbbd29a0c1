"""How far padding moves the embedded offline jury: the defended kinds and the known edges.

    python -m lab.padding    (or benchmarks/offline_jury_padding.py)

Each attack rewrites every one of the 408 calibration descriptions (appending a sentence, restating
one, adding a title, ...) and counts the tools on which any of the six scores rises. The attacks
marked "defended" are what `tests/jury/test_offline.py` guarantees (they must print 0); the ones
marked "edge" are padding a red-team pass found that the word lists and repetition rules do not
catch. The count says how big each edge is, so a change to the defence can be judged by it.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from typing import Any

from lab.corpus import load_rows, sibling_names
from mcp_lint.jury.base import COMPONENTS
from mcp_lint.jury.features import informative_units, split_units
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.model import Tool

Row = dict[str, Any]
Attack = Callable[[Row], str]


def _terminated(text: str) -> str:
    text = text.rstrip()
    return text if not text or text[-1] in ".!?。！？:" else text + "."


def _appended(sentence: str) -> Attack:
    return lambda row: f"{_terminated(row['description'])} {sentence}"


def _first(row: Row) -> str:
    units = split_units(row["description"])
    return units[0] if units else ""


def _first_half(row: Row) -> str:
    words = re.findall(r"\w+", _first(row))
    return " ".join(words[: max(2, len(words) // 2)])


def _spaced_name(row: Row) -> str:
    return re.sub(r"(?<=[a-z])(?=[A-Z])", " ", row["tool"]).replace("_", " ").replace("-", " ").lower()


def _name_restated(row: Row) -> str:
    """'Use this tool to <the name>.' after a description that says something. Where it says nothing
    ('No description'), the restated name is its first real sentence, and counts as one."""
    if not informative_units(row["description"]).kept:
        return str(row["description"])
    return f"{_terminated(row['description'])} Use this tool to {_spaced_name(row)}."


ATTACKS: list[tuple[str, str, Attack]] = [
    (
        "defended",
        "marketing sentence",
        _appended("Our best-in-class, enterprise-grade solution delivers value."),
    ),
    ("defended", "lorem ipsum", _appended("Lorem ipsum dolor sit amet, consectetur adipiscing elit.")),
    ("defended", "vacuous usage advice", _appended("Use this tool when appropriate.")),
    (
        "defended",
        "vacuous caveat",
        _appended("This tool has some limitations. It may not work in all cases."),
    ),
    ("defended", "vacuous returns", _appended("Returns the result.")),
    ("defended", "labelled vacuous note", _appended("Note: results may vary.")),
    ("defended", "whole text three times", lambda row: "\n\n".join([row["description"]] * 3)),
    ("defended", "upper-case copy", lambda row: row["description"] + "\n" + row["description"].upper()),
    ("defended", "first sentence behind 'Note:'", lambda row: f"{row['description']}\nNote: {_first(row)}"),
    (
        "defended",
        "numbered copy",
        lambda row: (
            row["description"]
            + "\n\n"
            + "\n".join(f"{k}. {unit}" for k, unit in enumerate(split_units(row["description"]), 1))
        ),
    ),
    ("defended", "'## Overview' title", lambda row: "## Overview\n" + row["description"]),
    ("defended", "emoji bullets", lambda row: row["description"] + "\n- ✅\n- 🚀\n---"),
    ("defended", "emoji title", lambda row: "# 🚀\n" + row["description"]),
    ("defended", "lone code fence and braces", lambda row: row["description"] + "\n```\n{\n}\n```"),
    ("defended", "tool name as a title", lambda row: f"# {row['tool']}\n{row['description']}"),
    ("defended", "name restated after the description", _name_restated),
    ("edge", "one unlisted word", _appended("If you have questions, contact support.")),
    ("edge", "vague advice", _appended("Call this tool first, then process the output.")),
    ("edge", "Spanish filler", _appended("Es una herramienta muy poderosa.")),
    ("edge", "Chinese filler", _appended("这是一个非常强大的工具。")),
    (
        "edge",
        "half of the first sentence behind 'Note:'",
        lambda row: f"{row['description']}\nNote: {_first_half(row)}.",
    ),
    ("edge", "JSON with the tool name", _appended('{"name": "tool"}')),
]


def _tool(row: Row, description: str) -> Tool:
    raw: dict[str, Any] = {"name": row["tool"], "description": description}
    if row["input_schema"] is not None:
        raw["inputSchema"] = row["input_schema"]
    return Tool(name=row["tool"], raw=raw)


def main() -> int:
    rows = load_rows()
    jury = OfflineJury()
    siblings = sibling_names(rows)
    base = [
        jury.judge(_tool(row, row["description"]), others).scores
        for row, others in zip(rows, siblings, strict=True)
    ]
    print(f"offline jury under padding: tools (of {len(rows)}) on which any score rises")
    print("| kind     | attack                                   | tools raised | most raised   |")
    print("|---|---|---|---|")
    failed = False
    for kind, label, attack in ATTACKS:
        raised: dict[str, int] = dict.fromkeys(COMPONENTS, 0)
        tools = 0
        for row, others, before in zip(rows, siblings, base, strict=True):
            after = jury.judge(_tool(row, attack(row)), others).scores
            # the schema is untouched, so the same components apply (parameters n/a stays n/a)
            up = [comp for comp in before if after[comp] > before[comp]]
            tools += bool(up)
            for comp in up:
                raised[comp] += 1
        top = max(raised, key=lambda comp: raised[comp]) if tools else "-"
        print(f"| {kind:<8} | {label:<40} | {tools:12d} | {top:<13} |")
        failed |= kind == "defended" and tools > 0
    if failed:
        print("a defended kind of padding raised a score: see tests/jury/test_offline.py", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
