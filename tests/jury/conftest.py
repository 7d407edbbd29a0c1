from __future__ import annotations

from collections.abc import Iterator

import pytest
from fake_llm_server import FakeLLM


@pytest.fixture
def fake_llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLM]:
    # Only the fake server may answer: a stray base URL from the developer's shell must not redirect calls.
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_ORGANIZATION", "OPENAI_PROJECT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with FakeLLM() as fake:
        yield fake
