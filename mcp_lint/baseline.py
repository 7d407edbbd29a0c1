"""Baselines: record today's findings so only new ones fail (gradual adoption, like ESLint's bulk
suppressions).

A finding is keyed by server, tool, rule code and its subject (the parameter, the other tool of a
pair, the schema path; see `Finding.subject`), never by its message, so rewording a message does not
turn an old finding into a new one. Each key records a count: a tool with three undocumented
parameters of the same subject-less kind may grow a fourth, and that one fails.

The file is JSON with sorted keys and no timestamp, one entry per key, so a diff shows exactly which
findings were added or fixed. Entries that match fewer findings than they record are reported as
stale, for pruning with `--update-baseline`; they do not fail the run (see docs/configuration.md).
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from mcp_lint.errors import UsageError
from mcp_lint.files import read_text, write_text_atomic
from mcp_lint.limits import load_json
from mcp_lint.model import BaselineEntry, BaselineStatus, Finding, RunResult, ServerReport, replaced

BASELINE_FORMAT = "mcp-lint-baseline/1"
# Relative to the config file's folder (the working directory when there is none).
DEFAULT_BASELINE_PATH = Path(".mcp-lint/baseline.json")

Key = tuple[str, str, str, str]  # server, tool, code, subject


def entry_document(entry: BaselineEntry) -> dict[str, Any]:
    """One baseline entry as the baseline file and the JSON report's stale list both write it."""
    return {
        "server": entry.server,
        "tool": entry.tool,
        "code": entry.code,
        "rule": entry.rule,
        "subject": entry.subject,
        "count": entry.count,
    }


def finding_key(finding: Finding) -> Key:
    return (finding.server, finding.tool or "", finding.code, finding.subject or "")


def entry_key(entry: BaselineEntry) -> Key:
    return (entry.server, entry.tool, entry.code, entry.subject)


def load_baseline(path: Path) -> tuple[BaselineEntry, ...]:
    """The entries of a baseline file; a file that is not one is a UsageError naming what is wrong."""
    text = read_text(path, missing="no such baseline; create it with --update-baseline")
    try:
        document = load_json(text, str(path))
    except json.JSONDecodeError as exc:
        raise UsageError(f"{path}: not valid JSON ({exc}); recreate it with --update-baseline") from None
    if not isinstance(document, Mapping) or document.get("format") != BASELINE_FORMAT:
        raise UsageError(f'{path}: not an mcp-lint baseline (no "format": "{BASELINE_FORMAT}")')
    items = document.get("findings")
    if not isinstance(items, list):
        raise UsageError(f'{path}: "findings" must be a list')
    return tuple(_entry(item, f"{path}: findings[{index}]") for index, item in enumerate(items))


def _entry(item: Any, where: str) -> BaselineEntry:
    if not isinstance(item, Mapping):
        raise UsageError(f"{where}: expected an object")
    strings = {name: item.get(name, "") for name in ("server", "tool", "code", "subject", "rule")}
    for name, value in strings.items():
        if not isinstance(value, str):
            raise UsageError(f"{where}.{name}: expected a string")
    count = item.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise UsageError(f"{where}.count: expected a whole number, 1 or more")
    if not strings["server"] or not strings["code"]:
        raise UsageError(f'{where}: "server" and "code" are required')
    return BaselineEntry(count=count, **strings)


def apply_baseline(
    result: RunResult,
    entries: Sequence[BaselineEntry],
    path: str,
    *,
    checked_codes: Collection[str] | None = None,
    every_tool: bool = True,
) -> RunResult:
    """Mark the findings the baseline records as baselined and list its stale entries.

    Stale entries are judged only where this run looked: servers it linted, rules it ran
    (`checked_codes`, None for all), and with `every_tool` False (--since) only the tools it linted.
    """
    allowance = Counter({entry_key(entry): entry.count for entry in entries})
    matched = 0
    servers: list[ServerReport] = []
    for report in result.servers:
        marked: list[Finding] = []
        for finding in report.findings:
            # An entry recorded under another name of the server (its serverInfo name) counts too.
            keys = [finding_key(replaced(finding, server=name)) for name in _names(report)]
            key = next((key for key in keys if allowance[key] > 0), None)
            if key is not None:
                allowance[key] -= 1
                matched += 1
                finding = replaced(finding, baselined=True)
            marked.append(finding)
        servers.append(replace(report, findings=tuple(marked)))
    linted = _linted(result)
    stale = [
        replace(entry, count=allowance[entry_key(entry)])
        for entry in entries
        if allowance[entry_key(entry)] > 0 and _in_scope(entry, linted, checked_codes, every_tool)
    ]
    status = BaselineStatus(path=path, matched=matched, stale=tuple(stale))
    return replace(result, servers=tuple(servers), baseline=status)


def _names(report: ServerReport) -> tuple[str, ...]:
    return report.snapshot.aliases if report.snapshot is not None else (report.name,)


def _linted(result: RunResult) -> dict[str, ServerReport]:
    """The servers this run linted, by each of their names (a report's own name wins a clash)."""
    reports = [report for report in result.servers if report.snapshot is not None]
    linted = {alias: report for report in reports for alias in _names(report)[1:]}
    linted.update({report.name: report for report in reports})
    return linted


def _in_scope(
    entry: BaselineEntry,
    linted: Mapping[str, ServerReport],
    checked_codes: Collection[str] | None,
    every_tool: bool,
) -> bool:
    report = linted.get(entry.server)
    if report is None or report.snapshot is None:
        return False
    if checked_codes is not None and entry.code not in checked_codes:
        return False
    if every_tool or not entry.tool:
        return True
    return any(tool.name == entry.tool for tool in report.snapshot.tools)


def baseline_entries(findings: Iterable[Finding]) -> list[BaselineEntry]:
    counts: Counter[Key] = Counter()
    rules: dict[Key, str] = {}
    for finding in findings:
        key = finding_key(finding)
        counts[key] += 1
        rules[key] = finding.rule
    return [
        BaselineEntry(server, tool, code, subject, count, rules[(server, tool, code, subject)])
        for (server, tool, code, subject), count in counts.items()
    ]


def baseline_text(result: RunResult, previous: Sequence[BaselineEntry] = ()) -> str:
    """The baseline that records every finding of `result`; entries of `previous` for servers this
    run did not lint are kept, so updating with --server does not forget the other servers."""
    # Entries under another name of a linted server are recorded again under its name in this run.
    linted = _linted(result)
    entries = [entry for entry in previous if entry.server not in linted]
    entries += baseline_entries(result.findings)
    entries.sort(key=entry_key)
    document = {
        "format": BASELINE_FORMAT,
        "findings": [entry_document(entry) for entry in entries],
    }
    return json.dumps(document, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def refusal(result: RunResult) -> str | None:
    """Why this run's findings must not become the baseline, or None. A run that did not lint
    everything would record a baseline missing findings, and they would all fail later."""
    for report in result.servers:
        if report.error is not None:
            return f"not updating the baseline: {report.error}"
    if result.jury is not None and result.jury.unscored:
        return "not updating the baseline: the jury could not score every tool"
    return None


def write_baseline(path: Path, result: RunResult, previous: Sequence[BaselineEntry] = ()) -> None:
    write_text_atomic(path, baseline_text(result, previous))


def describe_entry(entry: BaselineEntry) -> str:
    where = f"{entry.server}/{entry.tool}" if entry.tool else entry.server
    about = f" ({entry.subject})" if entry.subject else ""
    times = f" x{entry.count}" if entry.count > 1 else ""
    return f"{where} {entry.code}{' ' + entry.rule if entry.rule else ''}{about}{times}"
