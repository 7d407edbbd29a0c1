"""mcp_lint.bench.tokens: a real tokenizer, loaded without the network, over the whole tools/list."""

from __future__ import annotations

import json

from mcp_lint.bench.tokens import load_tokenizer, tools_list
from mcp_lint.model import ServerSnapshot, Tool


def test_tools_list_is_each_servers_result_as_json() -> None:
    servers = [
        ServerSnapshot("a", (Tool("x", {"name": "x", "description": "Déjà vu."}),)),
        ServerSnapshot("b", ()),
    ]
    first, second = tools_list(servers).split("\n")
    assert json.loads(first) == {"tools": [{"name": "x", "description": "Déjà vu."}]}
    assert "Déjà" in first  # sent as UTF-8, not as \\u escapes a client never sees
    assert json.loads(second) == {"tools": []}


def test_the_tokenizer_counts_real_tokens() -> None:
    tokenizer = load_tokenizer()
    # litellm (the llm extra, in the test extra) ships cl100k_base: "hello world" is two tokens
    assert tokenizer.name == "cl100k_base (tiktoken)"
    assert tokenizer.count("hello world") == 2
    assert tokenizer.count("") == 0
    assert tokenizer.count("<|endoftext|>") > 1  # a description's text, never a special token
