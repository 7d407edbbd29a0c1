from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

# The jury tests' local OpenAI-compatible server answers the rewriter's requests too.
sys.path.insert(0, str(Path(__file__).parents[1] / "jury"))

from fake_llm_server import FakeLLM


@pytest.fixture
def fake_llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLM]:
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_ORGANIZATION", "OPENAI_PROJECT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with FakeLLM() as fake:
        yield fake
