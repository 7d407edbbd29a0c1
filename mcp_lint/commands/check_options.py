"""The options of `mcp-lint check` as the command line gave them (the CLI builds them; the command
and its parts read them)."""

from __future__ import annotations

from dataclasses import dataclass

from mcp_lint.commands.targets import TargetOptions


@dataclass(frozen=True, eq=False, repr=False)
class CheckOptions:
    """The options of `check` as given; None or empty means "not given" (the config decides)."""

    targets: TargetOptions
    output_format: str | None = None
    output: str | None = None
    sarif_files: tuple[str, ...] = ()
    markdown_files: tuple[str, ...] = ()
    json_files: tuple[str, ...] = ()
    profile: str | None = None
    fail_on: str | None = None
    min_score: float | None = None
    exit_zero: bool = False
    baseline: str | None = None
    no_baseline: bool = False
    update_baseline: bool = False
    since: str | None = None
    since_snapshot: str | None = None
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    jury_models: tuple[str, ...] = ()
    frozen: bool = False
    no_cache: bool = False
    refresh: bool = False
    cache_file: str | None = None
    show_settings: bool = False
    color: bool | None = None
    fix: bool = False
    diff: bool = False
    unsafe_fixes: bool = False
    components: str | None = None
    trace_files: tuple[str, ...] = ()
