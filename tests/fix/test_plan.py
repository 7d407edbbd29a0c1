"""The fix stage: which rewrites are kept, rejected or held back, and where the kept ones land."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

from fake_llm_server import FakeLLM, expected_scores

from mcp_lint.config import JurySettings, Settings
from mcp_lint.fix.plan import FixPlan, Rewrite, RewriteOutcome, RewriteRequest, plan_fixes, summary
from mcp_lint.model import RunResult, ServerSnapshot, Tool
from mcp_lint.pipeline import check_reflections
from mcp_lint.reflect import Reflection
from mcp_lint.traces import TraceRecord

TOOLS = (
    Tool(
        "get_note",
        {
            "name": "get_note",
            "description": "Gets a note.",
            "inputSchema": {
                "type": "object",
                "properties": {"note_id": {"type": "string"}},
                "required": ["note_id"],
            },
        },
    ),
    Tool(
        "delete_note",
        {"name": "delete_note", "description": "Deletes a note.", "inputSchema": {"type": "object"}},
    ),
)


# What the offline augmentor grounds its rewrites on: recorded calls (it adds nothing else here).
CALLS = (
    TraceRecord("get_note", {"note_id": "n1"}, ({"type": "text", "text": "Buy milk"},), server="notes"),
    TraceRecord("delete_note", {}, ({"type": "text", "text": "deleted n2"},), server="notes"),
)


def linted(tmp_path: Path) -> RunResult:
    snapshot = ServerSnapshot("notes", TOOLS)
    return check_reflections([Reflection("notes", snapshot)], Settings(), JurySettings())


class Scripted:
    """An augmentor that returns the given text after the original: to test the checks, not the writing."""

    name = "scripted"

    def __init__(self, addition: str, safe: bool = True, targets: tuple[str, ...] | None = None) -> None:
        self.addition = addition
        self.safe = safe
        self.targets = targets

    def rewrite(self, requests: Sequence[RewriteRequest]) -> list[Rewrite | str]:
        return [
            Rewrite(
                request.server,
                request.tool.name,
                request.tool.description,
                f"{request.tool.description} {self.addition}",
                {"guidelines": self.addition},
                ("guidelines",),
                self.targets if self.targets is not None else request.targets,
                self.name,
                self.safe,
            )
            for request in requests
        ]


def test_offline_rewrites_are_kept_rescored_and_go_to_overrides_without_source(tmp_path: Path) -> None:
    plan = plan_fixes(linted(tmp_path), traces=CALLS, root=tmp_path, overrides_path=tmp_path / "o.json")
    kept = {outcome.tool: outcome for outcome in plan.outcomes if outcome.kept}
    assert "get_note" in kept
    outcome = kept["get_note"]
    assert outcome.applied and outcome.where == str(tmp_path / "o.json")
    assert outcome.rewrite is not None and outcome.rewrite.safe and outcome.rewrite.targets
    for name in outcome.rewrite.targets:
        assert outcome.after[name] >= 3 > outcome.before[name]
    assert all(outcome.after[name] >= outcome.before[name] for name in outcome.before)
    assert plan.files == {} and ("notes", "get_note") in plan.overrides
    assert summary(plan).startswith(f"Fixed {len(plan.applied)} description")


def test_a_rewrite_the_overrides_file_already_serves_is_not_counted_again(tmp_path: Path) -> None:
    # A second --fix of a server whose rewrites live in the overrides file wrote nothing new but
    # said "Fixed N" again (found by a review on fresh servers).
    from mcp_lint.overrides import overrides_document

    overrides = tmp_path / "o.json"
    first = plan_fixes(linted(tmp_path), traces=CALLS, root=tmp_path, overrides_path=overrides)
    assert first.applied and first.overrides
    overrides.write_text(json.dumps(overrides_document(first.overrides)), encoding="utf-8")
    second = plan_fixes(linted(tmp_path), traces=CALLS, root=tmp_path, overrides_path=overrides)
    assert second.applied == () and second.overrides == {}
    again = [outcome for outcome in second.outcomes if outcome.kept]
    assert again and all(outcome.reasons == (f"already in {overrides}",) for outcome in again)
    assert summary(second).startswith("Fixed 0 descriptions; ")


def test_a_rewrite_over_the_token_budget_is_not_kept(tmp_path: Path) -> None:
    plan = plan_fixes(linted(tmp_path), traces=CALLS, root=tmp_path, max_tokens=5)
    assert plan.applied == ()
    reasons = [reason for outcome in plan.outcomes for reason in outcome.reasons]
    assert any("over the description budget of 5" in reason for reason in reasons)


def test_an_unfaithful_rewrite_is_rejected_with_its_reason(tmp_path: Path) -> None:
    augmentor = Scripted('Example: get_note(note_id="n9") returned "Buy milk". Use `shard` to pick a shard.')
    plan = plan_fixes(linted(tmp_path), root=tmp_path, augmentor=augmentor)
    rejected = {outcome.tool: outcome for outcome in plan.outcomes if outcome.rejected}
    assert set(rejected) >= {"get_note"} and plan.applied == ()
    reasons = rejected["get_note"].reasons
    assert "names a parameter `shard` that the input schema lacks" in reasons
    assert any("no successful recorded call supports" in reason for reason in reasons)
    assert "rejected: get_note: " in summary(plan)


def test_a_rewrite_that_clears_nothing_is_not_kept(tmp_path: Path) -> None:
    plan = plan_fixes(linted(tmp_path), root=tmp_path, augmentor=Scripted("Hmm."))
    assert plan.applied == ()
    reasons = " ".join(reason for outcome in plan.outcomes for reason in outcome.reasons)
    assert "does not clear MCP70" in reasons


class Replacing:
    """An augmentor whose rewrite replaces the description, said to clear `guidelines` only."""

    name = "replacing"

    def __init__(self, description: str) -> None:
        self.description = description

    def rewrite(self, requests: Sequence[RewriteRequest]) -> list[Rewrite | str]:
        return [
            Rewrite(
                request.server,
                request.tool.name,
                request.tool.description,
                self.description,
                {"guidelines": self.description},
                ("guidelines",),
                ("guidelines",),
                self.name,
                True,
            )
            for request in requests
            if request.tool.name == "get_note"
        ]


def test_a_rewrite_that_clears_its_smell_but_makes_another_component_worse_is_not_kept(
    tmp_path: Path, fake_llm: FakeLLM
) -> None:
    """Judged by the fake LLM (real litellm calls; its scores are a pure function of the description:
    `expected_scores`), "Gets a note." scores limitations 2 because it contains "not". Two rewrites
    of the same length clear guidelines (long enough for 3); the one without "not" drops limitations
    to 1, so it is not kept, and the one with it (a control) is."""
    model = "openai/judge"
    jury = JurySettings(models=(model,), api_bases={model: fake_llm.api_base}, cache_path=None, timeout=5.0)
    snapshot = ServerSnapshot("notes", TOOLS[:1])
    result = check_reflections([Reflection("notes", snapshot)], Settings(), jury)
    worse = (
        "Reads one stored memo by its id and returns its title, body text and tags; call it after a search "
        "has given you the id you want."
    )
    better = worse.replace("memo", "note")
    assert len(worse) == len(better) >= 120 and "not" not in worse
    assert (
        expected_scores(worse)["guidelines"] >= 3
        and expected_scores(TOOLS[0].description)["limitations"] == 2
    )

    def verdict(description: str) -> RewriteOutcome:
        plan = plan_fixes(result, root=tmp_path, jury=jury, augmentor=Replacing(description))
        return next(verdict for verdict in plan.outcomes if verdict.tool == "get_note")

    rejected = verdict(worse)
    assert not rejected.kept and rejected.applied is False
    assert rejected.reasons == ("makes limitations worse (2 -> 1)",)
    assert verdict(better).kept


def test_unsafe_rewrites_wait_for_unsafe_fixes(tmp_path: Path) -> None:
    result = linted(tmp_path)
    offline = plan_fixes(result, traces=CALLS, root=tmp_path)
    good = next(outcome.rewrite for outcome in offline.outcomes if outcome.kept and outcome.rewrite)
    addition = good.description[len(good.original) + 1 :]

    def plan(unsafe: bool) -> FixPlan:
        return plan_fixes(
            result,
            traces=CALLS,
            root=tmp_path,
            augmentor=Scripted(addition, False, good.targets),
            unsafe=unsafe,
        )

    held = plan(False)
    assert any(outcome.kept and not outcome.applied for outcome in held.outcomes)
    assert any(outcome.applied for outcome in plan(True).outcomes)


def test_a_description_found_in_source_is_edited_there(tmp_path: Path) -> None:
    (tmp_path / "tools.json").write_text(
        json.dumps({"tools": [dict(tool.raw) for tool in TOOLS]}, indent=2), encoding="utf-8"
    )
    plan = plan_fixes(linted(tmp_path), traces=CALLS, root=tmp_path)
    assert list(plan.files) == ["tools.json"] and plan.overrides == {}
    old, new = plan.files["tools.json"]
    fixed = {tool["name"]: tool["description"] for tool in json.loads(new)["tools"]}
    for outcome in plan.applied:
        assert outcome.rewrite is not None and fixed[outcome.tool] == outcome.rewrite.description
        line = next(n for n, text in enumerate(old.splitlines(), 1) if outcome.rewrite.original in text)
        assert outcome.where == f"tools.json:{line}"
    # The plan writes nothing by itself.
    assert (tmp_path / "tools.json").read_text(encoding="utf-8") == old
