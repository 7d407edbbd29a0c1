"""Fit the offline jury's grades on people's scores, keeping the smell boundary of the research judges.

    python -m lab.fit_grades            # print the fit: people (tuning) and research judges (holdout)
    python -m lab.fit_grades --write    # and store the cut-points in mcp_lint/jury/data/offline-weights.json

The offline jury's model turns a raw value into a score 1..5 with four cut-points. `lab/fit_offline_jury.py`
fits all four on the research judges (the calibration corpus). Two yardsticks disagree about the grade,
not about where a smell starts as much: people who score by the rubric's anchors
(`tests/precision/human_scores.yaml`) put a one-line statement of the action a grade above those judges
(docs/jury.md, "the same text read by both"). This step keeps the second cut-point, the boundary
between a smell (below 3) and none, where the research judges put it, so every smell, finding and
proposal decision is unchanged; and it moves the other three (1|2, 3|4, 4|5) to the grades people give,
fitted on the tuning part of the human scores only (the sealed part is measured by
`benchmarks/rubric_vs_human.py --part sealed`, once, after the weights are written).

The objective per component is the mean absolute difference from people, so the grade shown is the
one a person most likely gives the tool (a weight on the bias would lower the mean error by raising
tools people score low, to offset those the boundary keeps a grade under them). Coordinate search over
the raw values' midpoints; each cut-point stays on its side of the boundary and within the scale the
raw values are regressed on (1 to 5); the top one (4|5) stays where the judges put it; each of the
grades 2, 3 and 4 is still given to at least 3% of the tools (people give some grades rarely, which is
no reason to make a grade all but disappear).
The rubric's anchors and the explicit-cue floor apply after the model as at run time, so the fit sees the
scores a user sees. The research-judge side is checked the same way the anchors were: the grade fit is
repeated for the model fitted on the development servers, and its holdout QWK and smell agreement are
printed before and after (smell agreement cannot move: the boundary stays).
"""

from __future__ import annotations

import argparse
import bisect
import itertools
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lab.calibration import (
    dumps_weights,
    fit_and_eval,
    fit_component,
    holdout_servers,
    qwk,
    smell_agreement,
)
from lab.corpus import load_rows
from lab.yardsticks import snapshots_of, tuning_scores
from mcp_lint.jury.anchors import Evidence, anchor
from mcp_lint.jury.features import ToolContext, analyze
from mcp_lint.jury.offline import EXPLICIT_FLOOR, OfflineJury, _model, load_weights_document
from mcp_lint.jury.run import _items
from mcp_lint.model import COMPONENTS, Tool

WEIGHTS = Path(__file__).resolve().parent.parent / "mcp_lint" / "jury" / "data" / "offline-weights.json"
BOUNDARY = 1  # index of the cut-point between 2 and 3: the smell threshold, never moved here
# 1|2 and 3|4; 4|5 stays the judges': where the model gives 5 the text is rich, and people giving 5
# rarely is no reason to withhold it
FREE = (0, 2)
# parameters keeps the judges' 3|4: its raw value creeps up with any added prose (filler included), and
# a 3|4 cut-point moved lower let generated padding lift a parameters 3 to 4
# (tests/jury/test_padding_generator.py), which the jury promises never happens
FREE_OF = {"parameters": (0,)}
BIAS_WEIGHT = 0.0
MIN_SHARE = 0.03
SCALE = (1.0, 5.0)  # the judges' scale, which the raw values are regressed on
Raw = Callable[[Sequence[float]], float]


@dataclass(frozen=True)
class Inputs:
    """What the model reads of one tool, kept so that any cut-points can be tried without re-reading it."""

    tool: Tool
    values: tuple[float, ...]
    with_schema: tuple[float, ...] | None  # the prose plus the schema's parameter docs, when it has some
    placeholder: bool
    cues: frozenset[str]
    evidence: Evidence


def read(tool: Tool, siblings: Sequence[str]) -> Inputs:
    """The same reading as `OfflineJury.model_scores`."""
    context = ToolContext.of(tool.name, tool.input_schema, siblings)
    analysis = analyze(tool.name, tool.description, tool.input_schema, siblings, context=context)
    ext = analysis.extracted()
    with_schema = None
    extra = context.schema_prose
    if extra:
        extended = analysis.with_extra(extra)
        if not extended.placeholder:
            with_schema = tuple(extended.values())
    return Inputs(
        tool,
        tuple(ext.values),
        with_schema,
        bool(ext.placeholder),
        frozenset(analysis.cues),
        Evidence(ext.placeholder, ext.example_hits),
    )


def grade(raw: float, cuts: Sequence[float]) -> int:
    return 1 + bisect.bisect_right(cuts, raw)


@dataclass(frozen=True)
class Person:
    item: Inputs
    siblings: Sequence[str]
    truth: Mapping[str, int | None]


def people() -> list[Person]:
    rows = tuning_scores()
    items = {(item.server, item.tool.name): item for item in _items(snapshots_of(rows), [])}
    out = []
    for row in rows:
        item = items.get((row.server, row.tool))
        if item is not None:
            out.append(Person(read(item.tool, item.siblings), item.siblings, row.scores))
    return out


def _anchored_by_grade(item: Inputs) -> dict[str, tuple[float | None, ...]]:
    """Per component, the anchored score for each model grade 1..5: each anchor reads its own component
    only, so five calls settle every cut-point tried."""
    table = [
        anchor(item.tool, dict.fromkeys(COMPONENTS, float(g)), item.evidence).scores for g in range(1, 6)
    ]
    return {comp: tuple(row.get(comp) for row in table) for comp in COMPONENTS}


@dataclass(frozen=True)
class Prepared:
    """One person-scored tool reduced to what a cut-point changes, for one set of raw functions."""

    truth: int
    prose: float | None  # the raw value of the prose; None for a placeholder (grade 1)
    schema: float | None  # parameters: the raw value with the schema's docs
    floor: bool  # an explicit cue lifts the grade to 3
    anchored: tuple[float | None, ...]

    @property
    def applies(self) -> bool:
        """False where the anchors leave the component out (parameters of a tool without any)."""
        return self.anchored[0] is not None

    def score(self, cuts: Sequence[float]) -> float:
        """The anchored score under `cuts`, as `OfflineJury.scores` computes it; a component left out
        counts as the rubric's bottom, as against people."""
        g = 1 if self.prose is None else grade(self.prose, cuts)
        if self.floor:
            g = max(g, int(EXPLICIT_FLOOR))
        if self.schema is not None and g < 5:
            g = max(g, grade(self.schema, cuts))
        value = self.anchored[g - 1]
        return 1.0 if value is None else value


def prepare(rows: Sequence[Person], raws: Mapping[str, Raw]) -> dict[str, list[Prepared]]:
    out: dict[str, list[Prepared]] = {comp: [] for comp in COMPONENTS}
    for row in rows:
        table = _anchored_by_grade(row.item)
        for comp in COMPONENTS:
            truth = row.truth.get(comp)
            if truth is None:
                continue
            prose = None if row.item.placeholder else raws[comp](row.item.values)
            schema = None
            if comp == "parameters" and row.item.with_schema is not None:
                schema = raws[comp](row.item.with_schema)
            out[comp].append(
                Prepared(truth, prose, schema, comp in row.item.cues and prose is not None, table[comp])
            )
    return out


def versus(prepared: Sequence[Prepared], cuts: Sequence[float]) -> tuple[float, float]:
    """(MAD, bias) against people; a component the jury leaves out counts as the rubric's bottom."""
    diffs = [p.score(cuts) - p.truth for p in prepared]
    return statistics.fmean(abs(d) for d in diffs), statistics.fmean(diffs)


def _bands_kept(prepared: Sequence[Prepared], cuts: Sequence[float]) -> bool:
    """Each of the grades 2, 3 and 4 still given to at least MIN_SHARE of the tools (by the model,
    before the anchors): a fit may move a grade's edges, not make the grade all but disappear."""
    counts = [0] * 6
    for p in prepared:
        if p.prose is not None:
            counts[grade(p.prose, cuts)] += 1
    total = sum(counts) or 1
    return all(counts[g] / total >= MIN_SHARE for g in (2, 3, 4))


def _objective(mad: float, bias: float) -> float:
    return mad + BIAS_WEIGHT * abs(bias)


def fit(
    prepared: Mapping[str, Sequence[Prepared]], cuts: Mapping[str, Sequence[float]]
) -> dict[str, list[float]]:
    """Cut-points per component: the boundary kept, the free ones fitted on `prepared` (`prepare`)."""
    out = {comp: list(cuts[comp]) for comp in COMPONENTS}
    for comp in COMPONENTS:
        values = sorted({v for p in prepared[comp] for v in (p.prose, p.schema) if v is not None})
        mids = [(a + b) / 2 for a, b in itertools.pairwise(values)]  # the last is below the highest value
        best = _objective(*versus(prepared[comp], out[comp]))
        improved = True
        while improved:
            improved = False
            for k in FREE_OF.get(comp, FREE):
                for g in mids:
                    mine = out[comp]
                    lo = mine[k - 1] if k > 0 else float("-inf")
                    hi = mine[k + 1] if k < 3 else float("inf")
                    if not max(lo, SCALE[0]) <= g <= min(hi, SCALE[1]) or g == mine[k]:
                        continue
                    trial = [*mine[:k], g, *mine[k + 1 :]]
                    if not _bands_kept(prepared[comp], trial):
                        continue
                    value = _objective(*versus(prepared[comp], trial))
                    if value < best - 1e-12:
                        best, out[comp], improved = value, trial, True
    return out


def judges_check(rows: Sequence[Person]) -> list[str]:
    """The grade fit repeated for the development-fitted model, and its holdout before and after."""
    from mcp_lint.jury.features import extract

    data = list(load_rows())
    held = holdout_servers([str(r["server"]) for r in data])
    fit_ds, ds = fit_and_eval(data)
    train = [i for i, g in enumerate(ds.groups) if g not in held]
    test = [i for i, g in enumerate(ds.groups) if g in held]
    models = {comp: fit_component(fit_ds, comp, train) for comp in COMPONENTS}
    raws: dict[str, Raw] = {comp: models[comp].raw for comp in COMPONENTS}
    before = {comp: list(models[comp].cuts) for comp in COMPONENTS}
    after = fit(prepare(rows, raws), before)
    lines = ["| component | holdout QWK before | after | smell before | after |", "|---|---|---|---|---|"]
    held: list[Person] = []
    for i in test:
        row = ds.rows[i]
        raw: dict[str, object] = {"name": row["tool"], "description": row.get("description") or ""}
        if row.get("input_schema") is not None:
            raw["inputSchema"] = row["input_schema"]
        tool = Tool(name=str(row["tool"]), raw=raw)
        # the judges read the prose alone: prose features, no schema docs (as `holdout_tools`)
        ext = extract(tool.name, tool.description, row.get("input_schema"), siblings=ds.siblings[i])
        item = Inputs(
            tool,
            tuple(ds.xs[i]),
            None,
            bool(ds.placeholder[i]),
            frozenset(ds.cues[i]),
            Evidence(ext.placeholder, ext.example_hits),
        )
        held.append(Person(item, ds.siblings[i], {comp: ds.ys[comp][i] for comp in COMPONENTS}))
    for comp, items in prepare(held, raws).items():
        kept = [p for p in items if p.applies]  # as lab.agreement --holdout: n/a is left out
        truth = [p.truth for p in kept]
        ours_b = [int(p.score(before[comp])) for p in kept]
        ours_a = [int(p.score(after[comp])) for p in kept]
        lines.append(
            f"| {comp} | {qwk(ours_b, truth):.3f} | {qwk(ours_a, truth):.3f} | "
            f"{100 * smell_agreement(ours_b, truth):.1f}% | {100 * smell_agreement(ours_a, truth):.1f}% |"
        )
    return lines


def checked(
    rows: Sequence[Person], raws: Mapping[str, Raw], cuts: Mapping[str, Sequence[float]]
) -> dict[str, list[Prepared]]:
    """`prepare(rows, raws)`, each tool's scores under the shipped `cuts` checked against the jury's
    own: this module's reading must be the run's."""
    jury = OfflineJury()
    out: dict[str, list[Prepared]] = {comp: [] for comp in COMPONENTS}
    for row in rows:
        theirs = jury.scores(row.item.tool, row.siblings)[0]
        for comp, items in prepare([row], raws).items():
            for item in items:
                if item.score(cuts[comp]) != theirs.get(comp, 1.0):
                    raise SystemExit(f"{row.item.tool.name} {comp}: not the jury's {theirs}")
            out[comp] += items
    return out


def shipped() -> tuple[dict[str, Raw], dict[str, list[float]]]:
    model = _model()
    return {comp: model[comp].raw for comp in COMPONENTS}, {
        comp: list(model[comp].cuts) for comp in COMPONENTS
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--write", action="store_true", help="store the fitted cut-points in the weights file"
    )
    parser.add_argument("--no-judges", action="store_true", help="skip the research-judge holdout check")
    args = parser.parse_args(argv)
    rows = people()
    raws, cuts = shipped()
    doc = load_weights_document()
    # the judges' cut-points, as lab/fit_offline_jury.py wrote them (kept once a grade fit is stored)
    base = {
        comp: list(doc["components"][comp].get("judge_cuts", doc["components"][comp]["cuts"]))
        for comp in COMPONENTS
    }
    if any(base[comp][BOUNDARY] != cuts[comp][BOUNDARY] for comp in COMPONENTS):
        raise SystemExit("the weights file's smell boundary differs from its judge_cuts: refit from scratch")
    prepared = checked(rows, raws, cuts)
    after = fit(prepared, base)
    print(f"people: {len(rows)} tuning tools; cut-points per component (judges -> people), boundary kept")
    print("| component | cut-points | people MAD before | after | bias before | after |")
    print("|---|---|---|---|---|---|")
    for comp in COMPONENTS:
        mad_b, bias_b = versus(prepared[comp], base[comp])
        mad_a, bias_a = versus(prepared[comp], after[comp])
        shown = " ".join(f"{c:.3f}" for c in after[comp])
        print(f"| {comp} | {shown} | {mad_b:.2f} | {mad_a:.2f} | {bias_b:+.2f} | {bias_a:+.2f} |")
    if not args.no_judges:
        print()
        print("research judges: holdout of the development-fitted model, its grades refitted the same way")
        print("\n".join(judges_check(rows)))
    if args.write:
        for comp in COMPONENTS:
            spec = doc["components"][comp]
            spec["judge_cuts"] = base[comp]
            spec["cuts"] = [round(c, 7) for c in after[comp]]
        doc["grades"] = (
            "cuts: the smell boundary (second cut-point) is the research judges' (judge_cuts, from "
            "lab/fit_offline_jury.py); the other three are fitted on people's scores of the tuning part "
            "by lab/fit_grades.py"
        )
        tmp = WEIGHTS.with_suffix(".json.tmp")
        tmp.write_text(dumps_weights(doc), encoding="utf-8")
        tmp.replace(WEIGHTS)
        print(f"wrote {WEIGHTS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
