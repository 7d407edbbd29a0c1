"""`mcp-lint cache stats` and `mcp-lint cache prune`: inspect the jury cache, drop stale verdicts."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass

from mcp_lint.commands.output import Output
from mcp_lint.commands.targets import TargetOptions, load_run_settings, resolve
from mcp_lint.config import jury_settings, resolve_cache_path
from mcp_lint.errors import ServerError, UsageError
from mcp_lint.jury.cache import JuryCache
from mcp_lint.jury.run import check_prunable, prune_cache
from mcp_lint.model import OFFLINE_JURY
from mcp_lint.reflect import reflect_all


@dataclass(frozen=True)
class CacheStatsOptions:
    cache_file: str | None = None
    config_file: str | None = None
    isolated: bool = False


def run_cache_stats(options: CacheStatsOptions, out: Output) -> int:
    path = resolve_cache_path(load_run_settings(options.config_file, options.isolated), options.cache_file)
    store = JuryCache(path, read_only=True)
    stats = store.stats()
    if not stats.exists:
        out.note(f"mcp-lint: no jury cache at {path} yet; a check with LLM judges creates it")
    for warning in store.warnings:
        out.warning(warning)
    out.line(json.dumps(dataclasses.asdict(stats), indent=2))
    return 0


@dataclass(frozen=True)
class CachePruneOptions:
    # Only the settings part of the targets is honoured: prune refuses any target (see run_cache_prune).
    targets: TargetOptions
    cache_file: str | None = None
    jury_models: tuple[str, ...] = ()
    dry_run: bool = False


def run_cache_prune(options: CachePruneOptions, out: Output) -> int:
    given = options.targets
    picked = [
        *given.paths,
        *(["-- COMMAND"] if given.command else []),
        *(["--url"] if given.url else []),
        *(["--server"] if given.servers else []),
        *(["--header"] if given.headers else []),
    ]
    if picked:
        # Pruning against some servers would drop the verdicts of every other one: the cache cannot tell.
        raise UsageError(
            f"cache prune takes no target ({picked[0]}): the cache does not record which server a verdict "
            "is for, so prune reflects every server of the project ([servers] in the config, else "
            "./.mcp.json); list all your servers there, and see what would go with --dry-run"
        )
    settings = load_run_settings(given.config_file, given.isolated, given.timeout)
    path = resolve_cache_path(settings, options.cache_file)
    if OFFLINE_JURY in options.jury_models:
        raise UsageError(
            f"--jury {OFFLINE_JURY}: the offline jury keeps no cache, so there is nothing to prune"
        )
    jury = jury_settings(settings, options.jury_models, cache_file=options.cache_file)
    check_prunable(jury)
    if not path.exists():
        out.line(f"no jury cache at {path}; nothing to prune")
        return 0
    reflections = reflect_all(resolve(given, settings), settings.timeout)
    failed = [item for item in reflections if item.snapshot is None]
    if failed:
        # Pruning against a partial list of tools would drop the verdicts of the server that failed.
        raise ServerError(f"not pruning: {failed[0].error}")
    snapshots = [item.snapshot for item in reflections if item.snapshot]
    try:
        result = prune_cache(snapshots, jury, dry_run=options.dry_run)
    except OSError as exc:
        raise UsageError(f"{path}: cannot rewrite the jury cache: {exc.strerror or exc}") from None
    for warning in result.warnings:
        out.warning(warning)
    for model in result.unknown_judges:
        out.warning(
            f"the cache has no entry of judge {model!r}; `mcp-lint cache stats` lists the judges it has"
        )
    count = len(result.removed)
    entries = f"{count} stale entr{'y' if count == 1 else 'ies'}"
    if options.dry_run:
        for key, entry in sorted(
            result.removed.items(), key=lambda item: (item[1].model, item[1].tool, item[0])
        ):
            out.line(f"would remove {key[:12]}  {entry.model}  {entry.tool}")
        out.line(f"would remove {entries} from {path} (dry run: nothing written)")
    else:
        out.line(f"removed {entries} from {path}")
    if result.other_judges:
        kept = sum(result.other_judges.values())
        names = ", ".join(f"{model} ({n})" for model, n in result.other_judges.items())
        out.line(
            f"kept {kept} entr{'y' if kept == 1 else 'ies'} of judges not pruned: {names}; "
            "name them with --jury to prune them"
        )
    return 0
