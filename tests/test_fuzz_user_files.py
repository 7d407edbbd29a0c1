"""Fuzzing the readers of the user's own files: a baseline and an overrides file. Whatever they
hold (hostile values where entries go, wrong types, deep nesting, numbers past the digit limit,
NaN), the run ends with exit 0-2 and, on 2, one line that names the file; never a traceback or
"internal error". Deterministic and bounded, like tests/test_fuzz.py, whose strategies it reuses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

hypothesis = pytest.importorskip("hypothesis")

from fuzz_support import DEEP_MARK, serialize  # noqa: E402
from hypothesis import given  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_fuzz import FUZZ, deep_levels, hostile_value  # noqa: E402

from mcp_lint.cli import main  # noqa: E402

SNAPSHOT = Path(__file__).parent / "fixtures" / "golden" / "smelly-snapshot.json"
ENTRY = {"server": "weather_server", "tool": "get_forecast", "code": "MCP202", "subject": "city", "count": 1}


@st.composite
def baselines(draw: st.DrawFn) -> str:
    """A baseline document with hostile values spliced into its fields, its entries or its root."""
    entry: dict[str, Any] = dict(ENTRY)
    for key in draw(st.lists(st.sampled_from([*ENTRY, "rule", "extra"]), max_size=3)):
        entry[key] = draw(st.one_of(hostile_value, st.just(DEEP_MARK)))
    document: Any = {"format": "mcp-lint-baseline/1", "findings": [entry]}
    shape = draw(st.sampled_from(["whole", "format", "findings", "root"]))
    if shape == "format":
        document["format"] = draw(hostile_value)
    elif shape == "findings":
        document["findings"] = draw(st.one_of(hostile_value, st.just(DEEP_MARK)))
    elif shape == "root":
        document = draw(hostile_value)
    return serialize(document, draw(deep_levels))


@st.composite
def overrides_files(draw: st.DrawFn) -> str:
    entry: Any = {"description": "New.", "original": "Old.", "parts": {"purpose": "New."}}
    for key in draw(st.lists(st.sampled_from(["description", "original", "parts", "x"]), max_size=2)):
        entry[key] = draw(st.one_of(hostile_value, st.just(DEEP_MARK)))
    document: Any = {"version": 1, "servers": {"weather_server": {"get_forecast": entry}}}
    if draw(st.booleans()):
        document = draw(st.one_of(hostile_value, st.just({"version": draw(hostile_value), "servers": {}})))
    return serialize(document, draw(deep_levels))


def _one_line_or_success(code: int, err: str, where: Path) -> None:
    assert code in (0, 1, 2), (code, err)
    assert "internal error" not in err and "Traceback" not in err, err
    if code == 2:
        assert err.count("\n") == 1 and str(where) in err, err


@pytest.fixture(autouse=True)
def _in_a_scratch_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


@FUZZ
@given(text=baselines())
def test_hostile_baselines(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    baseline = tmp_path / "baseline.json"
    baseline.write_text(text, encoding="utf-8", errors="surrogatepass")
    code = main(["check", "--isolated", "--no-cache", "--baseline", str(baseline), str(SNAPSHOT)])
    _one_line_or_success(code, capsys.readouterr().err, baseline)


@FUZZ
@given(text=overrides_files())
def test_hostile_overrides(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    overrides = tmp_path / "overrides.json"
    overrides.write_text(text, encoding="utf-8", errors="surrogatepass")
    # The proxy reads the overrides before it starts anything: a bad file is exit 2 at once, one line;
    # a good one starts `false`, which ends at once (exit 0 or 3, whichever side saw the end first).
    code = main(["proxy", "--overrides", str(overrides), "--", "false"])
    err = capsys.readouterr().err
    assert code in (0, 2, 3), (code, err)
    _one_line_or_success(0 if code == 3 else code, err, overrides)
