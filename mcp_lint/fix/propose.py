"""The propose stage: one proposed description per smelly tool, what every report suggests and what
`--fix` starts from.

`propose` makes the mechanical fixes the tool's findings call for (`mechanical.repair`), grounds the
tool (schema, annotations, confusable siblings, traces), lets the offline augmentor compose the
smallest rewrite that clears its smells under the offline jury, and says which smells it clears.
`add_proposals` runs it once for each tool with a rubric finding or a mechanical fix and puts the
result on the server's `proposals`, with the suggestion text on the tool's rubric findings. A tool
whose description carries hidden instructions (a security finding on its description other than
invisible characters, which are removed mechanically) gets no rewrite: keeping the original's text
would keep the attack, so those must be removed by hand first. A description in another language than
English gets its mechanical fixes only: mcp-lint writes English, and mixing it in helps no reader.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from mcp_lint.check.rules import Catalogue, load_catalogue
from mcp_lint.fix.compose import PART_OF, RETURNS, Composition, compose, empty, english, joined, listed
from mcp_lint.fix.grounding import Grounding, ground, trimmed
from mcp_lint.fix.mechanical import INVISIBLE, PHANTOM, Repair, repair
from mcp_lint.model import (
    COMPONENTS,
    OFFLINE_JURY,
    Category,
    Component,
    Finding,
    Proposal,
    RunResult,
    ServerReport,
    ServerSnapshot,
    Tool,
)
from mcp_lint.overrides import Part
from mcp_lint.traces import TraceRecord
from mcp_lint.words import name_words

if TYPE_CHECKING:
    from mcp_lint.check.engine import ActiveRule
    from mcp_lint.config import Settings

SUGGESTION_HEAD = "Proposed description"
# What each added part really is, as the claim names it.
PART_SAYS: Mapping[str, str] = {
    "purpose": "what it does or returns",
    "guidelines": "when to use a rival instead",
    "limitations": "recorded failures",
    "parameters": "recorded parameter values",
    "examples": "a recorded call",
}
NOT_GROUNDED = "Not grounded:"
EMPTY_FILLED = "MCP101 a purpose from its name and inputs for the empty description"
NOTHING_GROUNDED = "nothing is known of it that an agent cannot already see in its listing"
NOT_ENGLISH = (
    "the description is not in English; mcp-lint writes its additions in English only and does not "
    "mix languages, so it adds nothing to it"
)


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
    instructions) on it, as the run's own rules and settings found it. Invisible characters are no
    reason: the rewrite removes them (`mechanical.repair`)."""
    attacks = sorted(
        (
            finding
            for finding in findings
            if finding.category is Category.SECURITY
            and finding.path == "description"
            and finding.code != INVISIBLE
        ),
        key=lambda finding: finding.code,
    )
    if not attacks:
        return None
    first = attacks[0]
    return f"the description carries {first.rule.replace('-', ' ')} ({first.code}); remove them by hand first"


def repairable(findings: Iterable[Finding]) -> bool:
    """Whether some finding calls for a mechanical fix of the description (see `mechanical`)."""
    return any(finding.code in (PHANTOM, INVISIBLE) and finding.path == "description" for finding in findings)


def with_text(tool: Tool, description: str) -> Tool:
    if description == tool.description:
        return tool
    raw = dict(tool.raw)
    raw["description"] = description
    return Tool(tool.name, raw, tool.sdk_rejection, tool.named)


@functools.lru_cache(maxsize=1)
def _relint_rules() -> tuple[Settings, tuple[ActiveRule, ...]]:
    """The deterministic rules with the rule files' defaults, selected once per process (every
    candidate of every tool is re-linted with them)."""
    from mcp_lint.check.engine import active_rules
    from mcp_lint.config import Settings

    settings = Settings()
    chosen = active_rules(load_catalogue(), settings)
    return settings, tuple(active for active in chosen if active.rule.component is None)


def relinter(tool: Tool, company: Sequence[Tool]) -> Callable[[str], tuple[str, ...]]:
    """What the deterministic rules find in a candidate text of `tool` that they do not find in its
    own: each new finding as "MCP203 Description mentions ...". The rules run over the tool beside
    `company` (the rivals a rewrite may name), with the rule files' defaults; a rewrite must never
    add a finding, so a candidate with one is not proposed."""
    from mcp_lint.check.engine import check_server

    settings, rules = _relint_rules()
    others = tuple(peer for peer in company if peer.name != tool.name)

    def found(text: str) -> dict[tuple[str, str | None], str]:
        snapshot = ServerSnapshot(name="relint", tools=(with_text(tool, text), *others))
        return {
            (finding.code, finding.subject): f"{finding.code} {finding.message}"
            for finding in check_server(snapshot, list(rules), settings)
            if finding.tool == tool.name
        }

    own: list[dict[tuple[str, str | None], str]] = []  # the original's findings, once asked
    memo: dict[str, tuple[str, ...]] = {}

    def added(text: str) -> tuple[str, ...]:
        if not own:
            own.append(found(tool.description))
        if text not in memo:
            memo[text] = tuple(message for key, message in sorted(found(text).items()) if key not in own[0])
        return memo[text]

    return added


RECORD_HINT = "record calls with `mcp-lint record`, then pass --traces: real results and failures get added"


# Parameter name words that ask for an amount: the most it accepts is a limit worth stating.
_AMOUNT_WORDS = frozenset(("limit", "max", "maximum", "count", "size", "top", "num", "results", "per"))


# A description shorter than this many words, found underspecified, is asked for more.
_SHORT = 25


def _limits(tool: Tool) -> list[str]:
    """What limits a maintainer can state that the listing does not: the largest value of an amount
    parameter with no `maximum`, and for a tool that deletes, whether that can be undone."""
    from mcp_lint.check.functions.overlap import name_meaning

    items: list[str] = []
    amounts = [
        name
        for name, schema in tool.properties.items()
        if isinstance(schema, Mapping)
        and schema.get("type") in ("integer", "number")
        and "maximum" not in schema
        and "exclusiveMaximum" not in schema
        and _AMOUNT_WORDS & set(name_words(name))
    ]
    if amounts:
        shown = joined([f"`{name}`" for name in amounts[:2]], "or")
        items.append(f"state the most {shown} accepts (no maximum in the schema)")
    annotations = tool.annotations or {}
    if annotations.get("destructiveHint") is True or name_meaning(name_words(tool.name)).action == "delete":
        items.append("say whether what it deletes can be recovered")
    return items


def checklist(grounding: Grounding, targets: Sequence[str]) -> tuple[str, ...]:
    """What a maintainer should write, for a tool with no grounded rewrite: one item per smelly
    component, each from a fact about the tool (no output schema, a confusable rival, parameters with
    no description). A component with no such fact gets no item."""
    tool = grounding.tool
    items: list[str] = []
    for component in targets:
        if component == "purpose":
            if empty(tool.description):
                items.append("say what it does and to what")
            elif not tool.raw.get("outputSchema") and not RETURNS.search(tool.description):
                items.append("say what it returns (no output schema does)")
        elif component == "guidelines" and grounding.rivals:
            names = joined([f"`{rival.name}`" for rival in grounding.rivals], "or")
            items.append(f"say when to use it rather than {names}")
        elif component == "parameters":
            bare = [item.path for item in grounding.parameters if not (item.documented or "." in item.path)]
            if bare:
                items.append(f"describe {listed(bare)} (no description)")
        elif component == "limitations":
            # The jury found no sentence on its limits: the ones the schema suggests, else the kinds.
            items.extend(_limits(tool) or ["state its limits (size, rate, required state)"])
        elif component == "examples" and grounding.parameters:
            items.append("show one example call with real values")
    size = len(tool.description.split())
    if not items and "length" in targets and 0 < size < _SHORT:
        # Underspecified and nothing more specific to ask for: its length is the fact.
        asks = ["what it acts on"]
        if not tool.raw.get("outputSchema") and not RETURNS.search(tool.description):
            asks.append("what it returns")
        if grounding.parameters:
            asks.append("what it needs")
        items.append(f"say {joined(asks)} (it has {size} words)")
    return tuple(items)


def propose(
    server: str,
    tool: Tool,
    peers: Sequence[Tool],
    scores: Mapping[str, float],
    traces: Sequence[TraceRecord] = (),
    components: Collection[Part] | None = None,
    limits: Mapping[str, float] | None = None,
    refused: str | None = None,
    names: Sequence[str] = (),
    known: Mapping[str, float] | None = None,
    findings: Sequence[Finding] = (),
    search: bool = True,
) -> Proposal:
    """The offline augmentor's rewrite of `tool`, made for the components `scores` finds smelly (or
    for the parts `components` names), after the mechanical fixes `findings` call for; none when
    `refused` says why (see `refusal`).

    `peers` are the server's tools, among which the rivals an agent would confuse it with are found.
    Candidates are scored by the offline jury with the server's other tool `names`, as the jury stage
    scores the tool, so what a proposal says it clears is what the run's offline jury will find;
    `known` is that jury's score of the original when the run already has it. Without `search` (the
    run's jury is another), the grounded parts of the smelly components are added as they are."""
    limits = dict(limits) if limits is not None else thresholds()
    targets = tuple(name for name in COMPONENTS if scores.get(name, 5.0) < limits.get(name, 3.0))
    if refused is not None:
        return Proposal(server, tool.name, tool.description, targets, refused=refused)
    fixed: Repair = repair(tool, findings)
    base = with_text(tool, fixed.text)

    def repaired_only(why: str) -> Proposal:
        if not fixed.notes:
            return Proposal(server, tool.name, tool.description, targets, refused=why)
        return Proposal(
            server,
            tool.name,
            tool.description,
            targets,
            description=fixed.text,
            repairs=fixed.notes,
            note=why,
        )

    if not english(fixed.text):
        return repaired_only(NOT_ENGLISH)
    if not targets:
        return repaired_only("no rubric smell")
    from mcp_lint.jury.offline import OfflineJury

    grounding = ground(base, peers, traces)
    offline = OfflineJury().text_scorer(tool, names)
    scored: dict[str, dict[str, float]] = {}
    if known is not None and not fixed.notes:
        scored[tool.description] = {str(name): float(value) for name, value in known.items()}

    def score(text: str) -> dict[str, float]:
        # The search asks about the same candidate texts more than once.
        if text not in scored:
            scored[text] = offline(text)
        return scored[text]

    if components is None and not search:
        # Another jury scores this run: it, not the offline jury, says what the parts clear.
        components = tuple(dict.fromkeys(part for name in targets if (part := PART_OF.get(name))))
    rival_names = {rival.name for rival in grounding.rivals}
    company = [peer for peer in peers if peer.name in rival_names] if rival_names else []
    added = relinter(base, company)

    offences: list[str] = []  # the first new finding a candidate brought, for the reason given

    def clean(text: str) -> bool:
        found = added(text)
        if found and not offences:
            offences.append(found[0])
        return not found

    composition: Composition | None = compose(grounding, targets, limits, score, components, clean)
    if composition is None and empty(base.description):
        # An empty description says nothing at all: what the name and inputs say is better than it,
        # whatever the jury thinks, so it is made like a mechanical fix.
        purpose: tuple[Part, ...] = ("purpose",)
        composition = compose(grounding, targets, limits, score, purpose, clean)
        if composition is not None:
            fixed = Repair(fixed.text, (*fixed.notes, EMPTY_FILLED))
    if composition is None:
        todo = checklist(grounding, targets)
        record = not traces
        why = NOTHING_GROUNDED
        if offences:
            why = f"each grounded addition would bring a new finding ({trimmed(offences[0], 100)})"
        if not fixed.notes:
            return Proposal(
                server,
                tool.name,
                tool.description,
                targets,
                refused=why,
                checklist=todo,
                record=record,
            )
        return replace(repaired_only(why), checklist=todo, record=record)
    after = score(composition.description)
    # No examples without an example, whatever the score: a rewrite without a real call does not fix
    # "no examples", even when the jury is satisfied by more prose.
    clears = tuple(
        name
        for name in targets
        if after[name] >= limits.get(name, 3.0) and not (name == "examples" and name in composition.absent)
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
        repairs=fixed.notes,
        before={name: float(scores[name]) for name in COMPONENTS if name in scores},
        grounded_in={part: _source(part, grounding) for part in composition.touched},
    )


def _source(part: str, grounding: Grounding) -> str:
    """What the added `part` rests on (see `Proposal.grounded_in`)."""
    if part == "guidelines":
        return joined([f"`{rival.name}`" for rival in grounding.rivals]) + ": descriptions and schemas"
    if part == "purpose" and empty(grounding.tool.description):
        return "its name and input schema"
    return "recorded calls (--traces)"


def suggestion_text(
    proposal: Proposal, offline: bool = True, codes: Mapping[Component, str] | None = None
) -> str:
    """The suggestion every rubric finding of the tool shows: the description to paste, first line
    saying which smells it clears (by the offline jury; other juries re-score under `--fix`)."""
    by_component = codes if codes is not None else rubric_codes()

    def _codes(components: Sequence[Component]) -> str:
        return ", ".join(by_component[name] for name in components)

    if proposal.description is None:
        hint = proposal.record
        if proposal.checklist:
            text = f"No grounded rewrite. Write by hand: {'; '.join(proposal.checklist)}."
            return text + (f" Or {RECORD_HINT}." if hint else "")
        return f"No grounded rewrite: {proposal.refused}" + (f"; {RECORD_HINT}." if hint else ".")
    left = [name for name in proposal.targets if name not in proposal.clears]

    def _moved(name: Component) -> str:
        before, after = proposal.before.get(name), proposal.scores.get(name)
        if before is None or after is None:
            return by_component[name]
        return f"{by_component[name]} {before:.1f} -> {after:.1f}"

    if offline:
        # What the offline jury's re-score of this very text shows, component by component.
        claim = "clears " + ", ".join(map(_moved, proposal.clears)) if proposal.clears else "clears no smell"
        if left:
            claim += "; not " + ", ".join(map(_moved, left))
    else:
        claim = f"written for {_codes(proposal.targets)}; `check --fix` re-scores it with your jury"
    # A tool with no smell (a mechanical fix only) has nothing to claim.
    said = [claim] if proposal.targets else []
    if proposal.repairs:
        said.insert(0, "fixes " + ", ".join(proposal.repairs))
    if proposal.touched:
        said.append("adds " + ", ".join(PART_SAYS.get(part, part) for part in proposal.touched))
    elif proposal.note and proposal.targets:
        said.append(f"adds nothing: {proposal.note}")
    head = f"{SUGGESTION_HEAD} ({'; '.join(said)}):"
    lines = [head, proposal.description]
    if proposal.absent:
        lines.append(
            f"{NOT_GROUNDED} " + "; ".join(f"{part} ({why})" for part, why in proposal.absent.items()) + "."
        )
    return "\n".join(lines)


def _server_proposals(
    report: ServerReport, limits: Mapping[str, float], codes: Mapping[Component, str]
) -> ServerReport:
    snapshot = report.snapshot
    by_tool: dict[str, list[Finding]] = {}
    for finding in report.findings:
        if finding.tool is not None:
            by_tool.setdefault(finding.tool, []).append(finding)
    smelly = {f.tool for f in report.findings if f.component is not None and f.tool is not None}
    wanted = smelly | {name for name, found in by_tool.items() if repairable(found)}
    if snapshot is None or not wanted:
        return report
    from mcp_lint.jury.siblings import ServerNames

    named = [tool for tool in snapshot.tools if tool.named]
    names = ServerNames(tool.name for tool in named)
    proposals: dict[str, Proposal] = {}
    suggestions: dict[str, str] = {}
    for tool in snapshot.tools:
        scores = report.tool_scores.get(tool.name)
        if tool.name not in wanted or not tool.named:
            continue
        if scores is None and tool.name in smelly:
            continue
        aggregate = {str(name): value for name, value in scores.aggregate.items()} if scores else {}
        proposal = propose(
            report.name,
            tool,
            named,
            aggregate,
            limits=limits,
            refused=refusal(by_tool[tool.name]),
            names=names.without(tool.name),
            # The run's offline verdict is the score of the original with the same siblings.
            known=aggregate if scores is not None and set(scores.judges) == {OFFLINE_JURY} else None,
            findings=by_tool[tool.name],
            search=scores is None or set(scores.judges) <= {OFFLINE_JURY},
        )
        if proposal.description is None and tool.name not in smelly:
            continue
        proposals[tool.name] = proposal
        offline = scores is None or set(scores.judges) <= {OFFLINE_JURY}
        suggestions[tool.name] = suggestion_text(proposal, offline, codes)
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
