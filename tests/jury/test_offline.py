"""Offline jury: range, determinism, reasons, anti-gaming, schema credit, reproducible weights."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from jury_support import GOOD, sample_texts

from lab.corpus import load_rows
from mcp_lint.jury.base import COMPONENTS, JudgeVerdict
from mcp_lint.jury.features import informative_units
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.model import Tool

ROOT = Path(__file__).resolve().parents[2]
JURY = OfflineJury()
ROWS = load_rows()

# Padding an agent gains nothing from: marketing, and sentences that use the rubric's words (when to
# use it, limitations, parameters, returns, examples) without saying anything about the tool.
FILLERS = (
    "This powerful tool is useful in many situations.",
    "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt.",
    "It is a great and versatile tool that helps you.",
    "This tool is extremely reliable and easy to use.",
    "Use it whenever you need it.",
    "Highly recommended.",
    "It works seamlessly and efficiently in any workflow.",
    "Our best-in-class, enterprise-grade, blazing fast solution delivers unparalleled value.",
    "This state-of-the-art tool is designed to make your life easier.",
    "A powerful, flexible and reliable utility for all your needs.",
    "Trusted by thousands of developers around the world.",
    "Simple, fast, and secure.",
    "Boost your productivity with this amazing tool!",
    "The ultimate all-in-one toolkit you'll ever need.",
    "Use this tool when appropriate. Do not use it when it is not appropriate.",
    "Call this tool whenever it makes sense to do so.",
    "Only use this tool if you need to.",
    "This tool should be used in the right situations.",
    "This tool has some limitations. It may not work in all cases.",
    "Note: results may vary.",
    "Some restrictions apply.",
    "Errors may occur.",
    "Please be careful when using this tool.",
    "All parameters should be provided in the correct format.",
    "Returns the result.",
    "Example: call this tool with the right arguments.",
    "The response contains the requested data.",
    "See the documentation for more details.",
    "Important: this tool returns results.",
    "If an error occurs, an error message will be returned.",
    "The response includes all relevant details.",
    "Do not use this tool unless needed.",
    "This tool cannot do everything.",
    "Leverage the power of this tool to streamline your workflow.",
    "Thank you for using this tool!",
    "Happy coding!",
    "Self-explanatory.",
    "Arguments:\n  see the schema for details",
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


def check_verdict(verdict: JudgeVerdict, tool: Tool) -> None:
    assert verdict.judge == "offline"
    # parameters does not apply to a tool that takes none: left out, with a reason saying so
    applies = set(COMPONENTS) - ({"parameters"} if not tool.properties else set())
    assert set(verdict.scores) == applies
    if not tool.properties:
        assert verdict.reasons["parameters"].startswith("n/a")
    for comp in sorted(applies):
        score = verdict.scores[comp]
        assert isinstance(score, float)
        assert 1.0 <= score <= 5.0
        assert float(int(score)) == score
        assert verdict.reasons[comp].strip()


def test_every_calibration_tool_scores_in_range_with_reasons() -> None:
    for row in ROWS:
        tool = row_tool(row)
        check_verdict(JURY.judge(tool, []), tool)


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
    check_verdict(JURY.judge(tool, ["other_tool", tool.name]), tool)


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


def _terminated(text: str) -> str:
    text = text.rstrip()
    return text if not text or text[-1] in ".!?。！？:" else text + "."


def _variants(description: str) -> dict[str, str]:
    sentences = re.split(r"(?<=[.!?])\s+", description)
    lines = [line.strip() for line in description.splitlines() if line.strip()]
    first = lines[0] if lines else ""
    out = {
        "repeat-space": description + " " + description,
        "repeat-three-times": "\n\n".join([description] * 3),
        "repeat-upper-case": description + "\n" + description.upper(),
        "sentences-doubled": " ".join(s + " " + s for s in sentences),
        "first-line-labelled-note": description + "\nNote: " + first,
        "first-line-labelled-important": description + "\nImportant: " + first,
        "first-line-again": description + "\n" + first.rstrip(".") + " again.",
        "first-line-first": first + "\n" + description,
        "title-overview": "## Overview\n" + description,
        "decoration": "# 🚀\n" + description + "\n- ✅\n- ✨\n---",
        "bare-code-lines": description + "\n```\n{\n});\n```",
        "title-description": "# Description\n" + description,
        "numbered-copy": description + "\n\n" + "\n".join(f"{k}. {u}" for k, u in enumerate(lines, 1)),
        "bulleted-summary-copy": description + "\n\nSummary:\n" + "\n".join(f"- {u}" for u in lines),
        "filler-all": _terminated(description) + " " + " ".join(FILLERS),
        "filler-and-repeat": f"{_terminated(description)} {FILLERS[0]} {FILLERS[1]}\n{description}",
    }
    for k, filler in enumerate(FILLERS):
        out[f"filler-{k}-line"] = description + "\n" + filler
        out[f"filler-{k}-sentence"] = _terminated(description) + " " + filler
        out[f"filler-{k}-before"] = filler + "\n" + description
    return out


# Every padding variant on every fourth calibration tool (102 of 408): the variants are the same for
# each tool, so a quarter of the corpus covers each kind on every server's style of description in a
# quarter of the time. The whole corpus is `python -m lab.padding` (every defended kind must print 0).
SWEEP_ROWS = ROWS[::4]


@pytest.mark.slow  # a sweep: every padding variant of 102 calibration tools (~15-25 s idle)
def test_repetition_and_filler_never_raise_any_score() -> None:
    assert len({row["server"] for row in SWEEP_ROWS}) > 0.6 * len({row["server"] for row in ROWS})
    violations: list[str] = []
    for row in SWEEP_ROWS:
        base = JURY.judge(row_tool(row), []).scores
        variants = _variants(row["description"])
        if informative_units(row["description"]).kept:  # a later sentence that restates the name
            spaced = re.sub(r"(?<=[a-z])(?=[A-Z])|[_-]", " ", row["tool"]).lower()
            variants["name-restated"] = f"{_terminated(row['description'])} Use this tool to {spaced}."
        variants["name-as-title"] = f"# {row['tool']}\n{row['description']}"
        for label, text in variants.items():
            got = JURY.judge(row_tool(row, text), []).scores
            for comp in base:  # the schema is untouched: the same components apply
                if got[comp] > base[comp]:
                    violations.append(f"{row['tool']} {label} {comp}: {base[comp]} -> {got[comp]}")
    assert not violations, violations[:20]


@pytest.mark.parametrize(
    ("text", "kept"),
    [
        (
            "Get the weather.\nReturns:\n  Temperature in Celsius.",
            ("Get the weather.", "Returns:", "Temperature in Celsius."),
        ),
        ("Get the weather.\nReturns:", ("Get the weather.",)),  # a heading with nothing after it
        ("Get the weather.\nLimitations:\nThis tool has some limitations.", ("Get the weather.",)),
        ("Get the weather for a city.\nNote: get the weather for a city!", ("Get the weather for a city.",)),
        (
            "Get the weather for a city.\nNote: only cities in Europe.",
            ("Get the weather for a city.", "Note: only cities in Europe."),
        ),
        ("Get an NPM package All parameters should be given", ("Get an NPM package",)),
        ("Get All Issues from GitHub", ("Get All Issues from GitHub",)),  # Title Case is not cut
        # bare code lines count nothing, before or after the first kept unit; the code inside does
        (
            'Get the weather.\nExample:\n```\n{\n  "city": "Paris"\n}\n```',
            ("Get the weather.", "Example:", '"city": "Paris"'),
        ),
        ('```\n{\n"a": 1\n}\n```\nGet the weather.', ('"a": 1', "Get the weather.")),
    ],
)
def test_vacuous_units_headings_and_restatements(text: str, kept: tuple[str, ...]) -> None:
    assert informative_units(text).kept == kept


@pytest.mark.parametrize(
    "text",
    ["Get users.", "Run the tests.", "Execute a query.", "List teams.", "Get customers.", "Format JSON.",
     "Call a phone number.", "Get the current time.", "Delete a file.", "Show performance metrics."],
)  # fmt: skip
def test_short_real_descriptions_are_never_taken_for_filler(text: str) -> None:
    assert informative_units(text).kept == (text,)


def test_a_later_unit_that_only_restates_the_tool_name_is_dropped() -> None:
    from mcp_lint.jury.features import analyze

    text = (
        "Get the weather for a city.\nUse this tool to get weather.\n"
        "This does not get weather for Mars.\nExample: get_weather()"
    )
    assert analyze("get_weather", text, None).kept == (
        "Get the weather for a city.",
        "This does not get weather for Mars.",  # a negation says what it does not do
        "Example: get_weather()",  # a call is an example
    )
    listed = analyze("get_weather", "Get the weather for a city.\nReturns:\n- weather", None)
    assert listed.kept == ("Get the weather for a city.", "Returns:", "- weather")  # a list item stays
    assert analyze("get_weather", "Get weather.", None).kept == ("Get weather.",)  # the first unit stays
    labelled = "Get the weather for a city in Europe.\nNote: weather for a city.\nNote: only 10 calls a day."
    assert analyze("get_weather", labelled, None).kept == (
        "Get the weather for a city in Europe.",
        "Note: only 10 calls a day.",  # a restriction with a literal is news, not a restatement
    )
    documented = analyze("get_weather_by_city", "Get weather for a city.\nArgs:\n    city: the city", None)
    assert documented.kept == ("Get weather for a city.", "Args:", "city: the city")  # a parameter entry
    for title in ("# get_weather", "## get-weather", "get weather:"):
        assert analyze("get_weather", f"{title}\nGet the weather for a city.", None).kept == (
            "Get the weather for a city.",
        )


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


@pytest.mark.parametrize(
    ("text", "is_caveat"),
    [
        ("Read a markdown note by title or permalink.", False),
        ("Create a note in the current project and link it to related notes.", False),
        ("Note: results are cached for one hour.", True),
        ("Please note that deleted pages cannot be restored.", True),
        ("Note that the index is rebuilt nightly.", True),
    ],
)
def test_note_is_a_caveat_only_when_it_introduces_one(text: str, is_caveat: bool) -> None:
    from mcp_lint.jury.features import extract

    # a tool whose schema vouches for the sentence's words, so it is specific enough to count
    schema = {"properties": {"target": {"type": "string", "description": text}}}
    assert (extract("t", text, schema).as_dict()["lim_note"] > 0) is is_caveat


# -- fast paths in the features package: each must give exactly what the plain regex gives -------------------


def test_sentence_split_fast_path_matches_the_plain_regex() -> None:
    from mcp_lint.jury.features import lexicon

    for text in sample_texts():
        if not any(ch in text for ch in "。！？；"):
            assert lexicon._SENT_SPLIT_NO_CJK_STOP.split(text) == lexicon.SENT_SPLIT.split(text)


def test_name_lookups_match_the_full_scans() -> None:
    """`_mentioned` and `_inline_entries` test a name only where it occurs; the plain definitions list
    every identifier / inline entry of the text. Same answers, also where lower-casing moves offsets
    ("İ") or turns a non-ASCII letter into an ASCII one (Kelvin sign)."""
    import random

    from mcp_lint.jury.features import lexicon
    from mcp_lint.jury.features import schema as S

    def mentioned_plain(text: str, names: list[str]) -> set[str]:
        idents = {m.lower() for m in lexicon.IDENT.findall(text)}
        spaced_text = " " + " ".join(S._ALNUM.findall(text.lower())) + " "
        return {
            n
            for n in names
            if any(v and (v in idents or (" " in v and f" {v} " in spaced_text)) for v in S._name_variants(n))
        }

    def inline_plain(text: str, names: set[str]) -> set[str]:
        entries = {m.group(1).lower() for m in S._INLINE_ENTRY.finditer(text)}
        return {n for n in names if n in entries}

    rng = random.Random(11)
    some_names = "user_id userId limit max-results a1 id k _x Kind é x__y"
    names = [*some_names.split(), "page size", ""]
    words = "user id userId limit limits max results max-results a1 1a 9id id ID k \u212a _x x_ kind Kind"
    # (capitalised first words too: a spaced name's first word is looked for in the lower-cased text)
    words += " User Max PAGE Page"
    pieces = [*words.split(), *" \n`'\":=()_-–,.", "\u0130", "é", "(int)", " - ", ": ", "page"]
    pieces += [": x", "=1", " (str): y", "`: z", "— w"] * 3
    for _ in range(4000):
        text = "".join(rng.choice(pieces) + rng.choice(["", " ", ""]) for _ in range(rng.randint(0, 16)))
        chosen = rng.sample(names, rng.randint(1, 5))
        low = text.lower()
        assert S._mentioned(text, low, S._PropNames.of(chosen)) == mentioned_plain(text, chosen), (
            text,
            chosen,
        )
        wanted = {n.lower() for n in chosen}
        assert S._inline_entries(text, low, wanted) == inline_plain(text, wanted), (text, chosen)


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
        return float(comp.ridge_share * lin + (1.0 - comp.ridge_share) * boost)

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


def test_ascii_fast_paths_for_tokens_and_numbers() -> None:
    import random

    from mcp_lint.jury.features import lexicon as F
    from mcp_lint.jury.features.segment import _G_NUMBER
    from mcp_lint.jury.features.tokens import tokens
    from mcp_lint.jury.regex_scan import gate_words

    def plain_tokens(text: str) -> list[str]:
        words: list[str] = F.WORD.findall(text.lower())
        if not F.CJK.search(text):
            return words
        return [ch for w in words for ch in (w if F.CJK.search(w) else [w]) if not ch.isspace()]

    rng = random.Random(9)
    alphabet = "aZ09_'’ -.\n\x1cé仅"
    texts = sample_texts() + [
        "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 30))) for _ in range(3000)
    ]
    # (the Kelvin sign lower-cases to an ASCII "k")
    texts += ["don't it's rock'n'roll 'quoted' a'1 O'Neil X_Y 3'x", "5\u212a 7 \u212a9 1.5\u212a"]
    for text in texts:
        assert tokens(text) == plain_tokens(text), text
        # numbers as `_segment` reads them: matched where a word starts with a digit, given the
        # words of the lower-cased copy when that is an ASCII text
        words = gate_words(text.lower())
        numbers = [m.group(0) for m in _G_NUMBER.finditer(text, words if words.wide is None else None)]
        assert numbers == F.NUMBER.findall(text), text


def test_a_parameter_named_in_the_prose_is_not_called_never_explained() -> None:
    schema = {"type": "object", "properties": {"text": {"type": "string"}, "target": {"type": "string"}}}
    named = Tool(
        name="translate",
        raw={
            "name": "translate",
            "description": (
                "Translate text. Pass the text to translate in `text` and the language code in `target`."
            ),
            "inputSchema": schema,
        },
    )
    silent = Tool(
        name="translate", raw={"name": "translate", "description": "Translate text.", "inputSchema": schema}
    )
    named_reason = OfflineJury().judge(named, []).reasons["parameters"]
    assert "never explained" not in named_reason
    assert "text, target" in named_reason or "all 2 parameters" in named_reason
    assert (
        "2 of 2 parameters (text, target) are never explained"
        in OfflineJury().judge(silent, []).reasons["parameters"]
    )


def test_each_feature_value_is_written_beside_its_name() -> None:
    """`Analysis.values` builds the vector as a tuple, one feature a line with its name in a comment:
    those names must be FEATURE_NAMES, in order, so that no value sits under another's weight."""
    import inspect

    from mcp_lint.jury.features import FEATURE_NAMES
    from mcp_lint.jury.features.lexicon import LIMIT_KIND_NAMES
    from mcp_lint.jury.features.vector import Analysis, analyze

    source = inspect.getsource(Analysis.values)
    body = source[source.index("return (") :]
    named: list[str] = []
    for line in body.splitlines()[1:]:
        comment = re.search(r",  # (\*?\w+)", line)
        if comment is None:
            assert line.strip() == ")", line
            break
        named.extend(LIMIT_KIND_NAMES if comment.group(1) == "*LIMIT_KIND_NAMES" else [comment.group(1)])
    assert tuple(named) == FEATURE_NAMES
    analysis = analyze("get_weather", "Returns the weather for a city, e.g. `Paris`.", None)
    assert len(analysis.values()) == len(FEATURE_NAMES)
    assert analysis.features() == dict(zip(FEATURE_NAMES, analysis.values(), strict=True))


def test_capped_log_counts_written_out_are_cap_log() -> None:
    """`Analysis.values` writes `_cap_log(n, cap)` out as `lg[n if n < cap else cap]`: each such line
    must compare and clip at the same cap, within the table, and the table is `math.log1p`'s."""
    import inspect
    import math

    from mcp_lint.jury.features import vector

    assert tuple(math.log1p(n) for n in range(vector._LOG1P_MAX + 1)) == vector._LOG1P
    source = inspect.getsource(vector.Analysis.values)
    body = source[source.index("return (") :]
    capped = [line for line in body.splitlines() if "lg[" in line]
    assert len(capped) >= 15
    for line in capped:
        m = re.search(r"lg\[(\w+) if (?:\(\1 := .+\)|\1) < (\d+) else (\d+)\]", line)
        assert m is not None, line
        assert m.group(2) == m.group(3) and int(m.group(2)) <= vector._LOG1P_MAX, line
    for n in range(200):
        for cap in (6, 8, 10, 12, 20, 60):
            assert vector._LOG1P[n if n < cap else cap] == vector._cap_log(n, cap)


def test_schema_docs_appended_in_place_equal_appended_to_a_copy() -> None:
    """`with_extra(extra, consume=True)` (what `model_scores` runs: the unit state extended in place)
    gives the analysis `with_extra(extra)` gives, and leaves what `extracted()` returned before as
    it was."""
    from mcp_lint.jury.features import analyze, schema_as_prose

    for row in ROWS:
        extra = schema_as_prose(row["input_schema"])
        fresh = analyze(row["tool"], row["description"], row["input_schema"])
        consumed = analyze(row["tool"], row["description"], row["input_schema"])
        before = consumed.extracted()
        snapshot = (
            before.values,
            before.units.kept,
            before.units.novel,
            before.units.vocab,
            before.units.filler,
        )
        want, got = fresh.with_extra(extra), consumed.with_extra(extra, consume=True)
        assert got.values() == want.values()
        assert (got.kept, got.state.novel, got.state.vocab, got.placeholder) == (
            want.kept,
            want.state.novel,
            want.state.vocab,
            want.placeholder,
        )
        after = (
            before.values,
            before.units.kept,
            before.units.novel,
            before.units.vocab,
            before.units.filler,
        )
        assert after == snapshot
