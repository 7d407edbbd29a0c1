"""Settings: discovery (nearest file wins), parsing, validation messages and `--show-settings`."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.config import (
    FAIL_ON_CHOICES,
    JurySettings,
    RuleOverride,
    Settings,
    ToolIgnore,
    find_config,
    jury_settings,
    load_settings,
    parse_settings,
    read_config,
)
from mcp_lint.errors import EXIT_USAGE, McpLintError, UsageError
from mcp_lint.model import OFFLINE_JURY, Severity

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "configs"
README_TOML = (FIXTURES / "mcp-lint.toml").read_text(encoding="utf-8")


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def usage_error(table: dict[str, object], path: Path | None = None) -> str:
    """Parse `table`, expect a UsageError, check it is one line, and return its message."""
    with pytest.raises(UsageError) as caught:
        parse_settings(table, path)
    message = str(caught.value)
    assert "\n" not in message, message
    return message


# --------------------------------------------------------------------------- find_config


def test_find_config_dotfile_beats_plain_name_and_pyproject_in_same_folder(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.mcp-lint]\ntimeout = 1\n")
    write(tmp_path / "mcp-lint.toml", "timeout = 2\n")
    write(tmp_path / ".mcp-lint.toml", "timeout = 3\n")
    assert find_config(tmp_path) == (tmp_path / ".mcp-lint.toml").resolve()


def test_find_config_plain_name_beats_pyproject_in_same_folder(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.mcp-lint]\ntimeout = 1\n")
    write(tmp_path / "mcp-lint.toml", "timeout = 2\n")
    assert find_config(tmp_path) == (tmp_path / "mcp-lint.toml").resolve()


def test_find_config_pyproject_with_section_is_found(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n\n[tool.mcp-lint]\nfail-on = "high"\n')
    assert find_config(tmp_path) == (tmp_path / "pyproject.toml").resolve()


def test_find_config_pyproject_with_only_subtables_counts(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", "[tool.mcp-lint.rules]\nMCP204 = 'high'\n")
    assert find_config(tmp_path) == (tmp_path / "pyproject.toml").resolve()


def test_find_config_pyproject_without_section_is_skipped_and_search_continues_up(tmp_path: Path) -> None:
    write(tmp_path / "mcp-lint.toml", 'fail-on = "high"\n')
    project = tmp_path / "project"
    write(project / "pyproject.toml", '[project]\nname = "x"\n\n[tool.ruff]\nline-length = 100\n')
    assert find_config(project) == (tmp_path / "mcp-lint.toml").resolve()


def test_find_config_nearest_wins_walking_up_from_a_subfolder(tmp_path: Path) -> None:
    write(tmp_path / ".mcp-lint.toml", "timeout = 1\n")
    write(tmp_path / "repo" / "pyproject.toml", "[tool.mcp-lint]\ntimeout = 2\n")
    deep = tmp_path / "repo" / "src" / "pkg"
    deep.mkdir(parents=True)
    assert find_config(deep) == (tmp_path / "repo" / "pyproject.toml").resolve()


def test_find_config_returns_an_absolute_path_for_a_relative_start(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write(tmp_path / "mcp-lint.toml", "timeout = 2\n")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path)
    found = find_config(Path("sub"))
    assert found is not None
    assert found.is_absolute()
    assert found == (tmp_path / "mcp-lint.toml").resolve()


def test_find_config_ignores_a_folder_named_like_a_config(tmp_path: Path) -> None:
    (tmp_path / "sub" / ".mcp-lint.toml").mkdir(parents=True)
    write(tmp_path / "mcp-lint.toml", "timeout = 2\n")
    assert find_config(tmp_path / "sub") == (tmp_path / "mcp-lint.toml").resolve()


def test_find_config_none_when_nothing_up_the_tree(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n')
    assert find_config(tmp_path) is None


def test_broken_pyproject_with_section_is_an_error_not_silently_skipped(tmp_path: Path) -> None:
    write(tmp_path / "pyproject.toml", '[tool.mcp-lint]\nfail-on = "high\n')
    with pytest.raises(UsageError, match=r"pyproject\.toml"):
        load_settings(start=tmp_path)


# --------------------------------------------------------------------------- read_config / load_settings


def test_load_settings_defaults_without_config(tmp_path: Path) -> None:
    settings = load_settings(start=tmp_path)
    assert settings == Settings()
    assert settings.config_path is None


def test_load_settings_uses_cwd_when_no_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "mcp-lint.toml", 'fail-on = "critical"\n')
    monkeypatch.chdir(tmp_path)
    settings = load_settings()
    assert settings.fail_on == "critical"
    assert settings.config_path == (tmp_path / "mcp-lint.toml").resolve()


def test_load_settings_isolated_ignores_every_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    config = write(tmp_path / "mcp-lint.toml", 'fail-on = "critical"\n')
    monkeypatch.chdir(tmp_path)
    assert load_settings(isolated=True) == Settings()
    # As in ruff, asking for a file and for no file at once is a usage error, not a silent choice.
    with pytest.raises(UsageError, match="--config and --isolated"):
        load_settings(config, isolated=True)


def test_load_settings_explicit_config_skips_discovery(tmp_path: Path) -> None:
    write(tmp_path / "project" / ".mcp-lint.toml", 'fail-on = "critical"\n')
    other = write(tmp_path / "ci" / "strict.toml", 'fail-on = "info"\ntimeout = 5\n')
    settings = load_settings(other, start=tmp_path / "project")
    assert settings.fail_on == "info"
    assert settings.timeout == 5.0
    assert settings.config_path == other


def test_files_are_not_merged_nearest_replaces_parent(tmp_path: Path) -> None:
    write(tmp_path / "mcp-lint.toml", 'fail-on = "high"\nselect = ["MCP1"]\n')
    write(tmp_path / "child" / "mcp-lint.toml", "timeout = 5\n")
    settings = load_settings(start=tmp_path / "child")
    assert settings.timeout == 5.0
    assert settings.fail_on == "low"
    assert settings.select == ()


def test_pyproject_section_is_read_and_base_dir_is_its_folder(tmp_path: Path) -> None:
    write(
        tmp_path / "pyproject.toml",
        '[project]\nname = "demo"\n\n[tool.ruff]\nline-length = 99\n\n'
        '[tool.mcp-lint]\nselect = ["MCP2"]\nfail-on = "high"\n\n'
        '[tool.mcp-lint.servers.saved]\nsnapshot = "tools.json"\n',
    )
    settings = load_settings(start=tmp_path)
    assert settings.select == ("MCP2",)
    assert settings.fail_on == "high"
    assert settings.servers == {"saved": {"snapshot": "tools.json"}}
    assert settings.base_dir == tmp_path.resolve()


def test_pyproject_keys_outside_the_section_are_not_validated(tmp_path: Path) -> None:
    path = write(tmp_path / "pyproject.toml", "[tool.mcp-lint]\ntimeout = 9\n\n[tool.other]\nweird = 1\n")
    assert read_config(path) == {"timeout": 9}


def test_base_dir_is_cwd_without_a_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert Settings().base_dir == Path.cwd()


def test_readme_example_loads_with_exact_values(tmp_path: Path) -> None:
    path = write(tmp_path / "mcp-lint.toml", README_TOML)
    settings = load_settings(path)
    assert settings.select == ("MCP",)
    assert settings.ignore == ("MCP102", "missing-annotations")
    assert settings.fail_on == "moderate"
    assert settings.fail_on == "moderate"
    assert settings.timeout == 20.0
    assert isinstance(settings.timeout, float)
    assert settings.rules == {
        "description-too-long": RuleOverride(options={"max-tokens": 800}),
        "MCP204": RuleOverride(severity=Severity.HIGH),
        "MCP403": RuleOverride(enabled=False, reason="our get_/fetch_ pairs are intentional"),
    }
    assert settings.per_tool_ignores == (
        ToolIgnore("legacy_*", ("MCP202",), "kept for old clients; schema frozen"),
        ToolIgnore("filesystem/write_file", ("MCP502",), "annotations reviewed by hand"),
    )
    assert settings.servers == {
        "local": {"command": ["python", "server.py"], "env": {"LOG_LEVEL": "error"}},
        "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${API_TOKEN}"}},
        "saved": {"snapshot": "tests/tools.json"},
    }
    assert settings.jury == JurySettings(
        models=("openai/gpt-4.1-mini", "ollama/qwen3"),
        api_bases={"ollama/qwen3": "http://127.0.0.1:11434"},
        concurrency=8,
        aggregate="median",
        cache_path=Path(".mcp-lint/jury-cache.json"),
    )
    assert settings.config_path == path
    assert settings.base_dir == tmp_path


def test_readme_example_inside_pyproject_matches_the_standalone_file(tmp_path: Path) -> None:
    standalone = load_settings(write(tmp_path / "a" / "mcp-lint.toml", README_TOML))
    prefixed = README_TOML.replace("[rules]", "[tool.mcp-lint.rules]")
    prefixed = prefixed.replace("[per-tool-ignores]", "[tool.mcp-lint.per-tool-ignores]")
    prefixed = prefixed.replace("[servers.", "[tool.mcp-lint.servers.").replace(
        "[jury]", "[tool.mcp-lint.jury]"
    )
    prefixed = "[tool.mcp-lint]\n" + prefixed
    from_pyproject = load_settings(write(tmp_path / "b" / "pyproject.toml", prefixed))
    assert dataclasses.replace(from_pyproject, config_path=None) == dataclasses.replace(
        standalone, config_path=None
    )


def test_explicit_config_that_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "nope.toml"
    with pytest.raises(UsageError) as caught:
        load_settings(missing)
    assert str(caught.value) == f"{missing}: config file not found"
    assert caught.value.exit_code == EXIT_USAGE


def test_invalid_toml_names_the_file_and_position_on_one_line(tmp_path: Path) -> None:
    path = write(tmp_path / ".mcp-lint.toml", 'fail-on = "high"\nselect = [MCP1]\n')
    with pytest.raises(UsageError) as caught:
        load_settings(start=tmp_path)
    message = str(caught.value)
    assert message.startswith(f"{path.resolve()}: not valid TOML: ")
    assert "line 2" in message
    assert "\n" not in message


def test_explicit_pyproject_without_section_gives_defaults(tmp_path: Path) -> None:
    path = write(tmp_path / "pyproject.toml", '[project]\nname = "x"\n')
    settings = load_settings(path)
    assert dataclasses.replace(settings, config_path=None) == Settings()
    assert settings.config_path == path


def test_config_that_is_not_utf8_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "mcp-lint.toml"
    path.write_bytes(b'fail-on = "h\xefgh"\n')
    with pytest.raises(UsageError, match=r"mcp-lint\.toml"):
        load_settings(path)


# --------------------------------------------------------------------------- parse_settings: top level


def test_defaults() -> None:
    settings = parse_settings({}, None)
    assert settings == Settings()
    assert settings.select == ()
    assert settings.ignore == ()
    assert settings.fail_on == "low"
    assert settings.fail_on == "low"
    assert settings.timeout == 30.0
    assert settings.jury == JurySettings()


def test_settings_are_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Settings().fail_on = "high"  # type: ignore[misc]


@pytest.mark.parametrize("key", ["fail_on", "per_tool_ignores", "selct", "output-format"])
def test_unknown_top_level_key_names_it_the_file_and_the_allowed_keys(key: str, tmp_path: Path) -> None:
    path = tmp_path / "mcp-lint.toml"
    message = usage_error({"timeout": 3, key: "x"}, path)
    assert message == (
        f"{path}: unknown key {key!r}; allowed keys: "
        "fail-on, ignore, jury, min-score, per-tool-ignores, profile, rules, select, servers, timeout"
    )


def test_unknown_key_without_a_path_says_settings() -> None:
    assert usage_error({"colour": True}).startswith("settings: unknown key 'colour'")


def test_unknown_keys_reported_alphabetically_first() -> None:
    assert "unknown key 'alpha'" in usage_error({"zulu": 1, "alpha": 2})


def test_select_and_ignore_lists() -> None:
    settings = parse_settings({"select": ["MCP1", "phantom-parameter"], "ignore": ["MCP102"]}, None)
    assert settings.select == ("MCP1", "phantom-parameter")
    assert settings.ignore == ("MCP102",)


def test_select_single_string_is_one_selector() -> None:
    assert parse_settings({"select": "MCP2"}, None).select == ("MCP2",)


@pytest.mark.parametrize("value", [3, ["MCP1", 2], {"a": "b"}])
def test_select_not_strings(value: object, tmp_path: Path) -> None:
    path = tmp_path / "mcp-lint.toml"
    assert usage_error({"select": value}, path) == f"{path}: select: expected a list of strings"


def test_ignore_not_strings() -> None:
    assert usage_error({"ignore": [1]}) == "settings: ignore: expected a list of strings"


@pytest.mark.parametrize("choice", FAIL_ON_CHOICES)
def test_fail_on_every_choice(choice: str) -> None:
    settings = parse_settings({"fail-on": choice}, None)
    assert settings.fail_on == choice


def test_fail_on_is_case_insensitive() -> None:
    assert parse_settings({"fail-on": "HIGH"}, None).fail_on == "high"


@pytest.mark.parametrize("value", ["severe", "medium", "warning"])
def test_fail_on_unknown_lists_choices(value: str, tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    assert usage_error({"fail-on": value}, path) == (
        f"{path}: fail-on {value!r} is not one of info, low, moderate, high, critical, none"
    )


@pytest.mark.parametrize(("value", "expected"), [(5, 5.0), (0.5, 0.5), (120, 120.0)])
def test_timeout_accepts_positive_numbers(value: float, expected: float) -> None:
    timeout = parse_settings({"timeout": value}, None).timeout
    assert timeout == expected
    assert isinstance(timeout, float)


@pytest.mark.parametrize("value", [0, -1, "30", "30s"])
def test_timeout_rejects_non_positive_or_text(value: object) -> None:
    assert usage_error({"timeout": value}) == "settings: timeout must be a positive number of seconds"


def test_timeout_rejects_boolean() -> None:
    usage_error({"timeout": True})


# --------------------------------------------------------------------------- rules


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("off", RuleOverride(enabled=False)),
        ("OFF", RuleOverride(enabled=False)),
        (
            "off -- our get_/fetch_ pairs are intentional",
            RuleOverride(enabled=False, reason="our get_/fetch_ pairs are intentional"),
        ),
        ("off--no space needed", RuleOverride(enabled=False, reason="no space needed")),
        ("off -- ", RuleOverride(enabled=False)),
        ("on", RuleOverride()),
        ("high", RuleOverride(severity=Severity.HIGH)),
        ("Critical", RuleOverride(severity=Severity.CRITICAL)),
        (" info ", RuleOverride(severity=Severity.INFO)),
        ("moderate -- matters for our agents", RuleOverride(severity=Severity.MODERATE)),
    ],
)
def test_rule_override_strings(value: str, expected: RuleOverride) -> None:
    assert parse_settings({"rules": {"MCP204": value}}, None).rules == {"MCP204": expected}


def test_rule_override_table_with_options_severity_and_enabled() -> None:
    rules = parse_settings(
        {
            "rules": {
                "description-too-long": {"max-tokens": 800, "severity": "high"},
                "MCP403": {"enabled": False},
            }
        },
        None,
    ).rules
    assert rules["description-too-long"] == RuleOverride(
        enabled=True, severity=Severity.HIGH, options={"max-tokens": 800}
    )
    assert rules["MCP403"] == RuleOverride(enabled=False, severity=None, options={})


def test_a_rule_table_takes_a_reason_that_is_no_option() -> None:
    rules = parse_settings({"rules": {"MCP403": {"enabled": False, "reason": " reviewed "}}}, None).rules
    assert rules["MCP403"] == RuleOverride(enabled=False, reason="reviewed")
    assert usage_error({"rules": {"MCP403": {"enabled": False, "reason": 3}}}) == (
        "settings: rules.MCP403.reason: expected a string"
    )


def test_profile_and_min_score() -> None:
    settings = parse_settings({"profile": "STRICT", "min-score": 2}, None)
    assert (settings.profile, settings.min_score) == ("strict", 2.0)
    assert Settings().profile == "default" and Settings().min_score is None
    assert usage_error({"profile": "lenient"}) == "settings: profile 'lenient' is not one of default, strict"
    assert usage_error({"min-score": 6}) == "settings: min-score: expected a server score from 1 to 5"
    assert usage_error({"min-score": "2"}) == "settings: min-score: expected a server score from 1 to 5"


def test_rule_keys_are_kept_as_written() -> None:
    rules = parse_settings({"rules": {"MCP204": "high", "phantom-parameter": "low"}}, None).rules
    assert list(rules) == ["MCP204", "phantom-parameter"]


@pytest.mark.parametrize("value", ["hgh", "medium", "", "disabled -- reason"])
def test_rule_override_unknown_severity_string(value: str, tmp_path: Path) -> None:
    path = tmp_path / "mcp-lint.toml"
    message = usage_error({"rules": {"MCP204": value}}, path)
    assert message.startswith(f"{path}: rules.MCP204: unknown severity ")
    assert message.endswith("use one of: info, low, moderate, high, critical, or 'off'")


@pytest.mark.parametrize("value", [3, False, ["off"]])
def test_rule_override_wrong_type(value: object) -> None:
    assert usage_error({"rules": {"MCP204": value}}) == (
        "settings: rules.MCP204: expected 'off', a severity, or a table of options"
    )


def test_rule_override_table_bad_severity_names_the_nested_key() -> None:
    message = usage_error({"rules": {"MCP204": {"severity": "urgent"}}})
    assert message.startswith("settings: rules.MCP204.severity: unknown severity 'urgent'")


def test_rules_must_be_a_table() -> None:
    assert usage_error({"rules": ["MCP204"]}) == "settings: rules must be a table"


def test_rule_enabled_must_be_a_boolean() -> None:
    message = usage_error({"rules": {"MCP403": {"enabled": "false"}}})
    assert "rules.MCP403.enabled" in message


def test_rule_table_severity_must_be_a_string() -> None:
    message = usage_error({"rules": {"MCP204": {"severity": 3}}})
    assert "rules.MCP204.severity" in message


# --------------------------------------------------------------------------- per-tool-ignores


def test_per_tool_ignores_exact_values() -> None:
    ignores = parse_settings(
        {
            "per-tool-ignores": {
                "legacy_*": {"codes": ["MCP202", "MCP203"], "reason": "frozen schema"},
                "filesystem/write_file": {"codes": "MCP502", "reason": "reviewed"},
                "debug_*": {"reason": "internal tools, never shipped"},
            }
        },
        None,
    ).per_tool_ignores
    assert ignores == (
        ToolIgnore("legacy_*", ("MCP202", "MCP203"), "frozen schema"),
        ToolIgnore("filesystem/write_file", ("MCP502",), "reviewed"),
        ToolIgnore("debug_*", (), "internal tools, never shipped"),
    )


@pytest.mark.parametrize("entry", [{"codes": ["MCP202"]}, {"codes": ["MCP202"], "reason": "   "}])
def test_per_tool_ignore_requires_a_reason(entry: dict[str, object], tmp_path: Path) -> None:
    path = tmp_path / "mcp-lint.toml"
    message = usage_error({"per-tool-ignores": {"legacy_*": entry}}, path)
    assert message == (
        f"{path}: per-tool-ignores.'legacy_*': "
        "a 'reason' is required so reviewers know why the finding is fine"
    )


def test_per_tool_ignore_ruff_style_list_is_rejected_with_the_expected_shape() -> None:
    message = usage_error({"per-tool-ignores": {"legacy_*": ["MCP202"]}})
    assert message == (
        "settings: per-tool-ignores.'legacy_*': "
        'expected { codes = [...], reason = "..." }; a reason is required'
    )


def test_per_tool_ignore_unknown_key() -> None:
    message = usage_error({"per-tool-ignores": {"x": {"codes": [], "reason": "r", "rule": "MCP1"}}})
    assert message == "settings: per-tool-ignores.'x': unknown key 'rule'; allowed keys: codes, reason"


def test_per_tool_ignore_codes_must_be_strings() -> None:
    message = usage_error({"per-tool-ignores": {"x": {"codes": [202], "reason": "r"}}})
    assert message == "settings: per-tool-ignores.'x'.codes: expected a list of strings"


def test_per_tool_ignores_must_be_a_table() -> None:
    message = usage_error({"per-tool-ignores": ["legacy_*"]})
    assert message == "settings: per-tool-ignores: expected a table of tool patterns"


# --------------------------------------------------------------------------- servers


def test_servers_are_kept_verbatim() -> None:
    servers = {
        "local": {"command": "python", "args": ["server.py"], "env-file": ".env", "cwd": "srv"},
        "remote": {"url": "https://example.com/mcp", "type": "sse", "headers": {"X-Key": "${KEY}"}},
    }
    assert parse_settings({"servers": servers}, None).servers == servers


def test_server_unknown_key_names_server_and_key(tmp_path: Path) -> None:
    path = tmp_path / "mcp-lint.toml"
    message = usage_error({"servers": {"local": {"command": "python", "envFile": ".env"}}}, path)
    assert message == (
        f"{path}: servers.local: unknown key 'envFile'; allowed keys: "
        "args, command, cwd, env, env-file, headers, snapshot, type, url"
    )


@pytest.mark.parametrize("value", [["local"], {"local": "python server.py"}])
def test_servers_must_be_tables(value: object) -> None:
    assert usage_error({"servers": value}) == "settings: servers must be a table of server tables"


def test_server_errors_in_pyproject_name_the_table_as_spelled_there(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    message = usage_error({"servers": {"local": {"cmd": "python"}}}, path)
    assert message.startswith(f"{path}: tool.mcp-lint.servers.local: unknown key 'cmd'; allowed keys: ")
    assert usage_error({"servers": ["local"]}, path) == (
        f"{path}: tool.mcp-lint.servers must be a table of server tables"
    )


# --------------------------------------------------------------------------- jury


def test_jury_every_key() -> None:
    jury = parse_settings(
        {
            "jury": {
                "models": [
                    "openai/gpt-4.1-mini",
                    {"model": "ollama/qwen3", "api-base": "http://127.0.0.1:11434"},
                ],
                "api-bases": {"openai/gpt-4.1-mini": "https://proxy.example.com/v1"},
                "concurrency": 2,
                "aggregate": "min",
                "cache": "build/jury.json",
                "timeout": 15,
                "max-retries": 1,
            }
        },
        None,
    ).jury
    assert jury == JurySettings(
        models=("openai/gpt-4.1-mini", "ollama/qwen3"),
        api_bases={
            "ollama/qwen3": "http://127.0.0.1:11434",
            "openai/gpt-4.1-mini": "https://proxy.example.com/v1",
        },
        concurrency=2,
        aggregate="min",
        cache_path=Path("build/jury.json"),
        timeout=15.0,
        max_retries=1,
    )


def test_jury_api_bases_table_overrides_inline_api_base() -> None:
    jury = parse_settings(
        {"jury": {"models": [{"model": "m", "api-base": "http://a"}], "api-bases": {"m": "http://b"}}}, None
    ).jury
    assert jury.api_bases == {"m": "http://b"}


def test_jury_defaults_when_table_is_empty() -> None:
    assert parse_settings({"jury": {}}, None).jury == JurySettings()


def test_jury_settings_apply_the_command_line_to_the_config(tmp_path: Path) -> None:
    path = write(
        tmp_path / "project" / "mcp-lint.toml",
        '[jury]\nmodels = ["openai/a"]\napi-bases = { "openai/b" = "http://b" }\ncache = "build/j.json"\n',
    )
    settings = load_settings(path)
    configured = jury_settings(settings)
    assert configured == dataclasses.replace(settings.jury, cache_path=path.parent / "build" / "j.json")
    picked = jury_settings(settings, ["openai/b"], cache_file="here.json", refresh=True)
    assert (picked.models, picked.api_base("openai/b"), picked.cache_path) == (
        ("openai/b",),
        "http://b",
        Path("here.json"),
    )
    assert picked.refresh and not picked.frozen
    offline = jury_settings(settings, [OFFLINE_JURY], no_cache=True, frozen=True)
    assert (offline.models, offline.cache_path, offline.frozen) == ((), None, True)


@pytest.mark.parametrize(
    ("models", "flags", "message"),
    [
        ((), {"no_cache": True, "cache_file": "x.json"}, "--no-cache and --cache-file cannot be combined"),
        ((OFFLINE_JURY, "openai/a"), {}, "--jury offline is the embedded offline jury and cannot sit with"),
    ],
)
def test_jury_settings_refuse_contradicting_flags(models: tuple[str, ...], flags: Any, message: str) -> None:
    with pytest.raises(UsageError, match=message):
        jury_settings(Settings(), models, **flags)


def test_jury_unknown_key() -> None:
    message = usage_error({"jury": {"model": "x"}})
    assert message == (
        "settings: jury: unknown key 'model'; allowed keys: "
        "aggregate, api-bases, cache, concurrency, max-retries, models, timeout"
    )


def test_jury_model_table_unknown_key() -> None:
    message = usage_error({"jury": {"models": ["a", {"model": "b", "base": "http://x"}]}})
    assert message == "settings: jury.models[1]: unknown key 'base'; allowed keys: api-base, model"


@pytest.mark.parametrize("item", [3, {"api-base": "http://x"}])
def test_jury_model_entry_shape(item: object) -> None:
    message = usage_error({"jury": {"models": ["ok", item]}})
    assert message == 'settings: jury.models[1]: expected a model id or { model = "...", api-base = "..." }'


def test_jury_aggregate_choices() -> None:
    assert usage_error({"jury": {"aggregate": "max"}}) == (
        "settings: jury.aggregate: 'max' is not one of median, mean, min"
    )


@pytest.mark.parametrize("value", [0, -2, "8", 1.5])
def test_jury_concurrency_positive_integer(value: object) -> None:
    assert (
        usage_error({"jury": {"concurrency": value}})
        == "settings: jury.concurrency: expected a positive integer"
    )


def test_jury_must_be_a_table() -> None:
    assert usage_error({"jury": ["gpt"]}) == "settings: jury: expected a table"


def test_jury_models_as_a_single_string() -> None:
    assert parse_settings({"jury": {"models": "gpt-4o"}}, None).jury.models == ("gpt-4o",)


@pytest.mark.parametrize("table", [{"timeout": "slow"}, {"max-retries": "many"}, {"api-bases": "http://x"}])
def test_jury_bad_scalar_types_are_usage_errors(table: dict[str, object]) -> None:
    message = usage_error({"jury": table})
    assert message.startswith("settings: jury")


# --------------------------------------------------------------------------- as_document


def test_as_document_exact(tmp_path: Path) -> None:
    path = write(tmp_path / "mcp-lint.toml", README_TOML)
    document = load_settings(path).as_document()
    assert document == {
        "config-file": str(path),
        "select": ["MCP"],
        "ignore": ["MCP102", "missing-annotations"],
        "fail-on": "moderate",
        "profile": "default",
        "min-score": 1.2,
        "timeout": 20.0,
        "rules": {
            "MCP204": {"enabled": True, "severity": "high", "options": {}, "reason": None},
            "MCP403": {
                "enabled": False,
                "severity": None,
                "options": {},
                "reason": "our get_/fetch_ pairs are intentional",
            },
            "description-too-long": {
                "enabled": True,
                "severity": None,
                "options": {"max-tokens": 800},
                "reason": None,
            },
        },
        "per-tool-ignores": [
            {"tool": "legacy_*", "codes": ["MCP202"], "reason": "kept for old clients; schema frozen"},
            {"tool": "filesystem/write_file", "codes": ["MCP502"], "reason": "annotations reviewed by hand"},
        ],
        "servers": {
            "local": {"command": ["python", "server.py"], "env": {"LOG_LEVEL": "error"}},
            "remote": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${API_TOKEN}"}},
            "saved": {"snapshot": "tests/tools.json"},
        },
        "jury": {
            "models": ["openai/gpt-4.1-mini", "ollama/qwen3"],
            "api-bases": {"ollama/qwen3": "http://127.0.0.1:11434"},
            "concurrency": 8,
            "aggregate": "median",
            "cache": ".mcp-lint/jury-cache.json",
            "timeout": 60.0,
            "max-retries": 4,
        },
    }
    # --show-settings prints it, so it must survive a JSON round trip unchanged.
    assert json.loads(json.dumps(document)) == document


def test_as_document_defaults() -> None:
    document = Settings().as_document()
    assert document["config-file"] is None
    assert document["fail-on"] == "low"
    assert document["timeout"] == 30.0
    assert document["rules"] == {}
    assert document["per-tool-ignores"] == []
    assert document["servers"] == {}
    assert document["jury"]["models"] == []
    assert list(document) == [
        "config-file",
        "select",
        "ignore",
        "fail-on",
        "profile",
        "min-score",
        "timeout",
        "rules",
        "per-tool-ignores",
        "servers",
        "jury",
    ]


# --------------------------------------------------------------------------- errors


def test_error_classes_and_exit_codes() -> None:
    from mcp_lint import errors

    assert issubclass(UsageError, McpLintError)
    assert UsageError("x").exit_code == errors.EXIT_USAGE == 2
    assert errors.ServerError("x").exit_code == errors.EXIT_UNREACHABLE == 3
    assert (errors.EXIT_CLEAN, errors.EXIT_FINDINGS, errors.EXIT_INCOMPLETE) == (0, 1, 4)


@pytest.mark.parametrize(
    ("table", "expected"),
    [
        ({"cache": ["a"]}, 'jury.cache: expected a file path as a string, e.g. ".mcp-lint/jury-cache.json"'),
        ({"cache": ""}, 'jury.cache: expected a file path as a string, e.g. ".mcp-lint/jury-cache.json"'),
        (
            {"api-bases": {"openai/x": 3}},
            'jury.api-bases."openai/x": expected a URL string, e.g. "http://127.0.0.1:11434"',
        ),
        (
            {"models": [{"model": "openai/x", "api-base": 5}]},
            'jury.models[0].api-base: expected a URL string, e.g. "http://127.0.0.1:11434"',
        ),
        ({"aggregate": 3}, "jury.aggregate: 3 is not one of median, mean, min"),
        ({"aggregate": ["median"]}, "jury.aggregate: ['median'] is not one of median, mean, min"),
        ({"timeout": float("nan")}, "jury.timeout: expected a positive number"),
        ({"timeout": float("inf")}, "jury.timeout: expected a positive number"),
        ({"timeout": True}, "jury.timeout: expected a positive number"),
        ({"concurrency": True}, "jury.concurrency: expected a positive integer"),
        ({"max-retries": 1.0}, "jury.max-retries: expected a whole number, 0 or more"),
        ({"temperature": 0.2}, "jury: unknown key 'temperature'"),
    ],
)
def test_jury_values_are_type_checked_never_coerced(
    table: dict[str, object], expected: str, tmp_path: Path
) -> None:
    path = tmp_path / "pyproject.toml"
    message = usage_error({"jury": table}, path)
    assert message.startswith(f"{path}: {expected}")


@pytest.mark.parametrize("value", [float("nan"), float("inf")])
def test_timeout_rejects_nan_and_infinity(value: float) -> None:
    assert usage_error({"timeout": value}) == "settings: timeout must be a positive number of seconds"


@pytest.mark.parametrize("value", [1, ["low"], True])
def test_fail_on_that_is_not_a_string_is_rejected(value: object) -> None:
    assert usage_error({"fail-on": value}).startswith("settings: fail-on ")


def test_a_tracker_without_entries_keeps_every_finding_in_order() -> None:
    # With no per-tool-ignores the tracker returns the findings without looking a rule up; with
    # entries it keeps exactly what no entry silences.
    from mcp_lint.check.rules import load_catalogue
    from mcp_lint.model import Finding
    from mcp_lint.suppressions import SuppressionTracker

    found = [
        Finding("MCP202", "undocumented-parameter", Severity.LOW, "m", "s", tool="legacy_a"),
        Finding("NOT-A-CODE", "unknown", Severity.HIGH, "m", "s", tool="b"),
        Finding("MCP101", "missing-description", Severity.HIGH, "m", "s"),
    ]
    catalogue = load_catalogue()
    assert SuppressionTracker((), catalogue).keep(iter(found)) == tuple(found)
    tracker = SuppressionTracker((ToolIgnore("legacy_*", ("MCP202",), "frozen"),), catalogue)
    assert tracker.keep(found) == tuple(found[1:])
    assert SuppressionTracker((ToolIgnore("zzz", (), "none"),), catalogue).keep(found) == tuple(found)
