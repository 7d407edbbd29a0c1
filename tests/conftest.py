"""Settings every test needs, whatever environment runs the suite."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _not_inside_github_actions(monkeypatch: pytest.MonkeyPatch) -> None:
    # Inside GitHub Actions `check` defaults to annotations and appends a job summary; tests that
    # want that behaviour set these variables themselves.
    monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
