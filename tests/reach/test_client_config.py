"""Client configs (Claude Desktop, Claude Code `.mcp.json`, Cursor, VS Code) read into targets."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.errors import UsageError
from mcp_lint.reach.client_config import (
    UnreachableTarget,
    is_client_config,
    read_json_document,
    strip_json_comments,
    targets_from_client_config,
)
from mcp_lint.reach.targets import HttpTarget, StdioTarget, Target

Install = Callable[[str, Path], Path]
Result = list[Target | UnreachableTarget]


def load(path: Path, **kwargs: Any) -> Result:
    return targets_from_client_config(path, read_json_document(path), **kwargs)


def by_name(targets: Result) -> dict[str, Target | UnreachableTarget]:
    return {target.name: target for target in targets}


def write_config(path: Path, document: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2), encoding="utf-8")
    return path


def config_error(path: Path, **kwargs: Any) -> str:
    with pytest.raises(UsageError) as caught:
        load(path, **kwargs)
    message = str(caught.value)
    assert "\n" not in message, message
    return message


def one(tmp_path: Path, entry: Any, name: str = "srv", **kwargs: Any) -> Target | UnreachableTarget:
    path = write_config(tmp_path / "proj" / ".mcp.json", {"mcpServers": {name: entry}})
    (target,) = load(path, **kwargs)
    return target


# --------------------------------------------------------------------------- JSONC


def test_strip_line_and_block_comments_and_trailing_commas() -> None:
    text = '{\n  // line\n  "a": [1, 2,], /* block */\n  "b": {"c": 3,},\n}\n'
    assert json.loads(strip_json_comments(text)) == {"a": [1, 2], "b": {"c": 3}}


def test_comment_markers_inside_strings_are_kept() -> None:
    text = '{"url": "https://example.com/mcp", "glob": "src/**/*.py", "q": "say \\"//hi\\""} // end'
    assert json.loads(strip_json_comments(text)) == {
        "url": "https://example.com/mcp",
        "glob": "src/**/*.py",
        "q": 'say "//hi"',
    }


def test_unterminated_comments_run_to_the_end() -> None:
    # Comments are blanked, not removed, so positions in error messages stay true.
    assert strip_json_comments('{"a": 1} // trailing') == '{"a": 1}' + " " * 12
    assert strip_json_comments('{"a": 1} /* never\nclosed') == '{"a": 1}' + " " * 9 + "\n" + " " * 6


def test_trailing_comma_removal_does_not_touch_strings() -> None:
    text = '{"args": ["--filter=[a,]", "{x, }"], // comment\n}'
    assert json.loads(strip_json_comments(text)) == {"args": ["--filter=[a,]", "{x, }"]}


def test_read_json_document_plain_and_jsonc(tmp_path: Path) -> None:
    plain = tmp_path / "plain.json"
    plain.write_text('{"mcpServers": {}}', encoding="utf-8")
    commented = tmp_path / "commented.json"
    commented.write_text('{\n  // VS Code style\n  "servers": {},\n}\n', encoding="utf-8")
    assert read_json_document(plain) == {"mcpServers": {}}
    assert read_json_document(commented) == {"servers": {}}


def test_read_json_document_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "claude_desktop_config.json"
    with pytest.raises(UsageError) as caught:
        read_json_document(path)
    assert str(caught.value) == f"{path}: no such file"


def test_read_json_document_unreadable_folder(tmp_path: Path) -> None:
    with pytest.raises(UsageError) as caught:
        read_json_document(tmp_path)
    assert str(caught.value) == f"{tmp_path}: cannot read: Is a directory"


def test_read_json_document_invalid_json_names_file_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{\n  "servers": {\n    "a": tru\n  }\n}\n', encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        read_json_document(path)
    assert str(caught.value) == f"{path}:3:10: not valid JSON: Expecting value"


def test_invalid_json_position_is_from_the_original_text(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text('{\n  "servers": {\n    "a": ,\n  }\n}\n', encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        read_json_document(path)
    assert str(caught.value) == f"{path}:3:10: not valid JSON: Expecting value"


def test_invalid_jsonc_reports_the_line_in_the_original_file(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_text(
        '{\n  /* one\n     two\n     three */\n  "servers": {\n    "a": tru\n  }\n}\n', encoding="utf-8"
    )
    with pytest.raises(UsageError) as caught:
        read_json_document(path)
    assert str(caught.value) == f"{path}:6:10: not valid JSON: Expecting value"


def test_config_with_utf8_bom_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "claude_desktop_config.json"
    path.write_text('\ufeff{"mcpServers": {}}', encoding="utf-8")
    assert read_json_document(path) == {"mcpServers": {}}


def test_non_utf8_config_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "mcp.json"
    path.write_bytes(b'{"mcpServers": {"caf\xe9": {"command": "x"}}}')
    with pytest.raises(UsageError, match=r"mcp\.json"):
        read_json_document(path)


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        ({"mcpServers": {}}, True),
        ({"servers": {"a": {}}}, True),
        ({"inputs": [], "servers": {}}, True),
        ({"editor.fontSize": 13, "mcp": {"servers": {}}}, True),
        ({"mcp": {"servers": []}}, False),
        ({"mcp": {}}, False),
        ({"mcpServers": []}, False),
        ({"servers": "a"}, False),
        ({"tools": []}, False),
        ([{"name": "x"}], False),
        ("mcpServers", False),
    ],
)
def test_is_client_config(data: Any, expected: bool) -> None:
    assert is_client_config(data) is expected


# --------------------------------------------------------------------------- Claude Desktop


def test_claude_desktop_config(tmp_path: Path, install: Install) -> None:
    path = install(
        "claude_desktop_config.json",
        tmp_path / "Library/Application Support/Claude/claude_desktop_config.json",
    )
    folder = str(path.resolve().parent)
    assert load(path) == [
        StdioTarget(
            name="filesystem",
            command="npx",
            args=(
                "-y",
                "@modelcontextprotocol/server-filesystem",
                "/Users/alice/Desktop",
                "/Users/alice/Downloads",
            ),
            env={"NODE_OPTIONS": "--max-old-space-size=256"},
            cwd=folder,
            origin=str(path),
        ),
        StdioTarget(
            name="weather",
            command="uv",
            args=("--directory", "/Users/alice/weather", "run", "weather.py"),
            env={"WEATHER_API_KEY": "demo"},
            cwd=folder,
            origin=str(path),
        ),
    ]


def test_claude_desktop_env_comes_from_the_environment_when_set(
    tmp_path: Path, install: Install, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("WEATHER_API_KEY", "wk-live-123")
    path = install("claude_desktop_config.json", tmp_path / "claude_desktop_config.json")
    weather = by_name(load(path))["weather"]
    assert isinstance(weather, StdioTarget)
    assert weather.env == {"WEATHER_API_KEY": "wk-live-123"}


def test_stdio_env_holds_only_what_the_config_names(
    tmp_path: Path, install: Install, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    path = install("claude_desktop_config.json", tmp_path / "claude_desktop_config.json")
    for target in load(path):
        assert isinstance(target, StdioTarget)
        assert "OPENAI_API_KEY" not in target.env
        assert "HOME" not in target.env


# --------------------------------------------------------------------------- Claude Code .mcp.json


def test_mcp_json_http_header_with_token(
    tmp_path: Path, install: Install, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_example")
    project = tmp_path / "project"
    path = install("project.mcp.json", project / ".mcp.json")
    assert load(path) == [
        HttpTarget(
            name="github",
            url="https://api.githubcopilot.com/mcp/",
            headers={"Authorization": "Bearer ghp_example"},
            transport="http",
            origin=str(path),
        ),
        HttpTarget(
            name="sentry", url="https://mcp.sentry.dev/sse", headers={}, transport="sse", origin=str(path)
        ),
        StdioTarget(
            name="notes",
            command="python",
            args=("servers/notes.py", "--root", "./notes"),
            env={},
            cwd=str(project.resolve()),
            origin=str(path),
        ),
    ]


def test_mcp_json_unset_token_makes_only_that_server_unreachable(tmp_path: Path, install: Install) -> None:
    path = install("project.mcp.json", tmp_path / "project" / ".mcp.json")
    targets = by_name(load(path))
    assert targets["github"] == UnreachableTarget(
        "github",
        f"server 'github' in {path}: ${{GITHUB_TOKEN}} is not set; "
        "export GITHUB_TOKEN or pass --env GITHUB_TOKEN=VALUE",
    )
    assert isinstance(targets["sentry"], HttpTarget)
    assert isinstance(targets["notes"], StdioTarget)


def test_extra_env_resolves_variables_and_reaches_stdio_servers(tmp_path: Path, install: Install) -> None:
    path = install("project.mcp.json", tmp_path / "project" / ".mcp.json")
    targets = by_name(load(path, extra_env={"GITHUB_TOKEN": "from-cli", "NOTES_DIR": "/data/notes"}))
    github = targets["github"]
    notes = targets["notes"]
    assert isinstance(github, HttpTarget)
    assert github.headers == {"Authorization": "Bearer from-cli"}
    assert isinstance(notes, StdioTarget)
    assert notes.args == ("servers/notes.py", "--root", "/data/notes")
    assert notes.env == {"GITHUB_TOKEN": "from-cli", "NOTES_DIR": "/data/notes"}


def test_extra_env_beats_the_process_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", "from-shell")
    target = one(
        tmp_path,
        {"url": "https://x.example/mcp", "headers": {"Authorization": "Bearer ${GITHUB_TOKEN}"}},
        extra_env={"GITHUB_TOKEN": "from-cli"},
    )
    assert isinstance(target, HttpTarget)
    assert target.headers == {"Authorization": "Bearer from-cli"}


@pytest.mark.parametrize(
    ("entry", "transport"),
    [
        ({"type": "http", "url": "https://a.example/mcp"}, "http"),
        ({"type": "streamable-http", "url": "https://a.example/mcp"}, "http"),
        ({"type": "streamableHttp", "url": "https://a.example/mcp"}, "http"),
        ({"type": "sse", "url": "https://a.example/sse"}, "sse"),
        ({"url": "https://a.example/mcp"}, "auto"),
        ({"serverUrl": "https://a.example/mcp"}, "auto"),  # Windsurf
        ({"httpUrl": "https://a.example/mcp"}, "http"),  # Gemini CLI
    ],
)
def test_http_transport_from_type(tmp_path: Path, entry: dict[str, str], transport: str) -> None:
    target = one(tmp_path, entry)
    assert isinstance(target, HttpTarget)
    assert target.transport == transport
    assert target.url == "https://a.example/" + ("sse" if transport == "sse" else "mcp")


@pytest.mark.parametrize("kind", ["http", "sse", "streamable-http"])
def test_http_type_without_url(tmp_path: Path, kind: str) -> None:
    path = write_config(tmp_path / ".mcp.json", {"mcpServers": {"api": {"type": kind, "command": "x"}}})
    assert config_error(path) == f"{path}: server 'api' has type {kind!r} but no 'url'"


def test_url_is_expanded(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_LINT_TEST_VAR", "8123")
    target = one(tmp_path, {"type": "http", "url": "http://127.0.0.1:${MCP_LINT_TEST_VAR}/mcp"})
    assert isinstance(target, HttpTarget)
    assert target.url == "http://127.0.0.1:8123/mcp"


def test_unresolved_variable_in_url_is_unreachable(tmp_path: Path) -> None:
    target = one(tmp_path, {"url": "https://${API_HOST}/mcp"}, name="remote")
    assert isinstance(target, UnreachableTarget)
    assert target.reason.endswith("${API_HOST} is not set; export API_HOST or pass --env API_HOST=VALUE")


# --------------------------------------------------------------------------- VS Code


@pytest.fixture
def vscode_workspace(tmp_path: Path, install: Install) -> tuple[Path, Path]:
    workspace = tmp_path / "ws"
    path = install("vscode_mcp.jsonc", workspace / ".vscode" / "mcp.json")
    (workspace / ".env").write_text("# fetch settings\nexport FETCH_TOKEN='abc'\n", encoding="utf-8")
    return workspace.resolve(), path


def test_vscode_config_with_inputs_comments_and_workspace_folder(vscode_workspace: tuple[Path, Path]) -> None:
    workspace, path = vscode_workspace
    assert load(path) == [
        UnreachableTarget(
            "perplexity",
            f"server 'perplexity' in {path}: ${{input:token}} asks the user for a value; mcp-lint never "
            "prompts: replace it with ${env:NAME} and export NAME",
        ),
        StdioTarget(
            name="fetch",
            command="uvx",
            args=("mcp-server-fetch", "--user-agent", "mcp-lint"),
            env={"FETCH_TOKEN": "abc"},
            cwd=str(workspace),
            origin=str(path),
        ),
        HttpTarget(
            name="docs",
            url="http://localhost:3000/mcp",
            headers={"X-Workspace": str(workspace)},
            transport="http",
            origin=str(path),
        ),
    ]


def test_vscode_user_settings_mcp_servers(tmp_path: Path) -> None:
    # VS Code's settings.json keeps the same entries under "mcp": {"servers": ...}, among other settings.
    path = tmp_path / "User" / "settings.json"
    path.parent.mkdir()
    path.write_text(
        '{\n  // user settings\n  "editor.fontSize": 13,\n  "mcp": {"servers": {\n'
        '    "time": {"command": "uvx", "args": ["mcp-server-time"]},\n'
        '    "docs": {"type": "http", "url": "http://localhost:3000/mcp"},\n  }},\n}\n',
        encoding="utf-8",
    )
    assert [(type(t).__name__, t.name) for t in load(path)] == [
        ("StdioTarget", "time"),
        ("HttpTarget", "docs"),
    ]
    assert config_error(path, only=("x",)) == f"{path}: no server named 'x'; available: docs, time"


def test_input_prompt_is_unreachable_even_when_an_env_var_has_that_name(
    vscode_workspace: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("token", "x")
    monkeypatch.setenv("input:token", "x")
    _, path = vscode_workspace
    target = by_name(load(path))["perplexity"]
    assert isinstance(target, UnreachableTarget)
    assert "never prompts" in target.reason
    assert "\n" not in target.reason


def test_env_prefixed_variable_with_default_prefers_the_environment(
    vscode_workspace: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("FETCH_AGENT", "ci-bot/1.0")
    _, path = vscode_workspace
    fetch = by_name(load(path))["fetch"]
    assert isinstance(fetch, StdioTarget)
    assert fetch.args == ("mcp-server-fetch", "--user-agent", "ci-bot/1.0")


def test_vscode_server_filter(vscode_workspace: tuple[Path, Path]) -> None:
    _, path = vscode_workspace
    assert [target.name for target in load(path, only=("docs", "fetch"))] == ["fetch", "docs"]


def test_unknown_server_name_lists_available_names(vscode_workspace: tuple[Path, Path]) -> None:
    _, path = vscode_workspace
    assert config_error(path, only=("fetch", "githb")) == (
        f"{path}: no server named 'githb'; available: docs, fetch, perplexity"
    )


def test_several_unknown_server_names(vscode_workspace: tuple[Path, Path]) -> None:
    _, path = vscode_workspace
    assert (
        config_error(path, only=("a", "b"))
        == f"{path}: no server named 'a', 'b'; available: docs, fetch, perplexity"
    )


def test_unknown_server_name_in_an_empty_config(tmp_path: Path) -> None:
    path = write_config(tmp_path / ".mcp.json", {"mcpServers": {}})
    assert config_error(path, only=("x",)) == f"{path}: no server named 'x'; available: none"


def test_empty_config_has_no_targets(tmp_path: Path) -> None:
    assert load(write_config(tmp_path / ".mcp.json", {"mcpServers": {}})) == []


# --------------------------------------------------------------------------- Cursor


def test_cursor_config(tmp_path: Path, install: Install, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql://localhost/app")
    project = tmp_path / "proj"
    path = install("cursor_mcp.json", project / ".cursor" / "mcp.json")
    assert load(path) == [
        HttpTarget(
            name="linear", url="https://mcp.linear.app/sse", headers={}, transport="auto", origin=str(path)
        ),
        StdioTarget(
            name="postgres",
            command="npx",
            args=("-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/app"),
            env={},
            cwd=str(project.resolve()),
            origin=str(path),
        ),
    ]


def test_cursor_env_prefixed_variable_unset(tmp_path: Path, install: Install) -> None:
    path = install("cursor_mcp.json", tmp_path / "proj" / ".cursor" / "mcp.json")
    postgres = by_name(load(path))["postgres"]
    assert postgres == UnreachableTarget(
        "postgres",
        f"server 'postgres' in {path}: ${{env:DATABASE_URL}} is not set; "
        "export DATABASE_URL or pass --env DATABASE_URL=VALUE",
    )


def test_disabled_server_is_skipped_unless_named(tmp_path: Path, install: Install) -> None:
    project = tmp_path / "proj"
    path = install("cursor_mcp.json", project / ".cursor" / "mcp.json")
    assert "legacy" not in by_name(load(path))
    assert load(path, only=("legacy",)) == [
        StdioTarget(
            name="legacy",
            command="node",
            args=("legacy.js",),
            env={},
            cwd=str(project.resolve()),
            origin=str(path),
        )
    ]


def test_disabled_false_is_kept(tmp_path: Path) -> None:
    target = one(tmp_path, {"command": "node", "args": ["s.js"], "disabled": False})
    assert isinstance(target, StdioTarget)


def test_mcp_servers_wins_over_servers(tmp_path: Path) -> None:
    path = write_config(
        tmp_path / "mixed.json",
        {"mcpServers": {"a": {"command": "a"}}, "servers": {"b": {"command": "b"}}},
    )
    assert [target.name for target in load(path)] == ["a"]


# --------------------------------------------------------------------------- variables


@pytest.mark.parametrize(
    ("template", "expected"),
    [
        ("${MCP_LINT_TEST_VAR}", "value"),
        ("${env:MCP_LINT_TEST_VAR}", "value"),
        ("${MCP_LINT_TEST_VAR:-fallback}", "value"),
        ("${env:MCP_LINT_TEST_VAR:-fallback}", "value"),
        ("${UNSET_FOR_TEST:-fallback}", "fallback"),
        ("${env:UNSET_FOR_TEST:-fallback}", "fallback"),
        ("${UNSET_FOR_TEST:-}", ""),
        ("${UNSET_FOR_TEST:-a:-b}", "a:-b"),
        ("pre-${MCP_LINT_TEST_VAR}-${UNSET_FOR_TEST:-x}-post", "pre-value-x-post"),
        ("$MCP_LINT_TEST_VAR", "$MCP_LINT_TEST_VAR"),
        ("no variables", "no variables"),
    ],
)
def test_variable_expansion(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, template: str, expected: str
) -> None:
    monkeypatch.setenv("MCP_LINT_TEST_VAR", "value")
    monkeypatch.delenv("UNSET_FOR_TEST", raising=False)
    target = one(tmp_path, {"command": "tool", "args": [template]})
    assert isinstance(target, StdioTarget)
    assert target.args == (expected,)


def test_workspace_and_home_variables(tmp_path: Path, clean_environment: Path) -> None:
    project = tmp_path / "proj"
    path = write_config(
        project / ".vscode" / "mcp.json",
        {
            "servers": {
                "s": {
                    "command": "${workspaceFolder}/bin/server",
                    "args": ["${workspaceRoot}", "${userHome}/.config/s.toml"],
                    "cwd": "${workspaceFolder}/data",
                }
            }
        },
    )
    (target,) = load(path)
    root = project.resolve()
    assert target == StdioTarget(
        name="s",
        command=f"{root}/bin/server",
        args=(str(root), f"{clean_environment}/.config/s.toml"),
        env={},
        cwd=f"{root}/data",
        origin=str(path),
    )


def test_workspace_folder_of_a_plain_config_is_its_own_folder(tmp_path: Path) -> None:
    target = one(tmp_path, {"command": "tool", "args": ["${workspaceFolder}"]})
    assert isinstance(target, StdioTarget)
    assert target.args == (str((tmp_path / "proj").resolve()),)
    assert target.cwd == str((tmp_path / "proj").resolve())


@pytest.mark.parametrize("field", ["command", "args", "env", "cwd", "envFile"])
def test_unresolved_variable_anywhere_makes_the_server_unreachable(tmp_path: Path, field: str) -> None:
    entry: dict[str, Any] = {"command": "tool"}
    value = "${NOT_SET_ANYWHERE}"
    entry[field] = {"K": value} if field == "env" else [value] if field == "args" else value
    target = one(tmp_path, entry, name="svc")
    path = tmp_path / "proj" / ".mcp.json"
    assert target == UnreachableTarget(
        "svc",
        f"server 'svc' in {path}: ${{NOT_SET_ANYWHERE}} is not set; export NOT_SET_ANYWHERE or pass "
        "--env NOT_SET_ANYWHERE=VALUE",
    )


def test_default_applies_when_variable_is_empty(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MCP_LINT_TEST_VAR", "")
    target = one(tmp_path, {"command": "tool", "args": ["${MCP_LINT_TEST_VAR:-fallback}"]})
    assert isinstance(target, StdioTarget)
    assert target.args == ("fallback",)


def test_empty_variable_without_default_expands_to_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MCP_LINT_TEST_VAR", "")
    target = one(tmp_path, {"command": "tool", "args": ["[${MCP_LINT_TEST_VAR}]"]})
    assert isinstance(target, StdioTarget)
    assert target.args == ("[]",)


# --------------------------------------------------------------------------- stdio entries


def test_command_as_a_list(tmp_path: Path) -> None:
    target = one(tmp_path, {"command": ["python", "server.py", "--verbose"]})
    assert isinstance(target, StdioTarget)
    assert (target.command, target.args) == ("python", ("server.py", "--verbose"))


def test_numeric_args_become_strings(tmp_path: Path) -> None:
    target = one(tmp_path, {"command": "server", "args": ["--port", 8080, 1.5]})
    assert isinstance(target, StdioTarget)
    assert target.args == ("--port", "8080", "1.5")


def test_type_stdio_is_a_stdio_server(tmp_path: Path) -> None:
    target = one(tmp_path, {"type": "stdio", "command": "server"})
    assert isinstance(target, StdioTarget)
    assert target.args == ()


def test_relative_and_absolute_cwd(tmp_path: Path) -> None:
    project = (tmp_path / "proj").resolve()
    relative = one(tmp_path, {"command": "s", "cwd": "packages/server"})
    absolute = one(tmp_path, {"command": "s", "cwd": "/srv/mcp"})
    assert isinstance(relative, StdioTarget)
    assert isinstance(absolute, StdioTarget)
    assert relative.cwd == str(project / "packages" / "server")
    assert absolute.cwd == "/srv/mcp"


def test_relative_cwd_in_vscode_config_is_relative_to_the_workspace(tmp_path: Path) -> None:
    workspace = tmp_path / "ws"
    path = write_config(
        workspace / ".vscode" / "mcp.json",
        {"servers": {"a": {"command": "s"}, "b": {"command": "s", "cwd": "."}}},
    )
    first, second = load(path)
    assert isinstance(first, StdioTarget)
    assert isinstance(second, StdioTarget)
    assert second.cwd == first.cwd == str(workspace.resolve())


def test_non_string_env_values_are_converted_like_json(tmp_path: Path) -> None:
    target = one(tmp_path, {"command": "s", "env": {"DEBUG": True, "PORT": 8080}})
    assert isinstance(target, StdioTarget)
    assert target.env == {"DEBUG": "true", "PORT": "8080"}


# --------------------------------------------------------------------------- envFile


def test_env_file_parsing_and_precedence(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    (project / "server.env").write_text(
        "# comment\n\nexport TOKEN=\"abc123\"\nLOG_LEVEL='debug'\nEMPTY=\nURL=https://x.example/?a=b\n"
        "  SPACED = value with spaces  \nOVERRIDDEN=from-file\n",
        encoding="utf-8",
    )
    target = one(
        tmp_path,
        {"command": "s", "envFile": "server.env", "env": {"OVERRIDDEN": "from-env", "BOTH": "from-env"}},
        extra_env={"BOTH": "from-cli"},
    )
    assert isinstance(target, StdioTarget)
    assert target.env == {
        "TOKEN": "abc123",
        "LOG_LEVEL": "debug",
        "EMPTY": "",
        "URL": "https://x.example/?a=b",
        "SPACED": "value with spaces",
        "OVERRIDDEN": "from-env",
        "BOTH": "from-cli",
    }


def test_env_file_bad_line_names_file_and_line(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    project.mkdir()
    env_file = project / ".env"
    env_file.write_text("A=1\n# ok\nthis is not an assignment\n", encoding="utf-8")
    path = write_config(project / ".mcp.json", {"mcpServers": {"s": {"command": "s", "envFile": ".env"}}})
    assert config_error(path) == f"{env_file.resolve()}:3: expected KEY=VALUE"


def test_env_file_missing(tmp_path: Path) -> None:
    project = tmp_path / "proj"
    path = write_config(project / ".mcp.json", {"mcpServers": {"s": {"command": "s", "envFile": ".env"}}})
    missing = project.resolve() / ".env"
    assert config_error(path) == f"{path}: cannot read env file {missing}: No such file or directory"


# --------------------------------------------------------------------------- malformed entries


@pytest.mark.parametrize(
    ("entry", "message"),
    [
        ("npx server", "server 'srv' must be an object"),
        ({"args": ["x"]}, "server 'srv' needs a 'command' (stdio) or a 'url' (HTTP)"),
        ({"command": ""}, "server 'srv' needs a 'command' (stdio) or a 'url' (HTTP)"),
        ({"command": []}, "server 'srv' has an empty 'command'"),
        ({"command": "s", "args": "--flag"}, "srv.args: expected a list of strings"),
        ({"command": "s", "args": [{"a": 1}]}, "srv.args: expected a list of strings"),
        ({"command": ["s", None]}, "srv.command: expected a list of strings"),
        ({"command": "s", "env": ["A=1"]}, "srv.env: expected an object of string values"),
        (
            {"url": "https://x.example", "headers": "Authorization: x"},
            "srv.headers: expected an object of string values",
        ),
        ({"url": ""}, "server 'srv' has type None but no 'url'"),
    ],
)
def test_malformed_entries_are_one_line_usage_errors(tmp_path: Path, entry: Any, message: str) -> None:
    path = write_config(tmp_path / ".mcp.json", {"mcpServers": {"srv": entry}})
    assert config_error(path) == f"{path}: {message}"


def test_unreachable_target_is_a_frozen_record() -> None:
    target = UnreachableTarget("a", "why")
    assert (target.name, target.reason) == ("a", "why")
    with pytest.raises(AttributeError):
        target.name = "b"  # type: ignore[misc]
