"""Cursor pagination: every page is read, and a cursor that never ends is stopped with a finding."""

from __future__ import annotations

import pytest
from reflect_support import Spawner

from mcp_lint.model import ServerSnapshot
from mcp_lint.reflect import reflect_all
from mcp_lint.reflect.live import MAX_PAGES

TIMEOUT = 10.0
PAGED = {"120-by-25": (120, 25), "7-by-3": (7, 3), "single-page": (5, 50), "empty": (0, 25)}
Batch = tuple[Spawner, dict[str, ServerSnapshot]]


@pytest.fixture(scope="module")
def batch(tmp_path_factory: pytest.TempPathFactory) -> Batch:
    """Every pagination variant, reflected concurrently in one call."""
    spawner = Spawner(tmp_path_factory.mktemp("pagination"))
    targets = [
        spawner.target(name, "paginated_server.py", "--tools", str(count), "--page-size", str(size))
        for name, (count, size) in PAGED.items()
    ]
    targets.append(spawner.target("endless", "infinite_pages_server.py", "--page-size", "2"))
    targets.append(spawner.target("loop", "infinite_pages_server.py", "--repeat", "--page-size", "2"))
    results = reflect_all(targets, TIMEOUT)
    snapshots: dict[str, ServerSnapshot] = {}
    for result in results:
        assert result.error is None and result.snapshot is not None, result.error
        snapshots[result.name] = result.snapshot
    return spawner, snapshots


@pytest.mark.parametrize("name", list(PAGED))
def test_every_page_is_read(batch: Batch, name: str) -> None:
    count = PAGED[name][0]
    snapshot = batch[1][name]
    assert [tool.name for tool in snapshot.tools] == [f"tool_{index:03d}" for index in range(count)]
    assert snapshot.observations == ()
    assert snapshot.protocol_version == "2026-07-28"


def test_never_ending_cursor_stops_at_the_page_cap(batch: Batch) -> None:
    snapshot = batch[1]["endless"]
    # The tools gathered so far are kept: MAX_PAGES pages of 2 distinct tools each.
    assert len(snapshot.tools) == MAX_PAGES * 2
    assert len({tool.name for tool in snapshot.tools}) == MAX_PAGES * 2
    assert snapshot.tools[0].name == "page0_tool0"
    [observation] = snapshot.observations
    assert observation.kind == "broken-pagination"
    assert f"after {MAX_PAGES} pages" in observation.detail and f"{MAX_PAGES * 2} tools" in observation.detail


def test_repeating_cursor_is_detected(batch: Batch) -> None:
    snapshot = batch[1]["loop"]
    names = [tool.name for tool in snapshot.tools]
    assert {"page0_tool0", "page0_tool1", "page1_tool0", "page1_tool1"} <= set(names)
    [observation] = snapshot.observations
    assert observation.kind == "broken-pagination"
    # The loop leads back to tools already listed, which is caught before they are listed twice.
    assert "repeats tools already listed" in observation.detail and "page 3" in observation.detail


def test_repeating_cursor_does_not_duplicate_tools(batch: Batch) -> None:
    names = [tool.name for tool in batch[1]["loop"].tools]
    assert len(names) == len(set(names))


def test_no_server_process_outlives_its_reflection(batch: Batch) -> None:
    batch[0].assert_gone()
