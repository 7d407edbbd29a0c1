"""The JSON reports' own indented encoder (`sanitize._dumps`) writes exactly what `json.dumps` writes,
and leaves to `json` everything it does not handle."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.sanitize import _dumps, _Indented, dumps_strict

FIXTURES = Path(__file__).parent.parent / "fixtures"
SCALARS: list[Any] = [
    None, True, False, 0, -3, 2**70, 1.5, -0.0, 1e300, 3.14159e-7, "", 'a"b\\c\n\u2028é\ud800x', "日本語",
    "\x00\x1f\x7f",
]  # fmt: skip


def _standard(document: Any, indent: int | None) -> str:
    return json.dumps(document, indent=indent, ensure_ascii=False, allow_nan=False)


def _random_document(rnd: random.Random, depth: int = 0) -> Any:
    roll = rnd.random()
    if depth > 5 or roll < 0.3:
        return rnd.choice(SCALARS)
    if roll < 0.6:
        return [_random_document(rnd, depth + 1) for _ in range(rnd.randint(0, 4))]
    if roll < 0.75:
        return tuple(_random_document(rnd, depth + 1) for _ in range(rnd.randint(0, 3)))
    keys = ["k", "é", "", "a b", "\n", "\ud800"]
    return {rnd.choice(keys) + str(i): _random_document(rnd, depth + 1) for i in range(rnd.randint(0, 4))}


def test_same_text_as_json_dumps_on_real_and_random_documents() -> None:
    documents: list[Any] = []
    for path in sorted(FIXTURES.rglob("*.json")):
        try:
            documents.append(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, UnicodeDecodeError):
            continue
    assert len(documents) > 5
    rnd = random.Random(20)
    documents += [_random_document(rnd) for _ in range(2000)]
    for document in documents:
        for indent in (0, 1, 2, 4, None):
            assert _dumps(document, indent) == _standard(document, indent)


@pytest.mark.parametrize(
    "document",
    [
        {1: 2, "a": [1.5]},  # json writes other keys as strings
        {None: 1, True: 2, 2.5: 3},
        {"x": float("nan")},  # json refuses non-finite numbers (allow_nan=False)
        [float("-inf")],
        {"o": object()},  # and anything it cannot encode
    ],
)
def test_what_it_does_not_handle_is_json_s_to_write_or_refuse(document: Any) -> None:
    def outcome(encode: Any) -> Any:
        try:
            return encode(document, 2)
        except (TypeError, ValueError) as exc:
            return type(exc), str(exc)

    assert outcome(_dumps) == outcome(_standard)


def test_cycle_is_refused_as_json_refuses_it() -> None:
    cycle: list[Any] = []
    cycle.append(cycle)
    with pytest.raises(ValueError, match="Circular reference"):
        _dumps(cycle, 2)


def test_dumps_strict_still_writes_non_finite_numbers_as_strings() -> None:
    written = dumps_strict({"a": [float("inf"), float("nan"), 1.0]})
    assert json.loads(written) == {"a": ["Infinity", "NaN", 1.0]}


def test_escape_surrogates_skips_only_texts_that_cannot_hold_a_surrogate() -> None:
    import re

    from mcp_lint.sanitize import escape_surrogates

    def by_scan(text: str) -> str:  # every text scanned, as before the ASCII shortcut
        return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text)

    texts = ["", "plain ascii \x00\x7f", "é", "日本語", "\ud800", "a\udfffb", "x\ud83d\ude00y", "\U0001f600"]
    texts += ["".join(random.Random(seed).choice(SCALARS[10:]) for _ in range(5)) for seed in range(50)]
    for text in texts:
        assert escape_surrogates(text) == by_scan(text), ascii(text)
    ascii_text = "a report" * 1000
    assert escape_surrogates(ascii_text) is ascii_text


class _Text(str):
    pass


class _Number(int):
    pass


class _Ordered(dict):  # type: ignore[type-arg]
    pass


class _Items(list):  # type: ignore[type-arg]
    pass


def test_subclasses_repeats_and_numbers_are_written_as_json_writes_them() -> None:
    # Exact built-in types take the writer's loops, subclasses its general branch, and a text or
    # key met again is written from what it was the first time: all must read as json writes them.
    import enum

    class Level(enum.IntEnum):
        LOW = 1

    class Kind(str, enum.Enum):
        TOOL = "tool"

    shared = 'the same suggestion "quoted"\n' * 3
    rnd = random.Random(33)
    documents: list[Any] = [
        {_Text("k"): _Text("v\n"), "k2": _Number(7), "level": Level.LOW, "kind": Kind.TOOL},
        _Ordered(b=[1.0, -0.0, 2.5e-8, 1e16], a=_Items([True, None, _Ordered()])),
        [{"code": "MCP701", "suggestion": shared, "fails": False, "score": 2.0} for _ in range(5)],
        {"a": {"a": {"a": [[], {}, [[]], [{}], ""]}}, "b": (1, (2, (3,)))},
        [[shared, shared.upper(), shared], {"x": shared, "y": {"x": shared}}],
    ]
    documents += [[_random_document(rnd) for _ in range(4)] for _ in range(300)]
    for document in documents:
        for indent in (0, 2, 3):
            writer = _Indented(" " * indent)  # the writer itself, not json behind it
            writer.write(document, 0)
            assert "".join(writer.out) == _standard(document, indent)
