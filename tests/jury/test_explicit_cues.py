"""Explicit rubric cues count, and are never outweighed by length: a specific "When to use:" section,
a stated bound or allow-list, a worked example call lifts its component to at least 3; the same cue
with nothing specific to the tool in it (or padding wearing it) does not."""

from __future__ import annotations

from typing import Any

import pytest

from mcp_lint.jury.features import analyze
from mcp_lint.jury.offline import EXPLICIT_FLOOR, OfflineJury
from mcp_lint.model import Tool

JURY = OfflineJury()

FILES = {
    "type": "object",
    "properties": {
        "path": {"type": "string", "description": "File path relative to the workspace root."},
        "encoding": {"type": "string", "enum": ["utf-8", "latin-1"]},
    },
}
SHELL = {
    "type": "object",
    "properties": {"command": {"type": "string", "description": "The shell command: pwd, ls or cat."}},
}
SEARCH = {
    "type": "object",
    "properties": {"query": {"type": "string"}, "max_results": {"type": "integer"}},
}


def _scores(name: str, description: str, schema: Any) -> dict[str, float]:
    tool = Tool(name=name, raw={"name": name, "description": description, "inputSchema": schema})
    return JURY.judge(tool, []).scores


# (component, tool name, description, schema): each phrasing an explicit cue naming the tool's things
EXPLICIT = [
    # usage guidelines: a section, an order about calling it, a sibling to prefer
    (
        "guidelines",
        "read_text",
        "Read a text file.\nWhen to use:\n- the file at `path` is under 1 MB\n- you need its exact bytes",
        FILES,
    ),
    (
        "guidelines",
        "read_text",
        "Reads a file from the workspace.\nUse this tool when you need to:\n- inspect "
        "a config file at a known path\n- check its encoding",
        FILES,
    ),
    (
        "guidelines",
        "run_shell",
        "Runs a shell command. The model should NOT call this tool directly; "
        "run_pipeline calls it with each command.",
        SHELL,
    ),
    (
        "guidelines",
        "search_index",
        "Search the index. Call this tool only after refresh_index has finished, with a short query.",
        SEARCH,
    ),
    (
        "guidelines",
        "search_index",
        "Full-text search over the index.\n## When not to use\nFor exact ids use "
        "get_document instead: a query matches words, not ids.",
        SEARCH,
    ),
    # limitations: a bound with its number, an allow-list, an unsupported case
    ("limitations", "read_text", "Read a text file at path. Files are max 512KB.", FILES),
    ("limitations", "run_shell", "Runs a shell command. Only pwd, ls, cat are supported.", SHELL),
    ("limitations", "search_index", "Search the index by query. Returns at most 100 results.", SEARCH),
    ("limitations", "search_index", "Search the index by query; max_results can be up to 50.", SEARCH),
    (
        "limitations",
        "read_text",
        "Read a text file at path. Binary files are not supported: the encoding must be utf-8 or latin-1.",
        FILES,
    ),
    # examples: a labelled JSON object or call naming the parameters
    (
        "examples",
        "search_index",
        'Search the index.\nUsage Example:\n{"query": "rate limits", "max_results": 5}',
        SEARCH,
    ),
    (
        "examples",
        "search_index",
        'Search the index. Example: search_index(query="retry policy", max_results=3)',
        SEARCH,
    ),
    (
        "examples",
        "read_text",
        'Read a text file.\nExample call:\n```json\n{"path": "docs/intro.md"}\n```',
        FILES,
    ),
    ("examples", "run_shell", 'Runs a shell command, e.g. {"command": "ls"}.', SHELL),
]


@pytest.mark.parametrize(("component", "name", "text", "schema"), EXPLICIT)
def test_an_explicit_specific_cue_lifts_its_component_to_three(
    component: str, name: str, text: str, schema: Any
) -> None:
    assert component in analyze(name, text, schema).cues
    assert _scores(name, text, schema)[component] >= EXPLICIT_FLOOR


# The same cues with nothing of the tool in them: no floor (the model alone decides, and padding of
# this kind is dropped before it).
VAGUE = [
    (
        "guidelines",
        "read_text",
        "Read a text file at path.\nWhen to use:\n- whenever it helps\n- if needed",
        FILES,
    ),
    (
        "guidelines",
        "run_shell",
        "Runs a shell command. The model should not call this tool carelessly.",
        SHELL,
    ),
    ("limitations", "run_shell", "Runs a shell command. Only a few are supported.", SHELL),
    ("limitations", "search_index", "Search the index. It has limits.", SEARCH),
    ("examples", "search_index", "Search the index. Example: search for something.", SEARCH),
    ("examples", "search_index", 'Search the index. Example: {"foo": "bar"}', SEARCH),
]


@pytest.mark.parametrize(("component", "name", "text", "schema"), VAGUE)
def test_a_cue_with_nothing_specific_sets_no_floor(component: str, name: str, text: str, schema: Any) -> None:
    assert component not in analyze(name, text, schema).cues


def test_length_never_outweighs_the_cue() -> None:
    """A long description whose one limitation is explicit still scores limitations >= 3."""
    body = " ".join(
        f"The {word} section of the file at path is read as text in the given encoding."
        for word in ("header", "body", "footer", "appendix", "index", "glossary")
    )
    text = f"Read a text file. {body} Files are max 512KB."
    assert _scores("read_text", text, FILES)["limitations"] >= EXPLICIT_FLOOR


def test_the_issue_phrasings_count() -> None:
    """The phrasings a reader found scored 1-2 (on tools of our own that they fit)."""
    assert (
        _scores("run_shell", "Run a shell command. Only pwd, ls, cat are supported.", SHELL)["limitations"]
        >= 3
    )
    assert _scores("read_text", "Read the file at path (max 512KB).", FILES)["limitations"] >= 3
    text = "Search the index.\nWhen to use:\n- to find documents by query\n- to rank them by max_results"
    assert _scores("search_index", text, SEARCH)["guidelines"] >= 3
