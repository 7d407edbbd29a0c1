"""mcp_lint.bench.rewrites: every accepted form of rewrites, the filler control and mcp-lint's own."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fake_llm_server import FakeLLM

from mcp_lint.bench.livemcpbench import BenchData, load, restrict
from mcp_lint.bench.rewrites import FILLER, RewriteSet, dump, filler_control, proposed, read_rewrites
from mcp_lint.bench.tokens import load_tokenizer
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


def test_the_control_pads_each_tool_to_the_rewrites_token_count(bed: BenchData) -> None:
    tokenizer = load_tokenizer()
    rewrites = read_rewrites(SMALL, bed)
    control = filler_control(bed, rewrites, tokenizer)
    assert control.name == "filler control (rewrites-small.json)"
    assert control.control_for == "rewrites-small.json"
    originals = {(s.name, t.name): t.description for s in bed.servers for t in s.tools}
    grown = {
        key
        for key, text in rewrites.descriptions.items()
        if tokenizer.count(text) > tokenizer.count(originals[key])
    }
    assert set(control.descriptions) == grown
    for key, text in control.descriptions.items():
        assert text.startswith(originals[key] + " ")
        added = text[len(originals[key]) :].split()
        assert added == (FILLER.split() * 3)[: len(added)]  # only filler, in order
        target = tokenizer.count(rewrites.descriptions[key])
        assert tokenizer.count(text) >= target
        assert tokenizer.count(" ".join([originals[key], *added[:-1]])) < target  # the fewest words


def test_the_control_repeats_the_filler_for_a_long_rewrite(bed: BenchData) -> None:
    tokenizer = load_tokenizer()
    long = "Get the links. " + "Each link is the title of another Wikipedia article it points to. " * 12
    control = filler_control(bed, RewriteSet("long", {("wikipedia", "get_links"): long}), tokenizer)
    text = control.descriptions[("wikipedia", "get_links")]
    assert tokenizer.count(text) >= tokenizer.count(long)
    assert text.count(FILLER.split()[0]) > 1


def test_mcp_lint_rewrites_are_those_check_fix_applies() -> None:
    # coin-flip has tools with empty descriptions, which the offline augmentor gives a purpose; the
    # terse servers of `bed` get none (nothing is known of them beyond what the listing shows)
    coins = restrict(load(), ["coin-flip"])
    made = proposed(coins, Settings(), JurySettings(cache_path=None))
    assert isinstance(made, RewriteSet)
    assert made.descriptions
    originals = {(s.name, t.name): t.description for s in coins.servers for t in s.tools}
    for key, text in made.descriptions.items():
        assert text != originals[key]
    assert made.notes[0].endswith(f"{len(made.descriptions)} applied")


def test_llm_rewrites_are_those_check_fix_unsafe_fixes_applies(
    bed: BenchData, fake_llm: FakeLLM, tmp_path: Path
) -> None:
    # `bench --unsafe-fixes --jury MODEL`: the model judges and writes, through real litellm HTTP calls
    # to a local OpenAI-compatible server
    model = "openai/rewriter"
    jury = JurySettings(
        models=(model,),
        api_bases={model: fake_llm.api_base},
        cache_path=tmp_path / "cache.json",
        max_retries=1,
    )
    arxiv = restrict(bed, ["mcp-simple-arxiv"])
    made = proposed(arxiv, Settings(), jury, unsafe=True)
    assert made.name == f"mcp-lint --fix (LLM augmentor ({model}))"
    rewriting = [
        request
        for request in fake_llm.requests
        if request.body.get("response_format", {}).get("json_schema", {}).get("name") == "mcp_lint_rewrite"
    ]
    smelly = len(rewriting)
    assert smelly > 0
    # the fake judge scores by length alone, so its re-score keeps none of the fake rewriter's texts:
    # what `check --fix --unsafe-fixes` would apply here is nothing, and the benchmark measures that
    found = re.fullmatch(
        rf"(\d+) tools with rubric smells; (\d+) rewrites by the LLM augmentor \({model}\), "
        r"0 kept, 0 applied",
        made.notes[0],
    )
    assert found is not None, made.notes[0]
    assert int(found[1]) == smelly  # one request to the rewriter for each smelly tool
    assert 0 < int(found[2]) <= smelly  # the fake writes nothing for a tool with no parameter
    assert made.descriptions == {}
