"""Explicit cues: the components a description gives by an explicit cue that is specific to the tool
("When to use:" naming its things, "max 512KB", a worked example call). The offline jury floors
those components (`offline.EXPLICIT_FLOOR`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from mcp_lint.jury.features.lexicon import _alternatives, lexicon
from mcp_lint.jury.features.schema import _mentioned, _PropNames
from mcp_lint.jury.features.specificity import _SELF_SPECIFIC, Anchors, _groups, _says_specific
from mcp_lint.jury.features.tokens import _specific_stems
from mcp_lint.jury.regex_scan import presence

# Explicit cues (lexicon.yaml `explicit_cues`), one regex per component.
EXPLICIT_CUES: dict[str, re.Pattern[str]] = {
    str(comp): re.compile(_alternatives(patterns), re.MULTILINE)
    for comp, patterns in lexicon()["explicit_cues"].items()
}
# ... each as a regex that matches where it does somewhere, for ruling a cue out of a whole text
_PRESENT: dict[str, re.Pattern[str]] = {comp: presence(cue) for comp, cue in EXPLICIT_CUES.items()}
# What makes a worked example a full one: a JSON object with keys, or a call with named arguments
# (a parenthesis after a word is not one: "transcript (e.g. 'en')").
_EXAMPLE_CALL = re.compile(r"\{\s*[\"']?[A-Za-z_]\w*[\"']?\s*:\s*\S|\b[A-Za-z_][\w.]*\(\s*[A-Za-z_]\w*\s*=")
# An allow-list names its values: "only pwd, ls, cat are supported".
_ENUMERATION = re.compile(r"\w+(?:\s*,\s*\w+)+,?\s*(?:and|or)?\s*\w+")


def explicit_cues(
    units: Sequence[str],
    kept: Iterable[str],
    anchors: Anchors | None,
    props: Sequence[str],
    groups: Sequence[Sequence[int]] | None = None,
) -> frozenset[str]:
    """The components an explicit, specific cue gives: the cue's unit, or the section it heads, names
    the tool's parameters, values, name or numbers (an example must also show a call or a JSON
    object naming a parameter, or the tool when it takes none). `units` are the description's,
    `kept` those that passed the filler and specificity tests: a cue counts only with kept content
    (its heading may be a bare "When to use:"), and a limitation's own sentence must be kept.
    `groups` is `_groups(units)` when the caller has it.

    A cue absent from the units joined by newlines is absent from each of them (no cue pattern
    holds at a unit's start or end that fails next to a newline: `^` is MULTILINE, `\\b` sees the
    newline as a non-word like the text's ends, and a class that could take the newline only lets
    a match grow), so one search of the whole text rules a component out before any unit is."""
    if not units or anchors is None:
        return frozenset()
    whole = "\n".join(units).lower()
    cues = {comp: cue for comp, cue in EXPLICIT_CUES.items() if _PRESENT[comp].search(whole) is not None}
    if not cues:
        return frozenset()
    found: set[str] = set()
    names = _PropNames.of(props)
    kept = set(kept)
    for group in _groups(units) if groups is None else groups:
        if not any(units[i] in kept for i in group):
            continue
        text = "\n".join(units[i] for i in group)
        low = text.lower()
        for comp, cue in cues.items():
            if comp in found:
                continue
            hit = next((i for i in group if cue.search(units[i].lower())), None)
            if hit is None:
                continue
            if comp == "examples":
                named = bool(_mentioned(text, low, names)) if props else anchors.match(_specific_stems(text))
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
    return frozenset(found)
