"""Generated padding raises no score: filler built from templates and common English words.

The padding defence is meant to be general (a sentence earns coverage only by saying something
specific to the tool), not a word list, so it is tested on filler that no list was written against:
sentences drawn from templates (some wearing the rubric's cue phrases: "Use it to ...", "Note:",
"For example", "Only ...", "It does not ...") filled with common adjectives, nouns and verbs that the
tool's own text does not use. The seed was chosen once, before any result was seen, and must never
be changed to make the test pass: a failure here is a hole in the defence.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

from lab.corpus import load_rows, sibling_names
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.model import Tool

SEED = 20261201  # fixed once; never tuned


def _vocabulary(text: str) -> list[str]:
    return text.split()


ADJECTIVES = _vocabulary(
    "clear strong friendly solid careful steady bright honest gentle familiar natural practical "
    "proven stable polished thoughtful clever capable dependable consistent pleasant calm "
    "thorough sensible balanced generous patient tidy lively sturdy cheerful handsome modest"
)
NOUNS = _vocabulary(
    "team project company business idea moment answer plan process approach office home family "
    "customer partner community story journey future success quality choice step place group "
    "question habit morning garden market teacher student neighbour weekend kitchen village"
)
VERBS = _vocabulary(
    "bring keep give take grow move share finish solve choose follow reach learn try organise "
    "prepare explain welcome encourage protect celebrate visit arrange imagine discover"
)

# Sentence frames: {a} an adjective, {n} a noun, {v} a verb; a few wear the rubric's cue phrases.
TEMPLATES = (
    "This {a} {n} is {a} and {a}.",
    "It helps you {v} your {n} in a {a} way.",
    "Every {n} can {v} the {n} with a {a} {n}.",
    "Many people {v} it every {n}.",
    "Use it to {v} the {n} when the {n} is {a}.",
    "Use this when you want to {v} a {a} {n}.",
    "It does not {v} your {n} unless the {n} is {a}.",
    "Only {a} {n}s can {v} it.",
    "Note: the {n} should be {a}.",
    "For example, you can {v} a {a} {n}.",
    "It returns a {a} {n} for each {n}.",
    "Do not use it to {v} a {n}.",
    "Always {v} the {n} before you {v} the {n}.",
    "The {n} stays {a}, so your {n} can {v} it.",
    "## {A} {n}",
    "- {A} {n} and {a} {n}",
)

_WORD = re.compile(r"[a-z]+")


def _tool_words(row: dict[str, Any]) -> set[str]:
    text = " ".join([row["tool"], row["description"] or "", json.dumps(row["input_schema"])])
    return set(_WORD.findall(re.sub(r"(?<=[a-z])(?=[A-Z])", " ", text).lower()))


def _outside(words: list[str], used: set[str]) -> list[str]:
    """The words the tool's text does not use, in any form (nor as part of a longer word)."""
    return [w for w in words if not any(w[:4] in u or u in w for u in used if len(u) >= 4) and w not in used]


def make_filler(rng: random.Random, used: set[str], sentences: int) -> str:
    adjectives, nouns, verbs = (_outside(ws, used) for ws in (ADJECTIVES, NOUNS, VERBS))
    out = []
    for _ in range(sentences):
        template = rng.choice(TEMPLATES)
        out.append(
            re.sub(
                r"\{([anvA])\}",
                lambda m: (
                    rng.choice(adjectives).capitalize()
                    if m.group(1) == "A"
                    else rng.choice({"a": adjectives, "n": nouns, "v": verbs}[m.group(1)])
                ),
                template,
            )
        )
    return "\n".join(out) if any(t.startswith(("##", "-")) for t in out) else " ".join(out)


def _tool(row: dict[str, Any], description: str) -> Tool:
    raw: dict[str, Any] = {"name": row["tool"], "description": description}
    if row["input_schema"] is not None:
        raw["inputSchema"] = row["input_schema"]
    return Tool(name=row["tool"], raw=raw)


def _terminated(text: str) -> str:
    text = text.rstrip()
    return text if not text or text[-1] in ".!?。！？:" else text + "."


def test_the_generator_is_deterministic_and_avoids_the_tools_words() -> None:
    used = {"team", "project", "clear"}
    first = make_filler(random.Random(SEED), used, 6)
    assert first == make_filler(random.Random(SEED), used, 6)
    words = set(_WORD.findall(first.lower()))
    assert words & set(ADJECTIVES + NOUNS + VERBS)  # it is made of the vocabulary
    assert not words & used


def test_generated_padding_never_raises_any_score() -> None:
    rng = random.Random(SEED)
    jury = OfflineJury()
    violations: list[str] = []
    rows = load_rows()
    # judged as at runtime: with the names of the server's other tools
    for row, siblings in zip(rows, sibling_names(rows), strict=True):
        description = row["description"] or ""
        base = jury.judge(_tool(row, description), siblings).scores
        used = _tool_words(row)
        short, long = make_filler(rng, used, 2), make_filler(rng, used, 5)
        variants = {
            "appended": f"{_terminated(description)} {short}",
            "appended-lines": f"{description}\n{long}",
            "prepended": f"{long}\n{description}",
            "both": f"{short}\n{description}\n{long}",
        }
        for label, text in variants.items():
            got = jury.judge(_tool(row, text), siblings).scores
            for comp in base:  # the schema is untouched: the same components apply
                if got[comp] > base[comp]:
                    violations.append(f"{row['tool']} {label} {comp}: {base[comp]} -> {got[comp]} ({text!r})")
    assert not violations, f"{len(violations)} raises: {violations[:10]}"
