"""Explicit cues: the components a description gives by an explicit cue that is specific to the tool
("When to use:" naming its things, "max 512KB", a worked example call). The offline jury floors
those components (`offline.EXPLICIT_FLOOR`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence

from mcp_lint.jury.features.lexicon import _alternatives, lexicon
from mcp_lint.jury.features.schema import _mentioned, _PropNames
from mcp_lint.jury.features.specificity import _SELF_SPECIFIC, Anchors, _groups, _says_specific
from mcp_lint.jury.features.tokens import _specific_stems
from mcp_lint.jury.features.unitmemo import Memo
from mcp_lint.jury.regex_scan import Gated, GateSet, _closing, _led, _top_alternatives, gate_words
from mcp_lint.lazyre import lazy, source_of

# Explicit cues (lexicon.yaml `explicit_cues`), one regex per component (searched as `_GATED`;
# compiled only if something searches with it as it is).
EXPLICIT_CUES: dict[str, re.Pattern[str]] = {
    str(comp): lazy(_alternatives(patterns), re.MULTILINE)
    for comp, patterns in lexicon()["explicit_cues"].items()
}
# What makes a worked example a full one: a JSON object with keys, or a call with named arguments
# (a parenthesis after a word is not one: "transcript (e.g. 'en')").
_EXAMPLE_CALL = lazy(r"\{\s*[\"']?[A-Za-z_]\w*[\"']?\s*:\s*\S|\b[A-Za-z_][\w.]*\(\s*[A-Za-z_]\w*\s*=")
# An allow-list names its values: "only pwd, ls, cat are supported".
_ENUMERATION = lazy(r"\w+(?:\s*,\s*\w+)+,?\s*(?:and|or)?\s*\w+")


def _unled(alternative: str) -> str:
    r"""`alternative` without a leading optional group when that cannot change whether it matches
    somewhere: `\b(?:the )?(?:model|agent) should` matches in a text exactly when
    `\b(?:model|agent) should` does. That holds when every alternative of the group ends with a
    space and what follows starts with a letter or digit at every start (`_led` tells): where the
    group is taken, a space precedes the rest, so the rest also matches there on its own, after a
    word boundary. Otherwise `alternative` as it is. (A word gate reads the group's first word, "the",
    which nearly every text has: the whole cue would be searched, and compiled, for any text.)"""
    if not alternative.startswith(_BOUNDED_GROUP):
        return alternative
    end = _closing(alternative, 2)
    rest = alternative[end + 2 :]
    if end < 0 or alternative[end + 1 : end + 2] != "?" or rest.startswith(("?", "*", "+", "{")):
        return alternative
    if not all(a.endswith(" ") for a in _top_alternatives(alternative[5:end])):
        return alternative
    firsts = [first for first, _ in _led(rest)]
    if not firsts or not all(first is not None and first.isalnum() for first in firsts):
        return alternative
    return r"\b" + rest


_BOUNDED_GROUP = r"\b(?:"


def cue_parts(cue: re.Pattern[str]) -> list[re.Pattern[str]]:
    """Regexes one of which matches somewhere in a text exactly when `cue` does: its top-level
    alternatives, each on its own (`_unled`). Each gets a word gate of its own, so a text is searched
    only with the few alternatives whose first words it has, and a cue none of whose alternatives a
    lint's texts open is never compiled (one alternation behind one gate was opened by any text with
    one of the ~40 first words of its alternatives: "is", "at", "for", "the"). A cue with global
    inline flags is its own part."""
    source, flags = source_of(cue)
    if _INLINE_FLAGS.match(source):
        return [cue]
    return [lazy(_unled(alternative), flags) for alternative in _top_alternatives(source)]


_INLINE_FLAGS = lazy(r"\(\?[aiLmsux]+\)")

# ... each as regexes one of which matches somewhere in a text exactly when the cue does, behind
# word gates
_GATED: dict[str, tuple[Gated, ...]] = {
    comp: tuple(Gated(part) for part in cue_parts(cue)) for comp, cue in EXPLICIT_CUES.items()
}


# ... their gates read together (`GateSet`): most units open none of them
_PARTS: tuple[tuple[str, Gated], ...] = tuple(
    (comp, part) for comp, parts in _GATED.items() for part in parts
)
_GATES = GateSet([part for _, part in _PARTS])
# the one empty answer, shared (Python 3.11 makes a new object for each `frozenset()`)
_NONE: frozenset[str] = frozenset()


def _unit_cues(unit: str) -> frozenset[str]:
    low = unit.lower()
    words = gate_words(low)
    opened, shared = _GATES.opened(low, words)
    if not opened:
        return _NONE
    found: list[str] = []
    for i, (comp, part) in enumerate(_PARTS):
        if opened >> i & 1 and comp not in found and part.open_search(low, words, shared):
            found.append(comp)
    return frozenset(found) if found else _NONE


_UNIT_CUES: Memo[frozenset[str]] = Memo(_unit_cues)
# The components whose explicit cue pattern matches somewhere in `unit` (lower-cased), computed once
# per distinct unit text (a proposal's candidates repeat the original's units). The memo's own
# look-up: no Python frame on a hit, and every unit of every analysed text asks.
unit_cues: Callable[[str], frozenset[str]] = _UNIT_CUES.__getitem__


def explicit_cues(
    units: Sequence[str],
    kept: Iterable[str],
    anchors: Anchors | None,
    names: _PropNames,
    groups: Sequence[Sequence[int]] | None = None,
) -> frozenset[str]:
    """The components an explicit, specific cue gives: the cue's unit, or the section it heads, names
    the tool's parameters, values, name or numbers (an example must also show a call or a JSON
    object naming a parameter, or the tool when it takes none). `units` are the description's,
    `kept` those that passed the filler and specificity tests: a cue counts only with kept content
    (its heading may be a bare "When to use:"), and a limitation's own sentence must be kept.
    `groups` is `_groups(units)` when the caller has it; `names` the tool's property names as the
    tool's context prepared them (`ToolContext.prop_names`), not prepared again per text.

    Which cue patterns match is read unit by unit (`unit_cues`), and only for the units of groups
    with kept content: no other unit can give a cue."""
    if not units or anchors is None:
        return _NONE
    kept = set(kept)
    # only a group with a kept unit can give a cue; its units' cues are read in the same loop (plain
    # loops: a verdict reads every group of every text, most of which give no cue)
    with_kept: list[Sequence[int]] = []
    in_unit: dict[int, frozenset[str]] = {}
    present: set[str] = set()
    for group in _groups(units) if groups is None else groups:
        for i in group:
            if units[i] in kept:
                break
        else:
            continue
        with_kept.append(group)
        for i in group:
            cues = in_unit[i] = unit_cues(units[i])
            if cues:
                present |= cues
    if not present:
        return _NONE
    groups = with_kept
    found: set[str] = set()
    for group in groups:
        text = "\n".join(units[i] for i in group)
        low = text.lower()
        for comp in EXPLICIT_CUES:
            if comp in found or comp not in present:
                continue
            hit = next((i for i in group if comp in in_unit[i]), None)
            if hit is None:
                continue
            if comp == "examples":
                if names.names:
                    named = bool(_mentioned(text, low, names))
                else:
                    named = anchors.match(_specific_stems(text))
                ok = _EXAMPLE_CALL.search(text) is not None and named
            elif comp == "limitations":
                # the bound's number or the allow-list is in the cue's own sentence
                unit = units[hit]
                ok = unit in kept and (
                    _SELF_SPECIFIC.search(unit) is not None
                    or _ENUMERATION.search(unit) is not None
                    or _says_specific(unit, anchors)
                )
            else:
                ok = any(_says_specific(units[i], anchors) for i in group)
            if ok:
                found.add(comp)
    return frozenset(found) if found else _NONE
