"""The two-yardstick check reads only the tuning part of the human scores, and scores a component the
way each yardstick's own benchmark does."""

from __future__ import annotations

import pytest

from lab.yardsticks import LIFTS, Scored, agreement, ls, tuning_scores
from mcp_lint.model import Tool


def _tool(name: str, description: str, properties: dict[str, object] | None = None) -> Tool:
    raw: dict[str, object] = {"name": name, "description": description}
    if properties is not None:
        raw["inputSchema"] = {"type": "object", "properties": properties}
    return Tool(name=name, raw=raw)


def test_reads_only_the_tuning_part() -> None:
    part_of = ls.parts()
    rows = tuning_scores()
    assert rows, "the tuning part has human scores"
    assert {part_of[row.server] for row in rows} == {"tuning"}
    sealed = {name for name, part in part_of.items() if part == "sealed"}
    assert sealed, "the split has a sealed part"
    assert not sealed & {row.server for row in rows}


def test_agreement_per_yardstick() -> None:
    tool = _tool("list_things", "List the things.")
    rows = [
        Scored(tool, {"purpose": 3, "parameters": None}, {"purpose": 2.0}),
        Scored(tool, {"purpose": 2, "parameters": 2}, {"purpose": 2.0}),  # jury: parameters n/a
    ]
    purpose = agreement(rows, "purpose", 3, None, people=True)
    assert (purpose.n, purpose.mad, purpose.bias, purpose.smell) == (2, 0.5, -0.5, 0.5)
    # people: the jury's n/a where the person scored counts as the bottom (1)
    params = agreement(rows, "parameters", 3, None, people=True)
    assert (params.n, params.bias) == (1, -1.0)
    # research judges scored every tool: the jury's n/a is left out, as lab.agreement does
    with pytest.raises(ValueError):  # nothing left to compare
        agreement(rows, "parameters", 3, None, people=False)


def test_lifts_move_only_their_own_level() -> None:
    lifts = {name: lift for name, _, _, lift in LIFTS}
    tool = _tool("get_item", "Get an item.", {"id": {"type": "string", "description": "The item's id"}})
    scores = {"purpose": 2.0, "guidelines": 1.0, "length": 1.0, "parameters": 3.0}
    assert lifts["purpose 2 -> 3"](tool, scores)["purpose"] == 3.0
    assert lifts["purpose 2 -> 3"](tool, {**scores, "purpose": 4.0})["purpose"] == 4.0
    assert lifts["guidelines 1 -> 2"](tool, scores)["guidelines"] == 2.0
    # purpose 1 (missing or a restated name): no purpose to infer guidance from, still a fragment
    assert lifts["guidelines 1 -> 2"](tool, {**scores, "purpose": 1.0})["guidelines"] == 1.0
    assert lifts["length 1 -> 2"](tool, {**scores, "purpose": 1.0})["length"] == 1.0
    assert lifts["parameters >= 4"](tool, scores)["parameters"] == 4.0
    bare = _tool("get_item", "Get an item.", {"id": {"type": "string"}})
    assert lifts["parameters >= 4"](bare, scores)["parameters"] == 3.0
