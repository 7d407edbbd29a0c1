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


def test_a_cue_is_found_by_its_parts_exactly_where_it_matches() -> None:
    """Each explicit cue is searched as its alternatives, each behind its own word gate (`cue_parts`),
    a leading optional group such as "(?:the )?" left out (`_unled`): some part matches in exactly
    the texts the cue matches in, on the calibration texts, their lines, phrasings made to hit the
    parts and random texts of the parts' words."""
    import random

    from jury_support import sample_texts

    from mcp_lint.jury.features.cues import _GATED, EXPLICIT_CUES, _unled, cue_parts
    from mcp_lint.jury.regex_scan import gate_words, word_gate

    texts = [t.lower() for t in sample_texts()]
    texts += [line for t in texts for line in t.split("\n")]
    texts += [
        "the model should call it",
        "xthe model should call it",
        "the the model must not use",
        "usage examples: x",
        "example examples:",
        "an agent may use it",
        "otheragent may use",
        "12 kb max",
        "only pwd, ls are supported",
    ]
    rng = random.Random(34)
    parts = {comp: [gated.pattern for gated in gated_parts] for comp, gated_parts in _GATED.items()}
    pieces = sorted(
        {w for ps in parts.values() for p in ps if (g := word_gate(p)) for w in (*g.words, *g.prefixes)}
    )
    pieces += ["the", "usage", "example", "not", "call", "use", "this", "5", "kb", "only", "it", "when"]
    glue = [" ", "", "_", "-", "'", ".", ": ", "\n", "x", "9"]
    for _ in range(3000):
        texts.append("".join(rng.choice(pieces) + rng.choice(glue) for _ in range(rng.randint(1, 8))))
    for comp, cue in EXPLICIT_CUES.items():
        own = [gated for gated in _GATED[comp]]
        assert [gated.pattern.pattern for gated in own] == [p.pattern for p in cue_parts(cue)]
        for text in texts:
            words = gate_words(text)
            expected = cue.search(text) is not None
            assert any(p.search(text) for p in parts[comp]) == expected, (comp, text[:80])
            assert any(gated.search(text, words) for gated in own) == expected, (comp, text[:80])
    # what `_unled` drops, and what it keeps
    assert _unled(r"\b(?:the )?(?:model|agent) should\b") == r"\b(?:model|agent) should\b"
    assert _unled(r"\b(?:usage |example )?examples?:") == r"\bexamples?:"
    for kept in (
        r"\b(?:the)?(?:model|agent)",  # no space after the group: "themodel" is no word boundary
        r"\b(?:the )?(?:\w+) should",  # the rest's first character is not told
        r"\b(?:the )?-x",  # the rest starts with a non-word character
        r"\b(?:the )*model",  # repeated, not optional
        r"\b(?:the )??model",  # lazy
        r"(?:the )?model",  # no leading boundary
    ):
        assert _unled(kept) == kept
