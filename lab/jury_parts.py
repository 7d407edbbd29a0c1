"""What the offline jury's model-side parts cost per tool, apart from the scan and the unit filter.

    python -m lab.jury_parts                  # CPU microseconds per tool, each part timed alone
    python -m lab.jury_parts --part score --times 2   # run one part only (for callgrind)

The parts are the ones `OfflineJury.judge` runs around the text scan (`features.segment`) and the
unit filter (`features.units`): `ToolContext.of`, `Analysis.extracted` (with the feature vector),
the six component scores, `anchors.anchor`, `OfflineJury._reasons`, and the schema's rendered docs
appended (`Analysis.with_extra`, with the `segment` memo warm so that its scan is not counted) with
the parameters score of the result. Their inputs are prepared once over the 408 calibration tools
(siblings as the jury stage passes them), and each part then runs over all of them.

`--schema-docs` answers when the schema's rendered docs cannot change a verdict (so that their scan
could be skipped): for each calibration tool that runs it, whether they raise the parameters score,
how far the prose-only value is from the next cut-point, and the most the docs could add that the
model's weights allow without reading them (see lab/speed_s32_model.md).

CPU time moves 10-20% with the load of a shared machine. For a figure that does not, count
instructions: the difference between `valgrind --tool=callgrind python -m lab.jury_parts --part P
--times 2` and `... --times 0`, divided by 2 x 408, is what part P costs per tool.
"""

from __future__ import annotations

import argparse
import inspect
import math
import re
import statistics
import time
from collections.abc import Callable, Sequence

from lab.corpus import load_rows
from mcp_lint.jury.anchors import Evidence, anchor
from mcp_lint.jury.features import FEATURE_NAMES, ToolContext, analyze, vector
from mcp_lint.jury.offline import OfflineJury, _model, _scorer
from mcp_lint.jury.siblings import ServerNames
from mcp_lint.model import Tool


def _tools() -> list[tuple[Tool, Sequence[str]]]:
    rows = load_rows()
    names: dict[str, list[str]] = {}
    for row in rows:
        names.setdefault(str(row["server"]), []).append(str(row["tool"]))
    servers = {server: ServerNames(tools) for server, tools in names.items()}
    out: list[tuple[Tool, Sequence[str]]] = []
    for row in rows:
        raw = {"name": row["tool"], "description": row["description"]}
        if row["input_schema"] is not None:
            raw["inputSchema"] = row["input_schema"]
        out.append(
            (Tool(name=str(row["tool"]), raw=raw), servers[str(row["server"])].without(str(row["tool"])))
        )
    return out


def parts() -> dict[str, Callable[[], None]]:
    """Each part as a function that runs it once over every calibration tool."""
    jury = OfflineJury()
    tools = _tools()
    contexts = [ToolContext.of(t.name, t.input_schema, s) for t, s in tools]
    analyses = [
        analyze(t.name, t.description, t.input_schema, s, context=c)
        for (t, s), c in zip(tools, contexts, strict=True)
    ]
    exts = [a.extracted() for a in analyses]
    scored = [jury.model_scores(t, s, c) for (t, s), c in zip(tools, contexts, strict=True)]
    scorer = _scorer()
    parameters = _model()["parameters"]

    def context() -> None:
        for tool, siblings in tools:
            ToolContext.of(tool.name, tool.input_schema, siblings)

    def extracted() -> None:
        for analysis in analyses:
            analysis.extracted()

    def score() -> None:
        for ext in exts:
            if not ext.placeholder:
                dict(zip(scorer.names, scorer.scores(ext.values), strict=True))

    def anchors() -> None:
        for (tool, _), ext, (scores, _, _) in zip(tools, exts, scored, strict=True):
            anchor(tool, scores, Evidence(ext.placeholder, ext.example_hits))

    def reasons() -> None:
        for (tool, siblings), ext, (scores, _, prose), ctx in zip(tools, exts, scored, contexts, strict=True):
            jury._reasons(tool, siblings, scores, ext, prose, ctx)

    def schema_docs() -> None:
        for analysis, ctx, ext in zip(analyses, contexts, exts, strict=True):
            if ctx.schema_prose and not ext.placeholder:
                parameters.score(analysis.with_extra(ctx.schema_prose).values())

    return {
        "context": context,
        "extracted": extracted,
        "score": score,
        "anchor": anchors,
        "reasons": reasons,
        "schema_docs": schema_docs,
    }


def _ceilings() -> list[float]:
    """The most each feature can be: a capped count's log1p of its cap (read off `Analysis.values`),
    the counted patterns' and kinds' caps, 1.0 for an indicator or a fraction; the vocabulary's
    features and those of the name and schema alone (which the docs do not move) are left at 0.0."""
    source = inspect.getsource(vector.Analysis.values)
    capped = {m.group(2): math.log1p(int(m.group(1))) for m in re.finditer(r"else (\d+)\],  # (\w+)", source)}
    kinds = {name: math.log1p(6) for name in vector.LIMIT_KIND_NAMES}
    counted = {"usage_patterns": 4.0, "limit_patterns": 6.0, "lim_kinds": float(len(kinds))}
    fixed = {"bias", "vocab_log", "cjk_vocab", "n_props_log", "no_props", "known_no_params"}
    return [0.0 if n in fixed else capped.get(n, kinds.get(n, counted.get(n, 1.0))) for n in FEATURE_NAMES]


def schema_docs_study() -> None:
    jury = OfflineJury()
    parameters = _model()["parameters"]
    weights = parameters._dense
    ceilings = _ceilings()
    runs = raised = 0
    headroom: list[float] = []
    reach: list[float] = []
    for tool, siblings in _tools():
        ctx = ToolContext.of(tool.name, tool.input_schema, siblings)
        analysis = analyze(tool.name, tool.description, tool.input_schema, siblings, context=ctx)
        _, ext, prose = jury.model_scores(tool, siblings, ctx)
        if not ctx.schema_prose or prose >= 5 or ext.placeholder:
            continue
        runs += 1
        x = analysis.values()
        raised += parameters.score(analysis.with_extra(ctx.schema_prose).values()) > prose
        headroom.append(parameters.cuts[prose - 1] - parameters.raw(x))
        reach.append(sum(max(w, 0.0) * max(c - v, 0.0) for w, c, v in zip(weights, ceilings, x, strict=True)))
    print(f"schema docs scanned for {runs} tools; they raise the parameters score of {raised}")
    middle, most = statistics.median(headroom), max(headroom)
    print(f"prose-only value to the next cut-point: median {middle:.2f}, max {most:.2f}")
    print(
        f"what the docs could add, unread (vocabulary left out): min {min(reach):.2f}, "
        f"median {statistics.median(reach):.2f}; below the headroom for "
        f"{sum(r < h for r, h in zip(reach, headroom, strict=True))} tools"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--part", help="run only this part, --times times, and print nothing")
    parser.add_argument("--times", type=int, default=2)
    parser.add_argument("--schema-docs", action="store_true", help="the schema docs study (see above)")
    options = parser.parse_args(argv)
    if options.schema_docs:
        schema_docs_study()
        return 0
    runs = parts()
    if options.part is not None:
        for _ in range(options.times):
            runs[options.part]()
        return 0
    n = len(_tools())
    total = 0.0
    for name, run in runs.items():
        best = float("inf")
        for _ in range(7):
            start = time.process_time()
            for _ in range(10):
                run()
            best = min(best, (time.process_time() - start) / 10)
        total += best
        print(f"{name:12s} {best / n * 1e6:7.2f} us/tool")
    print(f"{'sum':12s} {total / n * 1e6:7.2f} us/tool")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
