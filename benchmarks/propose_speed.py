"""What the offline jury and the propose stage cost, in process, on the tools of the benchmark server.

    python benchmarks/propose_speed.py [--tools 120]
    python benchmarks/propose_speed.py --passes 1   # only the two stages, one pass, nothing printed

The tools are the ones `lint_overhead.py` lints live (benchmarks/servers/raw_stdio_server.py: every
tool smelly, so every one gets a proposal). One pass scores each tool as the jury stage does
(`OfflineJury.judge` with its server's other names), then builds each tool's proposal as the propose
stage does (`propose`, the jury's verdict passed as the original's known score): the in-process part
of `lint_overhead.py`'s "offline jury + proposals share", without start-up and reflection. Each pass
starts from fresh `ServerNames` and empty content memos (`features.segment.clear_memo`).

Times are CPU (`time.process_time`), 5 passes, and the propose stage is also given as a multiple of
the jury stage in the same passes. For a figure that does not move with the load of a shared
machine, count instructions: the difference between
`valgrind --tool=callgrind python benchmarks/propose_speed.py --passes 3` and `... --passes 1`,
halved, is what one pass costs.
"""

from __future__ import annotations

import argparse
import importlib.util
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from mcp_lint.fix.propose import propose, thresholds
from mcp_lint.jury.features.segment import clear_memo
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.jury.siblings import ServerNames
from mcp_lint.model import Tool

PASSES = 5
RAW_SERVER = Path(__file__).resolve().parent / "servers" / "raw_stdio_server.py"


def server_tools(count: int) -> list[dict[str, Any]]:
    """The tools the raw benchmark server lists (its own `make_tools`)."""
    spec = importlib.util.spec_from_file_location("raw_stdio_server", RAW_SERVER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    tools: list[dict[str, Any]] = module.make_tools(count)
    return tools


def one_pass(jury: OfflineJury, tools: Sequence[Tool], limits: dict[str, float]) -> tuple[float, float, int]:
    """(CPU seconds of the jury stage, of the propose stage, proposals that clear a smell)."""
    clear_memo()
    start = time.process_time()
    names = ServerNames(tool.name for tool in tools)
    verdicts = {tool.name: jury.judge(tool, names.without(tool.name)) for tool in tools}
    judged = time.process_time()
    clearing = 0
    for tool in tools:
        scores = verdicts[tool.name].scores
        proposal = propose(
            "benchmark",
            tool,
            tools,
            scores,
            limits=limits,
            names=names.without(tool.name),
            known=scores,
        )
        clearing += bool(proposal.clears)
    return judged - start, time.process_time() - judged, clearing


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--tools", type=int, default=120)
    parser.add_argument("--passes", type=int, help="only run the two stages this many times")
    options = parser.parse_args(argv)
    tools = [Tool(name=raw["name"], raw=raw) for raw in server_tools(options.tools)]
    limits = thresholds()
    jury = OfflineJury()
    one_pass(jury, tools[:1], limits)  # load the weights and compile the patterns
    if options.passes is not None:
        for _ in range(options.passes):
            one_pass(jury, tools, limits)
        return 0
    judging = proposing = 0.0
    clearing = 0
    for _ in range(PASSES):
        judge_s, propose_s, clearing = one_pass(jury, tools, limits)
        judging += judge_s
        proposing += propose_s
    per_tool = 1000 / (PASSES * len(tools))
    print(f"{len(tools)} tools, {PASSES} passes, CPU; {clearing} proposals clear a smell")
    print(f"  jury stage (OfflineJury.judge):   {judging * per_tool:.3f} ms per tool")
    print(f"  propose stage (propose):          {proposing * per_tool:.3f} ms per tool")
    print(f"  propose / jury:                   {proposing / judging:.2f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
