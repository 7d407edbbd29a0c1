"""mcp_lint.bench.rewrites: every accepted form of rewrites, the filler control and mcp-lint's own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mcp_lint.bench.livemcpbench import BenchData, load, restrict
from mcp_lint.bench.rewrites import FILLER, RewriteSet, dump, filler, filler_control, proposed, read_rewrites
from mcp_lint.config import JurySettings, Settings
from mcp_lint.errors import UsageError

SMALL = Path(__file__).resolve().parent / "rewrites-small.json"


@pytest.fixture(scope="module")
def bed() -> BenchData:
    return restrict(load(), ["wikipedia", "mcp-simple-arxiv"])


def test_a_flat_mapping_of_server_slash_tool(bed: BenchData) -> None:
    rewrites = read_rewrites(SMALL, bed)
    assert rewrites.name == "rewrites-small.json"
    assert len(rewrites.descriptions) == 4
    assert rewrites.descriptions[("wikipedia", "get_article")].startswith("Get the full text")


def test_a_nested_mapping_and_an_overrides_file(bed: BenchData, tmp_path: Path) -> None:
    nested = tmp_path / "nested.json"
    nested.write_text(json.dumps({"wikipedia": {"get_links": "Links."}}), encoding="utf-8")
    assert read_rewrites(nested, bed).descriptions == {("wikipedia", "get_links"): "Links."}
    overrides = tmp_path / "overrides.json"
    overrides.write_text(
        json.dumps({"version": 1, "servers": {"wikipedia": {"get_links": {"description": "Links!"}}}}),
        encoding="utf-8",
    )
    assert read_rewrites(overrides, bed).descriptions == {("wikipedia", "get_links"): "Links!"}


def test_a_folder_of_snapshots_gives_the_descriptions_that_changed(bed: BenchData, tmp_path: Path) -> None:
    [wikipedia] = [server for server in bed.servers if server.name == "wikipedia"]
    tools = [dict(tool.raw) for tool in wikipedia.tools]
    tools[0]["description"] = "Find articles."
    (tmp_path / "wikipedia.json").write_text(json.dumps({"tools": tools}), encoding="utf-8")
    assert read_rewrites(tmp_path, bed).descriptions == {("wikipedia", tools[0]["name"]): "Find articles."}


def test_dump_reads_back(bed: BenchData, tmp_path: Path) -> None:
    rewrites = read_rewrites(SMALL, bed)
    saved = tmp_path / "saved.json"
    saved.write_text(dump(rewrites), encoding="utf-8")
    assert read_rewrites(saved, bed).descriptions == rewrites.descriptions


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"wikipedia/nope": "x"}', r"'wikipedia/nope': no such tool in the benchmark's catalogue"),
        ('{"nope/get_links": "x"}', r"'nope/get_links': no such server in the benchmark's catalogue"),
        ('{"wikipedia": {"nope": "x"}}', r"no such tool"),
        ('{"wikipedia/get_links": 3}', r"must be a description string"),
        ('{"wikipedia": {"get_links": 3}}', r"wikipedia.get_links: must be a description string"),
        ("[1]", r"expected a JSON object"),
        ("{", r"not JSON"),
        ('{"version": 1, "servers": {"wikipedia": {"nope": {"description": "x"}}}}', r"no such tool"),
    ],
)
def test_bad_rewrites_are_one_line_errors(bed: BenchData, tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "rewrites.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(UsageError, match=message) as caught:
        read_rewrites(path, bed)
    assert "\n" not in str(caught.value)
    assert str(path) in str(caught.value)


def test_an_empty_folder_is_an_error(bed: BenchData, tmp_path: Path) -> None:
    with pytest.raises(UsageError, match=r"no \*.json snapshot in this folder"):
        read_rewrites(tmp_path, bed)


@pytest.mark.parametrize("length", [1, 5, 40, len(FILLER), len(FILLER) + 7, 3 * len(FILLER) + 11])
def test_filler_is_whole_words_of_at_most_the_length(length: int) -> None:
    text = filler(length)
    assert len(text) <= length
    assert len(text) >= length - 12  # cut back at most one word
    assert FILLER.startswith(text[: min(len(text), len(FILLER))])


def test_the_control_grows_each_tool_as_the_rewrite_did(bed: BenchData) -> None:
    rewrites = read_rewrites(SMALL, bed)
    control = filler_control(bed, rewrites)
    originals = {(s.name, t.name): t.description for s in bed.servers for t in s.tools}
    grown = {key for key, text in rewrites.descriptions.items() if len(text) > len(originals[key])}
    assert set(control.descriptions) == grown
    for key, text in control.descriptions.items():
        assert text.startswith(originals[key])
        assert abs(len(text) - len(rewrites.descriptions[key])) <= 12


def test_mcp_lint_rewrites_are_those_check_fix_applies(bed: BenchData) -> None:
    made = proposed(bed, Settings(), JurySettings(cache_path=None))
    assert isinstance(made, RewriteSet)
    assert made.descriptions  # these terse servers have rubric smells the offline augmentor clears
    originals = {(s.name, t.name): t.description for s in bed.servers for t in s.tools}
    for key, text in made.descriptions.items():
        assert text != originals[key]
    assert made.notes[0].endswith(f"{len(made.descriptions)} applied")
