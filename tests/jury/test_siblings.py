"""Each tool's siblings are a view over one tuple per server, and the offline jury's "similar tools"
come from an index over it; both must equal what the per-tool copies and the all-pairs scan gave."""

from __future__ import annotations

import json
import random
import re
from collections.abc import Sequence
from pathlib import Path

import pytest
import yaml

from mcp_lint.jury import siblings
from mcp_lint.jury.features import analyze
from mcp_lint.jury.features.specificity import Domain, DomainIndex, name_domain
from mcp_lint.jury.features.tokens import _specific_stems
from mcp_lint.jury.offline import OfflineJury
from mcp_lint.jury.run import _items
from mcp_lint.jury.siblings import ServerNames, similar_names
from mcp_lint.model import ServerSnapshot, Tool
from mcp_lint.words import name_words

ROOT = Path(__file__).resolve().parents[2]
_NAME_SEP = re.compile(r"[^a-z0-9]+")


def oracle_similar(name: str, siblings: Sequence[str]) -> list[str]:
    """The all-pairs scan the index replaced."""
    mine = {t for t in _NAME_SEP.split(name.lower()) if len(t) > 2}
    out = []
    for sib in siblings:
        if sib == name:
            continue
        theirs = {t for t in _NAME_SEP.split(sib.lower()) if len(t) > 2}
        if mine & theirs:
            out.append(sib)
    return sorted(out)


def real_servers() -> dict[str, list[str]]:
    servers: dict[str, list[str]] = {}
    for path in sorted(ROOT.glob("tests/**/*.json")):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(data, dict) and isinstance(data.get("tools"), list):
            servers[str(path)] = [str(tool.get("name")) for tool in data["tools"] if isinstance(tool, dict)]
    for path in sorted((ROOT / "tests" / "check" / "cases").glob("*.yaml")):
        for case in yaml.safe_load(path.read_text(encoding="utf-8")):
            names = [tool.get("name") for tool in case.get("tools") or [] if isinstance(tool, dict)]
            servers[f"{path.stem}: {case['name']}"] = [name for name in names if isinstance(name, str)]
    calibration = ROOT / "lab" / "data" / "jury-calibration.jsonl"
    records = [json.loads(line) for line in calibration.read_text(encoding="utf-8").splitlines() if line]
    for record in records:
        servers.setdefault(f"calibration: {record['server']}", []).append(record["tool"])
    servers["calibration: all in one"] = [record["tool"] for record in records]
    return servers


def generated_servers() -> dict[str, list[str]]:
    """Common words in hundreds of names (the index's cached unions) and rare ones mixed in."""
    rng = random.Random(11)
    verbs = ["get", "list", "create", "update", "delete", "search", "sync", "export", "run", "set"]
    nouns = [f"noun{number}" for number in range(40)] + ["issue", "user", "file", "page", "item", "id"]
    servers = {
        "numbered": [f"get_item_{number}" for number in range(200)],
        "prefixed": [f"github_{rng.choice(verbs)}_{rng.choice(nouns)}_{number}" for number in range(300)],
    }
    for round_ in range(4):
        names = set()
        while len(names) < 200:
            parts = [rng.choice(verbs + nouns) for _ in range(rng.randint(1, 5))]
            names.add(rng.choice(["_", "-", ".", ""]).join(parts) + rng.choice(["", "s", "V2", "_x"]))
        servers[f"random {round_}"] = sorted(names, key=lambda _: rng.random())
    return servers


@pytest.mark.parametrize("common", [4, 64])
@pytest.mark.parametrize("source", [real_servers, generated_servers])
def test_the_index_names_the_same_similar_siblings_as_the_scan(
    source: object, common: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A low bar for a "common" word sends most words through the cached unions, a high one through
    # the per-tool merge: both must count and list exactly what the scan does.
    monkeypatch.setattr(siblings, "_COMMON_WORD", common)
    compared = similar_found = 0
    for server, names in source().items():  # type: ignore[operator]
        snapshot = ServerSnapshot(
            name=server, tools=tuple(Tool(name=name, raw={"name": name}) for name in names)
        )
        for item in _items([snapshot], []):
            old_siblings = tuple(sorted({n for n in names if n != item.tool.name}))
            assert tuple(item.siblings) == old_siblings and len(item.siblings) == len(old_siblings)
            expected = oracle_similar(item.tool.name, old_siblings)
            found = similar_names(item.tool.name, item.siblings)
            assert len(found) == len(expected), (server, item.tool.name)
            assert list(found[:4]) == expected[:4] and list(found) == expected, (server, item.tool.name)
            assert list(found[1:7:2]) == expected[1:7:2]
            assert [found[k] for k in range(min(len(found), 9))] == expected[:9]
            assert similar_names(item.tool.name, old_siblings) == expected  # a plain sequence too
            compared += 1
            similar_found += bool(expected)
    assert compared > 400 and similar_found > 100


def test_a_sibling_view_is_the_sorted_others() -> None:
    server = ServerNames(["b", "a", "c", "a"])
    view = server.without("b")
    assert list(view) == ["a", "c"] == [view[0], view[1]] and view[-1] == "c" and view[:5] == ("a", "c")
    assert view == ("a", "c") and hash(view) == hash(("a", "c")) and "b" not in view
    with pytest.raises(IndexError):
        view[2]
    assert list(server.without("z")) == ["a", "b", "c"]


def oracle_domain(siblings: Sequence[str]) -> set[str]:
    """The scan over every sibling that each tool ran before the server's domain index."""
    domain: set[str] = set()
    for sibling in siblings:
        sibling_words = name_words(sibling)
        if len(sibling_words) > 1:
            domain |= _specific_stems(" ".join(sibling_words[1:]))
    return domain


@pytest.mark.parametrize("source", [real_servers, generated_servers])
def test_a_tools_domain_from_the_server_index_is_the_scan_over_its_siblings(source: object) -> None:
    compared = 0
    for server, names in source().items():  # type: ignore[operator]
        view_of = ServerNames(names)
        universe = set().union(*map(name_domain, names), {"zzz", "item", ""})
        for name in sorted(set(names)):
            view = view_of.without(name)
            expected = oracle_domain(tuple(view))
            for domain in (Domain(name, view), Domain(name, list(view))):  # the index, a plain list
                assert {stem for stem in universe if stem in domain} == expected & universe, (server, name)
            compared += 1
        assert len(view_of._derived) <= 1  # at most one index per server, however many tools asked
    assert compared > 400


def test_the_jury_reads_a_servers_domain_from_one_index() -> None:
    """A description that names nothing of its own tool falls back on the server's domain nouns
    ("Unstages all staged changes" is about git_reset, a sibling of git_diff_staged); the jury
    answers from one index per server, with the verdicts the scan over the siblings gave."""
    names = ["git_reset", "git_diff_staged", "git_log", "git_show_commit", "git_create_branch", "status"]
    text = "Unstages all staged changes."
    server = ServerNames(names)
    assert analyze("git_reset", text, None).kept == ()  # nothing of its own
    assert analyze("git_reset", text, None, server.without("git_reset")).kept == (text,)
    jury = OfflineJury()
    for name in names:
        tool = Tool(name=name, raw={"name": name, "description": text})
        assert jury.judge(tool, server.without(name)) == jury.judge(tool, [n for n in names if n != name])
    assert list(server._derived) == [DomainIndex]
