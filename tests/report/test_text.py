"""The text report's jury lines: unscored pairs grouped by reason, and cost with unpriced models named."""

from __future__ import annotations

import dataclasses

from mcp_lint.model import JuryReport, ModelUsage, RunResult, ServerReport, ServerSnapshot, Unscored, Usage
from mcp_lint.report import ReportOptions
from mcp_lint.report.text import render

RATE_LIMITED = "RateLimitError 429: slow down"


def result(unscored: list[Unscored], usage: Usage | None = None) -> RunResult:
    jury = JuryReport(
        judges=("openai/a", "openai/b"), rubric_version=1, usage=usage or Usage(), unscored=tuple(unscored)
    )
    return RunResult(servers=(ServerReport("s", ServerSnapshot("s", ())),), jury=jury)


def pair(tool: str, judge: str = "openai/a", reason: str = RATE_LIMITED, server: str = "s") -> Unscored:
    return Unscored(server=server, tool=tool, judge=judge, reason=reason)


def jury_lines(run: RunResult) -> list[str]:
    lines = render(run, ReportOptions()).splitlines()
    return lines[lines.index("found 0 findings (1 server, 0 tools)") + 1 :]


def test_many_pairs_with_one_reason_are_one_line_with_a_count() -> None:
    many = [pair(f"tool_{i}", judge) for i in range(50) for judge in ("openai/a", "openai/b")]
    lines = jury_lines(result(many))
    assert lines[0] == "not scored: 100 tool/judge pairs (rubric findings for those tools may be missing):"
    assert lines[1] == (
        "  100 by judges openai/a, openai/b on tools tool_0, tool_1, tool_2, tool_3 and 46 more: "
        + RATE_LIMITED
    )
    assert lines[2].startswith("jury: ")


def test_reasons_are_listed_most_frequent_first_and_capped() -> None:
    unscored = [pair("only", reason="AuthenticationError 401: bad key", server="t")]
    unscored += [pair(f"t{i}", server="u") for i in range(3)]
    unscored += [pair(f"x{i}", reason=f"odd failure {i}") for i in range(6)]
    lines = jury_lines(result(unscored))
    assert lines[1] == f"  3 by judge openai/a on tools u/t0, u/t1, u/t2: {RATE_LIMITED}"
    assert lines[2] == "  1 by judge openai/a on tool t/only: AuthenticationError 401: bad key"
    assert lines[6] == "  3 more for 3 other reasons (all listed in --format json)"
    assert lines[7].startswith("jury: ")


def test_cost_names_the_models_litellm_cannot_price() -> None:
    usage = Usage(calls=4, cache_hits=0, prompt_tokens=90, completion_tokens=10)
    priced, unpriced = ModelUsage(calls=2, cost_usd=0.0006), ModelUsage(calls=2, cost_usd=None)
    partial = dataclasses.replace(usage, cost_usd=0.0012, by_model={"openai/a": priced, "openai/b": unpriced})
    assert jury_lines(result([], partial))[-1] == (
        "jury: openai/a, openai/b; 4 calls, 0 cached; 100 tokens; $0.0012 without openai/b "
        "(litellm has no price for it)"
    )
    unknown = dataclasses.replace(usage, cost_usd=None, by_model={"openai/a": unpriced, "openai/b": unpriced})
    assert jury_lines(result([], unknown))[-1].endswith(
        "cost unknown (litellm has no price for openai/a, openai/b)"
    )
    known = dataclasses.replace(usage, cost_usd=0.5, by_model={"openai/a": priced, "openai/b": priced})
    assert jury_lines(result([], known))[-1].endswith("100 tokens; $0.5000")
