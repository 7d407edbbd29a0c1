"""From the command line and settings to targets: `-- COMMAND`, `--url`, paths, [servers], ./.mcp.json."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.config import Settings, load_settings
from mcp_lint.errors import UsageError
from mcp_lint.reach.client_config import UnreachableTarget
from mcp_lint.reach.resolve import (
    PROJECT_CONFIGS,
    Request,
    command_name,
    parse_env_pair,
    parse_header,
    resolve_targets,
)
from mcp_lint.reach.targets import HttpTarget, SnapshotTarget, StdioTarget, describe
from mcp_lint.reflect import reflect_all

Install = Callable[[str, Path], Path]

SERVERS_TOML = """\
[servers.local]
command = ["python", "server.py"]
env = { LOG_LEVEL = "error" }

[servers.remote]
url = "https://example.com/mcp"
headers = { Authorization = "Bearer ${API_TOKEN}" }

[servers.saved]
snapshot = "tests/tools.json"
"""


def write_json(path: Path, document: Any) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document), encoding="utf-8")
    return path


def resolve_error(request: Request, settings: Settings | None = None) -> str:
    with pytest.raises(UsageError) as caught:
        resolve_targets(request, settings or Settings())
    message = str(caught.value)
    assert "\n" not in message, message
    return message


@pytest.fixture
def configured(tmp_path: Path) -> tuple[Path, Settings]:
    """A project with `[servers]` in mcp-lint.toml, loaded the way the CLI loads it."""
    path = tmp_path / "project" / "mcp-lint.toml"
    path.parent.mkdir()
    path.write_text(SERVERS_TOML, encoding="utf-8")
    write_json(path.parent / "tests" / "tools.json", {"tools": []})
    return path, load_settings(path)


# --------------------------------------------------------------------------- command_name


@pytest.mark.parametrize(
    ("command", "expected"),
    [
        (["python", "server.py"], "server"),
        ([".venv/bin/python", "/home/me/examples/weather_server.py"], "weather_server"),
        (["python3", "server.py", "--port", "8080"], "server"),
        (["python", "-m", "weather"], "weather"),
        (["node", "build/index.js"], "index"),
        (["node", "dist/server.mjs"], "server"),
        (["deno", "run", "-A", "main.ts"], "main"),
        (["uv", "run", "server.py"], "server"),
        (["uvx", "mcp-server-fetch"], "mcp-server-fetch"),
        (["uvx", "mcp-server-fetch", "--ignore-robots-txt"], "mcp-server-fetch"),
        (["npx", "-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop"], "server-filesystem"),
        (["npx", "-y", "@modelcontextprotocol/server-everything@1.2.3"], "server-everything"),
        (["bunx", "@scope/tool@latest"], "tool"),
        (["/usr/local/bin/my-mcp-server"], "my-mcp-server"),
        (["python"], "python"),
        (["./run-server.sh", "--stdio"], "run-server.sh"),
        ([".ci/work/venvs/t/bin/mcp-server-time", "--local-timezone", "UTC"], "mcp-server-time"),
        (["docker", "run", "-i", "--rm", "mcp/github"], "docker"),
    ],
)
def test_command_name(command: list[str], expected: str) -> None:
    assert command_name(command) == expected


def test_command_name_strips_version_of_unscoped_package() -> None:
    assert command_name(["npx", "-y", "mcp-remote@0.1.2"]) == "mcp-remote"


def test_command_name_prefers_the_script_over_option_values() -> None:
    assert command_name(["uv", "run", "--with", "mcp[cli]", "mcp", "run", "/srv/server.py"]) == "server"


# --------------------------------------------------------------------------- parse_header / parse_env_pair


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Authorization: Bearer abc", ("Authorization", "Bearer abc")),
        ("X-Api-Key:abc", ("X-Api-Key", "abc")),
        ("  X-Trace :  on  ", ("X-Trace", "on")),
        ("X-Url: https://example.com:8443/a", ("X-Url", "https://example.com:8443/a")),
        ("X-Empty:", ("X-Empty", "")),
    ],
)
def test_parse_header(text: str, expected: tuple[str, str]) -> None:
    assert parse_header(text) == expected


@pytest.mark.parametrize("text", ["Authorization Bearer abc", ": value", "", "   :x"])
def test_parse_header_errors(text: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_header(text)
    assert str(caught.value) == (
        f"--header {text!r}: expected NAME:VALUE, e.g. --header 'Authorization: Bearer $TOKEN'"
    )


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("LOG_LEVEL=debug", ("LOG_LEVEL", "debug")),
        ("EMPTY=", ("EMPTY", "")),
        ("URL=postgres://u:p@h/db?x=1", ("URL", "postgres://u:p@h/db?x=1")),
        ("A= spaced ", ("A", " spaced ")),
    ],
)
def test_parse_env_pair(text: str, expected: tuple[str, str]) -> None:
    assert parse_env_pair(text) == expected


@pytest.mark.parametrize("text", ["LOG_LEVEL", "=value", ""])
def test_parse_env_pair_errors(text: str) -> None:
    with pytest.raises(UsageError) as caught:
        parse_env_pair(text)
    assert str(caught.value) == f"--env {text!r}: expected KEY=VALUE"


def test_parse_env_pair_names_where_it_came_from() -> None:
    with pytest.raises(UsageError) as caught:
        parse_env_pair("oops", "ci.env:3")
    assert str(caught.value) == "ci.env:3 'oops': expected KEY=VALUE"


# --------------------------------------------------------------------------- -- COMMAND and --url


def test_command_target() -> None:
    request = Request(
        command=("python", "examples/weather_server.py", "--units", "metric"), env={"DEBUG": "1"}
    )
    assert resolve_targets(request, Settings()) == [
        StdioTarget(
            name="weather_server",
            command="python",
            args=("examples/weather_server.py", "--units", "metric"),
            env={"DEBUG": "1"},
            cwd=None,
            origin=None,
        )
    ]


def test_command_target_env_is_only_what_was_passed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-secret")
    (target,) = resolve_targets(Request(command=("python", "s.py")), Settings())
    assert isinstance(target, StdioTarget)
    assert target.env == {}


@pytest.mark.parametrize(
    ("command", "provisional"),
    [
        (("node", "dist/index.js"), True),
        (("python", "main.py"), True),
        (("python", "weather_server.py"), False),
    ],
)
def test_a_generic_script_name_is_provisional(command: tuple[str, ...], provisional: bool) -> None:
    # `node dist/index.js` would report every Node server as "index": the server's own name replaces it.
    (target,) = resolve_targets(Request(command=command), Settings())
    assert isinstance(target, StdioTarget)
    assert target.provisional_name is provisional


def test_url_target() -> None:
    request = Request(url="http://127.0.0.1:8000/mcp", headers={"Authorization": "Bearer t0k"})
    assert resolve_targets(request, Settings()) == [
        HttpTarget(
            name="127.0.0.1:8000",
            url="http://127.0.0.1:8000/mcp",
            headers={"Authorization": "Bearer t0k"},
            transport="auto",
            origin=None,
        )
    ]


def test_https_url_uppercase_scheme_is_accepted() -> None:
    (target,) = resolve_targets(Request(url="HTTPS://mcp.example.com/mcp"), Settings())
    assert isinstance(target, HttpTarget)
    assert target.name == "mcp.example.com"
    assert target.url == "HTTPS://mcp.example.com/mcp"


@pytest.mark.parametrize(
    "url", ["ws://localhost:8000/mcp", "ftp://example.com", "localhost:8000/mcp", "/mcp"]
)
def test_url_must_be_http(url: str) -> None:
    assert resolve_error(Request(url=url)) == f"--url {url!r}: expected an http:// or https:// URL"


def test_url_without_host_is_rejected() -> None:
    message = resolve_error(Request(url="https:/example.com/mcp"))
    assert "--url" in message


def test_url_error_wins_even_with_a_command() -> None:
    message = resolve_error(Request(command=("python", "s.py"), url="file:///tmp/x"))
    assert message == "--url 'file:///tmp/x': expected an http:// or https:// URL"


# --------------------------------------------------------------------------- paths


def test_snapshot_path_named_from_its_name_field(tmp_path: Path) -> None:
    path = write_json(
        tmp_path / "tools.json", {"format": "mcp-lint-snapshot/1", "name": "weather", "tools": []}
    )
    document = {"format": "mcp-lint-snapshot/1", "name": "weather", "tools": []}
    assert resolve_targets(Request(paths=(str(path),)), Settings()) == [
        SnapshotTarget(name="weather", path=path, document=document, origin=str(path))
    ]


@pytest.mark.parametrize("document", [{"tools": [{"name": "t"}]}, [{"name": "t"}], {"name": 3, "tools": []}])
def test_snapshot_without_a_name_is_named_after_the_file(tmp_path: Path, document: Any) -> None:
    path = write_json(tmp_path / "github-tools.json", document)
    assert resolve_targets(Request(paths=(str(path),)), Settings()) == [
        SnapshotTarget(name="github-tools", path=path, document=document, origin=str(path))
    ]


def test_client_config_path(tmp_path: Path, install: Install) -> None:
    path = install("claude_desktop_config.json", tmp_path / "claude_desktop_config.json")
    targets = resolve_targets(Request(paths=(str(path),)), Settings())
    assert [(type(t).__name__, t.name) for t in targets] == [
        ("StdioTarget", "filesystem"),
        ("StdioTarget", "weather"),
    ]


def test_client_config_path_with_server_filter_and_env(tmp_path: Path, install: Install) -> None:
    path = install("project.mcp.json", tmp_path / ".mcp.json")
    request = Request(paths=(str(path),), servers=("github",), env={"GITHUB_TOKEN": "ghp_cli"})
    assert resolve_targets(request, Settings()) == [
        HttpTarget(
            name="github",
            url="https://api.githubcopilot.com/mcp/",
            headers={"Authorization": "Bearer ghp_cli"},
            transport="http",
            origin=str(path),
        )
    ]


def test_client_config_path_unknown_server(tmp_path: Path, install: Install) -> None:
    path = install("project.mcp.json", tmp_path / ".mcp.json")
    message = resolve_error(Request(paths=(str(path),), servers=("gitlab",)))
    assert message == f"{path}: no server named 'gitlab'; available: github, notes, sentry"


def test_server_filter_spans_several_config_files(tmp_path: Path, install: Install) -> None:
    first = install("project.mcp.json", tmp_path / ".mcp.json")
    second = install("cursor_mcp.json", tmp_path / ".cursor" / "mcp.json")
    request = Request(paths=(str(first), str(second)), servers=("sentry", "linear"))
    assert [t.name for t in resolve_targets(request, Settings())] == ["sentry", "linear"]


def test_unknown_server_across_several_files_lists_every_available_name(
    tmp_path: Path, install: Install
) -> None:
    first = install("project.mcp.json", tmp_path / ".mcp.json")
    second = install("cursor_mcp.json", tmp_path / ".cursor" / "mcp.json")
    message = resolve_error(Request(paths=(str(first), str(second)), servers=("sentry", "gitlab")))
    assert message == (
        f"--server 'gitlab': no such server in {first}, {second}; "
        "available: github, legacy, linear, notes, postgres, sentry"
    )


SERVER_NOT_A_CONFIG = (
    ", not a client config; --server picks entries of a client config or of [servers] in mcp-lint.toml: "
    "drop it or pass a client config"
)


def test_server_filter_on_a_snapshot_is_an_error(tmp_path: Path, install: Install) -> None:
    snapshot = write_json(tmp_path / "tools.json", {"name": "github", "tools": []})
    config = install("project.mcp.json", tmp_path / ".mcp.json")
    expected = f"--server 'github': {snapshot} is a snapshot of one server{SERVER_NOT_A_CONFIG}"
    assert resolve_error(Request(paths=(str(snapshot),), servers=("github",))) == expected
    # Not even when a client config beside it has that name: the snapshot would be linted regardless.
    assert resolve_error(Request(paths=(str(config), str(snapshot)), servers=("github",))) == expected


@pytest.mark.parametrize(
    ("request_", "what"),
    [
        (Request(command=("python", "server.py"), servers=("nope",)), "`-- COMMAND` starts one server"),
        (Request(url="https://a.example/mcp", servers=("nope",)), "--url names one server"),
    ],
)
def test_server_filter_on_a_command_or_url_is_an_error(
    configured: tuple[Path, Settings], request_: Request, what: str
) -> None:
    _, settings = configured
    assert resolve_error(request_, settings) == f"--server 'nope': {what}{SERVER_NOT_A_CONFIG}"


def test_folder_with_mcp_json(tmp_path: Path, install: Install) -> None:
    install("project.mcp.json", tmp_path / "repo" / ".mcp.json")
    install("vscode_mcp.jsonc", tmp_path / "repo" / ".vscode" / "mcp.json")
    targets = resolve_targets(Request(paths=(str(tmp_path / "repo"),), env={"GITHUB_TOKEN": "x"}), Settings())
    assert [t.name for t in targets] == ["github", "sentry", "notes"]
    assert all(
        t.origin == str(tmp_path / "repo" / ".mcp.json")
        for t in targets
        if not isinstance(t, UnreachableTarget)
    )


def test_folder_with_only_a_vscode_config(tmp_path: Path, install: Install) -> None:
    workspace = tmp_path / "ws"
    install("vscode_mcp.jsonc", workspace / ".vscode" / "mcp.json")
    (workspace / ".env").write_text("A=1\n", encoding="utf-8")
    targets = resolve_targets(Request(paths=(str(workspace),)), Settings())
    assert [t.name for t in targets] == ["perplexity", "fetch", "docs"]
    fetch = targets[1]
    assert isinstance(fetch, StdioTarget)
    assert fetch.cwd == str(workspace.resolve())


def test_folder_with_only_a_cursor_config(tmp_path: Path, install: Install) -> None:
    install("cursor_mcp.json", tmp_path / "proj" / ".cursor" / "mcp.json")
    targets = resolve_targets(Request(paths=(str(tmp_path / "proj"),)), Settings())
    assert [t.name for t in targets] == ["linear", "postgres"]


def test_folder_without_a_client_config(tmp_path: Path) -> None:
    assert resolve_error(Request(paths=(str(tmp_path),))) == (
        f"{tmp_path}: a folder with no .mcp.json, .vscode/mcp.json, .cursor/mcp.json; pass a file instead"
    )


@pytest.mark.parametrize(
    "document",
    [
        {"name": "x"},
        {"tools": "none"},
        42,
        {"mcpServers": ["a"]},
        {"mcp": {"servers": "a"}},
        {"jsonrpc": "2.0", "id": 1, "result": {"tools": {}}},
    ],
)
def test_path_that_is_neither_snapshot_nor_config(tmp_path: Path, document: Any) -> None:
    path = write_json(tmp_path / "package.json", document)
    assert resolve_error(Request(paths=(str(path),))) == (
        f"{path}: neither a snapshot (an object with a 'tools' array, also inside a JSON-RPC response) "
        "nor a client config ('mcpServers', 'servers' or 'mcp.servers'); see `mcp-lint check --help`"
    )


def test_saved_json_rpc_response_is_a_snapshot(tmp_path: Path) -> None:
    envelope = {"jsonrpc": "2.0", "id": 1, "result": {"tools": [{"name": "t"}], "nextCursor": None}}
    path = write_json(tmp_path / "list-response.json", envelope)
    assert resolve_targets(Request(paths=(str(path),)), Settings()) == [
        SnapshotTarget(name="list-response", path=path, document=envelope, origin=str(path))
    ]


def test_a_snapshot_is_parsed_once_and_reflect_uses_that(tmp_path: Path) -> None:
    path = tmp_path / "tools.json"
    path.write_text('{"tools": [  // kept by hand\n  {"name": "t"},\n]}\n', encoding="utf-8")
    [target] = resolve_targets(Request(paths=(str(path),)), Settings())
    assert isinstance(target, SnapshotTarget) and target.document == {"tools": [{"name": "t"}]}
    path.unlink()  # reflect builds the snapshot from the document: the file is not read again
    [result] = reflect_all([target], 1)
    assert result.error is None and result.snapshot is not None
    assert [tool.name for tool in result.snapshot.tools] == ["t"] and result.snapshot.origin == str(path)


def test_saved_json_rpc_error_says_what_it_is(tmp_path: Path) -> None:
    error = {"jsonrpc": "2.0", "id": 1, "error": {"code": -32601, "message": "Method not found"}}
    path = write_json(tmp_path / "response.json", error)
    assert resolve_error(Request(paths=(str(path),))) == (
        f"{path}: a JSON-RPC error response (Method not found), not a tools/list result; "
        "save a successful response, or use `mcp-lint snapshot`"
    )


def test_vscode_settings_json_is_a_client_config(tmp_path: Path) -> None:
    path = write_json(
        tmp_path / ".vscode" / "settings.json",
        {"files.eol": "\n", "mcp": {"servers": {"time": {"command": "uvx", "args": ["mcp-server-time"]}}}},
    )
    (target,) = resolve_targets(Request(paths=(str(path),)), Settings())
    assert isinstance(target, StdioTarget) and target.name == "time" and target.cwd == str(tmp_path.resolve())
    empty = write_json(tmp_path / "settings.json", {"mcp": {"servers": {}}})
    assert resolve_error(Request(paths=(str(empty),))) == (
        f'{empty}: no servers in "mcp"."servers"; add a server to it'
    )


def test_missing_path(tmp_path: Path) -> None:
    missing = tmp_path / "tools.json"
    assert resolve_error(Request(paths=(str(missing),))) == f"{missing}: no such file"


def test_command_url_and_paths_together_in_that_order(tmp_path: Path) -> None:
    snapshot = write_json(tmp_path / "saved.json", {"tools": []})
    request = Request(
        paths=(str(snapshot),), command=("uvx", "mcp-server-fetch"), url="https://a.example/mcp"
    )
    targets = resolve_targets(request, Settings())
    assert [(type(t).__name__, t.name) for t in targets] == [
        ("StdioTarget", "mcp-server-fetch"),
        ("HttpTarget", "a.example"),
        ("SnapshotTarget", "saved"),
    ]


@pytest.mark.parametrize(
    ("document", "problem"),
    [
        ({"mcpServers": {}}, 'no servers in "mcpServers"; add a server to it'),
        ({"servers": {}, "inputs": []}, 'no servers in "servers"; add a server to it'),
        (
            {"mcpServers": {"a": {"command": "a", "disabled": True}, "b": {"url": "x", "disabled": True}}},
            'no servers in "mcpServers" (all 2 disabled); pick one with --server to lint it anyway',
        ),
    ],
)
def test_client_config_without_usable_servers_is_an_error_not_a_fallback(
    tmp_path: Path,
    install: Install,
    monkeypatch: pytest.MonkeyPatch,
    configured: tuple[Path, Settings],
    document: Any,
    problem: str,
) -> None:
    # Neither the project's ./.mcp.json nor its [servers] may be linted in place of the file named.
    _, settings = configured
    install("project.mcp.json", tmp_path / ".mcp.json")
    monkeypatch.chdir(tmp_path)
    path = write_json(tmp_path / "nosrv.json", document)
    assert resolve_error(Request(paths=("nosrv.json",))) == f"nosrv.json: {problem}"
    assert resolve_error(Request(paths=("nosrv.json",)), settings) == f"nosrv.json: {problem}"
    assert resolve_error(Request(paths=(str(path), str(tmp_path / ".mcp.json")))) == f"{path}: {problem}"


def test_empty_client_config_in_an_empty_folder_names_the_file(tmp_path: Path) -> None:
    path = write_json(tmp_path / "nosrv.json", {"mcpServers": {}})
    message = resolve_error(Request(paths=(str(path),)))
    assert message == f'{path}: no servers in "mcpServers"; add a server to it'


def test_disabled_entries_named_with_server_are_linted(tmp_path: Path) -> None:
    path = write_json(tmp_path / "off.json", {"mcpServers": {"a": {"command": "a", "disabled": True}}})
    assert [t.name for t in resolve_targets(Request(paths=(str(path),), servers=("a",)), Settings())] == ["a"]


# --------------------------------------------------------------------------- [servers] in settings


def test_configured_servers(
    configured: tuple[Path, Settings], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, settings = configured
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    base = path.parent
    assert resolve_targets(Request(), settings) == [
        StdioTarget(
            name="local",
            command="python",
            args=("server.py",),
            env={"LOG_LEVEL": "error"},
            cwd=str(base),
            origin=f"{path} [servers.local]",
        ),
        UnreachableTarget(
            "remote",
            f"server 'remote' in {path} [servers.remote]: ${{API_TOKEN}} is not set; "
            "export API_TOKEN or pass --env API_TOKEN=VALUE",
        ),
        # Reports name the snapshot file as the origin of its tools, as for a snapshot given as a path.
        SnapshotTarget(
            name="saved",
            path=base / "tests" / "tools.json",
            document={"tools": []},
            origin=str(base / "tests" / "tools.json"),
        ),
    ]


def test_configured_servers_with_env_from_the_command_line(configured: tuple[Path, Settings]) -> None:
    path, settings = configured
    targets = resolve_targets(Request(env={"API_TOKEN": "tok"}), settings)
    local, remote = targets[0], targets[1]
    assert remote == HttpTarget(
        name="remote",
        url="https://example.com/mcp",
        headers={"Authorization": "Bearer tok"},
        transport="auto",
        origin=f"{path} [servers.remote]",
    )
    assert isinstance(local, StdioTarget)
    assert local.env == {"LOG_LEVEL": "error", "API_TOKEN": "tok"}


def test_configured_servers_use_the_environment(
    configured: tuple[Path, Settings], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("API_TOKEN", "from-shell")
    _, settings = configured
    remote = resolve_targets(Request(servers=("remote",)), settings)[0]
    assert isinstance(remote, HttpTarget)
    assert remote.headers == {"Authorization": "Bearer from-shell"}


def test_configured_server_env_file_and_cwd_relative_to_the_config(tmp_path: Path) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "ci.env").write_text("TOKEN=abc\n", encoding="utf-8")
    path = project / ".mcp-lint.toml"
    path.write_text(
        '[servers.api]\ncommand = "node"\nargs = ["dist/index.js"]\n'
        'env-file = "ci.env"\ncwd = "packages/api"\ntype = "stdio"\n',
        encoding="utf-8",
    )
    settings = load_settings(start=project)
    (target,) = resolve_targets(Request(), settings)
    assert target == StdioTarget(
        name="api",
        command="node",
        args=("dist/index.js",),
        env={"TOKEN": "abc"},
        cwd=str(project.resolve() / "packages" / "api"),
        origin=f"{path.resolve()} [servers.api]",
    )


def test_configured_sse_server(tmp_path: Path) -> None:
    path = tmp_path / "mcp-lint.toml"
    path.write_text('[servers.events]\ntype = "sse"\nurl = "https://a.example/sse"\n', encoding="utf-8")
    (target,) = resolve_targets(Request(), load_settings(path))
    assert isinstance(target, HttpTarget)
    assert (target.transport, target.url) == ("sse", "https://a.example/sse")


def test_configured_server_without_command_or_url(tmp_path: Path) -> None:
    path = tmp_path / "mcp-lint.toml"
    path.write_text('[servers.broken]\nargs = ["x"]\n', encoding="utf-8")
    message = resolve_error(Request(), load_settings(path))
    assert message == f"{path} [servers.broken]: server 'broken' needs a 'command' (stdio) or a 'url' (HTTP)"


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (
            None,
            "{snapshot}: no such file; fix the path (relative to the config's folder), or save one with "
            "`mcp-lint snapshot -o {snapshot} -- COMMAND`",
        ),
        ('{"tools": [', "{snapshot}:1:12: not valid JSON: Expecting value"),
        (
            '{"mcpServers": {}}',
            "{snapshot}: not a snapshot: expected a JSON object with a 'tools' array, or an array of tools",
        ),
    ],
)
@pytest.mark.parametrize("config_name", ["mcp-lint.toml", "pyproject.toml"])
def test_configured_snapshot_that_is_missing_or_broken_is_a_config_error(
    tmp_path: Path, config_name: str, content: str | None, problem: str
) -> None:
    table = "tool.mcp-lint.servers" if config_name == "pyproject.toml" else "servers"
    path = tmp_path / config_name
    path.write_text(f'[{table}.saved]\nsnapshot = "saved.json"\n', encoding="utf-8")
    snapshot = tmp_path / "saved.json"
    if content is not None:
        snapshot.write_text(content, encoding="utf-8")
    message = resolve_error(Request(), load_settings(path))
    assert message == f"{path} [{table}.saved]: snapshot " + problem.format(snapshot=snapshot)


def test_configured_snapshot_must_be_a_path(tmp_path: Path) -> None:
    path = tmp_path / "mcp-lint.toml"
    path.write_text("[servers.saved]\nsnapshot = 3\n", encoding="utf-8")
    assert resolve_error(Request(), load_settings(path)) == (
        f'{path} [servers.saved]: snapshot must be the path of a saved snapshot, e.g. snapshot = "tools.json"'
    )


def test_server_filter_on_configured_servers(configured: tuple[Path, Settings]) -> None:
    _, settings = configured
    targets = resolve_targets(Request(servers=("saved", "local")), settings)
    assert [t.name for t in targets] == ["local", "saved"]


def test_unknown_server_filter_on_configured_servers(configured: tuple[Path, Settings]) -> None:
    _, settings = configured
    message = resolve_error(Request(servers=("remot",)), settings)
    assert message.startswith("--server 'remot': not in [servers]")
    assert message.endswith("available: local, remote, saved")


def test_unknown_server_filter_names_the_config_file(configured: tuple[Path, Settings]) -> None:
    path, settings = configured
    assert str(path) in resolve_error(Request(servers=("remot",)), settings)


def test_configured_server_errors_in_pyproject_name_the_table_as_spelled_there(tmp_path: Path) -> None:
    path = tmp_path / "pyproject.toml"
    path.write_text('[tool.mcp-lint.servers.remote]\nurl = "ftp://example.com"\n', encoding="utf-8")
    settings = load_settings(path)
    assert resolve_error(Request(), settings) == (
        f"{path} [tool.mcp-lint.servers.remote]: server 'remote' url 'ftp://example.com' "
        "is not an http:// or https:// URL"
    )
    assert resolve_error(Request(servers=("remot",)), settings) == (
        f"--server 'remot': not in [tool.mcp-lint.servers] of {path}; available: remote"
    )


def test_settings_servers_beat_the_project_mcp_json(
    configured: tuple[Path, Settings], install: Install, monkeypatch: pytest.MonkeyPatch
) -> None:
    path, settings = configured
    install("project.mcp.json", path.parent / ".mcp.json")
    monkeypatch.chdir(path.parent)
    assert [t.name for t in resolve_targets(Request(), settings)] == ["local", "remote", "saved"]


def test_explicit_targets_beat_settings_servers(configured: tuple[Path, Settings]) -> None:
    _, settings = configured
    targets = resolve_targets(Request(command=("python", "other.py")), settings)
    assert [t.name for t in targets] == ["other"]


# --------------------------------------------------------------------------- no target: ./.mcp.json


def test_no_target_falls_back_to_mcp_json_in_cwd(
    tmp_path: Path, install: Install, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    install("project.mcp.json", project / ".mcp.json")
    monkeypatch.chdir(project)
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_env")
    targets = resolve_targets(Request(), Settings())
    assert [t.name for t in targets] == ["github", "sentry", "notes"]
    notes = targets[2]
    assert isinstance(notes, StdioTarget)
    assert notes.cwd == str(project.resolve())


def test_no_target_fallback_honours_server_filter(
    tmp_path: Path, install: Install, monkeypatch: pytest.MonkeyPatch
) -> None:
    install("project.mcp.json", tmp_path / ".mcp.json")
    monkeypatch.chdir(tmp_path)
    assert [t.name for t in resolve_targets(Request(servers=("sentry",)), Settings())] == ["sentry"]


def test_no_target_fallback_with_an_unknown_server_lists_the_available_names(
    tmp_path: Path, install: Install, monkeypatch: pytest.MonkeyPatch
) -> None:
    install("project.mcp.json", tmp_path / ".mcp.json")
    monkeypatch.chdir(tmp_path)
    message = resolve_error(Request(servers=("nope",)))
    assert message == ".mcp.json: no server named 'nope'; available: github, notes, sentry"


def test_no_target_falls_back_to_vscode_config(
    tmp_path: Path, install: Install, monkeypatch: pytest.MonkeyPatch
) -> None:
    install("vscode_mcp.jsonc", tmp_path / ".vscode" / "mcp.json")
    (tmp_path / ".env").write_text("", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert [t.name for t in resolve_targets(Request(), Settings())] == ["perplexity", "fetch", "docs"]


def test_project_configs_order() -> None:
    assert PROJECT_CONFIGS == (".mcp.json", ".vscode/mcp.json", ".cursor/mcp.json")


def test_nothing_to_lint(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert resolve_error(Request()) == (
        "nothing to lint: pass `-- COMMAND ARGS`, `--url URL`, a snapshot or client config file, "
        "or name servers under [servers] in mcp-lint.toml"
    )


def test_nothing_to_lint_when_the_project_config_is_empty(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_json(tmp_path / ".mcp.json", {"mcpServers": {}})
    monkeypatch.chdir(tmp_path)
    assert resolve_error(Request()) == (
        'nothing to lint: .mcp.json has no servers in "mcpServers"; add a server to it, '
        "or pass `-- COMMAND ARGS`, `--url URL`, or a snapshot or client config file"
    )


def test_mcp_json_is_not_searched_in_parent_folders(
    tmp_path: Path, install: Install, monkeypatch: pytest.MonkeyPatch
) -> None:
    install("project.mcp.json", tmp_path / ".mcp.json")
    (tmp_path / "sub").mkdir()
    monkeypatch.chdir(tmp_path / "sub")
    assert resolve_error(Request()).startswith("nothing to lint: ")


# --------------------------------------------------------------------------- duplicate names


def test_duplicate_names_get_numbered_suffixes(tmp_path: Path) -> None:
    paths = [write_json(tmp_path / f"{index}" / "weather.json", {"tools": []}) for index in range(3)]
    targets = resolve_targets(Request(paths=tuple(map(str, paths))), Settings())
    assert [t.name for t in targets] == ["weather", "weather-2", "weather-3"]
    assert [t.path for t in targets if isinstance(t, SnapshotTarget)] == paths


def test_duplicate_names_across_kinds(tmp_path: Path) -> None:
    snapshot = write_json(tmp_path / "server.json", {"tools": []})
    targets = resolve_targets(Request(paths=(str(snapshot),), command=("python", "server.py")), Settings())
    assert [(type(t).__name__, t.name) for t in targets] == [
        ("StdioTarget", "server"),
        ("SnapshotTarget", "server-2"),
    ]


def test_unreachable_targets_are_renamed_too(tmp_path: Path, install: Install) -> None:
    first = install("project.mcp.json", tmp_path / "a" / ".mcp.json")
    second = install("project.mcp.json", tmp_path / "b" / ".mcp.json")
    targets = resolve_targets(Request(paths=(str(first), str(second)), servers=("github",)), Settings())
    assert [t.name for t in targets] == ["github", "github-2"]
    assert all(isinstance(t, UnreachableTarget) for t in targets)


def test_suffixed_names_do_not_collide_with_real_names(tmp_path: Path) -> None:
    paths = [
        write_json(tmp_path / "a.json", {"name": "x", "tools": []}),
        write_json(tmp_path / "b.json", {"name": "x", "tools": []}),
        write_json(tmp_path / "c.json", {"name": "x-2", "tools": []}),
    ]
    names = [t.name for t in resolve_targets(Request(paths=tuple(map(str, paths))), Settings())]
    assert len(set(names)) == 3


# --------------------------------------------------------------------------- targets.describe


def test_describe() -> None:
    assert describe(StdioTarget("s", "python", ("server.py", "--port", "1"))) == "python server.py --port 1"
    assert describe(HttpTarget("h", "https://a.example/mcp")) == "https://a.example/mcp"
    assert describe(SnapshotTarget("t", Path("tests/tools.json"), {"tools": []})) == "tests/tools.json"


def test_request_defaults() -> None:
    request = Request()
    assert (request.paths, request.command, request.url, request.servers) == ((), (), None, ())
    assert dict(request.headers) == {} and dict(request.env) == {}
