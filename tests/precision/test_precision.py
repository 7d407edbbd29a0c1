"""Every deterministic rule keeps its labelled precision on real servers' snapshots.

The snapshots (tests/precision/snapshots) are real servers from PyPI and npm, pinned in servers.yaml.
Each finding at moderate or above carries a hand verdict in labels.yaml; floors.yaml records each
rule's precision. A rule change that adds a false alarm, or a finding nobody has judged yet, fails
here with what to do. `python benchmarks/rule_precision.py --stubs` prints the entries to fill in.
"""

from __future__ import annotations

import re
from collections import Counter

import labelled_set as ls  # beside this file; pytest puts its folder on sys.path
import pytest
import yaml

MIN_SERVERS = 20


@pytest.fixture(scope="module")
def comparison() -> ls.Comparison:
    findings = ls.lint(ls.load_snapshots(), rubric=False)
    labels = [label for label in ls.load_labels() if label.kind == "deterministic"]
    return ls.compare(findings, labels, ls.rule_kinds())


def test_every_deterministic_finding_is_labelled(comparison: ls.Comparison) -> None:
    unlabelled = [match for match in comparison.unlabelled if ls.rule_kinds()[match.finding.code] != "rubric"]
    stubs = yaml.safe_dump(
        {"deterministic": [ls.label_stub(match) for match in unlabelled]}, sort_keys=False, width=120
    )
    assert not unlabelled, (
        f"{len(unlabelled)} finding(s) at moderate+ have no label; judge each and add it to "
        f"tests/precision/labels.yaml:\n{stubs}"
    )


def test_each_rule_keeps_its_labelled_precision(comparison: ls.Comparison) -> None:
    floors = ls.load_floors()
    assert floors, "tests/precision/floors.yaml records no precision"
    dropped = [
        f"{row.code} {row.rule}: {row.precision:.3f} < {floors[row.code]:.3f} "
        f"(right {row.right}, wrong {row.wrong})"
        for row in comparison.tallies
        if row.kind == "deterministic"
        and row.code in floors
        and row.precision is not None
        and row.precision < floors[row.code] - 1e-9
    ]
    # A rule that was never wrong has no floor of its own below 1.0: its first false alarm fails too.
    unfloored = [
        f"{row.code} {row.rule}: {row.wrong} false alarm(s) and no floor"
        for row in comparison.tallies
        if row.kind == "deterministic" and row.code not in floors and row.wrong
    ]
    assert not dropped + unfloored, "\n".join(dropped + unfloored)


def test_labels_are_complete_and_unique() -> None:
    labels = ls.load_labels()
    assert labels
    incomplete = [label.key for label in labels if not label.why.strip() or not label.rule]
    assert not incomplete, f"labels without a rule name or a reason: {incomplete}"
    snapshot_names = {path.stem for path in ls.snapshot_paths()}
    orphans = sorted({label.key.server for label in labels} - snapshot_names)
    assert not orphans, f"labels name servers that have no snapshot: {orphans}"
    twice = [key for key, count in Counter(label.key for label in labels).items() if count > 1]
    assert not twice, f"two labels with one key cannot be told apart: {twice}"


def test_manifest_pins_every_snapshot() -> None:
    manifest = yaml.safe_load((ls.HERE / "servers.yaml").read_text(encoding="utf-8"))
    servers = manifest["servers"]
    assert {entry["name"] for entry in servers} == {path.stem for path in ls.snapshot_paths()}
    assert len(servers) >= MIN_SERVERS
    for entry in servers:
        assert entry["registry"] in {"pypi", "npm"}, entry
        assert re.fullmatch(r"\d+(\.\d+)+([.-]?\w+)*", str(entry["version"])), entry
        assert entry["command"], entry


def test_parts_follow_the_fixed_split() -> None:
    # The split is a hash nobody chooses; a written `part` would be a choice, so there is none.
    for entry in ls.load_manifest():
        assert "part" not in entry, f"{entry['name']}: the part follows from the hash, do not write it"
        assert entry.get("package"), entry
        assert ls.part_of(entry) in ls.PARTS
    assert ls.part_of({"registry": "npm", "package": "mcp-server-fetch"}) == "sealed"
    assert ls.part_of({"registry": "pypi", "package": "mcp-server-fetch"}) == "tuning"
    assert ls.part_of({"registry": "npm", "package": "mcp-server-fetch", "spent": True}) == "tuning"
    # A later round replaces a spent sealed part whole, until its own errors are read.
    assert ls.part_of({"registry": "pypi", "package": "mcp-server-fetch", "round": 2}) == "sealed"
    assert (
        ls.part_of({"registry": "pypi", "package": "mcp-server-fetch", "round": 2, "spent": True}) == "tuning"
    )


def test_defects_name_real_tools_and_rules() -> None:
    catalogue = {rule.name for rule in ls.load_catalogue().rules}
    snapshots = {snapshot.name: snapshot for snapshot in ls.load_snapshots()}
    for defect in ls.load_defects():
        assert defect.server in snapshots, defect
        assert defect.why.strip(), defect
        assert defect.rule in catalogue or defect.rule.startswith("none: "), defect
        tools = {tool.name for tool in snapshots[defect.server].tools}
        assert defect.tool == ls.SERVER_ROW or defect.tool in tools, defect


def test_human_scores_cover_the_fixed_sample() -> None:
    snapshots = ls.load_snapshots()
    sample = set(ls.human_sample(snapshots))
    params = {
        (snapshot.name, tool.name): isinstance(tool.input_schema, dict)
        and bool(tool.input_schema.get("properties"))
        for snapshot in snapshots
        for tool in snapshot.tools
    }
    seen: set[tuple[str, str]] = set()
    for row in ls.load_human_scores():
        key = (row.server, row.tool)
        assert key in sample, f"{key} is not in the fixed sample (labelled_set.human_sample)"
        assert key not in seen, f"{key} scored twice"
        seen.add(key)
        assert row.why.strip(), key
        for component, value in row.scores.items():
            assert value is None or 1 <= value <= 5, (key, component, value)
            assert (value is None) == (component == "parameters" and not params[key]), (key, component)
