"""lab/data/second-rater.yaml rescores tools the first reader scored, on the rubric's scale."""

from __future__ import annotations

import yaml

from lab.second_rater import SECOND, ls
from mcp_lint.model import COMPONENTS


def test_every_second_score_is_of_a_first_scored_tool_and_on_the_scale() -> None:
    entries = yaml.safe_load(SECOND.read_text(encoding="utf-8"))
    first = {(score.server, score.tool): score.scores for score in ls.load_human_scores()}
    part = ls.parts()
    keys = [(entry["server"], entry["tool"]) for entry in entries]
    assert len(keys) == len(set(keys)) == 80
    assert [part[server] for server, _ in keys].count("sealed") == 40
    for entry, key in zip(entries, keys, strict=True):
        assert key in first, key
        for component in COMPONENTS:
            value = entry[component]
            # n/a exactly where the first reader says the tool takes no parameters
            if component == "parameters" and first[key][component] is None:
                assert value == "n/a", key
            else:
                assert value in (1, 2, 3, 4, 5), (key, component, value)
