"""Refit the offline jury's weights from the vendored calibration corpus.

    python -m lab.fit_offline_jury            # grouped-CV table, then write the weights
    python -m lab.fit_offline_jury --no-cv    # just write the weights

Pure Python (no numpy needed). Output `mcp_lint/jury/data/offline-weights.json` is deterministic
(sorted keys, values rounded to 8 significant digits), so re-running it reproduces the shipped file.

The model for every component is trained on *prose-only* features, because the calibration judges
saw the tool's name and description but never its input schema. At runtime the offline jury scores
`parameters` as max(prose score, score of prose + the schema's own parameter docs rendered as an
"Args:" section), so a tool documented in its schema gets credit the judges could not give. The
"runtime" columns below measure that schema-aware score against the same (schema-blind) jury; its
agreement is lower by design on `parameters`, where we deliberately disagree with judges who could
not see the schema.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if __package__ in (
    None,
    "",
):  # run as `python lab/fit_offline_jury.py`: the repository root is not on the path
    sys.path.insert(0, str(ROOT))

from lab.calibration import (  # noqa: E402
    N_FOLDS,
    agreement_table,
    cross_validate,
    dumps_weights,
    fit_weights,
    schema_aware_predictor,
)
from lab.corpus import load_rows  # noqa: E402

WEIGHTS = ROOT / "mcp_lint" / "jury" / "data" / "offline-weights.json"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--no-cv", action="store_true", help="skip the grouped cross-validation table")
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args(argv)
    rows = load_rows()
    if not args.no_cv:
        print(f"grouped-by-server {N_FOLDS}-fold CV on {len(rows)} tools (nested ridge penalty):")
        prose = cross_validate(rows)
        runtime = cross_validate(rows, predictor=schema_aware_predictor)
        print(agreement_table(prose, runtime))
        print(
            "ours = prose-only model (what the judges saw); runtime = what OfflineJury returns, i.e. "
            "parameters = max(prose, prose + schema docs as Args:)."
        )
    doc = fit_weights(rows)
    args.out.write_text(dumps_weights(doc), encoding="utf-8")
    print(f"wrote {args.out.relative_to(ROOT) if args.out.is_relative_to(ROOT) else args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
