"""The LLM augmentor, through real litellm HTTP calls to a local OpenAI-compatible server: its rewrites
are cached like outcomes, checked for faithfulness like any other, and applied only as unsafe fixes."""

from __future__ import annotations

from pathlib import Path

from fake_llm_server import FakeLLM

from mcp_lint.config import JurySettings, Settings
from mcp_lint.fix.llm import LLMAugmentor, rewrite_cache_path
from mcp_lint.fix.plan import plan_fixes
from mcp_lint.model import RunResult, ServerSnapshot, Tool
from mcp_lint.pipeline import check_reflections
from mcp_lint.reflect import Reflection
from mcp_lint.traces import TraceRecord

MODEL = "openai/rewriter"


def tool(name: str, description: str) -> Tool:
    schema = {"type": "object", "properties": {"note_id": {"type": "string"}}, "required": ["note_id"]}
    return Tool(name, {"name": name, "description": description, "inputSchema": schema})


TOOLS = (tool("get_note", "Gets a note."), tool("invent_note", "Makes a note up."))
TRACES = (TraceRecord("get_note", {"note_id": "n1"}, ({"type": "text", "text": "Buy milk"},)),)


def linted() -> RunResult:
    snapshot = ServerSnapshot("notes", TOOLS)
    return check_reflections([Reflection("notes", snapshot)], Settings(), JurySettings())


def settings(fake: FakeLLM, cache: Path) -> JurySettings:
    return JurySettings(
        models=(MODEL,), api_bases={MODEL: fake.api_base}, cache_path=cache, timeout=5.0, max_retries=1
    )


def test_llm_rewrites_are_checked_cached_and_unsafe(fake_llm: FakeLLM, tmp_path: Path) -> None:
    jury = settings(fake_llm, tmp_path / "jury-cache.json")
    augmentor = LLMAugmentor(jury)
    result = linted()
    # Re-scored by the offline jury here; the rewriter is the model.
    plan = plan_fixes(result, traces=TRACES, augmentor=augmentor, root=tmp_path)
    assert fake_llm.calls() == 2
    outcomes = {outcome.tool: outcome for outcome in plan.outcomes}
    good = outcomes["get_note"]
    assert good.rewrite is not None and not good.rewrite.safe and good.rewrite.augmentor == MODEL
    assert 'Example: get_note(note_id="n1") returned "Buy milk".' in good.rewrite.description
    assert good.kept and not good.applied  # an unsafe fix waits for --unsafe-fixes
    invented = outcomes["invent_note"]
    assert invented.rejected and any("no successful recorded call supports" in r for r in invented.reasons)
    assert any("names a parameter `mode`" in reason for reason in invented.reasons)

    applied = plan_fixes(result, traces=TRACES, augmentor=augmentor, unsafe=True, root=tmp_path)
    assert [outcome.tool for outcome in applied.applied] == ["get_note"]
    assert fake_llm.calls() == 2  # every answer came from the cache
    assert rewrite_cache_path(jury) == tmp_path / "rewrite-cache.json"
    assert (tmp_path / "rewrite-cache.json").is_file()


def test_frozen_without_a_cached_rewrite_calls_nothing(fake_llm: FakeLLM, tmp_path: Path) -> None:
    jury = JurySettings(
        models=(MODEL,), api_bases={MODEL: fake_llm.api_base}, cache_path=tmp_path / "c.json", frozen=True
    )
    plan = plan_fixes(linted(), augmentor=LLMAugmentor(jury), unsafe=True, root=tmp_path)
    assert fake_llm.calls() == 0 and plan.applied == ()
    assert all("frozen" in outcome.reasons[0] for outcome in plan.outcomes)


def test_the_prompt_asks_for_the_components_and_sends_only_grounded_material(
    fake_llm: FakeLLM, tmp_path: Path
) -> None:
    """What reaches the local server: a system message with the component guidance (purpose,
    guidelines, limitations, parameters, length, examples), never restating the listing, in the
    original's language; the material names the rival and what sets it apart, the undescribed
    parameters and the recorded calls, nothing else about other tools."""
    from mcp_lint.jury.prompt import decode_data_block

    rival = Tool(
        "fetch_note",
        {
            "name": "fetch_note",
            "description": "Fetches a note with its history.",
            "inputSchema": {"type": "object", "properties": {"note_id": {}, "history": {}}},
        },
    )
    other = tool("delete_note", "Deletes a note.")
    snapshot = ServerSnapshot("notes", (TOOLS[0], rival, other))
    result = check_reflections([Reflection("notes", snapshot)], Settings(), JurySettings())
    plan_fixes(
        result, traces=TRACES, augmentor=LLMAugmentor(settings(fake_llm, tmp_path / "c.json")), root=tmp_path
    )
    [sent] = [request.body for request in fake_llm.requests if request.tool == "get_note"]
    system, user = sent["messages"]
    for component in ("purpose:", "guidelines:", "limitations:", "parameters:", "examples:", "Length:"):
        assert component in system["content"]
    assert "never repeat" in system["content"] and "language of the original" in system["content"]
    payload = decode_data_block(user["content"])
    assert payload["rivals"] == [
        {
            "name": "fetch_note",
            "only_this_tool_takes": [],
            "only_the_rival_takes": ["history"],
            "only_this_tool_returns": [],
            "this_tool_only_reads": None,
        }
    ]
    assert payload["undescribed_parameters"] == ["note_id"]
    assert payload["successful_calls"] == [{"arguments": {"note_id": "n1"}, "result": "Buy milk"}]
