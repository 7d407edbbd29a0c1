"""How close is the offline jury to a person? Per rubric component, on the human-scored tools.

Run: python benchmarks/rubric_vs_human.py [--part tuning|sealed|all]

Scores every tool of tests/precision/human_scores.yaml with the offline jury (no network, no cache)
and prints, per part of the fixed split and per component: how many tools, the mean absolute
difference between jury and person, the bias (jury minus person, mean), and how often both agree on
a smell (score below the component's threshold). A parameters score of n/a (the tool takes no
parameters) is left out of the parameters row; the jury must not call such a tool smelly there, and
the last column counts how often it does (the offline jury leaves the component out for such a tool).
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "precision"))

import labelled_set as ls  # the shared module lives beside the precision tests

from mcp_lint.check.engine import active_rules, rubric_thresholds
from mcp_lint.check.rules import load_catalogue
from mcp_lint.config import JurySettings, Settings
from mcp_lint.jury.run import score_servers
from mcp_lint.model import COMPONENTS


def main() -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--part", choices=("all", *ls.PARTS), default="all")
    args = parser.parse_args()

    human = ls.load_human_scores()
    if not human:
        print("tests/precision/human_scores.yaml has no scores yet")
        return 1
    part_of = ls.parts()
    wanted = {row.server for row in human}
    snapshots = [snapshot for snapshot in ls.load_snapshots() if snapshot.name in wanted]
    jury = score_servers(snapshots, JurySettings(cache_path=None)).tools
    thresholds = rubric_thresholds(active_rules(load_catalogue(), Settings()))
    parts = [args.part] if args.part != "all" else ["all", *ls.PARTS]
    for part in parts:
        rows = [row for row in human if part == "all" or part_of.get(row.server) == part]
        if not rows:
            continue
        print(f"== {part}: {len(rows)} tools" + ("  (the figure to claim)" if part == "sealed" else ""))
        print(
            f"{'component':<12} {'n':>4} {'MAD':>5} {'bias':>6} {'smell agree':>11} {'n/a called smelly':>17}"
        )
        for component in COMPONENTS:
            pairs = []
            wrongly_smelly = 0
            for row in rows:
                scores = jury.get((row.server, row.tool))
                if scores is None:
                    continue
                value = scores.aggregate.get(component)
                person = row.scores[component]
                if person is None:
                    # n/a for the person: the jury must leave it out (or at least not call it a smell)
                    wrongly_smelly += value is not None and value < thresholds[component]
                    continue
                if value is None:  # the jury says n/a where the person scored it: the rubric's bottom
                    value = 1.0
                pairs.append((value, person))
            if not pairs:
                continue
            mad = statistics.fmean(abs(a - b) for a, b in pairs)
            bias = statistics.fmean(a - b for a, b in pairs)
            threshold = thresholds[component]
            agree = statistics.fmean((a < threshold) == (b < threshold) for a, b in pairs)
            print(
                f"{component:<12} {len(pairs):>4} {mad:>5.2f} {bias:>+6.2f} {agree:>11.0%} "
                f"{wrongly_smelly:>17}"
            )
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
