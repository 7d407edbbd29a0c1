"""Calibration: the metrics, the grouped folds and the fixed holdout behind the agreement figures."""

from __future__ import annotations

from lab.calibration import (
    BAGS,
    RIDGE_SHARE,
    StepModel,
    bag_rows,
    build_dataset,
    fit_component,
    grouped_folds,
    holdout_servers,
    mean_step_model,
    qwk,
    smell_agreement,
    soft_target,
)
from lab.corpus import load_rows

ROWS = load_rows()
GROUPS = [str(r["server"]) for r in ROWS]


def test_qwk_and_smell_agreement_on_known_ratings() -> None:
    assert qwk([1, 2, 3, 4, 5], [1, 2, 3, 4, 5]) == 1.0
    assert qwk([1, 2, 3, 4, 5], [5, 4, 3, 2, 1]) < 0
    # one step off on one of four ratings costs little, four steps off costs a lot
    near, far = qwk([1, 2, 3, 4], [1, 2, 3, 3]), qwk([1, 2, 3, 4], [1, 2, 3, 1])
    assert 0 < far < near < 1
    assert smell_agreement([1, 2, 3, 4], [2, 3, 3, 5]) == 0.75


def test_grouped_folds_keep_each_server_in_one_fold() -> None:
    for repeat in range(3):
        folds = grouped_folds(GROUPS, 10, repeat)
        assert sorted(i for fold in folds for i in fold) == list(range(len(ROWS)))
        owner: dict[str, int] = {}
        for f, fold in enumerate(folds):
            for i in fold:
                assert owner.setdefault(GROUPS[i], f) == f
    # another repeat is another valid assignment, not the same one
    assert grouped_folds(GROUPS, 10, 1) != grouped_folds(GROUPS, 10, 0)
    assert grouped_folds(GROUPS, 10, 1) == grouped_folds(GROUPS, 10, 1)


def test_holdout_is_a_fixed_third_of_the_servers() -> None:
    held = holdout_servers(GROUPS)
    assert held == holdout_servers(list(reversed(GROUPS)))  # depends on names only, not on order
    servers = set(GROUPS)
    assert held < servers
    assert 0.2 < len(held) / len(servers) < 0.45
    assert holdout_servers([*GROUPS, "some new server"]) >= held  # adding a server never moves others


def test_ridge_only_component_fits_no_stumps() -> None:
    ds = build_dataset(ROWS)
    only_ridge = [c for c, share in RIDGE_SHARE.items() if share == 1.0]
    assert only_ridge
    model = fit_component(ds, only_ridge[0], range(len(ROWS)))
    assert model.boost.tables == {} and model.ridge_share == 1.0
    assert sorted(model.cuts) == model.cuts and len(model.cuts) == 4


def test_mean_step_model_is_the_average_of_its_members() -> None:
    a = StepModel(1.0, {0: ([0.5, 2.0], [0.1, -0.2, 0.3]), 2: ([1.0], [0.0, 1.0])})
    b = StepModel(3.0, {0: ([1.0, 2.0], [-0.4, 0.2, 0.6]), 1: ([0.0], [2.0, -2.0])})
    mean = mean_step_model([a, b])
    # on the thresholds themselves, between them and beyond them
    for x0 in (-1.0, 0.5, 0.7, 1.0, 1.5, 2.0, 3.0):
        for x1 in (-1.0, 0.0, 1.0):
            for x2 in (0.0, 1.0, 2.0):
                x = (x0, x1, x2)
                assert abs(mean(x) - (a(x) + b(x)) / 2) < 1e-12, x


def test_bags_leave_out_whole_servers_and_differ() -> None:
    idx = list(range(len(ROWS)))
    bags = [bag_rows(GROUPS, idx, b) for b in range(BAGS["parameters"])]
    for rows in bags:
        kept = {GROUPS[i] for i in rows}
        assert all(GROUPS[i] in kept for i in idx if GROUPS[i] in kept)  # a server is in or out whole
        assert sum(1 for i in idx if GROUPS[i] in kept) == len(rows)
        assert 0.55 < len(kept) / len(set(GROUPS)) < 0.95
    assert len({tuple(rows) for rows in bags}) == len(bags)
    assert bag_rows(GROUPS, idx[:3], 0) == idx[:3]  # too few servers for the inner CV: keep them all


def test_bagged_component_records_one_penalty_per_bag() -> None:
    ds = build_dataset(ROWS)
    model = fit_component(ds, "parameters", range(len(ROWS)))
    assert len(model.lambdas) == BAGS["parameters"] > 1
    assert sorted(model.cuts) == model.cuts and len(model.cuts) == 4


def test_target_counts_the_median_once_more_except_on_examples() -> None:
    row = {
        "judges": {
            "a": {"purpose": 1, "examples_balance": 1},
            "b": {"purpose": 1, "examples_balance": 1},
            "c": {"purpose": 4, "examples_balance": 4},
        },
        "jury_median": {"purpose": 1, "examples_balance": 1},
    }
    assert soft_target(row, "purpose") == (1 + 1 + 4 + 1) / 4
    assert soft_target(row, "examples") == (1 + 1 + 4) / 3
    assert soft_target({"judges": {}, "jury_median": {"purpose": 2.5}}, "purpose") == 2.5
