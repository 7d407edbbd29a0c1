"""mcp_lint.bench.run: BM25 over a slice of LiveMCPBench, for real, with rewrites whose effect is known."""

from __future__ import annotations

from pathlib import Path

import pytest

from mcp_lint.bench.livemcpbench import BenchData, load, restrict
from mcp_lint.bench.measure import first_rank
from mcp_lint.bench.retrieve import BM25
from mcp_lint.bench.rewrites import RewriteSet, filler_control, read_rewrites
from mcp_lint.bench.run import documents, rewritten, run
from mcp_lint.bench.tokens import load_tokenizer, tools_list

SMALL = Path(__file__).resolve().parent / "rewrites-small.json"


@pytest.fixture(scope="module")
def bed() -> BenchData:
    return restrict(load(), ["wikipedia", "mcp-simple-arxiv"])


def test_documents_are_name_and_description(bed: BenchData) -> None:
    texts = documents(bed, {("wikipedia", "get_links"): "Links."})
    assert texts[0] == "search_wikipedia Search Wikipedia for articles matching a query."
    assert "get_links Links." in texts


def test_unchanged_descriptions_change_nothing(bed: BenchData) -> None:
    result = run(bed, [RewriteSet("none", {})], [BM25()], load_tokenizer(), resamples=200)
    [measured] = result.measured
    [change] = measured.changes
    assert measured.changed == 0
    assert measured.list_tokens[0] == measured.list_tokens[1]
    assert change.before == change.after
    assert (change.interval.low, change.interval.high) == (0.0, 0.0)
    assert change.moved == (0, 0, 11)


def test_a_rewrite_naming_the_tasks_words_lifts_its_tool(bed: BenchData) -> None:
    # the arXiv id question ("Introduce me to the article on arxiv 2203.12277") needs get_paper_data;
    # a description with "article", "arxiv" and the question's words must bring it to the top
    [task] = [task for task in bed.tasks if "2203.12277" in task.question]
    key = ("mcp-simple-arxiv", "get_paper_data")
    before_scores = BM25().scores([task.question], documents(bed, {}))[0]
    position = bed.keys.index(key)
    assert first_rank(before_scores, {position}) > 1
    lifted = RewriteSet("lifted", {key: "Introduce an arXiv article: its data by arxiv id (2203.12277)."})
    result = run(bed, [lifted], [BM25()], load_tokenizer(), resamples=500)
    [change] = result.measured[0].changes
    index = bed.tasks.index(task)
    assert change.after.reciprocal[index] == 1.0
    assert change.before.reciprocal[index] < 1.0
    assert change.after.mrr > change.before.mrr
    assert change.moved[0] >= 1
    assert change.interval.high > 0


def test_a_run_over_a_slice_reports_every_figure(bed: BenchData) -> None:
    rewrites = read_rewrites(SMALL, bed)
    tokenizer = load_tokenizer()
    result = run(bed, [rewrites, filler_control(bed, rewrites)], [BM25()], tokenizer, resamples=500, seed=1)
    assert (result.servers, result.tools, result.tasks) == (2, 13, 11)
    assert result.tokenizer == tokenizer.name
    first, control = result.measured
    assert first.changed == 4
    assert first.list_tokens[0] == tokenizer.count(tools_list(bed.servers))
    assert first.list_tokens[1] == tokenizer.count(tools_list(rewritten(bed, rewrites.descriptions)))
    assert first.list_tokens[1] != first.list_tokens[0]
    assert first.description_tokens[0] == sum(
        tokenizer.count(t.description) for s in bed.servers for t in s.tools
    )
    [change] = first.changes
    assert change.retriever == "BM25"
    assert len(change.before.reciprocal) == 11
    assert all(0.0 < value <= 1.0 for value in change.before.reciprocal + change.after.reciprocal)
    assert change.interval.low <= change.after.mrr - change.before.mrr <= change.interval.high
    assert sum(change.moved) == 11
    assert set(change.before.recall) == {1, 5, 10}
    # the control pads the three rewrites that grew (search_papers' was cut shorter)
    assert control.changed == 3
    assert control.list_tokens[1] > control.list_tokens[0]
