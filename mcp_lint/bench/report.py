"""A `BenchResult` as text (the terminal), Markdown (docs/agent-benefit.md, a PR comment) or JSON.
Renders only: every figure was measured by `mcp_lint.bench.run`."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from mcp_lint.bench.run import BenchResult, Change, Measured


def _signed(value: float) -> str:
    return f"{value:+.3f}"


def _growth(pair: tuple[int, int]) -> str:
    before, after = pair
    share = (after - before) / before if before else 0.0
    return f"{before:,} -> {after:,} ({share:+.1%})"


def _recall(change: Change, k: int) -> str:
    before = sum(change.before.recall[k]) / len(change.before.recall[k])
    after = sum(change.after.recall[k]) / len(change.after.recall[k])
    return f"{before:.3f} -> {after:.3f}"


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
        for change in measured.changes:
            up, down, same = change.moved
            lines.append(
                f"  {change.retriever:<17} MRR {change.before.mrr:.3f} -> {change.after.mrr:.3f} "
                f"({_signed(change.after.mrr - change.before.mrr)}, 95% CI {_signed(change.interval.low)}"
                f"..{_signed(change.interval.high)}); recall@5 {_recall(change, 5)}; "
                f"tasks up {up}, down {down}, same {same}"
            )
    return "\n".join(lines) + "\n"


def markdown(result: BenchResult) -> str:
    lines = [line + "  " for line in _head(result)]
    lines += [
        "",
        "| rewrites | tools rewritten | whole tools/list tokens | retriever | MRR | change (95% CI) "
        "| recall@5 | recall@10 | tasks up / down |",
        "|---|---:|---|---|---|---|---|---|---|",
    ]
    for measured in result.measured:
        for change in measured.changes:
            up, down, _ = change.moved
            lines.append(
                f"| {measured.rewrites.name} | {measured.changed} | {_growth(measured.list_tokens)} "
                f"| {change.retriever} | {change.before.mrr:.3f} -> {change.after.mrr:.3f} "
                f"| {_signed(change.after.mrr - change.before.mrr)} ({_signed(change.interval.low)}.."
                f"{_signed(change.interval.high)}) | {_recall(change, 5)} | {_recall(change, 10)} "
                f"| {up} / {down} |"
            )
    return "\n".join(lines) + "\n"


def _measured_json(measured: Measured) -> dict[str, Any]:
    return {
        "rewrites": measured.rewrites.name,
        "notes": list(measured.rewrites.notes),
        "toolsRewritten": measured.changed,
        "toolsListTokens": list(measured.list_tokens),
        "descriptionTokens": list(measured.description_tokens),
        "retrievers": [
            {
                "retriever": change.retriever,
                "mrr": [change.before.mrr, change.after.mrr],
                "mrrChangeCI95": [change.interval.low, change.interval.high],
                "recall": {
                    str(k): [
                        sum(change.before.recall[k]) / len(change.before.recall[k]),
                        sum(change.after.recall[k]) / len(change.after.recall[k]),
                    ]
                    for k in change.before.recall
                },
                "tasks": dict(zip(("up", "down", "same"), change.moved, strict=True)),
            }
            for change in measured.changes
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
        "measured": [_measured_json(measured) for measured in result.measured],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


RENDERERS: dict[str, Callable[[BenchResult], str]] = {"text": text, "markdown": markdown, "json": as_json}
