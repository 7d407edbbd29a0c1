"""The jury through the command line: LLM judges on 127.0.0.1, the committed cache, exit 4."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from fake_llm_server import FakeLLM

from mcp_lint.cli import main
from mcp_lint.jury.base import COMPONENTS

ROOT = Path(__file__).resolve().parents[2]
SNAPSHOT = ROOT / "tests" / "fixtures" / "golden" / "smelly-snapshot.json"
TOOLS = 5
JUDGES = ("openai/judge-a", "openai/judge-b")


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_llm: FakeLLM) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mcp-lint.toml").write_text(
        "[jury]\n"
        f'models = ["{JUDGES[0]}", "{JUDGES[1]}"]\n'
        f'api-bases = {{ "{JUDGES[0]}" = "{fake_llm.api_base}", "{JUDGES[1]}" = "{fake_llm.api_base}" }}\n'
        "max-retries = 1\n"
        "timeout = 5\n",
        encoding="utf-8",
    )
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict[str, Any], str]:
    code = main(["check", str(SNAPSHOT), "--format", "json", *args])
    captured = capsys.readouterr()
    return code, json.loads(captured.out), captured.err


def test_two_judges_score_every_tool_then_the_cache_answers(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report, _ = run(capsys)
    assert code == 1
    assert fake_llm.calls() == TOOLS * len(JUDGES)
    tools = report["servers"][0]["tools"]
    assert all(sorted(tool["judges"]) == sorted(JUDGES) for tool in tools)
    assert report["jury"]["usage"]["calls"] == TOOLS * len(JUDGES)
    cache = project / ".mcp-lint" / "jury-cache.json"
    first_bytes = cache.read_bytes()
    assert len(json.loads(first_bytes)["entries"]) == TOOLS * len(JUDGES)

    code, warm, _ = run(capsys)
    assert code == 1
    assert fake_llm.calls() == TOOLS * len(JUDGES)  # no new request reached the server
    assert warm["jury"]["usage"]["cacheHits"] == TOOLS * len(JUDGES)
    assert [t["scores"] for t in warm["servers"][0]["tools"]] == [t["scores"] for t in tools]
    assert cache.read_bytes() == first_bytes


def test_frozen_cache_miss_is_exit_4_without_any_call(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report, err = run(capsys, "--frozen", "--fail-on", "none", "--exit-zero")
    assert code == 4
    assert fake_llm.calls() == 0
    assert len(report["jury"]["unscored"]) == TOOLS * len(JUDGES)
    assert err.count("\n") == 1 and "unscored" in err


def test_provider_failure_is_exit_4_with_one_line_and_a_full_report(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_llm.always_fail("500", tool="delete_alert", model="judge-b")
    code, report, err = run(capsys)
    assert code == 4
    unscored = report["jury"]["unscored"]
    assert [(item["tool"], item["judge"]) for item in unscored] == [("delete_alert", JUDGES[1])]
    assert "Traceback" not in err and "delete_alert" in err
    # The deterministic findings are still all there.
    assert report["summary"]["critical"] >= 1
    cache = json.loads((project / ".mcp-lint" / "jury-cache.json").read_text(encoding="utf-8"))
    assert len(cache["entries"]) == TOOLS * len(JUDGES) - 1  # the failure was not cached


def test_no_cache_leaves_no_file(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = run(capsys, "--no-cache")
    assert code == 1
    assert not (project / ".mcp-lint" / "jury-cache.json").exists()


def test_cache_stats_reads_the_committed_file(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys)
    code = main(["cache", "stats"])
    stats = json.loads(capsys.readouterr().out)
    assert code == 0
    assert stats["entries"] == TOOLS * len(JUDGES)


def add_servers(project: Path, **snapshots: str) -> None:
    """List the project's servers (saved snapshots) under [servers] of its mcp-lint.toml."""
    config = project / "mcp-lint.toml"
    tables = "".join(f'\n[servers.{name}]\nsnapshot = "{path}"\n' for name, path in snapshots.items())
    config.write_text(config.read_text(encoding="utf-8") + tables, encoding="utf-8")


def test_cache_prune_drops_entries_of_tools_that_are_gone(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys)
    smaller = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    smaller["tools"] = [tool for tool in smaller["tools"] if tool["name"] != "delete_alert"]
    (project / "tools.json").write_text(json.dumps(smaller), encoding="utf-8")
    add_servers(project, smelly="tools.json")
    code = main(["cache", "prune"])
    out = capsys.readouterr().out
    assert code == 0
    # Every remaining tool's siblings changed too, so only entries for the current payloads survive.
    entries = json.loads((project / ".mcp-lint" / "jury-cache.json").read_text(encoding="utf-8"))["entries"]
    assert "removed" in out
    assert all(entry["tool"] != "delete_alert" for entry in entries.values())


def test_missing_provider_key_fails_fast_without_a_call(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY")
    code, report, err = run(capsys)
    assert code == 4
    assert fake_llm.calls() == 0
    assert {item["reason"].split(" ", 1)[0] for item in report["jury"]["unscored"]} == {"OPENAI_API_KEY"}
    assert "OPENAI_API_KEY is not set" in err and err.count("\n") == 1


def test_frozen_run_needs_no_key_when_the_cache_has_every_verdict(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    run(capsys)
    monkeypatch.delenv("OPENAI_API_KEY")
    code, report, _ = run(capsys, "--frozen")
    assert code == 1 and report["jury"]["unscored"] == []
    assert fake_llm.calls() == TOOLS * len(JUDGES)


@pytest.fixture
def custom_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fake_llm: FakeLLM) -> Path:
    """A project whose pyproject puts the cache elsewhere, linted from a subfolder."""
    (tmp_path / "pyproject.toml").write_text(
        "[tool.mcp-lint.jury]\n"
        f'models = ["{JUDGES[0]}"]\n'
        f'api-bases = {{ "{JUDGES[0]}" = "{fake_llm.api_base}" }}\n'
        'cache = "build/verdicts.json"\n',
        encoding="utf-8",
    )
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    return tmp_path / "build" / "verdicts.json"


def test_cache_commands_use_the_configured_cache_path(
    custom_cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys)
    assert len(json.loads(custom_cache.read_text(encoding="utf-8"))["entries"]) == TOOLS
    assert main(["cache", "stats"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["path"] == str(custom_cache) and stats["entries"] == TOOLS and stats["exists"] is True

    smaller = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    smaller["tools"] = [tool for tool in smaller["tools"] if tool["name"] != "delete_alert"]
    (tmp_path / "tools.json").write_text(json.dumps(smaller), encoding="utf-8")
    pyproject = tmp_path / "pyproject.toml"
    servers = '\n[tool.mcp-lint.servers.smelly]\nsnapshot = "tools.json"\n'
    pyproject.write_text(pyproject.read_text(encoding="utf-8") + servers, encoding="utf-8")
    assert main(["cache", "prune"]) == 0
    assert capsys.readouterr().out == f"removed {TOOLS} stale entries from {custom_cache}\n"
    assert json.loads(custom_cache.read_text(encoding="utf-8"))["entries"] == {}
    # Nothing appeared at the default location.
    assert not list(tmp_path.rglob(".mcp-lint"))


def test_cache_stats_on_a_missing_file_says_so_and_creates_nothing(
    custom_cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cache", "stats"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["exists"] is False
    assert (
        captured.err == f"mcp-lint: no jury cache at {custom_cache} yet; a check with LLM judges creates it\n"
    )
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["pyproject.toml", "sub"]


def test_cache_prune_on_a_missing_file_has_nothing_to_prune(
    custom_cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["cache", "prune"]) == 0
    assert capsys.readouterr().out == f"no jury cache at {custom_cache}; nothing to prune\n"
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["pyproject.toml", "sub"]


def test_cache_file_flag_is_relative_to_the_working_directory(
    custom_cache: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, _ = run(capsys, "--cache-file", "here.json")
    assert code == 1 and (tmp_path / "sub" / "here.json").is_file() and not custom_cache.exists()
    assert main(["cache", "stats", "--cache-file", "here.json"]) == 0
    assert json.loads(capsys.readouterr().out)["entries"] == TOOLS


def test_cache_prune_refuses_when_a_server_cannot_be_reflected(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    run(capsys)
    add_servers(project, smelly=str(SNAPSHOT))
    with (project / "mcp-lint.toml").open("a", encoding="utf-8") as config:
        config.write(
            f'\n[servers.broken]\ncommand = [{json.dumps(sys.executable)}, "-c", "raise SystemExit(1)"]\n'
        )
    code = main(["cache", "prune", "--timeout", "5"])
    err = capsys.readouterr().err
    # Exit 3 like any unreachable server, and the verdicts of its tools are kept.
    assert code == 3 and err.startswith("mcp-lint: error: not pruning: ") and err.count("\n") == 1
    entries = json.loads((project / ".mcp-lint" / "jury-cache.json").read_text(encoding="utf-8"))["entries"]
    assert len(entries) == TOOLS * len(JUDGES)


TIME_TOOLS = {
    "get_current_time": "Get the current time in a given IANA time zone, e.g. Europe/Paris.",
    "convert_time": "Convert a time between two IANA time zones.",
}


@pytest.fixture
def two_servers(project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]) -> Path:
    """A committed cache with both judges' verdicts on two servers, `weather` and `time`, both listed
    under [servers]; then `time` loses a tool, so its remaining verdicts (and the gone one's) are stale."""
    tools = [
        {"name": name, "description": text, "inputSchema": {"type": "object"}}
        for name, text in TIME_TOOLS.items()
    ]
    (project / "weather.json").write_text(SNAPSHOT.read_text(encoding="utf-8"), encoding="utf-8")
    (project / "time.json").write_text(json.dumps({"name": "time", "tools": tools}), encoding="utf-8")
    for name in ("weather.json", "time.json"):
        assert main(["check", name, "--format", "json", "--profile", "strict"]) == 1
    capsys.readouterr()
    (project / "time.json").write_text(json.dumps({"name": "time", "tools": tools[:1]}), encoding="utf-8")
    add_servers(project, weather="weather.json", time="time.json")
    cache = project / ".mcp-lint" / "jury-cache.json"
    assert len(json.loads(cache.read_text(encoding="utf-8"))["entries"]) == (TOOLS + 2) * len(JUDGES)
    assert fake_llm.calls() == (TOOLS + 2) * len(JUDGES)
    return cache


def cached_tools(cache: Path) -> list[tuple[str, str]]:
    entries = json.loads(cache.read_text(encoding="utf-8"))["entries"].values()
    return sorted((entry["model"], entry["tool"]) for entry in entries)


@pytest.mark.parametrize(
    "args",
    [
        ["time.json"],
        ["time.json", "--jury", JUDGES[0]],
        ["--server", "time"],
        ["--url", "http://127.0.0.1:9/mcp"],
        ["--", sys.executable, "server.py"],
    ],
)
def test_cache_prune_refuses_a_target_and_keeps_every_other_servers_verdicts(
    two_servers: Path, capsys: pytest.CaptureFixture[str], args: list[str]
) -> None:
    before = two_servers.read_bytes()
    code = main(["cache", "prune", *args])
    captured = capsys.readouterr()
    assert code == 2 and captured.out == ""
    assert captured.err.startswith("mcp-lint: error: cache prune takes no target (")
    assert "the cache does not record which server a verdict is for" in captured.err
    assert captured.err.count("\n") == 1
    assert two_servers.read_bytes() == before


def test_cache_prune_reflects_every_project_server_and_drops_only_the_stale_verdicts(
    two_servers: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    weather = [(model, tool) for model, tool in cached_tools(two_servers) if tool not in TIME_TOOLS]
    assert main(["cache", "prune"]) == 0
    # time's remaining tool has new siblings, so both of its verdicts are stale too: 2 tools x 2 judges.
    assert capsys.readouterr().out == f"removed 4 stale entries from {two_servers}\n"
    assert cached_tools(two_servers) == weather


def test_cache_prune_of_one_judge_never_touches_another_judges_verdicts(
    two_servers: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = two_servers.read_bytes()
    # A judge with no entry (a typo, or one never run) removes nothing at all.
    assert main(["cache", "prune", "--jury", "openai/judge-c"]) == 0
    captured = capsys.readouterr()
    assert two_servers.read_bytes() == before
    assert captured.out == (
        f"removed 0 stale entries from {two_servers}\n"
        f"kept {(TOOLS + 2) * 2} entries of judges not pruned: {JUDGES[0]} ({TOOLS + 2}), {JUDGES[1]} "
        f"({TOOLS + 2}); name them with --jury to prune them\n"
    )
    assert captured.err == (
        "mcp-lint: warning: the cache has no entry of judge 'openai/judge-c'; `mcp-lint cache stats` "
        "lists the judges it has\n"
    )
    # One judge named: only its stale verdicts go; the other judge's, stale or not, all stay.
    assert main(["cache", "prune", "--jury", JUDGES[1]]) == 0
    assert capsys.readouterr().out.splitlines()[0] == f"removed 2 stale entries from {two_servers}"
    remaining = cached_tools(two_servers)
    assert sum(1 for model, _ in remaining if model == JUDGES[0]) == TOOLS + 2
    assert [tool for model, tool in remaining if model == JUDGES[1] and tool in TIME_TOOLS] == []


def test_cache_prune_dry_run_lists_what_would_go_and_writes_nothing(
    two_servers: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = two_servers.read_bytes()
    lock = two_servers.with_name(two_servers.name + ".lock")
    lock.unlink(missing_ok=True)
    assert main(["cache", "prune", "--dry-run"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert two_servers.read_bytes() == before and not lock.exists()
    assert lines[-1] == f"would remove 4 stale entries from {two_servers} (dry run: nothing written)"
    listed = sorted((line.split()[3], line.split()[4]) for line in lines[:-1])
    assert listed == sorted((model, tool) for model in JUDGES for tool in TIME_TOOLS)
    assert all(line.startswith("would remove ") for line in lines)
    # The real run removes exactly what the dry run listed.
    assert main(["cache", "prune"]) == 0
    assert capsys.readouterr().out == f"removed 4 stale entries from {two_servers}\n"


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--no-cache", "--frozen"], "--no-cache and --frozen cannot be combined"),
        (["--no-cache", "--refresh"], "--no-cache and --refresh cannot be combined"),
        (["--no-cache", "--cache-file", "x.json"], "--no-cache and --cache-file cannot be combined"),
        (["--refresh", "--frozen"], "--refresh and --frozen cannot be combined"),
    ],
)
def test_contradictory_cache_flags_are_usage_errors(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str], flags: list[str], message: str
) -> None:
    code = main(["check", str(SNAPSHOT), *flags])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith(f"mcp-lint: error: {message}") and err.count("\n") == 1
    assert fake_llm.calls() == 0


@pytest.mark.parametrize("model", ["", "foo"])
def test_invalid_model_id_is_a_usage_error_before_any_call(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str], model: str
) -> None:
    code = main(["check", str(SNAPSHOT), "--jury", model])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1
    assert "e.g. openai/gpt-4.1-mini" in err and "LLM Provider NOT provided" not in err
    assert fake_llm.calls() == 0


def test_non_utf8_cache_is_one_warning_and_rebuilt(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = project / ".mcp-lint" / "jury-cache.json"
    cache.parent.mkdir()
    cache.write_bytes(b"\x00\xff")
    code, _, err = run(capsys)
    assert code == 1
    assert err == f"mcp-lint: warning: jury cache {cache} is corrupt (not UTF-8 text); rebuilding it\n"
    assert len(json.loads(cache.read_text(encoding="utf-8"))["entries"]) == TOOLS * len(JUDGES)


def test_cache_stats_on_a_corrupt_cache_does_not_claim_to_rebuild_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = project / ".mcp-lint" / "jury-cache.json"
    cache.parent.mkdir()
    cache.write_bytes(b"\x00\xff")
    code = main(["cache", "stats"])
    err = capsys.readouterr().err
    assert code == 0 and cache.read_bytes() == b"\x00\xff"  # stats reads; it never writes
    assert "is corrupt (not UTF-8 text); a check with LLM judges rebuilds it" in err


def test_cost_is_reported_for_priced_models_and_the_unpriced_ones_are_named(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    priced = "openai/gpt-4o-mini"
    base = ["--jury", priced, "--jury", JUDGES[0], "--no-cache"]
    bases = ", ".join(f'"{model}" = "{fake_llm.api_base}"' for model in (priced, JUDGES[0]))
    (project / "mcp-lint.toml").write_text(f"[jury]\napi-bases = {{ {bases} }}\n", encoding="utf-8")
    code, report, _ = run(capsys, *base)
    assert code == 1
    usage = report["jury"]["usage"]
    assert usage["unpricedModels"] == [JUDGES[0]]
    assert usage["costUsd"] > 0 and usage["costUsd"] == usage["models"][priced]["costUsd"]
    assert usage["models"][JUDGES[0]]["costUsd"] is None

    code = main(["check", str(SNAPSHOT), "--format", "text", "--no-color", *base])
    last = capsys.readouterr().out.splitlines()[-1]
    assert code == 1
    assert last.startswith(f"jury: {priced}, {JUDGES[0]}; {TOOLS * 2} calls, 0 cached;")
    assert f"${usage['costUsd']:.4f} without {JUDGES[0]} (litellm has no price for it)" in last


def test_text_report_says_which_pairs_were_not_scored_and_why(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    fake_llm.always_fail("500", tool="delete_alert", model="judge-b")
    code = main(["check", str(SNAPSHOT), "--format", "text", "--no-color"])
    captured = capsys.readouterr()
    assert code == 4
    lines = captured.out.splitlines()
    start = lines.index("not scored: 1 tool/judge pair (rubric findings for those tools may be missing):")
    assert lines[start + 1].startswith(
        f"  1 by judge {JUDGES[1]} on tool delete_alert: InternalServerError 500"
    )
    assert "see above" not in captured.out
    assert captured.err.count("\n") == 1 and "delete_alert" in captured.err


def test_jury_offline_overrides_the_configured_judges(
    project: Path, fake_llm: FakeLLM, capsys: pytest.CaptureFixture[str]
) -> None:
    code, report, _ = run(capsys, "--jury", "offline")
    assert code == 1  # the smelly snapshot has findings either way
    assert fake_llm.calls() == 0
    assert report["jury"]["judges"] == ["offline"]
    assert not (project / ".mcp-lint" / "jury-cache.json").exists()
    assert all(set(tool["scores"]) == set(COMPONENTS) for tool in report["servers"][0]["tools"])

    code = main(["check", str(SNAPSHOT), "--jury", "offline", "--jury", JUDGES[0]])
    err = capsys.readouterr().err
    assert code == 2 and fake_llm.calls() == 0
    assert err.count("\n") == 1 and "--jury offline" in err

    code = main(["cache", "prune", "--jury", "offline"])
    err = capsys.readouterr().err
    assert code == 2 and "offline jury keeps no cache" in err
