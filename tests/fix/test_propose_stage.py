"""The propose stage: one proposed description per tool with a rubric finding, on the server's
`proposals`, shown as the suggestion of each of its rubric findings."""

from __future__ import annotations

from rooms_support import SERVER, TOOLS

from mcp_lint.check.tokens import estimate_tokens
from mcp_lint.fix.propose import add_proposals, over_budget
from mcp_lint.jury.aggregate import aggregate_verdicts
from mcp_lint.jury.base import COMPONENTS, JudgeVerdict
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.model import (
    OFFLINE_JURY,
    Category,
    Component,
    Finding,
    RunResult,
    ServerReport,
    Severity,
)

CODES: dict[Component, str] = {"guidelines": "MCP702", "limitations": "MCP703"}


def verdict(judge: str, guidelines: float, rewrite: str | None = None) -> JudgeVerdict:
    scores = {component: 4.0 for component in COMPONENTS} | {"guidelines": guidelines, "limitations": 2.0}
    return JudgeVerdict(judge, scores, {"guidelines": f"{judge}: never says when to use it."}, rewrite)


def rubric_finding(component: Component, tool: str = "book_room") -> Finding:
    return Finding(
        CODES[component],
        component,
        Severity.MODERATE,
        "smell",
        "rooms",
        tool,
        path="description",
        category=Category.RUBRIC,
        component=component,
    )


def run(*findings: Finding, judge: str = "offline", rewrite: str | None = None) -> RunResult:
    # The offline jury's own verdict (the proposal starts from it), or a made-up judge's.
    made = (
        OfflineJury().judge(TOOLS[0], ["book_meeting_room", "cancel_booking"])
        if judge == OFFLINE_JURY
        else verdict(judge, 1, rewrite)
    )
    scores = {"book_room": aggregate_verdicts([made])}
    return RunResult(servers=(ServerReport("rooms", SERVER, findings, tool_scores=scores),))


def test_a_rubric_finding_gets_the_proposed_description() -> None:
    [report] = add_proposals(run(rubric_finding("guidelines"))).servers
    proposal = report.proposals["book_room"]
    assert proposal.description is not None and proposal.description.startswith("Books a room. ")
    # It says when to use the rival doing the same thing instead, in the rival's own words; it never
    # points at the tool of another action. The finding shows it with what the re-score clears.
    assert proposal.description == (
        "Books a room. To book a room for a team, with a video link, use `book_meeting_room`."
    )
    assert "cancel_booking" not in proposal.description
    [finding] = report.findings
    assert finding.suggestion is not None
    head = finding.suggestion.splitlines()[0]
    assert head.startswith("Proposed description (clears MCP70")
    # the claim gives the offline re-score of each component and names the part for what it is
    assert "2.0 -> " in head or "1.0 -> " in head
    assert "adds when to use a rival instead" in head
    assert proposal.description in finding.suggestion


def test_every_rubric_finding_of_a_tool_shows_the_same_proposal() -> None:
    other = Finding("MCP202", "undocumented-parameter", Severity.MODERATE, "m", "rooms", "book_room")
    [report] = add_proposals(run(rubric_finding("guidelines"), rubric_finding("limitations"), other)).servers
    suggestions = {finding.suggestion for finding in report.findings if finding.component is not None}
    assert len(suggestions) == 1 and None not in suggestions
    assert [finding.suggestion for finding in report.findings if finding.component is None] == [None]
    assert list(report.proposals) == ["book_room"], "one proposal per tool, none for tools without findings"


def test_a_judges_rewrite_does_not_replace_the_grounded_proposal() -> None:
    result = run(rubric_finding("guidelines"), judge="a", rewrite="Books a meeting room for a slot.")
    [finding] = add_proposals(result).servers[0].findings
    assert finding.suggestion is not None and "Books a meeting room" not in finding.suggestion
    # Another jury re-scores the rewrite under --fix: the report does not claim what it clears.
    assert "written for MCP702" in finding.suggestion


def test_a_security_finding_on_the_description_refuses_the_rewrite() -> None:
    attack = Finding(
        "MCP301",
        "hidden-instructions",
        Severity.CRITICAL,
        "m",
        "rooms",
        "book_room",
        path="description",
        category=Category.SECURITY,
    )
    [report] = add_proposals(run(attack, rubric_finding("guidelines"))).servers
    proposal = report.proposals["book_room"]
    assert proposal.description is None
    assert (
        proposal.refused == "the description carries hidden instructions (MCP301); remove them by hand first"
    )


def test_the_runs_thresholds_decide_the_targets() -> None:
    [report] = add_proposals(run(rubric_finding("guidelines")), dict.fromkeys(COMPONENTS, 1.0)).servers
    assert report.proposals["book_room"].targets == (), "no component is under a threshold of 1"


def test_what_a_proposal_claims_is_what_the_runs_offline_jury_finds() -> None:
    """The proposal's own scores of its rewrite are the scores the jury stage gives the rewritten tool
    beside the same siblings (it reuses the run's verdict of the original as its baseline), so
    'clears MCP702' is not a claim only the proposal believes."""
    from mcp_lint.config import JurySettings, Settings
    from mcp_lint.fix.plan import with_descriptions
    from mcp_lint.jury.run import score_servers
    from mcp_lint.pipeline import check_reflections
    from mcp_lint.reflect import Reflection

    [report] = check_reflections([Reflection("rooms", SERVER)], Settings(), JurySettings()).servers
    proposal = report.proposals["book_room"]
    assert proposal.description is not None and proposal.clears
    rewritten = with_descriptions(SERVER, {"book_room": proposal.description})
    outcome = score_servers([rewritten], JurySettings())
    after = dict(outcome.tools[("rooms", "book_room")].aggregate)
    assert after == dict(proposal.scores)


def test_a_rewrite_over_the_description_budget_is_not_shown_as_the_description_to_paste() -> None:
    # `--fix` refuses a text over the budget that grew it; the report must not propose it either.
    [report] = add_proposals(run(rubric_finding("guidelines")), max_tokens=5).servers
    proposal = report.proposals["book_room"]
    assert proposal.description is None
    assert proposal.refused is not None and "over the description budget of 5" in proposal.refused
    [finding] = report.findings
    assert finding.suggestion is not None and "use `book_meeting_room`" not in finding.suggestion
    assert "over the description budget of 5" in finding.suggestion
    # Within the budget the same run proposes it.
    [report] = add_proposals(run(rubric_finding("guidelines")), max_tokens=500).servers
    assert report.proposals["book_room"].description is not None


def test_the_budget_refuses_an_added_part_but_not_a_mechanical_fix_alone() -> None:
    long = "Lists the builds. " * 60
    grown = long + " To see one build, use `get_build`."
    assert over_budget(long, grown, ("guidelines",), 100) == estimate_tokens(grown)
    # a respelt tool name may cost a token more and is still no part of its own
    assert over_budget(long, long.replace("builds", "build_runs"), (), 100) is None
    assert (
        over_budget("Lists builds.", "Lists builds. To see one, use `get_build`.", ("guidelines",), 100)
        is None
    )
