"""The propose stage: one proposed description per smelly tool, what every report suggests and what
`--fix` starts from.

`propose` grounds the tool (schema, annotations, siblings, traces), lets the offline augmentor compose
the smallest rewrite that clears its smells under the offline jury, and says which smells it clears.
`add_proposals` runs it once for each tool with a rubric finding and puts the result on the server's
`proposals`, with the suggestion text on the tool's rubric findings. A tool whose description carries
hidden instructions or invisible characters (a security finding on its description) gets no rewrite:
keeping the original's text would keep the attack, so those must be removed by hand first.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace

from mcp_lint.check.rules import Catalogue, load_catalogue
from mcp_lint.fix.compose import Composition, compose
from mcp_lint.fix.grounding import ground, subjects
from mcp_lint.model import (
    COMPONENTS,
    OFFLINE_JURY,
    Category,
    Component,
    Finding,
    Proposal,
    RunResult,
    ServerReport,
    Tool,
)
from mcp_lint.overrides import Part
from mcp_lint.traces import TraceRecord

SUGGESTION_HEAD = "Proposed description"
NOT_GROUNDED = "Not grounded:"
# A word more tools than this share (`issue` in an issue tracker) tells no sibling apart.
_MAX_SIBLING_GROUP = 12


def rubric_codes(catalogue: Catalogue | None = None) -> dict[Component, str]:
    """The rubric rule of each component (its `component` option in `rules/`): what a report calls
    the smell a rewrite clears."""
    found: dict[Component, str] = {}
    for rule in (catalogue or load_catalogue()).rules:
        if rule.component is not None:
            found.setdefault(rule.component, rule.code)
    return found


def thresholds() -> dict[str, float]:
    from mcp_lint.jury.rubric import load_rubric

    rubric = load_rubric()
    return {name: float(rubric.components[name].threshold) for name in COMPONENTS}


def refusal(findings: Iterable[Finding]) -> str | None:
    """Why the description must not be rewritten by keeping its text: a security finding (hidden
    instructions, invisible characters) on it, as the run's own rules and settings found it."""
    attacks = sorted(
        (
            finding
            for finding in findings
            if finding.category is Category.SECURITY and finding.path == "description"
        ),
        key=lambda finding: finding.code,
    )
    if not attacks:
        return None
    first = attacks[0]
    return f"the description carries {first.rule.replace('-', ' ')} ({first.code}); remove them by hand first"


def propose(
    server: str,
    tool: Tool,
    siblings: Mapping[str, str],
    scores: Mapping[str, float],
    traces: Sequence[TraceRecord] = (),
    components: Collection[Part] | None = None,
    limits: Mapping[str, float] | None = None,
    refused: str | None = None,
    names: Sequence[str] = (),
    known: Mapping[str, float] | None = None,
) -> Proposal:
    """The offline augmentor's rewrite of `tool`, made for the components `scores` finds smelly (or
    for the parts `components` names); none when `refused` says why (see `refusal`).

    Candidates are scored by the offline jury with the server's other tool `names`, as the jury stage
    scores the tool, so what a proposal says it clears is what the run's offline jury will find;
    `known` is that jury's score of the original when the run already has it."""
    limits = dict(limits) if limits is not None else thresholds()
    targets = tuple(name for name in COMPONENTS if scores.get(name, 5.0) < limits.get(name, 3.0))
    if refused is not None:
        return Proposal(server, tool.name, tool.description, targets, refused=refused)
    from mcp_lint.jury.offline import OfflineJury

    grounding = ground(tool, siblings, traces)
    offline = OfflineJury().text_scorer(tool, names)
    scored: dict[str, dict[str, float]] = {}
    if known is not None:
        scored[tool.description] = {str(name): float(value) for name, value in known.items()}

    def score(text: str) -> dict[str, float]:
        # The search asks about the same candidate texts more than once.
        if text not in scored:
            scored[text] = offline(text)
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


def suggestion_text(
    proposal: Proposal, offline: bool = True, codes: Mapping[Component, str] | None = None
) -> str:
    """The suggestion every rubric finding of the tool shows: the description to paste, first line
    saying which smells it clears (by the offline jury; other juries re-score under `--fix`)."""
    by_component = codes if codes is not None else rubric_codes()

    def _codes(components: Sequence[Component]) -> str:
        return ", ".join(by_component[name] for name in components)

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


def candidate_siblings(tools: Sequence[Tool]) -> dict[str, dict[str, str]]:
    """For each tool, the siblings sharing a subject word of its name (with their descriptions): the
    only ones a proposal may point to, found through one index instead of comparing every pair."""
    by_stem: dict[str, list[Tool]] = {}
    for tool in tools:
        for stem in subjects(tool.name):
            by_stem.setdefault(stem, []).append(tool)
    found: dict[str, dict[str, str]] = {}
    for tool in tools:
        near: dict[str, str] = {}
        for stem in subjects(tool.name):
            group = by_stem[stem]
            if len(group) <= _MAX_SIBLING_GROUP:
                near.update((other.name, other.description) for other in group if other.name != tool.name)
        found[tool.name] = near
    return found


def _server_proposals(
    report: ServerReport, limits: Mapping[str, float], codes: Mapping[Component, str]
) -> ServerReport:
    snapshot = report.snapshot
    smelly = {f.tool for f in report.findings if f.component is not None and f.tool is not None}
    if snapshot is None or not smelly:
        return report
    from mcp_lint.jury.siblings import ServerNames

    siblings: dict[str, dict[str, str]] | None = None
    named = [tool for tool in snapshot.tools if tool.named]
    names = ServerNames(tool.name for tool in named)
    by_tool: dict[str, list[Finding]] = {}
    for finding in report.findings:
        if finding.tool is not None:
            by_tool.setdefault(finding.tool, []).append(finding)
    proposals: dict[str, Proposal] = {}
    suggestions: dict[str, str] = {}
    for tool in snapshot.tools:
        scores = report.tool_scores.get(tool.name)
        if tool.name not in smelly or scores is None or not tool.named:
            continue
        if siblings is None:
            siblings = candidate_siblings(named)
        proposal = propose(
            report.name,
            tool,
            siblings.get(tool.name, {}),
            {str(name): value for name, value in scores.aggregate.items()},
            limits=limits,
            refused=refusal(by_tool[tool.name]),
            names=names.without(tool.name),
            # The run's offline verdict is the score of the original with the same siblings.
            known={str(k): v for k, v in scores.aggregate.items()}
            if set(scores.judges) == {OFFLINE_JURY}
            else None,
        )
        proposals[tool.name] = proposal
        suggestions[tool.name] = suggestion_text(proposal, set(scores.judges) <= {OFFLINE_JURY}, codes)
    findings = tuple(
        replace(finding, suggestion=suggestions[finding.tool])
        if finding.component is not None and finding.tool in suggestions
        else finding
        for finding in report.findings
    )
    return replace(report, findings=findings, proposals=proposals)


def add_proposals(
    result: RunResult, limits: Mapping[str, float] | None = None, catalogue: Catalogue | None = None
) -> RunResult:
    """The result with one proposal per tool that has a rubric finding, on its server's `proposals`,
    and the proposal's text as the suggestion of each of the tool's rubric findings. `limits` are the
    run's rubric thresholds (the rubric's defaults when None)."""
    chosen = dict(limits) if limits is not None else thresholds()
    codes = rubric_codes(catalogue)
    return replace(
        result, servers=tuple(_server_proposals(report, chosen, codes) for report in result.servers)
    )
