"""`mcp-lint bench`: the agent-benefit benchmark (docs/agent-benefit.md).

Reads the test bed and the rewrites, loads the retrievers and the tokenizer (the `bench` extra), runs
`mcp_lint.bench.run` and prints one report. Every input is read and checked before the slow part.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mcp_lint.commands.output import Output
from mcp_lint.errors import UsageError


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


def run_bench(options: BenchOptions, out: Output) -> int:
    from mcp_lint.bench import livemcpbench
    from mcp_lint.bench.report import RENDERERS
    from mcp_lint.bench.retrieve import RETRIEVERS
    from mcp_lint.bench.rewrites import RewriteSet, filler_control, proposed, read_rewrites
    from mcp_lint.bench.run import run
    from mcp_lint.bench.tokens import load_tokenizer
    from mcp_lint.config import jury_settings, load_settings
    from mcp_lint.files import write_text_atomic

    if options.unsafe_fixes and not [model for model in options.jury_models if model != "offline"]:
        raise UsageError("--unsafe-fixes lets an LLM write the rewrites: pass --jury MODEL as well")
    if options.save_rewrites and not (options.fix or options.unsafe_fixes or not options.rewrites):
        raise UsageError("--save-rewrites saves mcp-lint's own rewrites: add --fix to make them")
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
    if options.fix or options.unsafe_fixes or not options.rewrites:
        # like `gate`: no config file is read unless --config names one, so a run does not depend
        # on the folder it is started in
        config = Path(options.config_file) if options.config_file else None
        settings = load_settings(config, isolated=config is None)
        jury = jury_settings(
            settings, options.jury_models, cache_file=options.cache_file, no_cache=options.no_cache
        )
        made = proposed(bed, settings, jury, unsafe=options.unsafe_fixes)
        if options.save_rewrites:
            from mcp_lint.bench.rewrites import dump

            write_text_atomic(Path(options.save_rewrites), dump(made))
            out.note(f"mcp-lint: saved {len(made.descriptions)} rewrites to {options.save_rewrites}")
        sets.insert(0, made)
    if options.control:
        sets += [filler_control(bed, rewrites) for rewrites in list(sets)]
    result = run(bed, sets, retrievers, tokenizer, resamples=options.resamples, seed=options.seed)
    out.report(RENDERERS[options.output_format](result))
    return 0
