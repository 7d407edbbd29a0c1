"""The offline jury against both of the rubric's yardsticks at once: people and the research judges.

    python -m lab.yardsticks

People: the tuning part of `tests/precision/human_scores.yaml` (what `benchmarks/rubric_vs_human.py
--part tuning` prints). This module never reads the sealed part: the lead measures it once, after a
change is merged. Research judges: the holdout of `python -m lab.agreement --holdout` (a model fitted
on the development servers, then the anchors), the figures of its last table without the repeated
cross-validation, so a check of the anchors takes seconds rather than minutes.
The research-judge side scores with that development model's own cut-points: the shipped grades
(fitted on people by `lab/fit_grades.py`, the smell boundary kept) are not applied there, so its
smell agreement is the shipped jury's and its QWK is before the grade fit; `python -m lab.fit_grades`
prints the QWK after it.

Three tables:

1. the anchors as shipped, per component: against people, mean absolute difference, bias (jury
   minus person) and smell agreement; against the research judges, QWK and smell agreement;
2. the same text read by both: tuning tools whose description is, character for character, the
   description of a tool in the calibration corpus. Both yardsticks read the same words, so no step
   that reads the tool can agree with both where they differ;
3. lifts the anchors' wording would justify, each with what it gains against people and costs
   against the research judges. None of them ships; the table is the evidence for choosing.
"""

from __future__ import annotations

import json
import statistics
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from lab.calibration import CORPUS_KEYS, holdout_tools, qwk
from lab.corpus import load_rows
from mcp_lint.check.engine import active_rules, rubric_thresholds
from mcp_lint.check.rules import load_catalogue
from mcp_lint.config import JurySettings, Settings
from mcp_lint.jury.run import score_servers
from mcp_lint.model import COMPONENTS, ServerSnapshot, Tool
from mcp_lint.reflect.snapshot import parse_snapshot

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "precision"))

import labelled_set as ls  # the precision set's shared module lives beside its tests

Scores = Mapping[str, float]
Lift = Callable[[Tool, Scores], dict[str, float]]


@dataclass(frozen=True)
class Scored:
    """One tool on one yardstick: the yardstick's scores (None: not applicable) and the jury's."""

    tool: Tool
    truth: Mapping[str, int | None]
    jury: Scores


def tuning_scores() -> list[ls.HumanScore]:
    """The human scores of the tuning part: the only ones this module reads."""
    part_of = ls.parts()
    return [row for row in ls.load_human_scores() if part_of.get(row.server) == "tuning"]


def snapshots_of(rows: Sequence[ls.HumanScore]) -> list[ServerSnapshot]:
    """The saved snapshots of the servers `rows` score."""
    wanted = {row.server for row in rows}
    return [
        parse_snapshot(json.loads(path.read_text(encoding="utf-8")), path.stem, str(path))
        for path in ls.snapshot_paths()
        if path.stem in wanted
    ]


def people() -> list[Scored]:
    """The human-scored tools of the tuning part, with the offline jury's scores (after anchors)."""
    rows = tuning_scores()
    snapshots = snapshots_of(rows)
    tools = {(snapshot.name, tool.name): tool for snapshot in snapshots for tool in snapshot.tools}
    jury = score_servers(snapshots, JurySettings(cache_path=None)).tools
    return [
        Scored(tools[(row.server, row.tool)], row.scores, jury[(row.server, row.tool)].aggregate)
        for row in rows
        if (row.server, row.tool) in jury
    ]


def judges() -> list[Scored]:
    """The research judges' holdout tools, with the anchored scores of a development-fitted model."""
    return [Scored(t.tool, dict(t.labels), t.anchored) for t in holdout_tools()]


@dataclass(frozen=True)
class Agreement:
    n: int
    mad: float
    bias: float
    qwk: float
    smell: float


def agreement(
    rows: Sequence[Scored], component: str, threshold: float, lift: Lift | None, *, people: bool
) -> Agreement:
    """One component on one yardstick; a component the yardstick leaves out is skipped. One the jury
    leaves out (parameters of a tool without any) where the yardstick scored it counts as the
    rubric's bottom against people, as in `benchmarks/rubric_vs_human.py`, and is skipped against the
    research judges (who scored every tool), as in `lab.agreement --holdout`."""
    pairs: list[tuple[float, int]] = []
    for row in rows:
        truth = row.truth.get(component)
        if truth is None:
            continue
        scores = lift(row.tool, row.jury) if lift is not None else row.jury
        value = scores.get(component)
        if value is None and not people:
            continue
        pairs.append((1.0 if value is None else value, truth))
    ours = [int(a) for a, _ in pairs]
    theirs = [b for _, b in pairs]
    return Agreement(
        len(pairs),
        statistics.fmean(abs(a - b) for a, b in pairs),
        statistics.fmean(a - b for a, b in pairs),
        qwk(ours, theirs),
        statistics.fmean((a < threshold) == (b < threshold) for a, b in pairs),
    )


def _raise(component: str, frm: float, to: float, when: Callable[[Tool, Scores], bool]) -> Lift:
    def lift(tool: Tool, scores: Scores) -> dict[str, float]:
        out = dict(scores)
        if out.get(component) == frm and when(tool, scores):
            out[component] = to
        return out

    return lift


def _says_something(_tool: Tool, scores: Scores) -> bool:
    # purpose 1 is "missing, or only restates the tool name": nothing to infer guidance from
    return scores.get("purpose", 1.0) >= 2


def _every_parameter_described(tool: Tool) -> bool:
    props = tool.properties
    return bool(props) and all(
        isinstance(spec, Mapping)
        and isinstance(spec.get("description"), str)
        and bool(spec["description"].strip())
        and any(key in spec for key in ("type", "enum", "const", "anyOf", "oneOf"))
        for spec in props.values()
    )


def _parameters_described(tool: Tool, scores: Scores) -> dict[str, float]:
    out = dict(scores)
    if "parameters" in out and out["parameters"] < 4 and _every_parameter_described(tool):
        out["parameters"] = 4.0
    return out


# (name, the anchor's words that would justify it, the components it moves, the lift)
LIFTS: tuple[tuple[str, str, tuple[str, ...], Lift], ...] = (
    (
        "purpose 2 -> 3",
        'purpose 3: "States the main action" (a one-line statement of the action)',
        ("purpose",),
        _raise("purpose", 2.0, 3.0, lambda _t, _s: True),
    ),
    (
        "guidelines 1 -> 2",
        'guidelines 2: "Guidance can only be inferred from the purpose" (when there is a purpose)',
        ("guidelines",),
        _raise("guidelines", 1.0, 2.0, _says_something),
    ),
    (
        "length 1 -> 2",
        'length 1 is "A fragment"; a statement of the action is "Too thin to act on" (2)',
        ("length",),
        _raise("length", 1.0, 2.0, _says_something),
    ),
    (
        "parameters >= 4",
        'parameters 4: "Every parameter has a meaning and format" (schema description and type)',
        ("parameters",),
        _parameters_described,
    ),
)


def _same_text(rows: Sequence[Scored]) -> list[str]:
    corpus: dict[str, Mapping[str, int]] = {}
    for row in load_rows():
        text = str(row.get("description") or "").strip()
        if text:
            corpus.setdefault(text, row["jury_median"])
    both = [
        (row, corpus[row.tool.description.strip()]) for row in rows if row.tool.description.strip() in corpus
    ]
    lines = [
        f"the same text read by both: {len(both)} tuning tools whose description is a calibration tool's",
        "| component   |  n | person | research judges | person - judges | offline jury |",
        "|---|---|---|---|---|---|",
    ]
    for comp in COMPONENTS:
        trio = [
            (float(person), float(median[CORPUS_KEYS[comp]]), row.jury.get(comp, 1.0))
            for row, median in both
            if (person := row.truth.get(comp)) is not None
        ]
        if not trio:
            continue
        person_mean = statistics.fmean(p for p, _, _ in trio)
        judges_mean = statistics.fmean(j for _, j, _ in trio)
        jury_mean = statistics.fmean(o for _, _, o in trio)
        lines.append(
            f"| {comp:<11} | {len(trio):2d} | {person_mean:6.2f} | {judges_mean:15.2f} | "
            f"{person_mean - judges_mean:+15.2f} | {jury_mean:12.2f} |"
        )
    return lines


def main() -> int:
    thresholds = rubric_thresholds(active_rules(load_catalogue(), Settings()))
    human = people()
    held = judges()
    print(f"people: {len(human)} tools of the tuning part; research judges: {len(held)} holdout tools")
    print("| component   | people n | MAD  | bias  | smell | judges n | QWK   | smell |")
    print("|---|---|---|---|---|---|---|---|")
    for comp in COMPONENTS:
        p = agreement(human, comp, thresholds[comp], None, people=True)
        j = agreement(held, comp, thresholds[comp], None, people=False)
        print(
            f"| {comp:<11} | {p.n:8d} | {p.mad:.2f} | {p.bias:+.2f} | {p.smell:5.0%} | {j.n:8d} | "
            f"{j.qwk:.3f} | {j.smell:5.1%} |"
        )
    print()
    print("\n".join(_same_text(human)))
    print("\nlifts after the anchors (none ships): people MAD / bias, research judges QWK / smell")
    print("| lift | component | people MAD | people bias | judges QWK | judges smell |")
    print("|---|---|---|---|---|---|")
    for name, _why, components, lift in LIFTS:
        for comp in components:
            before_p = agreement(human, comp, thresholds[comp], None, people=True)
            after_p = agreement(human, comp, thresholds[comp], lift, people=True)
            before_j = agreement(held, comp, thresholds[comp], None, people=False)
            after_j = agreement(held, comp, thresholds[comp], lift, people=False)
            print(
                f"| {name} | {comp} | {before_p.mad:.2f} -> {after_p.mad:.2f} | "
                f"{before_p.bias:+.2f} -> {after_p.bias:+.2f} | {before_j.qwk:.3f} -> {after_j.qwk:.3f} | "
                f"{before_j.smell:.1%} -> {after_j.smell:.1%} |"
            )
    print("\nwhat each lift reads in the anchors:")
    for name, why, _, _ in LIFTS:
        print(f"  {name}: {why}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
