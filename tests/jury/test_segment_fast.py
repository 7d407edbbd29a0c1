"""`features.segment._segment`'s shortcuts held to the general paths they stand for: the property
names an inline entry can name, the names a parameter line mentions, the pre-tests before the
number, bullet, code-span and quote scans, and the `_Segment` build (every field set once, in order)."""

from __future__ import annotations

import ast
import inspect
import random
import textwrap

from jury_support import ROWS, sample_texts

from mcp_lint.jury.features import lexicon
from mcp_lint.jury.features import schema as S
from mcp_lint.jury.features import segment as G
from mcp_lint.jury.features.units import split_units
from mcp_lint.jury.regex_scan import gate_words


def _name_sets() -> list[list[str]]:
    """Every calibration schema's property names, and made ones (mixed case, non-ASCII, duplicates
    once lower-cased, the Kelvin sign, dotted and spaced names)."""
    out = [list(S.schema_properties(row["input_schema"])) for row in ROWS]
    out += [["userId", "USERID", "user_id", "K\u212a", "é", "a.b", "page size", "", "_x", "9a", "class"]]
    return out


def test_prop_names_entry_names_are_the_ident_shaped_lower_names() -> None:
    for names in _name_sets():
        props = S._PropNames.of(names)
        lowers = [n.lower() for n in names]
        assert props.lowers == tuple(lowers)
        assert props.entry_names == tuple(n for n in lowers if S._IDENT_NAME.fullmatch(n))


def test_name_questions_narrowed_give_the_same_answers() -> None:
    """`_segment` asks `_inline_entries` only about the entry names found in the lower-cased text and
    not already parameter lines (the answer is the one for every lower-cased name not a parameter
    line), and `_mentioned` takes the parameter lines' names as identifiers of the text."""
    texts = sample_texts()
    n_samples = len(texts)  # (each with a calibration tool's names; every 7th and the made texts: made names)
    rng = random.Random(5)
    name_sets = _name_sets()
    pieces = ["userId", "USERID", "user_id", "K\u212a", "\u212a", "\u0130", "é", ": x", " (str): y"]
    pieces += ["`", "\n", " ", "=", "(int)", "- ", "a.b", "[0]", ".", "9", "* ", "\u2022", "-", "\t"]
    texts += ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 12))) for _ in range(3000)]
    for i, text in enumerate(texts):
        props = S._PropNames.of(name_sets[i % len(name_sets)] if i % 7 and i < n_samples else name_sets[-1])
        low = text.lower()
        lines = {m.group(1).lower() for m in lexicon.PARAM_LINE.finditer(text)}
        general = S._inline_entries(text, low, {n for n in props.lowers if n not in lines})
        inline = [n for n in props.entry_names if n in low and n not in lines]
        assert (S._inline_entries(text, low, inline) if inline else set()) == general, text
        # a parameter line's name that is an identifier variant is mentioned without a look
        assert S._mentioned(text, low, props, lines) == S._mentioned(text, low, props), text


def test_pre_tests_rule_out_only_texts_without_matches() -> None:
    """No ASCII digit in an ASCII lower-cased text: no NUMBER, and without a list mark no bullet; no
    backtick: no code span; none of the three quotes: nothing QUOTED."""
    for text in sample_texts():
        for unit in [text, *split_units(text)]:
            words = gate_words(unit.lower())
            if words.wide is None and not words.digits:
                assert lexicon.NUMBER.search(unit) is None, unit
                if "-" not in unit and "*" not in unit and "\u2022" not in unit:
                    assert not lexicon.is_bullet(unit) and lexicon.BULLET.search(unit) is None, unit
            if "`" not in unit:
                assert lexicon.CODE_SPAN.search(unit) is None, unit
            if '"' not in unit and "'" not in unit and "\u201c" not in unit:
                assert lexicon.QUOTED.search(unit) is None, unit
            if not any(mark in unit for mark in ":-\u2013\u2014"):  # (a separator: `_segment`'s line_at)
                assert lexicon.PARAM_LINE.search(unit) is None, unit
            if "#" not in unit and ":" not in unit:
                assert lexicon.HEADER.search(unit) is None, unit


def test_segment_and_merge_set_every_field_once_in_order() -> None:
    """`_segment` and `merge` build a `_Segment` by setting the fields of a new one (`_new`), not
    through `__init__`: each sets every field once, in the order of the fields, and returns it."""
    for function in (G._segment, G._Segment.merge):
        tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
        news = [
            n.targets[0].id
            for n in ast.walk(tree)
            if isinstance(n, ast.Assign)
            and isinstance(n.value, ast.Call)
            and isinstance(n.value.func, ast.Name)
            and n.value.func.id == "_new"
            and isinstance(n.targets[0], ast.Name)
        ]
        assert len(news) == 1, function
        name = news[0]
        stores = [
            n.targets[0].attr
            for n in ast.walk(tree)
            if isinstance(n, ast.Assign)
            and isinstance(n.targets[0], ast.Attribute)
            and isinstance(n.targets[0].value, ast.Name)
            and n.targets[0].value.id == name
        ]
        assert stores == _segment_fields(), function
        defined = tree.body[0]
        assert isinstance(defined, ast.FunctionDef)
        last = defined.body[-1]
        assert isinstance(last, ast.Return) and isinstance(last.value, ast.Name) and last.value.id == name


def _segment_fields() -> list[str]:
    """`_Segment`'s fields in order: its `__init__`'s parameters, each assigned to the attribute of
    its name, and every slot one of them."""
    fields = list(inspect.signature(G._Segment.__init__).parameters)[1:]
    assert sorted(G._Segment.__slots__) == sorted(fields)
    init = inspect.getsource(G._Segment.__init__)
    assert [line.strip() for line in init.splitlines() if line.strip().startswith("self.")] == [
        f"self.{name} = {name}" for name in fields
    ]
    return fields


def test_a_segment_holds_what_it_is_given_and_merges_field_by_field() -> None:
    """`_Segment(*values)` reads back each value under its field's name (the written `__init__`
    sets them in order), and `merge` unions sets, sums counts and tuples, ors flags."""
    fields = _segment_fields()
    rng = random.Random(7)
    made = []
    for _ in range(2):
        values = []
        for name in fields:
            kind = G._Segment.__annotations__[name]
            if kind == "frozenset[str]":
                values.append(frozenset(rng.sample("abcdef", 2)))
            elif kind == "bool":
                values.append(rng.random() < 0.5)
            elif kind == "int":
                # (a segment of units has at least one: only the empty segment has none)
                values.append(rng.randrange(1 if name == "n_units" else 0, 5))
            else:
                values.append(tuple(rng.randrange(3) for _ in range(G.N_KINDS)))
        one = G._Segment(*values)
        assert [getattr(one, name) for name in fields] == values
        made.append((one, values))
    (a, va), (b, vb) = made
    merged = a.merge(b)
    for name, x, y in zip(fields, va, vb, strict=True):
        got = getattr(merged, name)
        if isinstance(x, frozenset):
            assert got == x | y, name
        elif isinstance(x, bool):
            assert got == (x or y), name
        elif isinstance(x, int):
            assert got == x + y, name
        else:
            assert got == tuple(p + q for p, q in zip(x, y, strict=True)), name


def test_the_empty_segment_merges_as_nothing() -> None:
    """`_segment` of no units is the shared empty segment: no units, every set empty, every count 0,
    every flag False; `merge` returns the other segment as it is when one side is empty, which is
    what merging field by field gives (union, sum, or)."""
    fields = _segment_fields()
    empty = G._segment([], S._PropNames.of(()))
    assert empty is G._EMPTY_SEGMENT and empty.n_units == 0
    for name in fields:
        value = getattr(empty, name)
        assert value == (G._NO_KINDS if name == "kinds" else type(value)()), name
    assert G._NO_KINDS == (0,) * G.N_KINDS
    none = S._PropNames.of(())
    for units in _unit_lists()[:300]:
        seg = G._segment(units, S._PropNames.of(("query", "limit")) if len(units) % 2 else none)
        assert seg.n_units == len(units)
        assert empty.merge(seg) is seg and seg.merge(empty) is seg
        for name in fields:
            x, y = getattr(empty, name), getattr(seg, name)
            if isinstance(x, frozenset):
                assert y == x | y and type(y) is frozenset, name
            elif isinstance(x, bool):
                assert y == (x or y), name
            elif isinstance(x, int):
                assert y == x + y, name
            else:
                assert y == tuple(p + q for p, q in zip(x, y, strict=True)), name


def test_merge_sums_the_kinds() -> None:
    none = S._PropNames.of(())
    a = G._segment(["At most 10 results per page.", "Only works for public repositories."], none)
    b = G._segment(["Limited to 100 requests per hour; the scope is one account."], none)
    merged = a.merge(b)
    assert merged.kinds == tuple(x + y for x, y in zip(a.kinds, b.kinds, strict=True))
    assert merged.n_units == 3 and any(merged.kinds)


def _unit_lists() -> list[list[str]]:
    """Runs of units as `_segment` gets them (each sample text split into units), and made ones:
    units that end where a PARAM_LINE or HEADER match goes on into the next unit ("Args:", "##",
    "name (a"), and units with newlines of their own (the general path)."""
    runs = [split_units(text) for text in sample_texts()]
    rng = random.Random(9)
    pieces = ["Args:", "query (str): x", "name (a", "b): c", "## Head", "##", "Title Case:", "-", "- ", "* x"]
    pieces += [":", " ", "\t", "x", "limit", "1.", "#", "(", ")", "`q`", "é", "\u2014", "\n", "A b:", "Note"]
    for _ in range(4000):
        runs.append(
            ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 5))) for _ in range(rng.randint(1, 6))]
        )
    return runs


def test_line_led_patterns_read_at_unit_starts_find_what_the_scan_finds() -> None:
    """`_segment` reads PARAM_LINE and HEADER at the unit starts (`_LINE_LED`) when no unit has a
    newline; its parameter lines, their units, its headers and its entries' answers are those of
    `finditer` over the joined text and of PARAM_ENTRY tried on every unit."""
    none = S._PropNames.of(())
    checked = 0
    for kept in _unit_lists():
        if not kept:
            continue
        joined = "\n".join(kept)
        starts = [sum(len(u) + 1 for u in kept[:i]) for i in range(len(kept))]
        lines = list(lexicon.PARAM_LINE.finditer(joined))
        seg = G._segment(kept, none)
        assert seg.param_lines == {m.group(1).lower() for m in lines}, kept
        units = {max(i for i, s in enumerate(starts) if s <= m.start()) for m in lines}
        limit_units = {
            max(i for i, s in enumerate(starts) if s <= h.start) for h in G._LIMIT.finditer(joined.lower())
        }
        assert seg.limit_prose_units == len(limit_units - units), kept
        headers = {m.group(0).strip().lower() for m in lexicon.HEADER.finditer(joined)}
        assert seg.headers == headers, kept
        constraints = 0
        for unit in kept if lines else ():
            e = lexicon.PARAM_ENTRY.match(unit)
            if e is not None:
                rest = unit[e.start(2) if e.group(2) is not None else e.start(3) :].lower()
                constraints += lexicon.PARAM_CONSTRAINT.search(rest) is not None
        assert seg.constraint_lines == constraints, kept
        checked += "\n" not in "".join(kept)
    assert checked > 4000


def _entry_runs() -> list[list[str]]:
    """Runs of units whose parameter entries test `_ENTRIES`' readings: each sample text's units
    and made units with constraint and detail words at a rest's ends, separators at a unit's end,
    units that start with a space (also one `\\s` but not " "), and characters that `lower()` makes
    two (İ) or that lower-case to ASCII (the Kelvin sign)."""
    runs = [split_units(text) for text in sample_texts()]
    rng = random.Random(11)
    pieces = ["query (str): x", "limit (int", "): at most 5", "name: ", "Args:", "a - b", "`q` — c", "- x: y"]
    pieces += ["at", " most", "max", "5-based", "-based", "not", "only", "(", ")", ":", " ", "-", "\u2013"]
    pieces += ["e.g.", "str", '"', "1", "x", "\u0130", "\u212a", "\u03a3", "\u00a0", "\t", "\n", "up to"]
    for _ in range(6000):
        runs.append(
            ["".join(rng.choice(pieces) for _ in range(rng.randint(1, 6))) for _ in range(rng.randint(1, 5))]
        )
    return runs


def test_entries_read_off_the_line_matches_and_the_whole_text() -> None:
    """`_segment`'s entries (`_ENTRIES`: the name and rest read off the PARAM_LINE match, the rest
    searched in place, the constraints found once over the text) judge what PARAM_ENTRY on each unit,
    with PARAM_DETAIL and PARAM_CONSTRAINT searched on its rest lower-cased, judges."""
    checked = unaligned = 0
    for kept in _entry_runs():
        if not kept:
            continue
        joined = "\n".join(kept)
        lines = list(lexicon.PARAM_LINE.finditer(joined))
        detailed: set[str] = set()
        constraints = 0
        for unit in kept if lines else ():
            e = lexicon.PARAM_ENTRY.match(unit)
            if e is not None:
                rest = unit[e.start(2) if e.group(2) is not None else e.start(3) :].lower()
                if lexicon.PARAM_DETAIL.search(rest):
                    detailed.add(e.group(1).lower())
                constraints += lexicon.PARAM_CONSTRAINT.search(rest) is not None
        # (every line's name a property, so that each detailed entry is reported)
        seg = G._segment(kept, S._PropNames.of(sorted({m.group(1) for m in lines})))
        assert seg.constraint_lines == constraints, kept
        assert seg.detailed == {n for n in seg.explained if n.lower() in detailed}, kept
        checked += constraints > 0 or bool(detailed)
        unaligned += len(joined.lower()) != len(joined) and bool(lines)
    assert checked > 2000 and unaligned > 50


def test_references_are_read_only_where_a_keyword_a_code_span_or_a_quote_is() -> None:
    """A mentioned name is referenced when a parameter keyword stands next to it (`_REF_AFTER`,
    `_REF_BEFORE`) or a code span or quoted text is it: `_segment` skips the reading in a text with
    none of the three, which is what reading it there gives."""
    rng = random.Random(13)
    names_of = _name_sets()
    checked = 0
    for i, kept in enumerate(_unit_lists()[: len(sample_texts()) + 1500]):
        names = names_of[i % len(names_of)] if i % 3 else ["query", "limit", "userId", "b"]
        if not kept or not names:
            continue
        kept = [
            *kept,
            *rng.sample(["the query parameter", "`limit`", '"userId"', "b field"], rng.randint(0, 2)),
        ]
        joined = "\n".join(kept)
        low = joined.lower()
        refs: set[str] = set()
        for m in lexicon.PARAM_KEYWORD.finditer(low):
            after = lexicon._REF_AFTER.match(low, m.end())
            if after:
                refs.add(after.group(1))
            before = lexicon._REF_BEFORE.search(low, max(0, m.start() - 80), m.start())
            if before:
                refs.add(before.group(1))
        refs |= {c.strip().lower() for c in lexicon.CODE_SPAN.findall(joined)}
        refs |= {(a or b or c).lower() for a, b, c in lexicon.QUOTED.findall(joined)}
        seg = G._segment(kept, S._PropNames.of(names))
        assert seg.referenced == {n for n in seg.mentioned if n.lower() in refs}, kept
        checked += bool(seg.referenced)
    assert checked > 300
