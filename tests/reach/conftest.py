"""Shared set-up for the reach tests: sample client configs and a clean, predictable environment."""

from __future__ import annotations

import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "configs"

# Every variable the sample configs mention; each test starts with them unset.
SAMPLE_VARIABLES = (
    "GITHUB_TOKEN",
    "WEATHER_API_KEY",
    "NOTES_DIR",
    "FETCH_AGENT",
    "DATABASE_URL",
    "API_TOKEN",
    "TASKS_DB",
    "MCP_LINT_TEST_VAR",
)


@pytest.fixture(autouse=True)
def clean_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    for name in SAMPLE_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    yield home


def _install(sample: str, destination: Path) -> Path:
    destination.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(FIXTURES / sample, destination)
    return destination


@pytest.fixture
def install() -> Callable[[str, Path], Path]:
    """`install(sample, destination)`: copy `tests/fixtures/configs/<sample>` there and return the path."""
    return _install
