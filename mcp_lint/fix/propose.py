"""One proposed description per smelly tool: what every report suggests and what `--fix` starts from.

`propose` grounds the tool (schema, annotations, siblings, traces), lets the offline augmentor compose
the smallest rewrite that clears its smells under the offline jury, and says which smells it clears.
A tool whose description carries hidden instructions or invisible characters gets no rewrite: keeping
the original's text would keep the attack, so those must be removed by hand first.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from mcp_lint.fix.compose import Composition, compose
from mcp_lint.fix.grounding import ground
from mcp_lint.model import COMPONENTS, ServerSnapshot, Tool
from mcp_lint.overrides import Part
from mcp_lint.traces import TraceRecord

# The rubric rule of each component: what a report calls the smell a rewrite clears.
RUBRIC_CODES: Mapping[str, str] = {
    "purpose": "MCP701",
    "guidelines": "MCP702",
    "limitations": "MCP703",
    "parameters": "MCP704",
    "length": "MCP705",
    "examples": "MCP706",
}
SUGGESTION_HEAD = "Proposed description"
NOT_GROUNDED = "Not grounded:"


@dataclass(frozen=True)
class Proposal:
    """A grounded rewrite of one tool's description, or why there is none (`refused`)."""

    server: str
    tool: str
    original: str
    targets: tuple[str, ...]  # the smelly components it was made for
    description: str | None = None
    parts: Mapping[str, str] = field(default_factory=dict)
    touched: tuple[str, ...] = ()
    scores: Mapping[str, float] = field(default_factory=dict)  # the offline jury's, of the rewrite
    clears: tuple[str, ...] = ()
    absent: Mapping[str, str] = field(default_factory=dict)
    refused: str | None = None


def thresholds() -> dict[str, float]:
    from mcp_lint.jury.rubric import load_rubric

    rubric = load_rubric()
    return {name: float(rubric.components[name].threshold) for name in COMPONENTS}


def _offline_scores(tool: Tool, description: str) -> dict[str, float]:
    from mcp_lint.jury.offline import OfflineJury

    raw = dict(tool.raw)
    raw["description"] = description
    return OfflineJury().scores(Tool(tool.name, raw))[0]


def refusal(server: str, tool: Tool) -> str | None:
    """Why the description must not be rewritten by keeping its text: it carries an attack."""
    from mcp_lint.check.functions import CheckContext
    from mcp_lint.check.functions.poisoning import hidden_instructions, invisible_characters

    context = CheckContext(ServerSnapshot(server, (tool,)), {})
    if any(hit.path == "description" for hit in hidden_instructions(context)):
        return "the description carries hidden instructions (MCP301); remove them by hand first"
    if any(hit.path == "description" for hit in invisible_characters(context)):
        return "the description carries invisible characters (MCP302); remove them by hand first"
    return None


def propose(
    server: str,
    tool: Tool,
    siblings: Mapping[str, str],
    scores: Mapping[str, float],
    traces: Sequence[TraceRecord] = (),
    components: Collection[Part] | None = None,
    limits: Mapping[str, float] | None = None,
) -> Proposal:
    """The offline augmentor's rewrite of `tool`, made for the components `scores` finds smelly (or
    for the parts `components` names)."""
    limits = dict(limits) if limits is not None else thresholds()
    targets = tuple(name for name in COMPONENTS if scores.get(name, 5.0) < limits.get(name, 3.0))
    refused = refusal(server, tool)
    if refused is not None:
        return Proposal(server, tool.name, tool.description, targets, refused=refused)
    grounding = ground(tool, siblings, traces)
    scored: dict[str, dict[str, float]] = {}

    def score(text: str) -> dict[str, float]:
        # The search asks about the same candidate texts more than once.
        if text not in scored:
            scored[text] = _offline_scores(tool, text)
        return scored[text]

    composition: Composition | None = compose(grounding, targets, limits, score, components)
    if composition is None:
        hint = " (record calls with `mcp-lint record`, then pass --traces)" if not traces else ""
        return Proposal(
            server,
            tool.name,
            tool.description,
            targets,
            refused=f"nothing its schema, annotations, siblings or traces state clears a smell{hint}",
        )
    after = score(composition.description)
    # A smell whose part had nothing grounded to say is not claimed, whatever the score: a rewrite
    # without an example does not fix "no examples", even when the jury is satisfied by more prose.
    clears = tuple(
        name for name in targets if after[name] >= limits.get(name, 3.0) and name not in composition.absent
    )
    return Proposal(
        server,
        tool.name,
        tool.description,
        targets,
        description=composition.description,
        parts=composition.parts,
        touched=composition.touched,
        scores=after,
        clears=clears,
        absent=composition.absent,
    )


def _codes(components: Sequence[str]) -> str:
    return ", ".join(RUBRIC_CODES[name] for name in components)


def suggestion_text(proposal: Proposal, offline: bool = True) -> str:
    """The suggestion every rubric finding of the tool shows: the description to paste, first line
    saying which smells it clears (by the offline jury; other juries re-score under `--fix`)."""
    if proposal.description is None:
        return f"No grounded rewrite: {proposal.refused}."
    left = [name for name in proposal.targets if name not in proposal.clears]
    if offline:
        claim = f"clears {_codes(proposal.clears)}" if proposal.clears else "clears no smell"
        if left:
            claim += f"; not {_codes(left)}"
    else:
        claim = f"written for {_codes(proposal.targets)}; `check --fix` re-scores it with your jury"
    head = f"{SUGGESTION_HEAD} ({claim}; adds {', '.join(proposal.touched)}):"
    lines = [head, proposal.description]
    if proposal.absent:
        lines.append(
            f"{NOT_GROUNDED} " + "; ".join(f"{part} ({why})" for part, why in proposal.absent.items()) + "."
        )
    return "\n".join(lines)


def proposed_description(suggestion: str | None) -> str | None:
    """The description inside a suggestion `suggestion_text` wrote, or None for any other text."""
    if not suggestion or not suggestion.startswith(SUGGESTION_HEAD + " ("):
        return None
    lines = suggestion.split("\n")[1:]
    if lines and lines[-1].startswith(NOT_GROUNDED):
        lines = lines[:-1]
    text = "\n".join(lines).strip()
    return text or None


@functools.lru_cache(maxsize=2048)
def _cached(server: str, tool_json: str, siblings_json: str, scores_json: str) -> Proposal:
    raw = json.loads(tool_json)
    tool = Tool(str(raw.get("name", "")), raw)
    return propose(server, tool, json.loads(siblings_json), json.loads(scores_json))


def cached_proposal(
    server: str, tool: Tool, siblings: Mapping[str, str], scores: Mapping[str, float]
) -> Proposal:
    """`propose` without traces, memoized: the six rubric rules of a run ask for each tool's once each."""
    try:
        tool_json = json.dumps(tool.raw, default=str)  # key order kept: it is the parameter order
    except (TypeError, ValueError):
        return propose(server, tool, siblings, scores)
    return _cached(
        server,
        tool_json,
        json.dumps(dict(siblings), sort_keys=True),
        json.dumps({k: float(v) for k, v in scores.items()}, sort_keys=True),
    )
