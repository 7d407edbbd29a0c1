"""Fixtures for the reflect tests."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from reflect_support import Spawner


@pytest.fixture
def spawner(tmp_path: Path) -> Iterator[Spawner]:
    yield Spawner(tmp_path)
