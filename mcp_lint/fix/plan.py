"""The fix stage: rewrites for the smelly tools of a lint result, checked, re-scored and placed.

Plain data in and out, no printing. `plan_fixes` takes the lint's `RunResult`, the recorded traces and
the jury settings, and returns a `FixPlan`: every rewrite with whether it is kept and why not, the
source files to change (path -> old and new text) and the overrides to merge. The command applies the
plan (or prints it as a diff); nothing here writes a file.

A rewrite is kept only when it is faithful (`faithful.check`), the configured jury's re-score clears
every smell it was made for and makes no component worse, and the description stays within the
description-too-long budget. Offline rewrites are safe fixes; LLM rewrites are unsafe ones, applied
only when asked (`unsafe=True`), like ruff's.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

from mcp_lint.check.tokens import estimate_tokens
from mcp_lint.config import JurySettings
from mcp_lint.fix import faithful
from mcp_lint.fix.grounding import ground
from mcp_lint.fix.mechanical import repair
from mcp_lint.fix.propose import over_budget, propose, refusal, repairable, rubric_codes, with_text
from mcp_lint.fix.schema import (
    SchemaEdit,
    SchemaOutcome,
    by_hand,
    edit_snapshot,
    patched_tool,
    schema_edits,
)
from mcp_lint.model import (
    COMPONENTS,
    Finding,
    Relint,
    RunResult,
    SchemaFix,
    ServerReport,
    ServerSnapshot,
    Tool,
)
from mcp_lint.overrides import Override, Part, combined
from mcp_lint.traces import TraceRecord, traces_by_tool


@dataclass(frozen=True)
class Rewrite:
    """One augmentor's proposed description for one tool, before any check."""

    server: str
    tool: str
    original: str
    description: str
    parts: Mapping[str, str]
    touched: tuple[str, ...]
    targets: tuple[str, ...]
    augmentor: str  # "offline" or the model id
    safe: bool
    repairs: tuple[str, ...] = ()  # mechanical fixes of the original's own text (mechanical.repair)


@dataclass(frozen=True)
class RewriteOutcome:
    """What became of a rewrite (or of a tool no rewrite could be made for: `rewrite` is None)."""

    server: str
    tool: str
    rewrite: Rewrite | None
    kept: bool
    reasons: tuple[str, ...] = ()
    rejected: bool = False  # by the faithfulness check (as opposed to not kept after re-scoring)
    before: Mapping[str, float] = field(default_factory=dict)
    after: Mapping[str, float] = field(default_factory=dict)
    tokens_before: int = 0
    tokens_after: int = 0
    where: str | None = None  # "path:line" of the edited literal, or the overrides file
    applied: bool = False  # kept and allowed: unsafe rewrites need --unsafe-fixes


@dataclass(frozen=True)
class FixPlan:
    outcomes: tuple[RewriteOutcome, ...]
    files: Mapping[str, tuple[str, str]]  # path relative to `root` -> (old text, new text)
    overrides: Mapping[tuple[str, str], Override]
    root: Path
    warnings: tuple[str, ...] = ()  # what the jury said while re-scoring (a provider error, ...)
    schema: tuple[SchemaOutcome, ...] = ()  # the unsafe schema/annotation fixes (mcp_lint.fix.schema)

    @property
    def applied(self) -> tuple[RewriteOutcome, ...]:
        return tuple(outcome for outcome in self.outcomes if outcome.applied)

    @property
    def schema_applied(self) -> tuple[SchemaOutcome, ...]:
        return tuple(outcome for outcome in self.schema if outcome.applied)


class Augmentor(Protocol):
    """Writes rewrites for a batch of tools: the offline composer, or an LLM through litellm."""

    name: str
    safe: bool

    def rewrite(self, requests: Sequence[RewriteRequest]) -> list[Rewrite | str]: ...


@dataclass(frozen=True)
class RewriteRequest:
    server: str
    tool: Tool
    peers: tuple[Tool, ...]  # the server's named tools, the rivals among them
    scores: Mapping[str, float]
    targets: tuple[str, ...]
    traces: tuple[TraceRecord, ...]
    components: tuple[Part, ...] | None
    thresholds: Mapping[str, float]
    refused: str | None = None  # why its description must not be rewritten (see propose.refusal)
    findings: tuple[Finding, ...] = ()  # the tool's findings: which mechanical fixes it needs
    relint: Relint | None = None  # the check stage's re-lint (RunResult.relint)

    @property
    def sibling_names(self) -> tuple[str, ...]:
        return tuple(sorted(peer.name for peer in self.peers if peer.name != self.tool.name))


class OfflineAugmentor:
    name = "offline"
    safe = True

    def rewrite(self, requests: Sequence[RewriteRequest]) -> list[Rewrite | str]:
        out: list[Rewrite | str] = []
        for request in requests:
            proposal = propose(
                request.server,
                request.tool,
                request.peers,
                {name: request.scores.get(name, 5.0) for name in COMPONENTS},
                request.traces,
                request.components,
                request.thresholds,
                request.refused,
                findings=request.findings,
                relint=request.relint,
            )
            if proposal.description is None:
                out.append(proposal.refused or "no rewrite")
                continue
            out.append(
                Rewrite(
                    server=request.server,
                    tool=request.tool.name,
                    original=request.tool.description,
                    description=proposal.description,
                    parts=proposal.parts,
                    touched=proposal.touched,
                    # The smells it was made to clear: those its grounded parts clear offline.
                    targets=proposal.clears,
                    augmentor=self.name,
                    safe=self.safe,
                    repairs=proposal.repairs,
                )
            )
        return out


def _requests(
    result: RunResult,
    traces: Sequence[TraceRecord],
    components: tuple[Part, ...] | None,
    thresholds: Mapping[str, float],
) -> list[RewriteRequest]:
    requests: list[RewriteRequest] = []
    # Records name the server the recorder was told (or the name it reports). When some name a server
    # of this run by any of its names, each server gets only its own; when none does (a recorder named
    # it otherwise), records match by tool name.
    servers = {
        name
        for report in result.servers
        for name in (report.snapshot.aliases if report.snapshot is not None else (report.name,))
    }
    strict = any(record.server in servers for record in traces)
    for report in result.servers:
        snapshot = report.snapshot
        if snapshot is None:
            continue
        smelly: dict[str, list[str]] = {}
        findings_of: dict[str, list[Finding]] = {}
        for finding in report.findings:
            if finding.tool:
                findings_of.setdefault(finding.tool, []).append(finding)
            if finding.tool and finding.component:
                smelly.setdefault(finding.tool, []).append(finding.component)
        by_tool = traces_by_tool(traces, snapshot.aliases if strict else None)
        peers = tuple(tool for tool in snapshot.tools if tool.named)
        for tool in snapshot.tools:
            found = tuple(findings_of.get(tool.name, ()))
            if not tool.named or (tool.name not in smelly and not repairable(found)):
                continue
            scores = report.tool_scores.get(tool.name)
            requests.append(
                RewriteRequest(
                    server=snapshot.name,
                    tool=tool,
                    peers=peers,
                    scores={name: float(value) for name, value in scores.aggregate.items()} if scores else {},
                    targets=tuple(name for name in COMPONENTS if name in smelly.get(tool.name, ())),
                    traces=tuple(by_tool.get(tool.name, ())),
                    components=components,
                    thresholds=thresholds,
                    refused=refusal(found),
                    findings=found,
                    relint=result.relint,
                )
            )
    return requests


def with_descriptions(snapshot: ServerSnapshot, new: Mapping[str, str]) -> ServerSnapshot:
    tools = []
    for tool in snapshot.tools:
        if tool.name in new:
            raw = dict(tool.raw)
            raw["description"] = new[tool.name]
            tool = Tool(tool.name, raw, tool.sdk_rejection, tool.named)
        tools.append(tool)
    return replace(snapshot, tools=tuple(tools))


def with_schema_fixes(snapshot: ServerSnapshot, applied: Sequence[SchemaOutcome]) -> ServerSnapshot:
    """`snapshot` with the applied schema/annotation fixes of its tools added."""
    fixes: dict[str, list[SchemaFix]] = {}
    for outcome in applied:
        if outcome.edit.server == snapshot.name:
            fixes.setdefault(outcome.edit.tool, []).append(outcome.edit.fix)
    if not fixes:
        return snapshot
    tools = tuple(
        patched_tool(tool, fixes[tool.name]) if tool.name in fixes else tool for tool in snapshot.tools
    )
    return replace(snapshot, tools=tools)


def rescore(
    reports: Sequence[ServerReport], rewrites: Sequence[Rewrite], jury: JurySettings | None
) -> tuple[dict[tuple[str, str], dict[str, float]], tuple[str, ...]]:
    """The configured jury's scores of each rewritten tool (siblings as they are), and its warnings."""
    from mcp_lint.jury.run import score_servers

    by_server: dict[str, dict[str, str]] = {}
    for rewrite in rewrites:
        by_server.setdefault(rewrite.server, {})[rewrite.tool] = rewrite.description
    snapshots = [
        with_descriptions(report.snapshot, by_server[report.name])
        for report in reports
        if report.snapshot is not None and report.name in by_server
    ]
    if not snapshots:
        return {}, ()
    outcome = score_servers(snapshots, jury or JurySettings())
    scores: dict[tuple[str, str], dict[str, float]] = {
        key: {str(name): float(score) for name, score in value.aggregate.items()}
        for key, value in outcome.tools.items()
        if key[1] in by_server.get(key[0], {})
    }
    return scores, outcome.warnings


def _judge(
    rewrite: Rewrite,
    report: ServerReport,
    after: Mapping[str, float] | None,
    thresholds: Mapping[str, float],
    max_tokens: int,
    unfaithful: Sequence[str],
) -> RewriteOutcome:
    scores = report.tool_scores.get(rewrite.tool)
    before: dict[str, float] = (
        {name: float(value) for name, value in scores.aggregate.items()} if scores else {}
    )
    base = RewriteOutcome(
        rewrite.server,
        rewrite.tool,
        rewrite,
        kept=False,
        before=before,
        after=dict(after or {}),
        tokens_before=estimate_tokens(rewrite.original),
        tokens_after=estimate_tokens(rewrite.description),
    )
    if unfaithful:
        return replace(base, reasons=tuple(unfaithful), rejected=True)
    reasons: list[str] = []
    if not rewrite.targets and not rewrite.repairs:
        reasons.append("clears no smell")
    if after is None:
        reasons.append("the jury could not re-score it")
    else:
        still = [name for name in rewrite.targets if after.get(name, 0.0) < thresholds.get(name, 3.0)]
        if still:
            codes = {str(component): code for component, code in rubric_codes().items()}
            reasons.append("does not clear " + ", ".join(f"{codes[name]} {name}" for name in still))
        worse = [name for name in COMPONENTS if name in before and after.get(name, 0.0) < before[name]]
        if worse:
            reasons.append(
                "makes " + ", ".join(f"{name} worse ({before[name]:g} -> {after[name]:g})" for name in worse)
            )
    # A description already over the budget may still get a mechanical fix (see `over_budget`).
    if over_budget(rewrite.original, rewrite.description, rewrite.touched, max_tokens) is not None:
        reasons.append(f"is about {base.tokens_after} tokens, over the description budget of {max_tokens}")
    return replace(base, kept=not reasons, reasons=tuple(reasons))


def plan_fixes(
    result: RunResult,
    *,
    traces: Sequence[TraceRecord] = (),
    components: tuple[Part, ...] | None = None,
    jury: JurySettings | None = None,
    augmentor: Augmentor | None = None,
    unsafe: bool = False,
    thresholds: Mapping[str, float] | None = None,
    max_tokens: int | None = None,
    root: Path | None = None,
    overrides_path: Path | None = None,
    prefer: Collection[Path] = (),
    snapshot_files: Collection[Path] = (),
) -> FixPlan:
    """Rewrite, check, re-score and place every smelly tool of `result` (see the module doc), then
    place its schema and annotation fixes (`place_schema`; applied only when `unsafe`)."""
    from mcp_lint.check.engine import description_budget
    from mcp_lint.fix.propose import thresholds as rubric_thresholds

    limits = dict(thresholds) if thresholds is not None else rubric_thresholds()
    budget = max_tokens if max_tokens is not None else description_budget()
    augmentor = augmentor or OfflineAugmentor()
    requests = _requests(result, traces, components, limits)
    made = augmentor.rewrite(requests)
    reports = {report.name: report for report in result.servers}
    outcomes: list[RewriteOutcome] = []
    candidates: list[tuple[Rewrite, list[str]]] = []
    for request, item in zip(requests, made, strict=True):
        if isinstance(item, str):
            outcomes.append(
                RewriteOutcome(request.server, request.tool.name, None, kept=False, reasons=(item,))
            )
            continue
        # Faithful to the original as mechanically fixed: a misspelt name it drops is the fix.
        base = with_text(request.tool, repair(request.tool, request.findings, request.sibling_names).text)
        grounding = ground(base, request.peers, request.traces)
        reasons = faithful.check(base.description, item.description, grounding, request.sibling_names)
        candidates.append((item, reasons))
    faithful_ones = [rewrite for rewrite, reasons in candidates if not reasons]
    rescored, warnings = rescore(list(reports.values()), faithful_ones, jury)
    for rewrite, reasons in candidates:
        report = reports[rewrite.server]
        after = rescored.get((rewrite.server, rewrite.tool))
        outcomes.append(_judge(rewrite, report, after, limits, budget, reasons))
    plan = place(outcomes, reports, unsafe, root or Path.cwd(), overrides_path, prefer, snapshot_files)
    plan = place_schema(plan, result, schema_edits(result), unsafe, snapshot_files, overrides_path)
    return replace(plan, warnings=warnings)


def _snapshot_file(snapshot: ServerSnapshot, files: Mapping[Path, Path]) -> Path | None:
    """The saved snapshot file `snapshot` was read from, when it is one of this run's files."""
    if snapshot.origin is None or snapshot.origin == "stdin":
        return None
    return files.get(Path(snapshot.origin).resolve())


def place_schema(
    plan: FixPlan,
    result: RunResult,
    edits: Sequence[SchemaEdit],
    unsafe: bool,
    snapshot_files: Collection[Path],
    overrides_path: Path | None,
) -> FixPlan:
    """Where each schema/annotation fix goes. A server read from a saved snapshot file gets the file
    edited (its JSON re-written with its own layout, after any description edit of the same file);
    any other server gets a `patch` in the overrides file, which `mcp-lint proxy` serves, and the line
    to write in its source by hand. Without `unsafe` nothing is placed: each fix is listed as one
    `--unsafe-fixes` would apply."""
    from mcp_lint.fix.edit import target_problem
    from mcp_lint.overrides import DEFAULT_OVERRIDES_PATH

    if not edits:
        return plan
    if not unsafe:
        held = (
            "an unsafe fix (it changes what the server accepts or claims): applied only with --unsafe-fixes"
        )
        return replace(plan, schema=tuple(SchemaOutcome(edit, reason=held) for edit in edits))
    files = {path.resolve(): path for path in snapshot_files}
    snapshots = {report.name: report.snapshot for report in result.servers if report.snapshot is not None}
    new_files = dict(plan.files)
    overrides = dict(plan.overrides)
    overrides_file = overrides_path or DEFAULT_OVERRIDES_PATH
    overrides_problem = target_problem(overrides_file, Path(overrides_file).absolute().parent.parent)
    outcomes: list[SchemaOutcome] = []
    by_server: dict[str, list[SchemaEdit]] = {}
    for edit in edits:
        by_server.setdefault(edit.server, []).append(edit)
    for server, items in by_server.items():
        snapshot = snapshots[server]
        tools = {tool.name: tool for tool in snapshot.tools}
        saved = _snapshot_file(snapshot, files)
        if saved is not None:
            outcomes += _into_snapshot(plan.root, saved, items, new_files)
            continue
        for edit in items:
            hand = by_hand(edit, tools[edit.tool])
            if overrides_problem is not None:
                outcomes.append(SchemaOutcome(edit, reason=f"not written: {overrides_problem}", by_hand=hand))
                continue
            patch = Override(server, edit.tool, None, patch=edit.fix.merge_patch())
            overrides[(server, edit.tool)] = combined(overrides.get((server, edit.tool)), patch)
            outcomes.append(SchemaOutcome(edit, applied=True, where=str(overrides_file), by_hand=hand))
    return replace(plan, files=new_files, overrides=overrides, schema=tuple(outcomes))


def _into_snapshot(
    root: Path,
    saved: Path,
    edits: Sequence[SchemaEdit],
    files: dict[str, tuple[str, str]],
) -> list[SchemaOutcome]:
    """Add `edits` to the snapshot file `saved` (after the plan's own edit of it, if any), in `files`."""
    from mcp_lint.fix.edit import read_exact

    relative, problem = _writable(root, saved)
    if relative is None:
        return [SchemaOutcome(edit, reason=f"not written: {problem}") for edit in edits]
    old, current = files.get(relative) or (read_exact(root / relative), None)
    start = current if current is not None else old
    grouped: dict[str, list[SchemaFix]] = {}
    for edit in edits:
        grouped.setdefault(edit.tool, []).append(edit.fix)
    text, problem = edit_snapshot(start, grouped)
    if problem is not None:
        return [SchemaOutcome(edit, reason=f"not written: {saved}: {problem}") for edit in edits]
    if text != old:
        files[relative] = (old, text)
    return [SchemaOutcome(edit, applied=True, where=relative) for edit in edits]


def _refused(outcome: RewriteOutcome, reason: str) -> RewriteOutcome:
    """A kept rewrite that cannot be written where it belongs: not applied, with the reason."""
    return replace(outcome, kept=False, applied=False, where=None, reasons=(f"not written: {reason}",))


def command_files(words: Sequence[str], cwd: Path) -> list[Path]:
    """The files a server's command line runs, as paths: each word naming an existing file (a script,
    `--flag=path` too), and for `-m package.module` the module's file. A built entry point under
    dist/, build/ or out/ also names the TypeScript source beside it (`dist/index.js` ->
    `src/index.ts`), which is where its tools are registered."""
    found: list[Path] = []
    after_m = False
    for word in words:
        value = word.split("=", 1)[1] if word.startswith("-") and "=" in word else word
        if after_m:
            module = Path(*value.split("."))
            for base in (cwd, cwd / "src"):
                found += [base / module.with_suffix(".py"), base / module / "__main__.py"]
        after_m = word == "-m"
        if not value or value.startswith("-"):
            continue
        found.append(cwd / value)
        parts = Path(value).parts
        if len(parts) > 1 and parts[0] in {"dist", "build", "out", "lib"}:
            source = Path("src", *parts[1:])
            found += [cwd / source.with_suffix(suffix) for suffix in (".ts", ".mts", ".cts", ".js", ".mjs")]
    return [path for path in found if path.is_file()]


def preferred_files(
    command: Sequence[str],
    snapshots: Sequence[str],
    servers: Mapping[str, Mapping[str, Any]],
    base_dir: Path,
) -> list[Path]:
    """The files this run's servers are started from (`command_files` of the command after `--` and
    of each configured server's command and args, in its `cwd`) and the snapshot files it reads."""
    found = command_files(command, Path.cwd())
    saved = [Path(path) for path in snapshots if path != "-"]
    for entry in servers.values():
        command_words = entry.get("command")
        words = command_words if isinstance(command_words, list) else [command_words]
        args = entry.get("args")
        words = [*words, *(args if isinstance(args, list) else ())]
        cwd = entry.get("cwd")
        folder = base_dir / cwd if isinstance(cwd, str) else base_dir
        found += command_files([word for word in words if isinstance(word, str)], folder)
        if isinstance(entry.get("snapshot"), str):
            saved.append(base_dir / entry["snapshot"])
    return found + [path for path in saved if path.is_file()]


def place(
    outcomes: Sequence[RewriteOutcome],
    reports: Mapping[str, ServerReport],
    unsafe: bool,
    root: Path,
    overrides_path: Path | None,
    prefer: Collection[Path] = (),
    snapshot_files: Collection[Path] = (),
) -> FixPlan:
    """Where each kept rewrite lands: its source literal when found; for a server read from a snapshot
    file of this run, that file's tool entry (`description` set, every other byte kept), wherever the
    description sits in it; else the overrides file.

    A literal is rewritten only when it is the one place that holds the served text (see
    `SourceIndex.choose`: `prefer` holds the files the servers' command lines run), its file stays
    inside the repository and is writable, and the edited file is verified (`edit.edit_file`);
    otherwise the rewrite is not applied and its outcome says why. One literal gets one edit, however
    many servers serve it."""
    from mcp_lint.fix.edit import edit_file, target_problem
    from mcp_lint.locate import SourceIndex, SourceLocation
    from mcp_lint.overrides import DEFAULT_OVERRIDES_PATH

    index: SourceIndex | None = None
    wanted: dict[str, list[tuple[int, SourceLocation, str]]] = {}
    overrides: dict[tuple[str, str], Override] = {}
    placed: list[RewriteOutcome] = list(outcomes)
    overrides_file = overrides_path or DEFAULT_OVERRIDES_PATH
    overrides_problem: str | None = None
    filed: Mapping[tuple[str, str], Override] = {}
    preferred: set[str] = set()
    saved_files = {path.resolve(): path for path in snapshot_files}
    into_snapshots: dict[Path, list[int]] = {}
    for position, outcome in enumerate(outcomes):
        rewrite = outcome.rewrite
        if not outcome.kept or rewrite is None or not (rewrite.safe or unsafe):
            continue
        if index is None:
            index = SourceIndex.for_directory(root)
            preferred = {found for path in prefer if (found := index.relative(path, root)) is not None}
            overrides_problem = target_problem(overrides_file, Path(overrides_file).absolute().parent.parent)
            filed = _filed_overrides(Path(overrides_file))
        location, ambiguous = index.choose(rewrite.tool, rewrite.original, preferred)
        origin = _origin(reports, rewrite.server, saved_files)
        if (
            location is not None
            and location.language == "json"
            and origin is not None
            and (index.root / location.path).resolve() != origin.resolve()
        ):
            # A server read from a snapshot file of this run is never fixed in another JSON listing:
            # a copy of the snapshot (under tests/, docs/, another checkout) is not where its text
            # comes from. Code literals, and that snapshot itself, are.
            location = None
        if ambiguous is not None:
            placed[position] = _refused(outcome, ambiguous)
        elif location is not None:
            problem = target_problem(index.root / location.path, index.root)
            if problem is not None:
                placed[position] = _refused(outcome, problem)
                continue
            wanted.setdefault(location.path, []).append((position, location, rewrite.description))
            where = f"{location.path}:{location.region.start_line}"
            placed[position] = replace(outcome, applied=True, where=where)
        elif origin is not None and _writable(index.root, origin)[0] is not None:
            # a snapshot file of this run that --fix may write (inside the repository, a regular
            # file); else the rewrite goes to the overrides file, as for a live server
            into_snapshots.setdefault(origin, []).append(position)
        elif overrides_problem is not None:
            placed[position] = _refused(outcome, overrides_problem)
        elif _already_filed(filed, rewrite.server, rewrite.tool, rewrite.description):
            # A second --fix of what the overrides file already serves writes nothing: not a fix.
            placed[position] = replace(outcome, reasons=(f"already in {overrides_file}",))
        else:
            overrides[(rewrite.server, rewrite.tool)] = Override(
                rewrite.server, rewrite.tool, rewrite.description, rewrite.original, dict(rewrite.parts)
            )
            placed[position] = replace(outcome, applied=True, where=str(overrides_file))
    files: dict[str, tuple[str, str]] = {}
    for path, items in wanted.items():
        assert index is not None
        text = index.text(path)
        edited = edit_file(path, text, [(location, description) for _, location, description in items])
        for (position, _, _), problem in zip(items, edited.problems, strict=True):
            if problem is not None:
                placed[position] = _refused(outcomes[position], problem)
        if edited.text != text:
            files[path] = (text, edited.text)
    plan_root = index.root if index else root
    for saved, positions in into_snapshots.items():
        _descriptions_into_snapshot(plan_root, saved, positions, placed, files)
    return FixPlan(tuple(placed), files, overrides, plan_root)


def _origin(reports: Mapping[str, ServerReport], server: str, files: Mapping[Path, Path]) -> Path | None:
    """The snapshot file of this run that `server` was read from, if any."""
    report = reports.get(server)
    if report is None or report.snapshot is None or not files:
        return None
    return _snapshot_file(report.snapshot, files)


def _writable(root: Path, saved: Path) -> tuple[str | None, str | None]:
    """(`saved` relative to `root`, None) when --fix may write it; else (None, why not)."""
    from mcp_lint.fix.edit import target_problem

    try:
        relative = str(saved.resolve().relative_to(root.resolve()))
    except ValueError:
        return None, f"{saved} is outside {root}; --fix writes only inside the repository"
    problem = target_problem(root / relative, root)
    return (relative, None) if problem is None else (None, problem)


def _descriptions_into_snapshot(
    root: Path,
    saved: Path,
    positions: Sequence[int],
    placed: list[RewriteOutcome],
    files: dict[str, tuple[str, str]],
) -> None:
    """Set the rewrites at `positions` as their tools' `description` in the snapshot file `saved` (a
    tool without one gets the key), as the schema fixes are added: by the JSON structure, so a file
    too large for the source locator or a description far from its tool's name is edited all the same."""
    from mcp_lint.fix.edit import read_exact
    from mcp_lint.fix.schema import edit_snapshot

    relative, problem = _writable(root, saved)
    if relative is None:
        for position in positions:
            placed[position] = _refused(placed[position], str(problem))
        return
    old, current = files.get(relative) or (read_exact(root / relative), None)
    fixes: dict[str, list[SchemaFix]] = {}
    for position in positions:
        rewrite = placed[position].rewrite
        assert rewrite is not None
        fixes[rewrite.tool] = [SchemaFix((), {"description": rewrite.description}, replace=True)]
    text, problem = edit_snapshot(current if current is not None else old, fixes)
    for position in positions:
        placed[position] = (
            _refused(placed[position], f"{saved}: {problem}")
            if problem is not None
            else replace(placed[position], applied=True, where=relative)
        )
    if problem is None and text != old:
        files[relative] = (old, text)


def summary(plan: FixPlan) -> str:
    """`Fixed N descriptions (M rejected: reasons); K not fixed: reasons`: every tool a rewrite was
    asked for is counted, the ones not written with why (issue 22: the count alone hid them)."""
    fixed = len(plan.applied)
    rejected = [outcome for outcome in plan.outcomes if outcome.rejected]
    text = f"Fixed {fixed} description{'s' if fixed != 1 else ''}"
    if rejected:
        text += f" ({len(rejected)} rejected: {_reasons(rejected)})"
    left = [outcome for outcome in plan.outcomes if not outcome.applied and not outcome.rejected]
    if left:
        text += f"; {len(left)} not fixed: {_reasons(left)}"
    schema = len(plan.schema_applied)
    if schema:
        text += f"; {schema} schema/annotation fix{'es' if schema != 1 else ''} (unsafe)"
    held = [outcome for outcome in plan.schema if not outcome.applied]
    plural = "es" if len(held) != 1 else ""
    if held and all(outcome.reason and outcome.reason.startswith("an unsafe fix") for outcome in held):
        text += f"; {len(held)} unsafe schema/annotation fix{plural} left (--unsafe-fixes)"
    elif held:
        text += f"; {len(held)} schema/annotation fix{plural} not written"
    return text


def _reasons(outcomes: Sequence[RewriteOutcome], shown: int = 3) -> str:
    """Tools grouped by their reason, each reason said once: `a, b: why; c: why; +N more`."""

    def why(outcome: RewriteOutcome) -> str:
        if outcome.reasons:
            return outcome.reasons[0]
        if outcome.kept and outcome.rewrite is not None and not outcome.rewrite.safe:
            return "an LLM rewrite, written only with --unsafe-fixes"
        return "no rewrite kept"

    groups: dict[str, list[str]] = {}
    for outcome in outcomes:
        groups.setdefault(why(outcome), []).append(outcome.tool)
    parts = []
    for reason, tools in list(groups.items())[:shown]:
        named = ", ".join(tools[:shown]) + (f" and {len(tools) - shown} more" if len(tools) > shown else "")
        parts.append(f"{named}: {reason}")
    hidden = sum(len(tools) for tools in list(groups.values())[shown:])
    return "; ".join(parts) + (f"; +{hidden} more" if hidden else "")


def _filed_overrides(path: Path) -> Mapping[tuple[str, str], Override]:
    """What the overrides file serves now; nothing when it is missing or unreadable (writing it
    later says what is wrong with it)."""
    from mcp_lint.errors import McpLintError
    from mcp_lint.overrides import read_overrides

    if not path.is_file():
        return {}
    try:
        return read_overrides(path)
    except McpLintError:
        return {}


def _already_filed(filed: Mapping[tuple[str, str], Override], server: str, tool: str, text: str) -> bool:
    override = filed.get((server, tool))
    return override is not None and override.description == text
