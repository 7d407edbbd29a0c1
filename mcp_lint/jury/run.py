"""The jury stage: score every tool of every server on the rubric, with the offline jury or LLM judges.

With no models configured the embedded offline jury scores each tool synchronously (it is instant and
deterministic, so it is never cached). With models, every (tool, judge) pair is looked up in the cache
first, so an unchanged server costs nothing; the misses are judged concurrently, at most
`settings.concurrency` calls in flight across all servers and judges, and the new verdicts are merged into
the cache file once, at the end.

Provider failures never raise out of `score_servers`: a (tool, judge) call that still fails after its
retries, or a cache miss in frozen mode, becomes an `Unscored` record. A tool is still scored over the
judges that did answer; a tool no judge answered for is absent from `tools`. Cache trouble (unreadable,
corrupt, unwritable) becomes a warning. Only invalid settings (unknown aggregate, contradictory cache
flags, duplicate or malformed model ids, a model litellm cannot route) raise, as `JurySettingsError` (a
`UsageError` and a `ValueError`).
"""

from __future__ import annotations

import contextlib
import gc
import threading
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mcp_lint.config import JurySettings
from mcp_lint.errors import UsageError
from mcp_lint.jury.aggregate import aggregate_verdicts, check_aggregate, server_score
from mcp_lint.jury.base import Judge, JudgeVerdict
from mcp_lint.jury.prompt import PROMPT_VERSION, tool_payload
from mcp_lint.jury.rubric import load_rubric
from mcp_lint.jury.siblings import ServerNames, SiblingNames
from mcp_lint.model import ModelUsage, ServerScore, ServerSnapshot, Tool, ToolScores, Unscored, Usage

# The LLM judges' module (jury.llm, some 25 ms of imports) is imported where a run calls models or
# names their settings: an offline run (the default) never needs it, nor the verdict cache (jury.cache),
# which only LLM verdicts use.
if TYPE_CHECKING:
    from mcp_lint.jury.cache import CacheEntry
    from mcp_lint.jury.llm import JudgeCallError, JudgeResult, LiteLLMJudge

__all__ = [
    "JuryOutcome",
    "JurySettingsError",
    "PruneResult",
    "check_prunable",
    "live_cache_keys",
    "prune_cache",
    "score_servers",
    "validate_jury_settings",
]


def _total_cost(by_model: Mapping[str, ModelUsage]) -> float | None:
    priced = [usage.cost_usd for usage in by_model.values() if usage.cost_usd is not None]
    if not priced and any(usage.calls for usage in by_model.values()):
        return None
    return sum(priced, 0.0)


@dataclass(frozen=True, eq=False, repr=False)
class JuryOutcome:
    """The jury stage's product: scores per (server, tool) and per server, and the run's `JuryReport`
    parts (the pipeline adds the rubric version)."""

    tools: Mapping[tuple[str, str], ToolScores]
    servers: Mapping[str, ServerScore]
    unscored: tuple[Unscored, ...] = ()
    usage: Usage = field(default_factory=Usage)
    warnings: tuple[str, ...] = ()
    judges: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False, repr=False)
class _Item:
    server: str
    tool: Tool
    siblings: SiblingNames


class JurySettingsError(UsageError, ValueError):
    """Settings the jury cannot run with (exit 2 from the CLI)."""


def validate_jury_settings(settings: JurySettings, *, calls_models: bool = True) -> None:
    """Reject settings the jury cannot run with, before any server is started or model called.

    `calls_models=False` is for work on the cache alone (prune), which needs no LLM extra.
    """
    try:
        check_aggregate(settings.aggregate)
    except ValueError as exc:
        raise JurySettingsError(str(exc)) from None
    if settings.refresh and settings.frozen:
        raise JurySettingsError(
            "--refresh and --frozen cannot be combined: frozen forbids the calls refresh makes"
        )
    if settings.cache_path is None and settings.frozen:
        raise JurySettingsError(
            "--no-cache and --frozen cannot be combined: frozen takes every verdict from the cache"
        )
    if settings.cache_path is None and settings.refresh:
        raise JurySettingsError(
            "--no-cache and --refresh cannot be combined: refresh overwrites cache entries and "
            "--no-cache writes none; --no-cache alone already re-judges every tool"
        )
    models = list(settings.models)
    if not models:
        return  # the offline jury: no model id to check, no extra to have
    from mcp_lint.jury.llm import missing_extra_problem, model_id_problem

    for model in models:
        problem = model_id_problem(model)
        if problem is not None:
            raise JurySettingsError(problem)
    duplicates = sorted({m for m in models if models.count(m) > 1})
    if duplicates:
        raise JurySettingsError(f"jury model listed more than once: {', '.join(duplicates)}")
    problem = missing_extra_problem(models) if calls_models else None
    if problem is not None:
        raise JurySettingsError(problem)


def score_servers(snapshots: Sequence[ServerSnapshot], settings: JurySettings) -> JuryOutcome:
    validate_jury_settings(settings)
    warnings: list[str] = []
    items = _items(snapshots, warnings)
    if not settings.models:
        return _score_offline(items, settings, warnings)
    return _run(_score_llm(items, settings, warnings))


def _items(snapshots: Sequence[ServerSnapshot], warnings: list[str]) -> list[_Item]:
    # Results are keyed by (server, tool) name, so a repeated name would silently overwrite: judge the first.
    items: list[_Item] = []
    seen_servers: set[str] = set()
    for snapshot in snapshots:
        if snapshot.name in seen_servers:
            warnings.append(f"server {snapshot.name!r} appears more than once; only the first is scored")
            continue
        seen_servers.add(snapshot.name)
        # An entry without a name is no tool a client can call: nothing for a judge to score.
        named = [tool for tool in snapshot.tools if tool.named]
        names = ServerNames(tool.name for tool in named)
        seen_tools: set[str] = set()
        for tool in named:
            if tool.name in seen_tools:
                warnings.append(
                    f"server {snapshot.name!r}: tool {tool.name!r} appears more than once; "
                    "only the first is scored"
                )
                continue
            seen_tools.add(tool.name)
            items.append(_Item(snapshot.name, tool, names.without(tool.name)))
    return items


def _run(coro: Any) -> JuryOutcome:
    """asyncio.run, also from code that already runs an event loop (then on a private thread)."""
    # asyncio (~25 ms to import) only for the LLM judges: the offline jury of a default lint never runs here.
    import asyncio

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        running = False
    else:
        running = True
    if not running:
        # Outside the except block: run inside it, every exception of the run would be chained to that
        # RuntimeError in place of its real cause, which is what tells a refused connection from a 500.
        result: JuryOutcome = asyncio.run(coro)
        return result
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(coro)
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, name="mcp-lint-jury")
    thread.start()
    thread.join()
    if "error" in box:
        raise box["error"]
    value: JuryOutcome = box["value"]
    return value


def _score_offline(items: Sequence[_Item], settings: JurySettings, warnings: list[str]) -> JuryOutcome:
    from mcp_lint.jury.offline import OfflineJury

    jury: Judge = OfflineJury()
    verdicts: dict[tuple[str, str], list[JudgeVerdict]] = {}
    unscored: list[Unscored] = []
    for item in items:
        try:
            verdict = jury.judge(item.tool, item.siblings)
        except Exception as exc:
            # The offline jury has no provider to blame; a crash on one odd tool must not sink the run.
            from mcp_lint.jury.llm import describe_error

            unscored.append(Unscored(item.server, item.tool.name, jury.name, describe_error(exc)))
            continue
        verdicts[(item.server, item.tool.name)] = [verdict]
    return _outcome(items, verdicts, unscored, Usage(), warnings, (jury.name,), settings.aggregate)


def _without_credentials(
    pending: list[tuple[_Item, LiteLLMJudge, str]], failures: dict[tuple[str, str, str], str]
) -> list[tuple[_Item, LiteLLMJudge, str]]:
    """Fail, without a call, every pending verdict whose provider key is missing."""
    from mcp_lint.jury.llm import missing_credentials

    missing_by_model = {judge.model: missing_credentials(judge.model) for judge in {j for _, j, _ in pending}}
    kept: list[tuple[_Item, LiteLLMJudge, str]] = []
    for item, judge, key in pending:
        missing = missing_by_model[judge.model]
        if missing:
            failures[(item.server, item.tool.name, judge.name)] = (
                f"{', '.join(missing)} is not set; export it (litellm reads provider keys from the "
                "environment), or pass --jury offline to use the embedded offline jury; no call made"
            )
        else:
            kept.append((item, judge, key))
    return kept


async def _score_llm(items: Sequence[_Item], settings: JurySettings, warnings: list[str]) -> JuryOutcome:
    import asyncio

    from mcp_lint.jury.cache import CacheEntry, JuryCache
    from mcp_lint.jury.llm import (
        JudgeCallError,
        LiteLLMJudge,
        SendGate,
        describe_error,
        model_routing_problem,
    )

    rubric = load_rubric()
    judges = [
        LiteLLMJudge(
            model,
            settings.api_base(model),
            settings.timeout,
            settings.max_retries,
            backoff_base=settings.backoff_base,
            rubric=rubric,
        )
        for model in settings.models
    ]
    cache = JuryCache(settings.cache_path) if settings.cache_path is not None else None
    verdicts: dict[tuple[str, str], dict[str, JudgeVerdict]] = {}
    failures: dict[tuple[str, str, str], str] = {}
    pending: list[tuple[_Item, LiteLLMJudge, str]] = []
    hits = misses = 0
    for item in items:
        payload = tool_payload(item.tool, item.siblings)
        for judge in judges:
            key = _key(rubric.version, judge.model, payload)
            entry = cache.get(key) if cache is not None and not settings.refresh else None
            if entry is not None:
                hits += 1
                verdicts.setdefault((item.server, item.tool.name), {})[judge.name] = JudgeVerdict(
                    judge=judge.name,
                    scores=dict(entry.scores),
                    reasons=dict(entry.reasons),
                    rewrite=entry.rewrite,
                )
                continue
            misses += 1
            if settings.frozen:
                failures[(item.server, item.tool.name, judge.name)] = (
                    "frozen: no cached verdict for this tool text and model; no call made"
                )
                continue
            pending.append((item, judge, key))

    if misses:
        # Only now is litellm needed (a warm cache never imports it): an id it cannot route is a
        # configuration error, not a provider failure to retry or report per tool.
        for model in settings.models:
            problem = model_routing_problem(model, settings.api_base(model))
            if problem is not None:
                raise JurySettingsError(problem)
    pending = _without_credentials(pending, failures)
    semaphore = asyncio.Semaphore(max(1, settings.concurrency))
    gate = SendGate()

    async def call(item: _Item, judge: LiteLLMJudge) -> JudgeResult | JudgeCallError:
        # Retries and their backoff happen inside the slot: a rate-limited provider should see fewer
        # requests in flight, not the same number plus a queue of retries.
        async with semaphore:
            try:
                return await judge.ajudge(item.tool, item.siblings, gate=gate)
            except JudgeCallError as exc:
                return exc
            except Exception as exc:
                # Anything litellm raises that the judge did not classify is still a failed call, not a crash.
                return JudgeCallError(describe_error(exc), 1)

    with _gc_frozen():
        results = await asyncio.gather(*(call(item, judge) for item, judge, _ in pending))

    attempts = failed = prompt_tokens = completion_tokens = 0
    by_model = {judge.model: ModelUsage() for judge in judges}
    for (item, judge, key), result in zip(pending, results, strict=True):
        call_usage = result.usage
        attempts += call_usage.attempts
        prompt_tokens += call_usage.prompt_tokens
        completion_tokens += call_usage.completion_tokens
        spent = by_model[judge.model]
        by_model[judge.model] = ModelUsage(
            calls=spent.calls + 1,
            prompt_tokens=spent.prompt_tokens + call_usage.prompt_tokens,
            completion_tokens=spent.completion_tokens + call_usage.completion_tokens,
            cost_usd=None
            if spent.cost_usd is None or call_usage.cost_usd is None
            else spent.cost_usd + call_usage.cost_usd,
        )
        if isinstance(result, JudgeCallError):
            failed += 1
            failures[(item.server, item.tool.name, judge.name)] = result.reason
            continue
        verdict = result.verdict
        verdicts.setdefault((item.server, item.tool.name), {})[judge.name] = verdict
        if cache is not None:
            cache.put(
                key,
                CacheEntry(
                    model=judge.model,
                    tool=item.tool.name,
                    scores=dict(verdict.scores),
                    reasons=dict(verdict.reasons),
                    rewrite=verdict.rewrite,
                ),
            )
    if cache is not None:
        try:
            cache.save()
        except OSError as exc:
            warnings.append(f"jury cache {cache.path} could not be written: {exc.strerror or exc}")
        warnings[:0] = cache.warnings

    unscored = [
        Unscored(item.server, item.tool.name, judge.name, failures[(item.server, item.tool.name, judge.name)])
        for item in items
        for judge in judges
        if (item.server, item.tool.name, judge.name) in failures
    ]
    ordered = {
        key: [by_judge[j.name] for j in judges if j.name in by_judge] for key, by_judge in verdicts.items()
    }
    usage = Usage(
        calls=len(pending),
        attempts=attempts,
        failed=failed,
        cache_hits=hits,
        cache_misses=misses,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cost_usd=_total_cost(by_model),
        by_model=by_model,
    )
    return _outcome(
        items, ordered, unscored, usage, warnings, tuple(j.name for j in judges), settings.aggregate
    )


@contextlib.contextmanager
def _gc_frozen() -> Iterator[None]:
    """Keep the cyclic garbage collector off everything that exists before the calls start.

    Importing litellm leaves some 400,000 objects that live as long as the process. Every full
    collection walks all of them, stalling the event loop that all calls share for 0.2-0.5 s, and the
    allocations of a few hundred calls are enough to trigger one. Frozen, they are skipped; younger
    objects are still collected. Left alone when the host application has frozen objects itself, since
    unfreezing would undo that.
    """
    if gc.get_freeze_count() or not gc.isenabled():
        yield
        return
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def _outcome(
    items: Sequence[_Item],
    verdicts: Mapping[tuple[str, str], Sequence[JudgeVerdict]],
    unscored: Sequence[Unscored],
    usage: Usage,
    warnings: Sequence[str],
    judges: tuple[str, ...],
    how: str,
) -> JuryOutcome:
    tools: dict[tuple[str, str], ToolScores] = {}
    per_server: dict[str, list[ToolScores]] = {}
    for item in items:
        key = (item.server, item.tool.name)
        answered = verdicts.get(key)
        if not answered:
            continue
        scores = aggregate_verdicts(answered, how)
        tools[key] = scores
        per_server.setdefault(item.server, []).append(scores)
    servers: dict[str, ServerScore] = {}
    for name, scored in per_server.items():
        summary = server_score(scored)
        if summary is not None:
            servers[name] = summary
    return JuryOutcome(
        tools=tools,
        servers=servers,
        unscored=tuple(unscored),
        usage=usage,
        warnings=tuple(warnings),
        judges=judges,
    )


def _key(rubric_version: int, model: str, payload: Mapping[str, Any]) -> str:
    from mcp_lint.jury.cache import cache_key
    from mcp_lint.jury.llm import SAMPLING

    return cache_key(
        rubric_version=rubric_version,
        prompt_version=PROMPT_VERSION,
        model=model,
        sampling=SAMPLING,
        payload=payload,
    )


def live_cache_keys(snapshots: Sequence[ServerSnapshot], settings: JurySettings) -> frozenset[str]:
    """The cache keys a run over these servers with these models would look up (what
    `prune_cache` keeps)."""
    validate_jury_settings(settings, calls_models=False)
    rubric = load_rubric()
    keys = {
        _key(rubric.version, model, tool_payload(item.tool, item.siblings))
        for item in _items(snapshots, [])
        for model in settings.models
    }
    return frozenset(keys)


def check_prunable(settings: JurySettings) -> Path:
    """The cache file `prune_cache` would prune, checked on its own so the CLI can refuse before
    starting any server."""
    if not settings.models:
        raise JurySettingsError("no jury models configured: pass --jury MODEL (or set them in the config)")
    if settings.cache_path is None:
        raise JurySettingsError("no cache file to prune")
    return settings.cache_path


@dataclass(frozen=True, eq=False, repr=False)
class PruneResult:
    """What `prune_cache` removed (or, in a dry run, would remove), and what it left alone on purpose."""

    removed: Mapping[str, CacheEntry]  # cache key -> the stale entry
    other_judges: Mapping[str, int]  # model -> entries kept because that judge was not pruned
    unknown_judges: tuple[str, ...] = ()  # judges pruned that have no entry at all (a typo?)
    warnings: tuple[str, ...] = ()


def prune_cache(
    snapshots: Sequence[ServerSnapshot], settings: JurySettings, *, dry_run: bool = False
) -> PruneResult:
    """Remove the entries of these judges that no tool of these servers uses.

    The cache records a verdict's model and tool name, not its server, so `snapshots` must be every
    server whose verdicts the cache is meant to keep (the CLI passes the project's servers). Entries
    of other judges are never removed: pruning one judge cannot cost the verdicts of another. Refuses
    to run without models, so a forgotten `--jury` cannot wipe a committed cache.
    """
    from mcp_lint.jury.cache import JuryCache

    path = check_prunable(settings)
    keep = live_cache_keys(snapshots, settings)
    judges = list(settings.models)
    store = JuryCache(path)
    present = store.stats().models
    removed = store.prune(keep, judges, dry_run=dry_run)
    return PruneResult(
        removed=removed,
        other_judges={model: count for model, count in present.items() if model not in judges},
        unknown_judges=tuple(model for model in judges if model not in present),
        warnings=tuple(store.warnings),
    )
