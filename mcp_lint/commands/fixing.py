"""`check --fix` and `--diff` in the command: read the fix inputs before any server starts, plan the
rewrites (mcp_lint.fix.plan), print them as a diff or write them, and lint the fixed descriptions."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp_lint.check.engine import active_rules, description_budget, rubric_thresholds
from mcp_lint.check.rules import load_catalogue
from mcp_lint.commands.output import Output, shown_path
from mcp_lint.config import JurySettings, Settings
from mcp_lint.errors import UsageError
from mcp_lint.model import RunResult

if TYPE_CHECKING:
    from mcp_lint.commands.check_options import CheckOptions
    from mcp_lint.fix.plan import FixPlan


@dataclass(frozen=True, eq=False, repr=False)
class FixRequest:
    traces: tuple[Any, ...]
    components: tuple[Any, ...] | None


def fix_request(options: CheckOptions) -> FixRequest | None:
    """What --fix/--diff will use, read before any server starts so a bad trace file is exit 2 at once."""
    from mcp_lint.overrides import parse_components
    from mcp_lint.traces import read_traces

    if not (options.fix or options.diff):
        for flag, given in (
            ("--unsafe-fixes", options.unsafe_fixes),
            ("--components", options.components),
            ("--traces", options.trace_files),
        ):
            if given:
                raise UsageError(f"{flag} only applies with --fix or --diff")
        return None
    traces = tuple(record for path in options.trace_files for record in read_traces(Path(path)))
    components = parse_components(options.components) if options.components else None
    return FixRequest(traces, components)


def apply_fixes(
    result: RunResult,
    request: FixRequest,
    settings: Settings,
    jury: JurySettings,
    options: CheckOptions,
    out: Output,
) -> RunResult | bool:
    """Plan the rewrites, then print them as a diff (returning whether there was one) or apply them
    and return the lint of the fixed descriptions, whose findings decide the exit code (as ruff's)."""
    from mcp_lint.fix.edit import unified_diff
    from mcp_lint.fix.plan import plan_fixes, preferred_files, summary
    from mcp_lint.overrides import DEFAULT_OVERRIDES_PATH

    augmentor = None
    # --unsafe-fixes applies the schema/annotation fixes; with --jury MODEL the model writes the rewrites.
    if options.unsafe_fixes and [model for model in options.jury_models if model != "offline"]:
        from mcp_lint.fix.llm import LLMAugmentor

        augmentor = LLMAugmentor(jury)
    rules = active_rules(load_catalogue(), settings)
    thresholds, max_tokens = rubric_thresholds(rules), description_budget(rules)
    overrides_path = settings.base_dir / DEFAULT_OVERRIDES_PATH
    plan = plan_fixes(
        result,
        traces=request.traces,
        components=request.components,
        jury=jury,
        augmentor=augmentor,
        unsafe=options.unsafe_fixes,
        thresholds=thresholds or None,
        max_tokens=max_tokens,
        root=Path.cwd(),
        overrides_path=overrides_path,
        prefer=preferred_files(
            options.targets.command, options.targets.paths, settings.servers, settings.base_dir
        ),
        snapshot_files=[Path(path) for path in options.targets.paths if path != "-"],
    )
    for warning in plan.warnings:
        out.warning(warning)
    for outcome in plan.outcomes:
        if outcome.rewrite is not None and not outcome.kept:
            out.note(f"not kept: {outcome.server}/{outcome.tool}: {'; '.join(outcome.reasons)}")
        elif outcome.applied and outcome.rewrite is not None:
            touched = ", ".join(outcome.rewrite.touched)
            verb = "would fix" if options.diff else "fixed"
            out.note(
                f"{verb} {outcome.server}/{outcome.tool} in {outcome.where} "
                f"(adds {touched}; {outcome.tokens_before} -> {outcome.tokens_after} tokens)"
            )
    verb = "would fix" if options.diff else "fixed"
    for item in plan.schema:
        if item.applied:
            out.note(f"{verb} {item.edit.server}/{item.edit.tool} in {item.where} ({item.edit.note}; unsafe)")
            if item.by_hand:
                out.note(f"  the server's source is not edited; write it there by hand: {item.by_hand}")
        elif not (item.reason or "").startswith("an unsafe fix"):
            out.note(f"not kept: {item.edit.server}/{item.edit.tool}: {item.reason}")
    changes = {path: texts for path, texts in plan.files.items()}
    if plan.overrides:
        old = overrides_path.read_text(encoding="utf-8") if overrides_path.exists() else ""
        changes[shown_path(overrides_path)] = (old, _overrides_text(plan, overrides_path))
    if options.diff:
        text = unified_diff(changes)
        if text:
            out.report(text)
        out.note(summary(plan).replace("Fixed", "Would fix", 1))
        return bool(text)
    write_plan(plan, overrides_path, settings.base_dir)  # every target checked before any is written
    out.note(summary(plan))
    return relint(result, plan, settings, jury)


def relint(result: RunResult, plan: FixPlan, settings: Settings, jury: JurySettings) -> RunResult:
    """The lint of the servers as they are now described: the fixed tools get their new descriptions."""
    from mcp_lint.fix.plan import with_descriptions, with_schema_fixes
    from mcp_lint.pipeline import check_reflections
    from mcp_lint.reflect import Reflection

    new: dict[str, dict[str, str]] = {}
    for outcome in plan.applied:
        if outcome.rewrite is not None:
            new.setdefault(outcome.server, {})[outcome.tool] = outcome.rewrite.description
    if not new and not plan.schema_applied:
        return result
    reflections = [
        Reflection(
            report.name,
            with_schema_fixes(
                with_descriptions(report.snapshot, new.get(report.name, {})), plan.schema_applied
            )
            if report.snapshot
            else None,
            report.error,
        )
        for report in result.servers
    ]
    return check_reflections(reflections, settings, jury)


def write_plan(plan: FixPlan, overrides_path: Path, overrides_root: Path) -> None:
    """Write a fix plan: its source files (inside `plan.root`) and its overrides merged into
    `overrides_path` (inside `overrides_root`), every target checked before any is written."""
    from mcp_lint.fix.edit import PlannedWrite, write_all

    writes = [PlannedWrite(plan.root / path, old, new, plan.root) for path, (old, new) in plan.files.items()]
    if plan.overrides:
        text = _overrides_text(plan, overrides_path)
        writes.append(PlannedWrite(overrides_path, None, text, overrides_root))
    write_all(writes)


def _overrides_text(plan: FixPlan, overrides_path: Path) -> str:
    """The overrides file as `plan` leaves it: what it serves now with the plan's overrides merged in
    (what `--diff` shows is what a fix writes)."""
    from mcp_lint.overrides import merge_overrides, overrides_document, read_overrides

    filed = read_overrides(overrides_path) if overrides_path.exists() else {}
    merged = merge_overrides(filed, plan.overrides)
    return json.dumps(overrides_document(merged), indent=2, ensure_ascii=False) + "\n"
