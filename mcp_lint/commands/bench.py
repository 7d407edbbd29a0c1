"""`mcp-lint bench`: the agent-benefit benchmark (docs/agent-benefit.md).

Reads the test bed and the rewrites, loads the retrievers and the tokenizer (the `bench` extra), runs
`mcp_lint.bench.run` and prints one report. Every input is read and checked before the slow part.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from mcp_lint.commands.output import Output, writing
from mcp_lint.errors import UsageError

if TYPE_CHECKING:
    from mcp_lint.bench.run import BenchResult


@dataclass(frozen=True)
class BenchOptions:
    rewrites: tuple[str, ...] = ()  # files or folders of rewrites to measure
    fix: bool = False  # also measure mcp-lint's own --fix rewrites (the default with no --rewrites)
    jury_models: tuple[str, ...] = ()
    unsafe_fixes: bool = False
    config_file: str | None = None
    cache_file: str | None = None
    no_cache: bool = False
    control: bool = True
    retrievers: tuple[str, ...] = ("bm25", "minilm")
    resamples: int = 10_000
    seed: int = 0
    output_format: str = "text"
    save_rewrites: str | None = None
    servers: tuple[str, ...] = ()
    catalogue: str | None = None
    tasks: str | None = None
    max_growth: float | None = None  # percent of the whole tools/list
    min_change: float | None = None  # the lowest allowed lower end of the MRR change's 95% CI


def shortfalls(result: BenchResult, max_growth: float | None, min_change: float | None) -> list[str]:
    """What the measured rewrites (not the controls) miss of the limits given, one line each."""
    missed = []
    for measured in result.measured:
        if measured.rewrites.control_for is not None:
            continue
        name = measured.rewrites.name
        if max_growth is not None and measured.growth * 100 > max_growth:
            missed.append(
                f"{name}: the whole tools/list grows {measured.growth:+.1%}, "
                f"over --max-growth {max_growth:g}%"
            )
        for change in measured.changes:
            if min_change is not None and change.interval.low < min_change:
                missed.append(
                    f"{name}: {change.retriever} MRR change 95% CI starts at {change.interval.low:+.3f}, "
                    f"under --min-change {min_change:+g}"
                )
    return missed


def run_bench(options: BenchOptions, out: Output) -> int:
    from mcp_lint.bench import livemcpbench
    from mcp_lint.bench.report import RENDERERS
    from mcp_lint.bench.retrieve import RETRIEVERS
    from mcp_lint.bench.rewrites import RewriteSet, dump, filler_control, proposed, read_rewrites
    from mcp_lint.bench.run import run
    from mcp_lint.bench.tokens import load_tokenizer
    from mcp_lint.commands.reports import check_output
    from mcp_lint.config import jury_settings, load_settings
    from mcp_lint.files import write_text_atomic
    from mcp_lint.jury.run import validate_jury_settings

    own = options.fix or options.unsafe_fixes or not options.rewrites  # measure mcp-lint's rewrites
    if options.unsafe_fixes and not [model for model in options.jury_models if model != "offline"]:
        raise UsageError("--unsafe-fixes lets an LLM write the rewrites: pass --jury MODEL as well")
    if options.save_rewrites and not own:
        raise UsageError("--save-rewrites saves mcp-lint's own rewrites: add --fix to make them")
    # like `gate`: no config file is read unless --config names one, so a run does not depend on the
    # folder it is started in
    config = Path(options.config_file) if options.config_file else None
    settings = load_settings(config, isolated=config is None)
    jury = jury_settings(
        settings, options.jury_models, cache_file=options.cache_file, no_cache=options.no_cache
    )
    if own:
        validate_jury_settings(jury)
    check_output(
        options.save_rewrites,
        [*options.rewrites, config, jury.cache_path, options.catalogue, options.tasks],
        "--save-rewrites",
    )
    bed = livemcpbench.load(
        Path(options.catalogue) if options.catalogue else None, Path(options.tasks) if options.tasks else None
    )
    if options.servers:
        bed = livemcpbench.restrict(bed, options.servers)
    if not bed.tasks:
        raise UsageError("no task needs a tool of the chosen servers; choose others with --server")
    sets: list[RewriteSet] = [read_rewrites(Path(path), bed) for path in options.rewrites]
    retrievers = [RETRIEVERS[name]() for name in dict.fromkeys(options.retrievers)]
    tokenizer = load_tokenizer()
    # every input is read and every extra loaded: the slow part starts here
    if own:
        made = proposed(bed, settings, jury, unsafe=options.unsafe_fixes)
        if options.save_rewrites:
            with writing(f"--save-rewrites {options.save_rewrites}", "the rewrites"):
                write_text_atomic(Path(options.save_rewrites), dump(made))
            out.note(f"mcp-lint: saved {len(made.descriptions)} rewrites to {options.save_rewrites}")
        sets.insert(0, made)
    if options.control:
        sets += [filler_control(bed, rewrites, tokenizer) for rewrites in list(sets)]
    result = run(bed, sets, retrievers, tokenizer, resamples=options.resamples, seed=options.seed)
    out.report(RENDERERS[options.output_format](result))
    missed = shortfalls(result, options.max_growth, options.min_change)
    for line in missed:
        out.note(f"mcp-lint: {line}")
    return 1 if missed else 0
