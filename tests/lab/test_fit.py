"""The lab reproduces what the runtime ships: a fresh fit gives the shipped weights byte for byte, each
component's model uses only its own evidence, and the corpus keeps its notice."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from lab.calibration import EXCLUDED_FEATURES, RIDGE_SHARE, dumps_weights, fit_weights
from lab.corpus import CORPUS, load_rows
from lab.fit_grades import BOUNDARY, people, prepare
from lab.fit_grades import fit as fit_grades
from lab.fit_grades import shipped as shipped_model
from mcp_lint.jury.base import COMPONENTS
from mcp_lint.jury.features import FEATURE_NAMES

ROOT = Path(__file__).resolve().parents[2]
WEIGHTS = ROOT / "mcp_lint" / "jury" / "data" / "offline-weights.json"


@pytest.mark.slow  # a full refit of the six components (~13 s)
@pytest.mark.timeout(900)
def test_shipped_weights_match_a_fresh_fit() -> None:
    # the judges' fit, as lab/fit_offline_jury.py writes it: the shipped file with its judge cut-points
    shipped = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    shipped.pop("grades")
    for spec in shipped["components"].values():
        spec["cuts"] = spec.pop("judge_cuts")
    assert dumps_weights(fit_weights(load_rows())) == dumps_weights(shipped)


def test_grades_keep_the_judges_smell_boundary() -> None:
    doc = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    for comp in COMPONENTS:
        cuts, judges = doc["components"][comp]["cuts"], doc["components"][comp]["judge_cuts"]
        assert cuts[BOUNDARY] == judges[BOUNDARY] and cuts[3] == judges[3], comp
        assert cuts == sorted(cuts), comp


@pytest.mark.slow  # scores the 480 tuning tools of the human scores (~20 s)
@pytest.mark.timeout(900)
def test_shipped_grades_match_a_fresh_grade_fit() -> None:
    raws, _ = shipped_model()
    doc = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    judges = {comp: doc["components"][comp]["judge_cuts"] for comp in COMPONENTS}
    fitted = fit_grades(prepare(people(), raws), judges)
    assert {comp: [round(c, 7) for c in cuts] for comp, cuts in fitted.items()} == {
        comp: doc["components"][comp]["cuts"] for comp in COMPONENTS
    }


def test_each_component_model_uses_only_its_own_evidence() -> None:
    doc = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    for comp in COMPONENTS:
        spec = doc["components"][comp]
        for name in EXCLUDED_FEATURES[comp]:
            assert spec["weights"][name] == 0.0, (comp, name)
            assert name not in spec["boost"]["steps"], (comp, name)
        assert spec["ridge_share"] == RIDGE_SHARE.get(comp, 0.5)
    # limitations is ridge alone: no stumps at all
    assert doc["components"]["limitations"]["boost"]["steps"] == {}
    assert "verb_start" in EXCLUDED_FEATURES["limitations"]
    assert "lim_kinds" in EXCLUDED_FEATURES["purpose"]
    assert "cjk" in EXCLUDED_FEATURES["purpose"] and "cjk" not in EXCLUDED_FEATURES["length"]


def test_vendored_calibration_data_and_notice() -> None:
    assert len(load_rows()) == 408
    notice = (CORPUS.parent / "NOTICE.md").read_text(encoding="utf-8")
    assert "Apache" in notice and "SAILResearch" in notice and "LiveMCPBench" in notice


def test_weights_list_the_features_in_the_order_the_runtime_builds_them() -> None:
    doc = json.loads(WEIGHTS.read_text(encoding="utf-8"))
    assert doc["features"] == list(FEATURE_NAMES)
    assert set(doc["components"]["purpose"]["weights"]) == set(FEATURE_NAMES)
