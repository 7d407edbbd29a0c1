"""Offline jury: range, determinism, reasons, anti-gaming, schema credit, reproducible weights."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.jury.base import COMPONENTS, JudgeVerdict
from mcp_lint.jury.calibration import dumps_weights, fit_weights, load_rows
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.model import Tool

ROOT = Path(__file__).resolve().parents[2]
JURY = OfflineJury()
ROWS = load_rows()

FILLERS = (
    "This powerful tool is useful in many situations.",
    "It is a great and versatile tool that helps you.",
    "This tool is extremely reliable and easy to use.",
    "Use it whenever you need it.",
    "Highly recommended.",
    "It works seamlessly and efficiently in any workflow.",
)


def make_tool(name: str, description: str | None, schema: Any = None, *, with_schema: bool = True) -> Tool:
    raw: dict[str, Any] = {"name": name}
    if description is not None:
        raw["description"] = description
    if with_schema:
        raw["inputSchema"] = schema
    return Tool(name=name, raw=raw)


def row_tool(row: dict[str, Any], description: str | None = None) -> Tool:
    desc = row["description"] if description is None else description
    return make_tool(row["tool"], desc, row["input_schema"], with_schema=row["input_schema"] is not None)


def check_verdict(verdict: JudgeVerdict) -> None:
    assert verdict.judge == "offline"
    assert set(verdict.scores) == set(COMPONENTS)
    for comp in COMPONENTS:
        score = verdict.scores[comp]
        assert isinstance(score, float)
        assert 1.0 <= score <= 5.0
        assert float(int(score)) == score
        assert verdict.reasons[comp].strip()


def test_every_calibration_tool_scores_in_range_with_reasons() -> None:
    for row in ROWS:
        check_verdict(JURY.judge(row_tool(row), []))


def test_deterministic_and_independent_of_call_order() -> None:
    first = [JURY.judge(row_tool(r), []).scores for r in ROWS[:80]]
    fresh = OfflineJury()
    second = [fresh.judge(row_tool(r), []).scores for r in reversed(ROWS[:80])]
    assert first == list(reversed(second))


@pytest.mark.parametrize(
    "tool",
    [
        make_tool("empty", ""),
        make_tool("missing", None),
        make_tool("no_schema", "Fetch the weather.", with_schema=False),
        make_tool("schema_list", "Fetch the weather.", ["not", "a", "dict"]),
        make_tool("schema_str", "Fetch the weather.", "object"),
        make_tool("props_not_dict", "Fetch the weather.", {"type": "object", "properties": [1, 2]}),
        make_tool("prop_spec_not_dict", "Fetch it.", {"type": "object", "properties": {"a": 3}}),
        make_tool(
            "chinese", "根据用户的忌口、过敏原、人数智能推荐菜谱，创建一周的膳食计划以及大致的购物清单"
        ),
        make_tool("emoji", "🚀🚀🚀 ¿Qué? Ünïcödé — ñ 😀"),
        make_tool("punct", "... --- ``` !!! ???"),
        make_tool("huge", "Search the archive for matching records by keyword and date. " * 900),
        make_tool("huge_varied", " ".join(f"Parameter p{i} sets option {i}." for i in range(4000))),
    ],
    ids=lambda t: t.name,
)
def test_odd_inputs_do_not_crash(tool: Tool) -> None:
    check_verdict(JURY.judge(tool, ["other_tool", tool.name]))


def test_empty_description_is_a_smell_everywhere_but_parameters_without_params() -> None:
    verdict = JURY.judge(make_tool("empty", ""), [])
    for comp in ("purpose", "guidelines", "limitations", "length", "examples"):
        assert verdict.scores[comp] < 3, comp


@pytest.mark.parametrize("text", ["No description", "TODO", "N/A", "No description available."])
def test_placeholder_description_scores_the_bottom(text: str) -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}}
    verdict = JURY.judge(make_tool("search", text, schema), [])
    assert verdict.scores == dict.fromkeys(COMPONENTS, 1.0)
    documented = {
        "type": "object",
        "properties": {"q": {"type": "string", "description": "Query, e.g. cats."}},
    }
    with_docs = JURY.judge(make_tool("search", text, documented), [])
    assert with_docs.scores["parameters"] >= 1.0  # schema docs may still raise parameters
    assert {c: s for c, s in with_docs.scores.items() if c != "parameters"} == {
        c: 1.0 for c in COMPONENTS if c != "parameters"
    }


def _variants(description: str) -> dict[str, str]:
    sentences = re.split(r"(?<=[.!?])\s+", description)
    return {
        "repeat-space": description + " " + description,
        "sentences-doubled": " ".join(s + " " + s for s in sentences),
        "filler-0": description + " " + FILLERS[0],
        "filler-1": description + " " + FILLERS[1],
        "filler-all": description + " " + " ".join(FILLERS),
        "filler-and-repeat": description + " " + FILLERS[0] + " " + FILLERS[1] + "\n" + description,
    }


def test_repetition_and_filler_never_raise_any_score() -> None:
    violations: list[str] = []
    for row in ROWS:
        base = JURY.judge(row_tool(row), []).scores
        for label, text in _variants(row["description"]).items():
            got = JURY.judge(row_tool(row, text), []).scores
            for comp in COMPONENTS:
                if got[comp] > base[comp]:
                    violations.append(f"{row['tool']} {label} {comp}: {base[comp]} -> {got[comp]}")
    assert not violations, violations[:20]


def test_filler_is_ignored_and_reported() -> None:
    tool = make_tool("get_price", "Get the current stock price for a ticker symbol. " + " ".join(FILLERS))
    verdict = JURY.judge(tool, [])
    assert "filler" in verdict.reasons["length"]


def test_schema_documentation_raises_parameters() -> None:
    bare = {
        "type": "object",
        "properties": {"symbol": {"type": "string"}, "start": {"type": "string"}, "end": {"type": "string"}},
        "required": ["symbol"],
    }
    documented = {
        "type": "object",
        "properties": {
            "symbol": {"type": "string", "description": "Ticker symbol in Yahoo Finance format, e.g. AAPL."},
            "start": {
                "type": "string",
                "format": "date",
                "description": "First day (YYYY-MM-DD), inclusive.",
            },
            "end": {
                "type": "string",
                "format": "date",
                "description": "Last day (YYYY-MM-DD); defaults to today.",
            },
        },
        "required": ["symbol"],
    }
    desc = "Get daily closing prices for a stock between two dates."
    low = JURY.judge(make_tool("prices", desc, bare), [])
    high = JURY.judge(make_tool("prices", desc, documented), [])
    assert high.scores["parameters"] > low.scores["parameters"]
    assert high.scores["parameters"] >= 3
    assert "start" in low.reasons["parameters"] and "never explained" in low.reasons["parameters"]
    for comp in COMPONENTS:
        if comp != "parameters":
            assert high.scores[comp] == low.scores[comp]


GOOD = """Search the company's issue tracker and return matching issues, newest first.

Use this when the user asks about bugs, tickets or feature requests by keyword; to read one issue
in full use get_issue instead, and do not use it for pull requests (use search_prs).

Returns: a JSON list of at most 50 issues, each with `id`, `title`, `state` and `url`.
Limitations: only searches open and closed issues of the configured repository; it cannot search
comments, and the API rate limit is 30 requests per minute.

Args:
    query (str, required): keywords, e.g. "login timeout" or "label:bug crash".
    state (str, optional): one of "open", "closed" or "all". Defaults to "open".
    limit (int, optional): maximum number of results, 1-50. Defaults to 20.

Example: search_issues(query="oauth redirect", state="all", limit=5)
"""

SCHEMA = {
    "type": "object",
    "properties": {"query": {"type": "string"}, "state": {"type": "string"}, "limit": {"type": "integer"}},
    "required": ["query"],
}


def test_well_written_description_beats_a_one_liner() -> None:
    good = JURY.judge(make_tool("search_issues", GOOD, SCHEMA), ["get_issue", "search_prs"])
    poor = JURY.judge(make_tool("search_issues", "Search issues.", SCHEMA), ["get_issue", "search_prs"])
    for comp in ("guidelines", "limitations", "examples", "parameters", "purpose", "length"):
        assert good.scores[comp] > poor.scores[comp], comp
    assert good.scores["guidelines"] >= 3 and good.scores["limitations"] >= 3
    assert "when to use" in poor.reasons["guidelines"]
    assert "get_issue" not in poor.reasons["guidelines"] or "similar" in poor.reasons["guidelines"]


def test_shipped_weights_match_a_fresh_fit() -> None:
    shipped = (ROOT / "mcp_lint" / "jury" / "data" / "offline-weights.json").read_text(encoding="utf-8")
    assert dumps_weights(fit_weights(ROWS)) == shipped


def test_vendored_calibration_data_and_notice() -> None:
    data = ROOT / "mcp_lint" / "jury" / "data"
    assert len(ROWS) == 408
    notice = (data / "NOTICE.md").read_text(encoding="utf-8")
    assert "Apache" in notice and "SAILResearch" in notice and "LiveMCPBench" in notice


# -- fast paths in features.py: each must give exactly what the plain regex gives -------------------


def _texts() -> list[str]:
    from mcp_lint.jury.features import schema_as_prose

    out = []
    for row in ROWS:
        desc = row["description"]
        out += [desc, desc.lower(), desc.upper(), schema_as_prose(row["input_schema"]), GOOD]
        out.append(desc.replace(". ", ".\n  \t").replace(", ", ",\r\n"))
    out += [
        "",
        "\n\n  \t",
        "获取天气。仅支持中国城市；失败时返回错误。例如：北京",
        "Use it.This tool works\u2028It is \u00a0 fine!  \n\nYou can't?",
    ]
    return out


def test_literal_anchor_pre_tests_never_skip_a_match() -> None:
    from mcp_lint.jury import features as F

    gated = [v for v in vars(F).values() if isinstance(v, F._Gated)]
    assert len(gated) >= 5
    for text in _texts():
        for low in (text, text.lower()):
            for g in gated:
                if g.regex.search(low):
                    assert F._may_match(g.anchors, low), (g.regex.pattern[:60], low[:80])
                assert list(m.span() for m in g.finditer(low)) == [m.span() for m in g.regex.finditer(low)]


def _same_matches(scan: Any, text: str) -> None:
    got = scan.scan(text)
    for regex, once, matches in zip(scan.patterns, scan.once, got, strict=True):
        want = [(m.span(), m.lastgroup, m.groups()) for m in regex.finditer(text)][: 1 if once else None]
        assert [(m.span(), m.lastgroup, m.groups()) for m in matches] == want, (regex.pattern[:60], text[:80])


def test_cue_scan_and_sentence_split_match_the_plain_regexes() -> None:
    from mcp_lint.jury import features as F

    # every cue regex takes the one-pass path (a regex whose starts cannot be derived still gives
    # the same matches, scanned on its own, but slower)
    assert F._CUE_SCAN.alone == ()
    for text in _texts():
        _same_matches(F._CUE_SCAN, text.lower())
        _same_matches(F._CUE_SCAN, text)
        if not any(ch in text for ch in "。！？；"):
            assert F._SENT_SPLIT_NO_CJK_STOP.split(text) == F.SENT_SPLIT.split(text)


def test_cue_scan_gives_finditer_for_awkward_regexes() -> None:
    """Starts behind optional parts, classes, lookarounds, boundaries inside groups, overlapping and
    adjacent matches, and regexes it cannot read (scanned on their own): always `finditer`."""
    import random

    from mcp_lint.jury import features as F

    patterns = [
        r"\bnot\b|\bdoes not\b|\bnot supported",
        r"(?:please )?use(?: it)?\b",
        r"\b\d+ (?:items|results)\b|\bmax\b[^.\n]{0,10}\d",
        r"(?<![a-z])ab|ba(?=b)|\bb",
        r"a+b|b+a",
        r"(?:x|y)?z\b",
        r"\bk(?:ey|ind)s?\b|限制|仅",
        r"[ab]{2}|c",
        r"\Bb\w",
        r"(?i)ab",
        r".b",
        r"[^a]b",
        r"(?:a|)b",
        r"\s+a",
        r"(?P<one>a)|(?P<two>b)(c)",
        r"(?:^|\s)(?:not|use)s?\s*:",
        r"(?m)^\s*-\s*\w+:|(?:^|\s)kind\b",
        r"^b|\Aa",
        r"(?m:^x)|\by",
        r"\b\d+(?:\.\d+)?\b",
        r"\W(?:ab|仅)|\s\bmax",
        r"\s\(x|\d-y",
        r"\s\w",
    ]
    scan = F._CueScan([re.compile(p) for p in patterns], first_only=(1, 9, 13, 15))
    assert scan.alone == (9, 10, 11)  # IGNORECASE, any character, a negated class
    rng = random.Random(7)
    words = (
        "a b ab ba not does use please it z x 1 23 max . items 限制 仅 key kinds c _ é - y: 4.5 kind (x -y"
    )
    pieces = [*words.split(), " ", "\n"]
    for _ in range(3000):
        text = "".join(rng.choice(pieces) + rng.choice(["", "", " "]) for _ in range(rng.randint(0, 20)))
        _same_matches(scan, text)


def test_name_lookups_match_the_full_scans() -> None:
    """`_mentioned` and `_inline_entries` test a name only where it occurs; the plain definitions list
    every identifier / inline entry of the text. Same answers, also where lower-casing moves offsets
    ("İ") or turns a non-ASCII letter into an ASCII one (Kelvin sign)."""
    import random

    from mcp_lint.jury import features as F

    def mentioned_plain(text: str, names: list[str]) -> set[str]:
        idents = {m.lower() for m in F.IDENT.findall(text)}
        spaced_text = " " + " ".join(F._ALNUM.findall(text.lower())) + " "
        return {
            n
            for n in names
            if any(v and (v in idents or (" " in v and f" {v} " in spaced_text)) for v in F._name_variants(n))
        }

    def inline_plain(text: str, names: set[str]) -> set[str]:
        entries = {m.group(1).lower() for m in F._INLINE_ENTRY.finditer(text)}
        return {n for n in names if n in entries}

    rng = random.Random(11)
    some_names = "user_id userId limit max-results a1 id k _x Kind é x__y"
    names = [*some_names.split(), "page size", ""]
    words = "user id userId limit limits max results max-results a1 1a 9id id ID k \u212a _x x_ kind Kind"
    pieces = [*words.split(), *" \n`'\":=()_-–,.", "\u0130", "é", "(int)", " - ", ": ", "page"]
    pieces += [": x", "=1", " (str): y", "`: z", "— w"] * 3
    for _ in range(4000):
        text = "".join(rng.choice(pieces) + rng.choice(["", " ", ""]) for _ in range(rng.randint(0, 16)))
        chosen = rng.sample(names, rng.randint(1, 5))
        low = text.lower()
        assert F._mentioned(text, low, F._PropNames.of(chosen)) == mentioned_plain(text, chosen), (
            text,
            chosen,
        )
        wanted = {n.lower() for n in chosen}
        assert F._inline_entries(text, low, wanted) == inline_plain(text, wanted), (text, chosen)


def test_model_visits_only_non_zero_features_with_the_same_sums() -> None:
    """`_Component.raw` skips zero features; it must equal the plain sums bit for bit."""
    import bisect
    import math
    import random

    from mcp_lint.jury.features import FEATURE_NAMES
    from mcp_lint.jury.offline import _model

    def plain(comp: Any, x: tuple[float, ...]) -> float:
        lin = 0.0
        for j, w in comp.weights:
            lin += w * x[j]
        boost = comp.base
        for j, ts, vs in comp.steps:
            boost += vs[bisect.bisect_left(ts, x[j])]
        return float(0.5 * (lin + boost))

    model = _model()
    thresholds = sorted({t for comp in model.values() for _, ts, _ in comp.steps for t in ts})
    rng = random.Random(5)
    for _ in range(3000):
        x = tuple(
            rng.choice([0.0, 0.0, -0.0, 1.0, rng.uniform(-3, 5), rng.choice(thresholds), 1e-320])
            for _ in FEATURE_NAMES
        )
        for comp in model.values():
            got, want = comp.raw(x), plain(comp, x)
            assert got == want and math.copysign(1.0, got) == math.copysign(1.0, want)


def test_lowered_twins_of_case_insensitive_regexes() -> None:
    """On ASCII text, `_lowered(regex)` over the text lower-cased matches where `regex` matches the
    text; the two section regexes get a case-sensitive twin (so they join the cue scan)."""
    import random

    from mcp_lint.jury import features as F

    assert F._RETURN_SECTION_ASCII and F._PARAM_SECTION_ASCII  # so both join the cue scan
    tricky = [
        re.compile(p, re.IGNORECASE)
        for p in (r"[A-Z]x", r"[a-f]+:", r"k\b", "\u212a", r"(?-i:A)b", r"[^a]B", r"(a)\1", r"[Z-a]")
    ]
    assert [F._lowered(r) is None for r in tricky] == [True, False, False, True, True, True, True, True]
    regexes = [F.RETURN_SECTION, F.PARAM_SECTION, *(r for r in tricky if F._lowered(r))]
    rng = random.Random(3)
    words = "Returns: OUTPUT response Args PARAMS inputs Options # - x X k K b B a A f F"
    pieces = [*words.split(), " ", "\n", ":"]
    texts = [t for t in _texts() if t.isascii()]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 12))) for _ in range(2000)]
    for text in texts:
        for regex in regexes:
            twin = F._lowered(regex)
            assert twin is not None
            want = [m.span() for m in regex.finditer(text)]
            assert [m.span() for m in twin.finditer(text.lower())] == want, (regex.pattern, text)


def test_ascii_fast_paths_for_tokens_and_numbers() -> None:
    import random

    from mcp_lint.jury import features as F

    def plain_tokens(text: str) -> list[str]:
        words: list[str] = F.WORD.findall(text.lower())
        if not F.CJK.search(text):
            return words
        return [ch for w in words for ch in (w if F.CJK.search(w) else [w]) if not ch.isspace()]

    rng = random.Random(9)
    alphabet = "aZ09_'’ -.\n\x1cé仅"
    texts = _texts() + ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(3000)]
    texts += ["don't it's rock'n'roll 'quoted' a'1 O'Neil X_Y 3'x"]
    for text in texts:
        assert F.tokens(text) == plain_tokens(text), text
        if F._no_digit(text):
            assert not F.NUMBER.search(text)
