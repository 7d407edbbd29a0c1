"""A `BenchResult` as text (the terminal), Markdown (docs/agent-benefit.md, a PR comment) or JSON.
Renders only: every figure was measured by `mcp_lint.bench.run`."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mcp_lint.bench.run import RECALL_AT, BenchResult, Change, Measured


def _signed(value: float) -> str:
    return f"{value:+.3f}"


def _growth(pair: tuple[int, int]) -> str:
    before, after = pair
    share = (after - before) / before if before else 0.0
    return f"{before:,} -> {after:,} ({share:+.1%})"


def _recall(change: Change, k: int) -> str:
    return f"{change.before.recall(k):.3f} -> {change.after.recall(k):.3f}"


def _interval(low: float, high: float) -> str:
    return f"{_signed(low)}..{_signed(high)}"


def _versus(measured: Measured, position: int) -> str:
    """A control's row: how the rewrites it controls did against it (their MRR minus its)."""
    if not measured.versus:
        return ""
    versus = measured.versus[position]
    return f"{_signed(versus.gap)} ({_interval(versus.interval.low, versus.interval.high)})"


def _head(result: BenchResult) -> list[str]:
    unmatched = (
        f"; task tool names matching no tool: {', '.join(result.unmatched)}" if result.unmatched else ""
    )
    return [
        f"LiveMCPBench: {result.servers} servers, {result.tools} tools, {result.tasks} tasks{unmatched}",
        f"MRR change CI: paired bootstrap over tasks, {result.resamples:,} resamples, seed {result.seed}; "
        f"tokens: {result.tokenizer}",
    ]


def text(result: BenchResult) -> str:
    lines = _head(result)
    for measured in result.measured:
        lines += ["", f"{measured.rewrites.name}: {measured.changed} tools rewritten"]
        lines += [f"  {note}" for note in measured.rewrites.notes]
        lines.append(f"  whole tools/list tokens: {_growth(measured.list_tokens)}")
        lines.append(f"  description tokens:      {_growth(measured.description_tokens)}")
        for position, change in enumerate(measured.changes):
            up, down, same = change.moved
            tools_up, tools_down, _ = change.tools_moved
            lines.append(
                f"  {change.retriever:<17} MRR {change.before.mrr:.3f} -> {change.after.mrr:.3f} "
                f"({_signed(change.after.mrr - change.before.mrr)}, 95% CI "
                f"{_interval(change.interval.low, change.interval.high)}); recall@5 {_recall(change, 5)}; "
                f"tasks up {up}, down {down}, same {same}; needed tools up {tools_up}, down {tools_down}"
            )
            if measured.versus:
                versus = measured.versus[position]
                lines.append(
                    f"  {'':<17} the rewrites' MRR minus the control's: {_signed(versus.gap)} "
                    f"(95% CI {_interval(versus.interval.low, versus.interval.high)})"
                )
    return "\n".join(lines) + "\n"


def markdown(result: BenchResult) -> str:
    lines = [line + "  " for line in _head(result)]
    lines += [
        "",
        "| rewrites | tools rewritten | whole tools/list tokens | retriever | MRR | change (95% CI) "
        "| recall@5 | recall@10 | tasks up / down | needed tools up / down "
        "| the rewrites minus the control (95% CI) |",
        "|---|---:|---|---|---|---|---|---|---|---|---|",
    ]
    for measured in result.measured:
        for position, change in enumerate(measured.changes):
            up, down, _ = change.moved
            tools_up, tools_down, _ = change.tools_moved
            lines.append(
                f"| {measured.rewrites.name} | {measured.changed} | {_growth(measured.list_tokens)} "
                f"| {change.retriever} | {change.before.mrr:.3f} -> {change.after.mrr:.3f} "
                f"| {_signed(change.after.mrr - change.before.mrr)} "
                f"({_interval(change.interval.low, change.interval.high)}) "
                f"| {_recall(change, 5)} | {_recall(change, 10)} | {up} / {down} | {tools_up} / {tools_down} "
                f"| {_versus(measured, position)} |"
            )
    return "\n".join(lines) + "\n"


def _measured_json(measured: Measured) -> dict[str, Any]:
    return {
        "rewrites": measured.rewrites.name,
        "controlFor": measured.rewrites.control_for,
        "notes": list(measured.rewrites.notes),
        "toolsRewritten": measured.changed,
        "toolsListTokens": list(measured.list_tokens),
        "descriptionTokens": list(measured.description_tokens),
        "retrievers": [
            {
                "retriever": change.retriever,
                "mrr": [change.before.mrr, change.after.mrr],
                "mrrChangeCI95": [change.interval.low, change.interval.high],
                "recall": {str(k): [change.before.recall(k), change.after.recall(k)] for k in RECALL_AT},
                "tasks": dict(zip(("up", "down", "same"), change.moved, strict=True)),
                "neededTools": dict(zip(("up", "down", "same"), change.tools_moved, strict=True)),
                # per task, in the order of the report's taskIds: to see which tasks a change moved
                "reciprocalRanks": [list(change.before.reciprocal), list(change.after.reciprocal)],
                **(
                    {
                        "rewritesMinusControl": measured.versus[position].gap,
                        "rewritesMinusControlCI95": [
                            measured.versus[position].interval.low,
                            measured.versus[position].interval.high,
                        ],
                    }
                    if measured.versus
                    else {}
                ),
            }
            for position, change in enumerate(measured.changes)
        ],
    }


def as_json(result: BenchResult) -> str:
    document = {
        "benchmark": "LiveMCPBench tool retrieval",
        "servers": result.servers,
        "tools": result.tools,
        "tasks": result.tasks,
        "unmatchedTaskTools": list(result.unmatched),
        "tokenizer": result.tokenizer,
        "bootstrap": {"resamples": result.resamples, "seed": result.seed},
        "taskIds": list(result.task_ids),
        "measured": [_measured_json(measured) for measured in result.measured],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


RENDERERS: dict[str, Callable[[BenchResult], str]] = {"text": text, "markdown": markdown, "json": as_json}
