"""The report of a whole audit (`--report FILE.md`), rendered from the store's rows: the pass rate,
the rules most servers fail on, the distribution of the rubric scores as a chart, and the worst
servers. It renders only what the rows say; the rows are in the store for everything else.

The chart is a Mermaid bar chart (GitHub and most Markdown viewers draw it) followed by the same
counts as text bars, which read anywhere.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from statistics import median

from mcp_lint.audit.job import ERROR, FAILED, PASSED, SEVERITIES, UNREACHABLE
from mcp_lint.audit.store import Row
from mcp_lint.report.markdown import cell

STATUSES = (PASSED, FAILED, UNREACHABLE, ERROR)
TOP_RULES = 10
WORST = 10
# Rubric scores run from 1 to 5: eight half-point bins, the last one closed (5.0 falls in 4.5-5.0).
BINS = tuple((1.0 + 0.5 * index, 1.5 + 0.5 * index) for index in range(8))
TEXT_BAR = 40


def _share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "n/a"


def _bin_counts(scores: Sequence[float]) -> list[int]:
    counts = [0] * len(BINS)
    for score in scores:
        index = min(len(BINS) - 1, max(0, int((score - 1.0) // 0.5)))
        counts[index] += 1
    return counts


def _chart(scores: Sequence[float]) -> list[str]:
    if not scores:
        return ["No server was scored (none could be linted)."]
    counts = _bin_counts(scores)
    labels = [f"{low:.1f}-{high:.1f}" for low, high in BINS]
    most = max(counts)
    lines = [
        "```mermaid",
        "xychart-beta",
        '    title "Servers by rubric score"',
        f"    x-axis [{', '.join(repr(label).replace(chr(39), chr(34)) for label in labels)}]",
        f'    y-axis "servers" 0 --> {most}',
        f"    bar [{', '.join(str(count) for count in counts)}]",
        "```",
        "",
        "```text",
    ]
    for label, count in zip(labels, counts, strict=True):
        width = round(count / most * TEXT_BAR) if most else 0
        lines.append(f"{label} | {'█' * width}{' ' if width else ''}{count}")
    lines.append("```")
    return lines


def _short(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _worst_key(row: Row) -> tuple[int, float, int, str]:
    # Errors and unreachable servers first (nothing could be judged), then failed by score, then by
    # how many severe findings; the target breaks ties so the order never depends on the run.
    rank = {ERROR: 0, UNREACHABLE: 1, FAILED: 2, PASSED: 3}.get(row.status, 0)
    severe = row.counts.get("critical", 0) + row.counts.get("high", 0)
    return (rank, row.score if row.score is not None else 0.0, -severe, row.target)


def render(rows: Sequence[Row], rule_set: str, version: str, profile: str, names: Mapping[str, str]) -> str:
    """The Markdown report of an audit's rows; `names` maps a rule code to its name."""
    total = len(rows)
    by_status = Counter(row.status for row in rows)
    lines = [
        "# mcp-lint audit",
        "",
        f"{total} target(s) under rule set `{rule_set}` (mcp-lint {version}, profile `{profile}`).",
        "",
        f"**Pass rate: {_share(by_status[PASSED], total)}** ({by_status[PASSED]} of {total} passed).",
        "",
        "| status | targets | share |",
        "|---|--:|--:|",
    ]
    lines += [
        f"| {status} | {by_status[status]} | {_share(by_status[status], total)} |" for status in STATUSES
    ]
    found = Counter({label: sum(row.counts.get(label, 0) for row in rows) for label in SEVERITIES})
    lines += ["", "Findings: " + ", ".join(f"{found[label]} {label}" for label in SEVERITIES) + "."]

    failing = Counter(code for row in rows for code in row.failing_codes)
    lines += ["", "## Most frequent failing rules", ""]
    if failing:
        lines += ["| rule | name | targets failing on it | share |", "|---|---|--:|--:|"]
        for code, count in sorted(failing.items(), key=lambda item: (-item[1], item[0]))[:TOP_RULES]:
            lines.append(f"| {code} | {names.get(code, '')} | {count} | {_share(count, total)} |")
    else:
        lines.append("No finding fails any target.")

    scores = [row.score for row in rows if row.score is not None]
    lines += ["", "## Score distribution", ""]
    if scores:
        lines += [
            f"{len(scores)} scored target(s): lowest {min(scores):.2f}, median {median(scores):.2f}, "
            f"highest {max(scores):.2f} (a target's score is its lowest server's).",
            "",
        ]
    lines += _chart(scores)

    lines += ["", "## Worst servers", ""]
    worst = [row for row in sorted(rows, key=_worst_key) if row.status != PASSED][:WORST]
    if worst:
        lines += [
            "| target | package | status | score | failing rules | error |",
            "|---|---|---|--:|---|---|",
        ]
        for row in worst:
            package = f"{row.package}@{row.version}" if row.package and row.version else row.package or ""
            score = f"{row.score:.2f}" if row.score is not None else ""
            lines.append(
                f"| {cell(row.target)} | {cell(package)} | {row.status} | {score} | "
                f"{', '.join(row.failing_codes)} | {cell(_short(row.error or ''))} |"
            )
    else:
        lines.append("Every target passed.")
    return "\n".join(lines) + "\n"
