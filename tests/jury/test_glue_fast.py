"""The offline jury's per-tool glue held to the plain code it replaced: one walk of a schema's
properties (`schema.schema_params`) for the names, the documented names and the rendered docs, and
`_PropNames.of` built from each name's memoised forms."""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from jury_support import ROWS

from mcp_lint.jury.features import schema as S
from mcp_lint.jury.features.unitmemo import clear


def plain_prose(schema: Any) -> str:
    """`schema_as_prose` as it was written before `schema_params`: property by property."""
    props = S.schema_properties(schema)
    if not props:
        return ""
    required = S.schema_required(schema)
    lines = ["Args:"]
    for name, spec in props.items():
        bits: list[str] = []
        typ = spec.get("type")
        if isinstance(typ, str):
            bits.append(typ)
        bits.append("required" if name in required else "optional")
        desc = spec.get("description")
        parts: list[str] = []
        if isinstance(desc, str) and desc.strip():
            parts.append(" ".join(desc.split()))
        fmt = spec.get("format")
        if isinstance(fmt, str):
            parts.append(f"Format: {fmt}.")
        enum = spec.get("enum")
        if isinstance(enum, list) and enum:
            parts.append("One of: " + ", ".join(str(e) for e in enum[:12]) + ".")
        if "default" in spec:
            parts.append(f"Defaults to {spec.get('default')!r}.")
        for key in ("minimum", "maximum", "minLength", "maxLength", "maxItems"):
            if key in spec:
                parts.append(f"{key}: {spec.get(key)}.")
        if not parts:
            continue
        lines.append(f"    {name} ({', '.join(bits)}): {' '.join(parts)}")
    return "\n".join(lines) if len(lines) > 1 else ""


def plain_documented(schema: Any) -> set[str]:
    """The names the parameters reason counted as documented in the schema, as it used to."""
    return {
        n
        for n, spec in S.schema_properties(schema).items()
        if (isinstance(text := spec.get("description"), str) and text.strip())
        or "enum" in spec
        or "default" in spec
        or "format" in spec
    }


def _random_spec(rng: random.Random) -> Any:
    if rng.random() < 0.08:
        return rng.choice([None, "string", 3, ["a"]])  # not a mapping: read as {}
    spec: dict[str, Any] = {}
    pool: list[tuple[str, list[Any]]] = [
        ("type", ["string", "integer", ["string", "null"], None, 7]),
        ("description", ["", "  ", "\u2003\n", "Find  it.\n Now", "x", 5, None, "\u00a0é ok "]),
        ("format", ["date-time", "", None, 3]),
        ("enum", [[], ["a", "b"], list(range(20)), "ab", None]),
        ("default", [None, 0, "", "x", [1]]),
        ("minimum", [0, 1.5, None]),
        ("maximum", [10]),
        ("minLength", [1]),
        ("maxLength", [64]),
        ("maxItems", [5]),
        ("title", ["T"]),
        ("items", [{"type": "string"}]),
    ]
    for key, values in rng.sample(pool, rng.randint(0, len(pool))):
        spec[key] = rng.choice(values)
    return spec


def _schemas() -> list[Any]:
    """Every calibration schema, odd ones, and random ones (blank and odd descriptions, formats,
    enums and defaults of every kind, specs that are not mappings, keys that are not strings)."""
    out: list[Any] = [row["input_schema"] for row in ROWS]
    out += [None, "x", {}, {"properties": None}, {"properties": {}}, {"properties": []}]
    out += [{"properties": {1: {"description": "one"}, "1": {"description": "uno"}}, "required": ["1"]}]
    rng = random.Random(17)
    names = ["q", "limit", "user_id", "userId", "page size", "é", "_x", "a.b", ""]
    for _ in range(3000):
        props = {
            rng.choice(names) + str(rng.randint(0, 3)): _random_spec(rng) for _ in range(rng.randint(0, 6))
        }
        schema: dict[str, Any] = {"type": "object", "properties": props}
        if rng.random() < 0.7:
            schema["required"] = [*rng.sample(sorted(props), rng.randint(0, len(props))), "absent"]
        elif rng.random() < 0.5:
            schema["required"] = "q0"  # not a list: nothing is required
        out.append(schema)
    return out


def test_one_walk_of_the_properties_gives_what_the_three_walks_gave() -> None:
    for schema in _schemas():
        names, documented, prose = S.schema_params(schema)
        assert names == tuple(S.schema_properties(schema)), schema
        assert documented == plain_documented(schema), schema
        assert prose == plain_prose(schema) == S.schema_as_prose(schema), schema


def test_prop_names_from_memoised_forms_are_the_plain_ones() -> None:
    """Each name's forms are the variants `_name_variants` gives, sorted as `_PropNames` wants them,
    whether the memo is cold or warm."""

    def plain(names: list[str]) -> tuple[Any, ...]:
        idents: list[set[str]] = []
        spaced: list[set[tuple[str, ...]]] = []
        for name in names:
            variants = S._name_variants(name)
            idents.append({v for v in variants if " " not in v and v.isascii() and v.isidentifier()})
            spaced.append(
                {
                    tuple(v.split(" "))
                    for v in variants
                    if " " in v and all(w.isascii() and w.isalnum() for w in v.split(" "))
                }
            )
        lowers = tuple(n.lower() for n in names)
        return lowers, idents, spaced, tuple(n for n in lowers if S._IDENT_NAME.fullmatch(n))

    made = ["userId", "USERID", "user_id", "K\u212a", "é", "a.b", "page size", "", "_x", "9a", "class"]
    made += ["HTTPServer", "x  y", "Page-Size", "ß", "\u0130d", "a_B_c", "ID"]
    sets = [list(S.schema_properties(row["input_schema"])) for row in ROWS] + [made, []]
    for warm in (False, True):
        if not warm:
            clear()
        for names in sets:
            props = S._PropNames.of(names)
            lowers, idents, spaced, entries = plain(names)
            assert props.names == tuple(names)
            assert props.lowers == lowers and props.entry_names == entries
            assert [set(v) for v in props.idents] == idents, names
            assert [set(v) for v in props.spaced] == spaced, names
            # each name's variants once, the lower-cased name first (the order `_mentioned` tries)
            for low, mine in zip(props.lowers, props.idents, strict=True):
                assert len(set(mine)) == len(mine) and (not mine or low not in mine or mine[0] == low)


def test_schema_params_reads_any_mapping() -> None:
    class Props(Mapping[str, Any]):
        def __init__(self, data: dict[str, Any]) -> None:
            self.data = data

        def __getitem__(self, key: str) -> Any:
            return self.data[key]

        def __iter__(self) -> Any:
            return iter(self.data)

        def __len__(self) -> int:
            return len(self.data)

    schema = {
        "properties": Props({"a": Props({"description": "the a"}), "b": {"enum": [1]}}),
        "required": ["a"],
    }
    assert S.schema_params(schema) == (("a", "b"), frozenset({"a", "b"}), plain_prose(schema))


def _calibration_vectors() -> list[tuple[float, ...]]:
    from mcp_lint.jury.features import analyze

    out: list[tuple[float, ...]] = []
    for row in ROWS:
        analysis = analyze(row["tool"], row["description"], row["input_schema"])
        out += [analysis.values(), analysis.with_extra(S.schema_as_prose(row["input_schema"])).values()]
    return out


def test_scorer_gives_each_components_own_score() -> None:
    """`_Scorer.scores` against `_Component.score` on the calibration tools' vectors (prose and
    prose + schema docs, whose bias is 1.0: the scorer's folded first step) and random ones (bias
    1.0 or not): zeros of both signs, values at and beside every threshold, subnormals, negatives,
    huge values, infinities and NaN."""
    import math

    from mcp_lint.jury.offline import _model, _scorer

    model = _model()
    scorer = _scorer()
    assert scorer.names == tuple(model)
    thresholds = sorted({t for comp in model.values() for _, ts, _ in comp.steps for t in ts})
    near = [math.nextafter(t, d) for t in thresholds for d in (-math.inf, math.inf)]
    rng = random.Random(23)
    vectors = _calibration_vectors()
    n = len(vectors[0])
    for _ in range(4000):
        odd = rng.random() < 0.05
        vectors.append(
            tuple(
                rng.choice(
                    [0.0, 0.0, 0.0, -0.0, 1.0, rng.uniform(-3, 5), rng.choice(thresholds), rng.choice(near)]
                    + ([5e-324, 1e300, -1e300, math.inf, math.nan] if odd else [])
                )
                for _ in range(n)
            )
        )
    for x in vectors:
        got = scorer.scores(x)
        assert got == [float(comp.score(x)) for comp in model.values()], x


def test_scorer_leaves_values_a_rounding_from_a_cut_point_to_the_exact_sum() -> None:
    """Vectors whose exact value lies within the fast path's margin of a cut-point (a feature moved
    float by float to where a component's score changes): the margin must send them to
    `_Component.score`, and the scores must still agree."""
    import math

    from mcp_lint.jury.offline import _model, _scorer

    model = _model()
    scorer = _scorer()
    names = list(model)
    base = _calibration_vectors()[:60]
    tested = 0
    for x in base:
        for c, name in enumerate(names):
            comp = model[name]
            _, _, cuts, _, _, margin, _ = scorer.parts[c]
            # a feature the linear part reads (the steps do not move within a threshold interval)
            j = next(j for j, w in comp.weights if w and x[j])
            lo, hi = 0.0, 50.0
            if comp.score((*x[:j], lo, *x[j + 1 :])) == comp.score((*x[:j], hi, *x[j + 1 :])):
                continue
            # bisect over floats until lo and hi are adjacent: the score changes between them
            while math.nextafter(lo, hi) != hi:
                mid = (lo + hi) / 2
                if mid in (lo, hi):
                    break
                if comp.score((*x[:j], mid, *x[j + 1 :])) == comp.score((*x[:j], lo, *x[j + 1 :])):
                    lo = mid
                else:
                    hi = mid
            for v in (math.nextafter(lo, -1.0), lo, hi, math.nextafter(hi, 99.0)):
                y = (*x[:j], v, *x[j + 1 :])
                raw = comp.raw(y)
                if any(abs(raw - cut) < margin for cut in cuts):
                    tested += 1
                assert scorer.scores(y) == [float(model[m].score(y)) for m in names], (name, j, v)
    assert tested > 100  # the margin's own branch was taken, many times


def test_clear_parameter_read_by_its_type_name_first() -> None:
    """`anchors._clear` reads a parameter whose type is one name without building type sets; it
    must say what the general reading (every type through `_types`) says."""
    from mcp_lint.jury import anchors as A

    def plain(name: str, spec: Mapping[str, Any]) -> bool:
        if "enum" in spec or "const" in spec:
            return True
        types = A._types(spec) - {"null"}
        if not types:
            return False
        if types <= A._SCALARS:
            return A._documented(spec) or len(A.name_words(name)) <= A.SELF_EXPLANATORY_WORDS
        if types == {"array"}:
            items = spec.get("items")
            return isinstance(items, Mapping) and plain(name, items)
        if types == {"object"}:
            props = spec.get("properties")
            return (
                isinstance(props, Mapping)
                and bool(props)
                and all(plain(str(k), v if isinstance(v, Mapping) else {}) for k, v in props.items())
            )
        branches = [b for key in ("anyOf", "oneOf") for b in spec.get(key) or () if isinstance(b, Mapping)]
        return (
            bool(branches)
            and A._documented(spec)
            and all(plain(name, b) for b in branches if A._types(b) - {"null"})
        )

    rng = random.Random(29)
    kinds: list[Any] = ["string", "integer", "number", "boolean", "null", "array", "object", "any", None]
    kinds += [["string", "null"], ["null"], ["array"], 3]

    def spec(depth: int) -> dict[str, Any]:
        out: dict[str, Any] = {}
        kind = rng.choice(kinds)
        if kind is not None:
            out["type"] = kind
        if rng.random() < 0.3:
            out["description"] = rng.choice(["", " ", "the id", 4])
        for key in ("enum", "const", "default"):
            if rng.random() < 0.08:
                out[key] = [1]
        if depth < 3 and rng.random() < 0.4:
            out["items"] = spec(depth + 1)
        if depth < 3 and rng.random() < 0.3:
            out["properties"] = {rng.choice(["a", "userId", "the_long_name_here"]): spec(depth + 1)}
        if depth < 3 and rng.random() < 0.3:
            out[rng.choice(["anyOf", "oneOf"])] = [spec(depth + 1) for _ in range(rng.randint(0, 3))]
        return out

    specs = [s for row in ROWS for s in S.schema_properties(row["input_schema"]).values()]
    specs += [spec(0) for _ in range(5000)]
    for i, item in enumerate(specs):
        name = ["q", "page_size", "max_results_per_page", "userId"][i % 4]
        assert A._clear(name, item) == plain(name, item), item


def test_padding_looks_for_capitals_only_where_an_emphasis_word_is() -> None:
    """`anchors._padding` reads a text's words in capitals only when an emphasis word occurs in it
    somewhere; the kinds of padding must be the ones read from every word in capitals."""
    from jury_support import sample_texts

    from mcp_lint.jury import anchors as A

    def plain(text: str) -> list[str]:
        shouted = {w for w in A._CAPS_WORD.findall(text) if w in A._EMPHASIS}
        lines = text.splitlines()
        kinds: list[str] = []
        if len(shouted) >= A.SHOUTING_MIN or (
            shouted and any(A._SHOUTED_LABEL.match(line) for line in lines)
        ):
            kinds.append("shouting (" + ", ".join(sorted(shouted)[:3]) + ")")
        sections = sum(1 for line in lines if A._SECTION.match(line))
        if sections >= A.TUTORIAL_MIN_SECTIONS:
            kinds.append(f"{sections} tutorial sections")
        return kinds

    rng = random.Random(31)
    pieces = [*sorted(A._EMPHASIS), "JSON", "API", "IMPORTANTLY", "DOn't", "NOTES", "_NOT", "NOT_", "ÉDO"]
    pieces += ["do", "not", "Note:", "## Usage", "**Rules:**", "Examples:", "\n", " ", ": ", "*", "#", "é"]
    texts = sample_texts() + [
        "".join(rng.choice(pieces) for _ in range(rng.randint(0, 30))) for _ in range(5000)
    ]
    for text in texts:
        assert A._padding(text) == plain(text), text


def plain_texts(schema: Any, depth: int = 0) -> list[str]:
    """`_schema_texts` as it was written before leaves were skipped: every key looked up at every node."""
    out: list[str] = []
    if not (schema is not None and depth <= 6 and isinstance(schema, Mapping)):
        return out
    if depth:
        for key in ("title", "description"):
            if isinstance(value := schema.get(key), str):
                out.append(value)
    if isinstance(enum := schema.get("enum"), list):
        out.append(" ".join(str(e) for e in enum[:50]))
    props = schema.get("properties")
    if isinstance(props, Mapping):
        for name, spec in props.items():
            out.append(" ".join(S.name_words(str(name))))
            out += plain_texts(spec, depth + 1)
    for key in ("items", "additionalProperties"):
        out += plain_texts(schema.get(key), depth + 1)
    for key in ("anyOf", "oneOf", "allOf"):
        if isinstance(alternatives := schema.get(key), list):
            for alternative in alternatives[:10]:
                out += plain_texts(alternative, depth + 1)
    return out


def _nested(rng: random.Random, depth: int) -> Any:
    """A random schema node: leaves most of the time, and every key the walk reads below a node."""
    node = _random_spec(rng)
    if not isinstance(node, dict) or depth > 8 or rng.random() < 0.5:
        return node
    key = rng.choice(["properties", "items", "additionalProperties", "anyOf", "oneOf", "allOf", "enum"])
    if key == "properties":
        node[key] = {f"p{i}": _nested(rng, depth + 1) for i in range(rng.randint(0, 3))}
    elif key in ("items", "additionalProperties"):
        node[key] = _nested(rng, depth + 1) if rng.random() < 0.9 else True
    elif key == "enum":
        node[key] = rng.choice([["x", 1, None], "x", []])
    else:
        node[key] = [_nested(rng, depth + 1) for _ in range(rng.randint(0, 3))] if rng.random() < 0.9 else {}
    return node


def test_schema_texts_skip_only_what_has_nothing_below() -> None:
    """`_schema_texts` returns from a leaf (a dict with none of the keys read below a node) at once;
    it must give what the walk through every key gives: calibration schemas, the odd and random ones
    above, and random nested ones (properties, items, alternatives, enums, titles at every depth,
    deeper than the walk goes)."""
    rng = random.Random(29)
    schemas = _schemas() + [
        {"type": "object", "properties": {f"a{i}": _nested(rng, 1) for i in range(rng.randint(0, 4))}}
        for _ in range(3000)
    ]
    for schema in schemas:
        assert S._schema_texts(schema) == plain_texts(schema), schema


def test_known_no_params_is_every_name_private() -> None:
    """`ToolContext.known_no_params` tests the first name before the others: the plain reading."""
    from mcp_lint.jury.features import ToolContext

    rng = random.Random(31)
    for _ in range(500):
        names = [rng.choice(["_a", "_b", "c", "_", "d_"]) + str(i) for i in range(rng.randint(0, 4))]
        schema: Any = rng.choice([{"properties": {n: {} for n in names}}, None])
        props = tuple(S.schema_properties(schema))
        expected = isinstance(schema, Mapping) and all(p.startswith("_") for p in props)
        assert ToolContext.of("t", schema).known_no_params is expected, schema


def plain_specific_units(units: list[str], anchors: Any) -> frozenset[int]:
    """`specific_units` as written before its spreading step used `map`, `compress` and `chain`."""
    from mcp_lint.jury.features import specificity as P
    from mcp_lint.jury.features.unitmemo import specific_stems, unit_words

    if not units:
        return frozenset()
    groups = P._groups(units)
    keys = [unit_words(unit).key for unit in units]
    copies: set[int] = set()
    firsts: set[str] = set()
    for i, key in enumerate(keys):
        if key and key in firsts:
            copies.add(i)
        firsts.add(key)
    specific = [
        any(i not in copies and P._says_specific(units[i], anchors) for i in group) for group in groups
    ]
    if not any(specific):
        specific = [
            any(
                i not in copies
                and any(s in anchors.name_stems or s in anchors.domain for s in P._named_stems(units[i]))
                for i in group
            )
            for group in groups
        ]
        if not any(specific):
            return frozenset()
    stems = [P._NO_STEMS if i in copies else specific_stems(unit) for i, unit in enumerate(units)]
    group_stems = [set().union(*(stems[i] for i in group)) for group in groups]
    spread: set[str] = set().union(*(s for s, ok in zip(group_stems, specific, strict=True) if ok))
    changed = True
    while changed:
        changed = False
        for k, ok in enumerate(specific):
            if not ok and group_stems[k] & spread:
                specific[k] = changed = True
                spread |= group_stems[k]
    return frozenset(i for group, ok in zip(groups, specific, strict=True) if ok for i in group)


def test_specific_units_spread_as_the_plain_loops_do() -> None:
    """`specific_units` against the plain loops over the calibration texts and random texts built
    from their sentences (shuffled, repeated, bulleted, cut into list items) with the tool's own
    anchors or another tool's."""
    from mcp_lint.jury.features.specificity import Anchors, specific_units
    from mcp_lint.jury.features.units import split_units

    rng = random.Random(41)
    texts = [(row["tool"], row["input_schema"], split_units(row["description"])) for row in ROWS]
    pool = [unit for _, _, units in texts for unit in units]
    for _ in range(1500):
        tool, schema, _ = rng.choice(texts)
        units = [rng.choice(pool) for _ in range(rng.randint(0, 9))]
        units = [rng.choice(["", "- ", "1. ", "Returns:"]) + u if rng.random() < 0.3 else u for u in units]
        texts.append((tool, schema, units + rng.sample(units, min(len(units), rng.randint(0, 2)))))
    for tool, schema, units in texts:
        assert specific_units(units, Anchors(tool, schema, [])) == plain_specific_units(
            units, Anchors(tool, schema, [])
        ), (tool, units)
