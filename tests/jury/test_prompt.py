"""The judge prompt: its wording is pinned to PROMPT_VERSION, which with the rubric version keys the cache."""

from __future__ import annotations

import dataclasses

import pytest

from mcp_lint.config import JurySettings
from mcp_lint.jury import prompt, run
from mcp_lint.jury.prompt import PROMPT_VERSION, prompt_text_sha256
from mcp_lint.jury.rubric import load_rubric
from mcp_lint.jury.run import live_cache_keys
from mcp_lint.model import ServerSnapshot
from mcp_lint.reflect.tools import build_tools

# One line per published prompt version. Changing the system or user template, the delimiters or the
# answer schema changes the hash: bump PROMPT_VERSION in mcp_lint/jury/prompt.py and add the new pair here
# (cached verdicts are keyed by the version, so new wording under an old version would serve stale scores).
KNOWN_VERSIONS = {1: "0fd833169559eb707dc84b698e8b659c57e0885c40ced2e65462d59c63f08272"}


def test_prompt_wording_is_pinned_to_the_version() -> None:
    assert KNOWN_VERSIONS.get(PROMPT_VERSION) == prompt_text_sha256(), (
        "the judge prompt changed without a PROMPT_VERSION bump (or the new version is missing from "
        "KNOWN_VERSIONS)"
    )


@pytest.mark.parametrize("name", ["_SYSTEM_TEMPLATE", "_USER_TEMPLATE", "DATA_BEGIN", "RESPONSE_FORMAT_NAME"])
def test_every_fixed_text_is_in_the_hash(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    before = prompt_text_sha256()
    monkeypatch.setattr(prompt, name, getattr(prompt, name) + " ")
    assert prompt_text_sha256() != before


def test_answer_schema_is_in_the_hash(monkeypatch: pytest.MonkeyPatch) -> None:
    before = prompt_text_sha256()
    monkeypatch.setattr(prompt, "_answer_schema", lambda: '{"type": "object"}')
    assert prompt_text_sha256() != before


def keys() -> frozenset[str]:
    tools = build_tools([{"name": "ping", "description": "Ping."}], "2025-11-25", None)
    settings = JurySettings(models=("openai/judge-a",), cache_path=None)
    return live_cache_keys([ServerSnapshot("s", tools)], settings)


def test_run_cache_keys_carry_the_prompt_and_rubric_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    current = keys()
    monkeypatch.setattr(run, "PROMPT_VERSION", PROMPT_VERSION + 1)
    assert keys().isdisjoint(current)
    monkeypatch.setattr(run, "PROMPT_VERSION", PROMPT_VERSION)
    assert keys() == current
    bumped = dataclasses.replace(load_rubric(), version=load_rubric().version + 1)
    monkeypatch.setattr(run, "load_rubric", lambda: bumped)
    assert keys().isdisjoint(current)
