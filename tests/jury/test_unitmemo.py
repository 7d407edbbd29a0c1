"""The per-unit memo: what it returns for a unit is what computing it afresh gives, for every unit of
the calibration descriptions, and it stays bounded."""

from __future__ import annotations

import pytest

from lab.corpus import load_rows
from mcp_lint.jury.features import unitmemo
from mcp_lint.jury.features.lexicon import _LIST_MARKER, CJK, VACUOUS, WORD
from mcp_lint.jury.features.specificity import Anchors, _says_specific, _unit_says_specific
from mcp_lint.jury.features.tokens import (
    _NOT_CONTENT,
    _NOT_NAME_ANCHOR,
    _NOT_SPECIFIC,
    _specific_stems,
    _stem,
    tokens,
)
from mcp_lint.jury.features.units import split_units

UNITS = sorted(
    {unit for row in load_rows() for unit in split_units(row["description"])}
    | {"- `repo`: the repository", "1. 東京の天気を返す。", "Results from Yahoo Finance", "", "   "}
)


def test_the_memo_returns_what_computing_afresh_gives() -> None:
    unitmemo.clear()
    for _ in range(2):  # the first round fills the memo, the second reads it
        for unit in UNITS:
            words = unitmemo.unit_words(unit)
            item = _LIST_MARKER.sub("", unit, count=1)
            assert (words.item, words.size, words.key) == (item, len(tokens(item)), " ".join(tokens(item)))
            content = set(tokens(item)) - _NOT_CONTENT
            assert (words.content, words.specific) == (content, content - VACUOUS)
            # (the stems by their definition, token by token: `_stems_of` is held to it here)
            assert unitmemo.specific_stems(unit) == {_stem(t) for t in tokens(unit) if t not in _NOT_SPECIFIC}
            assert unitmemo.anchorable_stems(unit) == {
                _stem(t) for t in tokens(unit) if t not in _NOT_NAME_ANCHOR
            }
            assert _specific_stems(unit) == unitmemo.specific_stems(unit)
            literal = (
                CJK.search(unit) is not None
                or unitmemo.SELF_SPECIFIC.search(unit) is not None
                or unitmemo.PROPER_NOUN.search(unit) is not None
            )
            assert unitmemo.has_literal(unit) is literal
    assert len(UNITS) > 1000
    # the stems of a unit whose words were not asked first (read from its tokens, not its record)
    unitmemo.clear()
    for unit in UNITS:
        assert unitmemo.specific_stems(unit) == {_stem(t) for t in tokens(unit) if t not in _NOT_SPECIFIC}
        assert unitmemo.anchorable_stems(unit) == {
            _stem(t) for t in tokens(unit) if t not in _NOT_NAME_ANCHOR
        }


def test_a_unit_is_derived_once_until_cleared() -> None:
    unitmemo.clear()
    first = unitmemo.unit_words("Returns the weather for a city.")
    assert unitmemo.unit_words("Returns the weather for a city.") is first
    unitmemo.clear()
    assert unitmemo.unit_words("Returns the weather for a city.") is not first


@pytest.mark.parametrize(
    "derive", [unitmemo.unit_words, unitmemo.specific_stems, unitmemo.anchorable_stems, unitmemo.has_literal]
)
def test_the_memo_is_bounded(derive: object) -> None:
    unitmemo.clear()
    assert callable(derive)
    for n in range(unitmemo.MEMO_SIZE + 10):
        derive(f"unit number {n}")
    assert max(len(memo) for memo in unitmemo._MEMOS) <= unitmemo.MEMO_SIZE


def test_a_tools_verdict_on_a_unit_is_kept_on_its_anchors() -> None:
    schema = {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}}
    anchors = Anchors.of("get_weather", schema, ["get_forecast"])
    for unit in [*UNITS[:400], "Returns the weather for a city.", "Call get_weather first."]:
        expected = _unit_says_specific(unit, anchors)
        assert _says_specific(unit, anchors) is expected
        assert anchors.said[unit] is expected
    assert _says_specific("Returns the weather for a city.", anchors)
    assert not _says_specific("It is a great and versatile tool that helps you.", anchors)
    # another tool's anchors keep their own verdicts
    assert "Returns the weather for a city." not in Anchors.of("get_weather", schema, []).said


EDGES = [
    "userId and fooBar",
    "ÀBC is no acronym, nor éA",
    "٣ items",  # a decimal digit that is not ASCII
    "see path/to/file or C:\\dir",
    "it's 'quoted' here",
    "a “curly” phrase",
    "the `code` span",
    "version v1.2 of api.example",
    "e.g. this",
    "_private and snake_case",
    "HTTP and JSON",
    'say "hello"',
]


def test_each_literal_alternative_needs_its_gate() -> None:
    """`has_literal` skips an alternative of SELF_SPECIFIC when its gate finds nothing: sound only if
    every match of the alternative comes with a match of the gate."""
    import re

    for gate, pattern in unitmemo._LITERAL_PARTS:
        alternative = re.compile(pattern)
        for unit in [*UNITS, *EDGES]:
            if gate and alternative.search(unit) is not None:
                assert re.search(gate, unit) is not None, (gate, pattern, unit)
    for unit in [*UNITS, *EDGES]:
        assert unitmemo._self_specific(unit) is (unitmemo.SELF_SPECIFIC.search(unit) is not None), unit


def test_a_text_without_any_gate_has_no_literal() -> None:
    """`_self_specific` answers False at once where `_ANY_GATE` finds nothing: sound only if every gate
    (or, for an alternative without one, the alternative) matches nowhere `_ANY_GATE` does not."""
    import re

    for gate, pattern in unitmemo._LITERAL_PARTS:
        needed = re.compile(gate or pattern)
        for unit in [*UNITS, *EDGES, "١٢٣", "a/b", "x.y", "aB"]:
            if needed.search(unit) is not None:
                assert unitmemo._ANY_GATE.search(unit) is not None, (gate, pattern, unit)
    assert sum(unitmemo._ANY_GATE.search(unit) is None for unit in UNITS) > len(UNITS) // 4


def test_an_ascii_text_is_tested_as_the_unicode_patterns_test_it() -> None:
    """`has_literal` of an ASCII text reads `_ASCII_GATE` first and then the alternatives and
    PROPER_NOUN compiled with `re.ASCII`: sound only if every match of an alternative or of PROPER_NOUN
    comes with a gate match, and the ASCII patterns find what the Unicode ones find. Held over the
    calibration units and random strings over the characters the patterns turn on."""
    import random
    import re

    rng = random.Random(20)
    alphabet = "aZbY_ \"'`/\\.,;1xQ-:()\n"
    texts = [unit for unit in [*UNITS, *EDGES] if unit.isascii()]
    texts += ["".join(rng.choice(alphabet) for _ in range(rng.randrange(12))) for _ in range(60_000)]
    alternatives = [re.compile(pattern) for gate, pattern in unitmemo._LITERAL_PARTS]
    for text in texts:
        needed = [a.search(text) is not None for a in alternatives]
        needed.append(unitmemo.PROPER_NOUN.search(text) is not None)
        if any(needed):
            assert unitmemo._ASCII_GATE.search(text) is not None, text
        literal = unitmemo.SELF_SPECIFIC.search(text) is not None or needed[-1]
        assert unitmemo._has_literal(text) is literal, text
        assert (unitmemo._ASCII_PROPER_NOUN.search(text) is not None) is needed[-1], text
    assert sum(unitmemo._ASCII_GATE.search(unit) is None for unit in UNITS) > len(UNITS) // 4


def test_ascii_tokens_are_the_word_regex_tokens() -> None:
    """`tokens` splits ASCII text without `WORD` (a translation table, or `_ASCII_WORD` when there is
    an apostrophe): the same tokens."""
    texts = [unit for unit in UNITS if unit.isascii()]
    texts += ["it's the user's", "don't-stop", "A_b c-d e.f 12ab", "'quoted' words'", "x'y'z"]
    # every ASCII character between two letters, with and without the apostrophe (the byte table)
    every = "".join(f"a{chr(c)}Z" for c in range(128) if chr(c) != "'")
    texts += [every, every + " it's"]
    for text in texts:
        assert tokens(text) == WORD.findall(text.lower()), text


def test_anchors_match_as_the_stem_by_stem_rule() -> None:
    """`Anchors.match` reads prepared prefixes; it answers what comparing each stem with each long
    stem of the tool's answers."""

    def by_rule(anchors: Anchors, stems: list[str]) -> bool:
        return any(
            stem in anchors.stems
            or (
                len(stem) >= 4
                and any(
                    stem.startswith(a) or a.startswith(stem) or (len(a) >= 5 and stem.endswith(a))
                    for a in anchors.long
                )
            )
            for stem in stems
        )

    schema = {
        "type": "object",
        "properties": {
            "repository": {"type": "string", "description": "The repository's owner and name"},
            "board": {"type": "string", "description": "Chess board position"},
            "range": {"type": "string"},
        },
    }
    anchors = Anchors.of("get_repository_board", schema, [])
    assert anchors.long
    stems = sorted({stem for unit in UNITS for stem in unitmemo.anchorable_stems(unit)})
    stems += ["repo", "repositories", "chessboard", "rang", "arrang", "boar", "board"]
    for stem in stems:
        assert anchors.match([stem]) is by_rule(anchors, [stem]), stem
    assert anchors.match(["chessboard"]) and anchors.match(["repo"]) and not anchors.match(["arrang"])


def test_an_intro_is_searched_only_where_it_can_end() -> None:
    """`specificity._is_intro` skips the `_INTRO` search for a unit that does not end (whitespace
    aside) with a colon or ".g." or ".e." and has no fence: the same answer as the search."""
    from mcp_lint.jury.features.specificity import _INTRO, _is_intro

    edges = ["Returns:", "Returns:  \n", "結果：", "e.g.", "For example, i.E. ", "```python", "  ```"]
    edges += ["x.\n", "", "İ.e.", "say e.G.", "wie.g.", "```", "  \n```js"]
    edges += ["Options: a, b", "Done.\u00a0", "Done.\u2003\n", "Note:\x1c", "the page.", "x.e.", "(i.e.)"]
    for unit in [*UNITS, *EDGES, *edges]:
        assert _is_intro(unit) is (_INTRO.search(unit) is not None), unit


def test_a_heading_is_matched_only_where_it_can_be() -> None:
    """`units._is_heading` skips `_HEADING` for a unit without "#" or a colon: the same answer."""
    from mcp_lint.jury.features.units import _HEADING, _is_heading

    edges = ["## Examples", "Returns:", "結果：", "#tag", "   # x  ", "a" * 41 + ":", "Args: x", "#"]
    for unit in [*UNITS, *EDGES, *edges]:
        assert _is_heading(unit) is (_HEADING.match(unit) is not None), unit


def test_a_units_item_is_the_unit_without_its_list_marker() -> None:
    """`UnitWords` strips `_LIST_MARKER` only from a unit that starts (whitespace aside) as a marker
    can; every other unit is its own item, as the substitution would leave it."""
    markers = ["- x", "  * y", "• z", "> q", "## h", "#nospace", "1. one", "12) two", "٣. three", "1.5 kg"]
    for unit in [*UNITS, *EDGES, *markers]:
        assert unitmemo.UnitWords(unit).item == _LIST_MARKER.sub("", unit, count=1), unit


def test_the_schema_is_read_only_when_the_names_stems_do_not_match() -> None:
    """`Anchors.match` tries the name's stems first: a stem of the name answers without the walk
    through the schema, and any other stem gets the answer the union of both gives."""
    schema = {"type": "object", "properties": {"city": {"type": "string", "description": "City name"}}}
    anchors = Anchors.of("get_weather_report", schema, [])
    assert anchors.match(["weather"]) and anchors.match(["report"])
    assert anchors._schema_own is None  # answered by the name alone
    assert anchors.match(["city"]) and not anchors.match(["banana"])
    assert anchors._schema_own is not None
    assert anchors.stems == anchors.name_own().stems | anchors.schema_own().stems
    assert {"weather", "report", "city"} <= anchors.stems


def test_a_list_number_has_one_to_three_tokens() -> None:
    """`_UnitState.add` asks `_LIST_NUMBER` only of an item of one to three tokens: every item it
    matches has that many (1-3 digits, one token, or one per CJK-range character)."""
    from mcp_lint.jury.features.units import _LIST_NUMBER

    edges = ["1.", "12)", " 123. ", "١٢٣.", "１２３.", "1１.", "- 7.", "7.\n"]
    matched = 0
    for unit in [*UNITS, *edges]:
        words = unitmemo.unit_words(unit)
        if _LIST_NUMBER.fullmatch(words.item):
            matched += 1
            assert 0 < words.size <= 3, unit
    assert matched >= len(edges) - 1


def test_the_schemas_stems_are_those_of_each_text() -> None:
    """`Anchors.schema_own` tokenises the schema's texts joined by spaces: the stems of every text
    of every calibration schema, each tokenised on its own."""
    from mcp_lint.jury.features.schema import _schema_texts

    schemas = [row["input_schema"] for row in load_rows() if row["input_schema"]]
    schemas.append({"properties": {"a": {"description": "ΟΔΟΣ"}, "b": {"enum": ["x'", "'y", "東京"]}}})
    for schema in schemas:
        expected: set[str] = set()
        for text in _schema_texts(schema):
            expected |= _specific_stems(text)
        assert Anchors.of("tool", schema).schema_own().stems == expected
    assert len(schemas) > 300


def test_clear_forgets_stems_too() -> None:
    """The speed benchmark empties the memos before each repetition: the stems of words seen in
    the last one must not be kept (`tokens._stem` is an lru_cache of its own)."""
    assert _stem("queries") == "query"
    assert _stem.cache_info().currsize > 0
    unitmemo.clear()
    assert _stem.cache_info().currsize == 0


def test_a_specific_text_names_every_unit_when_each_group_is_specific() -> None:
    """`specific_units` answers "every unit" as the indices 0..n-1 when each group is specific: the
    groups (`_groups`) partition the units' indices, for every calibration description."""
    from mcp_lint.jury.features.specificity import _groups

    for row in load_rows():
        units = split_units(row["description"])
        assert sorted(i for group in _groups(units) for i in group) == list(range(len(units)))


def test_a_units_word_sets_are_shared_only_where_equal() -> None:
    """`UnitWords` makes its specific words the content set itself when no content word is vacuous,
    and gives every unit without a content word one empty set: the same values as the definition,
    over the calibration units and random sentences mixing vacuous, generic and plain words."""
    import random

    rng = random.Random(33)
    vacuous, not_content = sorted(VACUOUS), sorted(_NOT_CONTENT)
    plain = ["weather", "city", "repository", "ticket", "invoice", "index", "42", "don't"]
    texts = list(UNITS)
    for _ in range(3000):
        pools = [(vacuous, not_content, plain)[rng.randrange(3)] for _ in range(rng.randrange(0, 9))]
        words = [rng.choice(pool) for pool in pools]
        texts.append(" ".join(words) + rng.choice(("", ".", ":")))
    unitmemo.clear()
    for text in texts:
        words = unitmemo.UnitWords(text)
        content = set(tokens(words.item)) - _NOT_CONTENT
        assert (words.content, words.specific) == (content, content - VACUOUS)
        assert (words.specific is words.content) == (not content & VACUOUS)
        assert content or words.content is unitmemo._NO_WORDS


def _stem_by_the_rule(word: str) -> str:
    """The stemming rule as first written: what `tokens._stem` must give."""
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s"):
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            word = word[: -len(suffix)]
            break
    return word[:-1] if word.endswith("e") and len(word) > 3 else word


def test_the_stem_is_the_rules_stem() -> None:
    """`_stem` chooses by the last letter which suffix can apply: the rule's stem for every word of
    the calibration units and for random strings over the letters the rule turns on."""
    import random

    rng = random.Random(5)
    words = {word for unit in UNITS for word in tokens(unit)}
    words |= {"".join(rng.choice("siedgnyab'é") for _ in range(rng.randrange(9))) for _ in range(100_000)}
    unitmemo.clear()
    for word in words:
        assert _stem(word) == _stem_by_the_rule(word), word
    assert len(words) > 50_000


def test_a_units_tokens_are_its_key_split() -> None:
    """`unitmemo` reads a unit's tokens back from its key (`" ".join(tokens)`) with `str.split`: sound
    only if no token holds a character `str.split` splits at. Every such character, alone and inside
    words, and the calibration units."""
    import sys

    spaces = "".join(c for c in map(chr, range(sys.maxunicode + 1)) if c.isspace())
    assert len(spaces) > 20
    texts = [*UNITS, *EDGES, spaces, "a".join(spaces), "東" + "京".join(spaces), "it's" + "x'".join(spaces)]
    for text in texts:
        assert " ".join(tokens(text)).split() == tokens(text), text
    for unit in [*UNITS, *EDGES, "- `repo`: the repository", "1. one two"]:
        unitmemo.clear()
        words = unitmemo.unit_words(unit)
        assert unitmemo._unit_tokens(words, unit) == tokens(unit), unit
        assert unitmemo._unit_tokens(None, unit) == tokens(unit), unit


def test_split_units_strips_and_drops_empty_pieces() -> None:
    """`split_units` strips the splitter's pieces and drops the empty ones with `filter`/`map`, and
    drops each line's margin before splitting: the pieces the comprehension over the split of the
    text as given gives, on sample texts and random strings of stops, closing marks, spaces of every kind,
    newlines and indented lines, CJK stops and openers."""
    import random

    from jury_support import sample_texts

    from mcp_lint.jury.features.lexicon import _SENT_SPLIT_NO_CJK_STOP, SENT_SPLIT

    def by_comprehension(text: str) -> list[str]:
        cjk = any(stop in text for stop in "。！？；")
        splitter = SENT_SPLIT if cjk else _SENT_SPLIT_NO_CJK_STOP
        return [s for u in splitter.split(text) if u and (s := u.strip())]

    rng = random.Random(34)
    pieces = [*"ab .!?;'\")]`\n\t\r\x85\u2028\u00a0\u3000\x1c。；！", "This", "Note", "All good", "e.g."]
    pieces += ["  ", "\n    ", "\n\r", ".\n", "- x", "1."]
    texts = [*sample_texts(), *UNITS, ""]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randrange(16))) for _ in range(60_000)]
    for text in texts:
        assert split_units(text) == by_comprehension(text), repr(text[:80])


def test_units_are_grouped_as_the_regexes_group_them() -> None:
    """`specificity._groups` tests a continued line, a terminated one and a list item with string tests
    (`_CONTINUES`, `_is_terminated`, `lexicon.is_bullet`), and `_is_intro` searches `_INTRO` only for
    a unit ending with ".g." or ".e.": the groups the regexes give, on the calibration descriptions,
    unit lists drawn from their units and random strings of the characters those tests turn on."""
    import random
    import re

    from mcp_lint.jury.features.lexicon import BULLET
    from mcp_lint.jury.features.specificity import _CONTINUES, _INTRO, _groups, _is_intro, _is_terminated

    continues = re.compile(r"^\s*[a-z(]")
    terminated = re.compile(r"[.!?。！？]['\"”’)]?\s*$")

    def by_regex(units: list[str]) -> list[list[int]]:
        groups: list[list[int]] = []
        for i, unit in enumerate(units):
            prev = units[i - 1] if i else ""
            intro = _INTRO.search(prev) is not None
            bullets = BULLET.match(unit) is not None and BULLET.match(prev) is not None
            joins = bool(groups) and (
                intro
                or (bullets and _INTRO.search(units[groups[-1][0]]) is not None)
                or (continues.match(unit) is not None and terminated.search(prev) is None)
            )
            if joins:
                groups[-1].append(i)
            else:
                groups.append([i])
        return groups

    rng = random.Random(35)
    pieces = [
        *"aZ(.!?。！？'\"”’)`:：-*•1 \n\t\u00a0\u2003",
        "e.g.",
        "i.E.",
        "page.",
        "x.e.",
        "- ",
        "2) ",
        "```",
    ]
    texts = [
        *UNITS,
        *EDGES,
        *("".join(rng.choice(pieces) for _ in range(rng.randrange(8))) for _ in range(60_000)),
    ]
    for text in texts:
        assert _is_terminated(text) is (terminated.search(text) is not None), text
        assert (text.lstrip()[:1] in _CONTINUES) is (continues.match(text) is not None), text
        assert _is_intro(text) is (_INTRO.search(text) is not None), text
    lists = [split_units(row["description"]) for row in load_rows()]
    lists += [rng.sample(texts, rng.randrange(1, 9)) for _ in range(20_000)]
    for units in lists:
        if units:
            assert _groups(units) == by_regex(units), units
