"""The committed verdict cache: keys, determinism, corruption, concurrent writers, stats and prune."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from fake_llm_server import FakeLLM, llm_settings, make_server

from mcp_lint.jury.base import COMPONENTS
from mcp_lint.jury.cache import CacheEntry, JuryCache, cache_key
from mcp_lint.jury.run import JurySettingsError, live_cache_keys, prune_cache, score_servers

TOOLS = {"alpha": "Alpha does a thing and returns it.", "beta": "Beta does not do that thing."}


def entry(tool: str, model: str = "m", score: int = 3) -> CacheEntry:
    return CacheEntry(
        model=model,
        tool=tool,
        scores=dict.fromkeys(COMPONENTS, score),
        reasons={c: f"{c} reason" for c in COMPONENTS},
        rewrite=f"better {tool}",
    )


def key_for(**changes: object) -> str:
    base: dict[str, object] = {
        "rubric_version": 1,
        "prompt_version": 1,
        "model": "openai/judge-a",
        "sampling": {"temperature": 0},
        "payload": {"name": "t", "description": "d", "siblings": []},
    }
    base.update(changes)
    return cache_key(**base)  # type: ignore[arg-type]


def test_key_depends_on_everything_that_decides_a_verdict() -> None:
    keys = {
        key_for(),
        key_for(rubric_version=2),
        key_for(prompt_version=2),
        key_for(model="openai/judge-b"),
        key_for(sampling={"temperature": 0.5}),
        key_for(payload={"name": "t", "description": "d2", "siblings": []}),
        key_for(payload={"name": "t", "description": "d", "siblings": ["u"]}),
    }
    assert len(keys) == 7
    # Canonical: key order in the payload does not matter.
    assert key_for(payload={"siblings": [], "description": "d", "name": "t"}) == key_for()


def test_roundtrip_and_deterministic_bytes(tmp_path: Path) -> None:
    first, second = JuryCache(tmp_path / "a.json"), JuryCache(tmp_path / "b.json")
    for name in ("zeta", "alpha", "mid"):
        first.put(f"k-{name}", entry(name))
    for name in ("mid", "zeta", "alpha"):
        second.put(f"k-{name}", entry(name))
    first.save()
    second.save()
    data = first.path.read_bytes()
    assert data == second.path.read_bytes()
    assert data.endswith(b"}\n") and not data.endswith(b"\n\n")
    document = json.loads(data)
    assert document["version"] == 1
    assert list(document["entries"]) == ["k-alpha", "k-mid", "k-zeta"]
    assert set(document["entries"]["k-alpha"]) == {"model", "tool", "scores", "reasons", "rewrite"}
    assert data.decode() == json.dumps(document, indent=2, sort_keys=True) + "\n"
    reloaded = JuryCache(first.path)
    assert reloaded.get("k-alpha") == entry("alpha")
    assert reloaded.warnings == []
    assert [p.name for p in tmp_path.iterdir() if p.suffix == ".tmp"] == []


def test_run_file_is_deterministic_and_excludes_endpoint_and_key(
    fake_llm: FakeLLM, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    first, second = tmp_path / "one.json", tmp_path / "two.json"
    score_servers(
        [make_server("s", TOOLS)], llm_settings(fake_llm, first, ("openai/judge-a", "openai/judge-b"))
    )
    score_servers(
        [make_server("s", TOOLS)], llm_settings(fake_llm, second, ("openai/judge-a", "openai/judge-b"))
    )
    assert first.read_bytes() == second.read_bytes()
    text = first.read_text()
    assert "127.0.0.1" not in text and "test-key" not in text and str(fake_llm.port) not in text

    # Same model behind another endpoint with another key: verdicts are reused, no call made.
    monkeypatch.setenv("OPENAI_API_KEY", "another-key")
    with FakeLLM() as other:
        outcome = score_servers(
            [make_server("s", TOOLS)], llm_settings(other, first, ("openai/judge-a", "openai/judge-b"))
        )
        assert other.calls() == 0
    assert outcome.usage.cache_hits == 4


def test_corrupt_file_is_reported_and_rebuilt(fake_llm: FakeLLM, tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text('{"version": 1, "entries": {', encoding="utf-8")
    cache = JuryCache(path)
    assert len(cache) == 0
    assert len(cache.warnings) == 1 and "corrupt" in cache.warnings[0]

    outcome = score_servers([make_server("s", TOOLS)], llm_settings(fake_llm, path))
    assert any("corrupt" in w and "rebuilding" in w for w in outcome.warnings)
    assert fake_llm.calls() == 2
    rebuilt = JuryCache(path)
    assert rebuilt.warnings == [] and len(rebuilt) == 2


def test_unexpected_version_and_malformed_entries(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_text(json.dumps({"version": 99, "entries": {}}), encoding="utf-8")
    assert "version 99" in JuryCache(path).warnings[0]
    good = entry("ok").to_json()
    bad = dict(good, scores={"purpose": 9})
    path.write_text(json.dumps({"version": 1, "entries": {"g": good, "b": bad, "n": None}}), encoding="utf-8")
    cache = JuryCache(path)
    assert list(cache.keys()) == ["g"]
    assert cache.warnings == [f"jury cache {path} is corrupt (dropped 2 malformed entries); rebuilding it"]


def test_refresh_overwrites_entries(fake_llm: FakeLLM, tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    score_servers([make_server("s", TOOLS)], llm_settings(fake_llm, path))
    original = path.read_text()
    document = json.loads(original)
    for value in document["entries"].values():
        value["scores"] = dict.fromkeys(COMPONENTS, 5)
    path.write_text(json.dumps(document), encoding="utf-8")
    tampered = score_servers([make_server("s", TOOLS)], llm_settings(fake_llm, path))
    assert all(v == 5 for t in tampered.tools.values() for v in t.aggregate.values())
    refreshed = score_servers([make_server("s", TOOLS)], llm_settings(fake_llm, path, refresh=True))
    assert not all(v == 5 for t in refreshed.tools.values() for v in t.aggregate.values())
    assert path.read_text() == original


def test_no_cache_writes_nothing(fake_llm: FakeLLM, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    score_servers([make_server("s", TOOLS)], llm_settings(fake_llm, None))
    score_servers([make_server("s", TOOLS)], llm_settings(fake_llm, None))
    assert fake_llm.calls() == 4
    assert list(tmp_path.iterdir()) == []


def test_save_merges_entries_added_by_someone_else(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    mine, theirs = JuryCache(path), JuryCache(path)
    mine.put("mine", entry("a"))
    theirs.put("theirs", entry("b"))
    theirs.save()
    mine.save()
    assert set(JuryCache(path).keys()) == {"mine", "theirs"}


ROUNDS = 40
WRITER = textwrap.dedent(
    """
    import sys
    from pathlib import Path
    from mcp_lint.jury.base import COMPONENTS
    from mcp_lint.jury.cache import CacheEntry, JuryCache

    path, tag = Path(sys.argv[1]), sys.argv[2]
    # Start together, so the two writers' load-modify-save cycles really interleave: say we are
    # ready (imports done), then wait for the test's go line.
    print("ready", flush=True)
    sys.stdin.readline()
    for round_ in range(ROUNDS):
        cache = JuryCache(path)
        assert not cache.warnings, cache.warnings
        for i in range(4):
            name = f"{tag}-{round_}-{i}"
            cache.put(name, CacheEntry(model=tag, tool=name, scores=dict.fromkeys(COMPONENTS, 2)))
        cache.save()
    """
)


def test_two_processes_writing_concurrently_keep_both_sets(tmp_path: Path) -> None:
    path = tmp_path / "shared" / "jury-cache.json"
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", WRITER.replace("ROUNDS", str(ROUNDS)), str(path), tag],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for tag in ("left", "right")
    ]
    for proc in procs:
        assert proc.stdout is not None and proc.stdout.readline() == "ready\n"
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write("go\n")
        proc.stdin.flush()
    for proc in procs:
        _, err = proc.communicate()
        assert proc.returncode == 0, err
    cache = JuryCache(path)
    assert cache.warnings == []
    assert len(cache) == 2 * ROUNDS * 4
    assert cache.stats().models == {"left": ROUNDS * 4, "right": ROUNDS * 4}
    assert sorted(p.name for p in path.parent.iterdir()) == ["jury-cache.json", "jury-cache.json.lock"]


def test_stats_and_prune(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    cache = JuryCache(path)
    assert cache.stats().entries == 0 and cache.stats().size_bytes == 0
    cache.put("a", entry("a", model="m1"))
    cache.put("b", entry("b", model="m2"))
    cache.put("c", entry("c", model="m2"))
    cache.save()
    stats = cache.stats()
    assert stats.entries == 3 and stats.models == {"m1": 1, "m2": 2}
    assert stats.size_bytes == path.stat().st_size > 0
    assert cache.prune({"a", "c", "zzz"}) == {"b": entry("b", model="m2")}
    assert set(JuryCache(path).keys()) == {"a", "c"}
    assert cache.stats().entries == 2


def test_prune_only_touches_the_models_named_and_a_dry_run_writes_nothing(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    cache = JuryCache(path)
    for key, model in (("a1", "m1"), ("a2", "m1"), ("b1", "m2"), ("b2", "m2")):
        cache.put(key, entry(key, model=model))
    cache.save()
    before = path.read_bytes()
    assert set(cache.prune(set(), models=["m2"], dry_run=True)) == {"b1", "b2"}
    assert path.read_bytes() == before and len(cache) == 4
    assert cache.prune({"b2"}, models=["m2", "m3"]) == {"b1": entry("b1", model="m2")}
    assert set(JuryCache(path).keys()) == {"a1", "a2", "b2"}
    assert cache.prune(set(), models=["m3"]) == {}
    assert set(JuryCache(path).keys()) == {"a1", "a2", "b2"}


def test_live_keys_and_prune_keep_exactly_what_a_run_uses(fake_llm: FakeLLM, tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    settings = llm_settings(fake_llm, path, ("openai/judge-a", "openai/judge-b"))
    score_servers([make_server("s", TOOLS)], settings)
    cache = JuryCache(path)
    cache.put("stale", entry("gone", model="openai/judge-a"))
    cache.save()
    live = live_cache_keys([make_server("s", TOOLS)], settings)
    assert len(live) == 4 and live < set(JuryCache(path).keys())
    assert len(prune_cache([make_server("s", TOOLS)], settings).removed) == 1
    assert set(JuryCache(path).keys()) == live
    assert prune_cache([make_server("s", TOOLS)], settings).removed == {}
    with pytest.raises(JurySettingsError, match="no jury models"):
        prune_cache([make_server("s", TOOLS)], llm_settings(fake_llm, path, ()))
    assert set(JuryCache(path).keys()) == live
    assert fake_llm.calls() == 4


def test_unwritable_cache_is_a_warning_not_a_crash(fake_llm: FakeLLM, tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("", encoding="utf-8")
    outcome = score_servers([make_server("s", TOOLS)], llm_settings(fake_llm, blocker / "c.json"))
    assert len(outcome.tools) == 2 and outcome.unscored == ()
    assert any("could not be written" in w for w in outcome.warnings)


GOOD = entry("ok").to_json()
CORRUPTIONS = {
    "bad-bytes": b"\x00\xff",
    "invalid-json": b'{"version": 1, "entries": {',
    "deep-nesting": b"[" * 100_000,
    "not-an-object": b"[1, 2]",
    "entries-not-a-table": json.dumps({"version": 1, "entries": [GOOD]}).encode(),
    "malformed-entries": json.dumps(
        {"version": 1, "entries": {"g": GOOD, "b": dict(GOOD, scores={"purpose": 9}), "n": None}}
    ).encode(),
}


@pytest.mark.parametrize("content", CORRUPTIONS.values(), ids=CORRUPTIONS.keys())
def test_every_kind_of_corruption_is_one_warning_then_rebuilt(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(content)
    cache = JuryCache(path)
    assert len(cache.warnings) == 1, cache.warnings
    assert "is corrupt" in cache.warnings[0] and cache.warnings[0].endswith("rebuilding it")
    assert "\n" not in cache.warnings[0]
    survivors = set(cache.keys())
    assert survivors <= {"g"}
    # Nothing new to add, yet saving rewrites the damaged file, so the warning does not come back.
    cache.save()
    again = JuryCache(path)
    assert again.warnings == [] and set(again.keys()) == survivors


def test_non_utf8_cache_is_rebuilt_by_a_run_not_a_crash(fake_llm: FakeLLM, tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    path.write_bytes(b"\x00\xff")
    outcome = score_servers([make_server("s", TOOLS)], llm_settings(fake_llm, path))
    assert outcome.unscored == () and len(outcome.tools) == 2
    assert [w for w in outcome.warnings if "corrupt" in w] == [
        f"jury cache {path} is corrupt (not UTF-8 text); rebuilding it"
    ]
    assert len(JuryCache(path)) == 2


def test_prune_of_a_missing_file_creates_nothing(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "c.json"
    assert JuryCache(path).prune({"a"}) == {}
    assert JuryCache(path).prune({"a"}, dry_run=True) == {}
    assert list(tmp_path.iterdir()) == []


def test_stats_say_whether_the_file_exists(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    assert JuryCache(path).stats().exists is False
    cache = JuryCache(path)
    cache.put("a", entry("a"))
    cache.save()
    assert JuryCache(path).stats().exists is True


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX permission bits")
def test_saved_cache_gets_normal_permissions(tmp_path: Path) -> None:
    path = tmp_path / "c.json"
    old = os.umask(0o022)
    try:
        cache = JuryCache(path)
        cache.put("a", entry("a"))
        cache.save()
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    # A mode the user chose survives a rewrite.
    path.chmod(0o664)
    cache.put("b", entry("b"))
    cache.save()
    assert stat.S_IMODE(path.stat().st_mode) == 0o664
