"""`mcp-lint init` on temporary repositories: what it finds, what it writes, what it leaves alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from mcp_lint.cli import main
from mcp_lint.config import find_config, load_settings
from mcp_lint.init import RELEASE, REPOSITORY, WORKFLOW_PATH, find_servers, init_project
from mcp_lint.reach.resolve import Request, resolve_targets
from mcp_lint.reach.targets import StdioTarget

FASTMCP_SERVER = """\
from mcp.server.fastmcp import FastMCP

mcp = FastMCP("weather")


@mcp.tool()
def forecast(city: str) -> str:
    \"\"\"The forecast for a city.\"\"\"
    return "sunny"


if __name__ == "__main__":
    mcp.run()
"""


def write(root: Path, relative: str, text: str) -> Path:
    path = root / relative
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_finds_each_kind_of_server(tmp_path: Path) -> None:
    write(tmp_path, ".mcp.json", json.dumps({"mcpServers": {"github": {"command": "npx", "args": ["gh"]}}}))
    write(
        tmp_path, ".vscode/mcp.json", '{"servers": {"remote": {"type": "http", "url": "https://x.test/mcp"}}}'
    )
    write(
        tmp_path,
        "server.json",
        json.dumps(
            {
                "name": "io.github.acme/weather",
                "packages": [
                    {
                        "registryType": "pypi",
                        "identifier": "acme-weather",
                        "version": "1.2.0",
                        "environmentVariables": [{"name": "WEATHER_KEY", "isSecret": True}],
                    }
                ],
            }
        ),
    )
    write(tmp_path, "src/forecaster/server.py", FASTMCP_SERVER)
    write(tmp_path, "src/forecaster/util.py", "import mcp\n\nprint('no server built here')\n")
    write(
        tmp_path,
        "js/package.json",
        json.dumps(
            {
                "name": "@acme/notes",
                "bin": {"notes-mcp": "./build/index.js"},
                "dependencies": {"@modelcontextprotocol/sdk": "^1.0.0"},
            }
        ),
    )
    write(tmp_path, "other/package.json", json.dumps({"name": "unrelated", "main": "index.js"}))
    write(tmp_path, "node_modules/dep/package.json", json.dumps({"name": "dep", "main": "x.js"}))

    found = {server.name: server for server in find_servers(tmp_path)}

    assert set(found) == {"github", "remote", "weather", "forecaster", "notes"}
    assert found["github"].entry == {"command": "npx", "args": ["gh"]}
    assert found["remote"].entry == {"type": "http", "url": "https://x.test/mcp"}
    assert found["remote"].source == ".vscode/mcp.json"
    assert found["weather"].entry == {
        "command": "uvx",
        "args": ["acme-weather==1.2.0"],
        "env": {"WEATHER_KEY": "${WEATHER_KEY}"},
    }
    assert found["forecaster"].entry == {"command": "python", "args": ["src/forecaster/server.py"]}
    assert found["notes"].entry == {"command": "node", "args": ["js/build/index.js"]}


def test_writes_mcp_lint_toml_that_check_resolves(tmp_path: Path) -> None:
    write(tmp_path, "weather.py", FASTMCP_SERVER)
    write(tmp_path, "tools/notes.py", FASTMCP_SERVER.replace("weather", "notes"))

    result = init_project(tmp_path)

    assert result.written == (Path("mcp-lint.toml"), WORKFLOW_PATH)
    assert result.skipped == ()
    assert find_config(tmp_path) == tmp_path / "mcp-lint.toml"
    settings = load_settings(start=tmp_path)
    assert dict(settings.servers) == {
        "notes": {"command": "python", "args": ["tools/notes.py"]},
        "weather": {"command": "python", "args": ["weather.py"]},
    }
    targets = resolve_targets(Request(), settings)
    assert sorted(
        (target.name, target.command, target.args) for target in targets if isinstance(target, StdioTarget)
    ) == [
        ("notes", "python", ("tools/notes.py",)),
        ("weather", "python", ("weather.py",)),
    ]


def test_appends_the_table_to_pyproject(tmp_path: Path) -> None:
    original = '[project]\nname = "forecaster"\nversion = "1.0"\n\n[tool.ruff]\nline-length = 100\n'
    write(tmp_path, "pyproject.toml", original)
    write(tmp_path, "src/forecaster/__main__.py", FASTMCP_SERVER)

    result = init_project(tmp_path)

    text = (tmp_path / "pyproject.toml").read_text(encoding="utf-8")
    assert text.startswith(original)
    assert Path("pyproject.toml") in result.written
    assert not (tmp_path / "mcp-lint.toml").exists()
    settings = load_settings(start=tmp_path)
    assert settings.config_path == tmp_path / "pyproject.toml"
    assert dict(settings.servers) == {
        "forecaster": {"command": "python", "args": ["src/forecaster/__main__.py"]}
    }
    # A Python server: the workflow installs the project so the server's imports resolve.
    assert result.python
    workflow = yaml.safe_load((tmp_path / WORKFLOW_PATH).read_text(encoding="utf-8"))
    steps = workflow["jobs"]["mcp-lint"]["steps"]
    assert {"run": "python -m pip install ."} in steps


def test_workflow_uses_the_action_with_the_permissions_it_needs(tmp_path: Path) -> None:
    init_project(tmp_path)

    workflow = yaml.safe_load((tmp_path / WORKFLOW_PATH).read_text(encoding="utf-8"))

    assert workflow["permissions"] == {"contents": "read", "security-events": "write"}
    # yaml reads the key `on` as True
    assert set(workflow[True]) == {"push", "pull_request"}
    uses = [step["uses"] for step in workflow["jobs"]["mcp-lint"]["steps"] if "uses" in step]
    assert uses[0] == "actions/checkout@v4"
    assert uses[-1].startswith(f"{REPOSITORY}@v")


def test_no_server_found_still_writes_a_usable_config(tmp_path: Path) -> None:
    result = init_project(tmp_path)

    assert result.servers == ()
    text = (tmp_path / "mcp-lint.toml").read_text(encoding="utf-8")
    assert "# [servers.local]" in text
    assert load_settings(start=tmp_path).servers == {}


def test_never_overwrites_without_force(tmp_path: Path) -> None:
    write(tmp_path, "mcp-lint.toml", 'fail-on = "high"\n')
    write(tmp_path, str(WORKFLOW_PATH), "name: mine\n")
    write(tmp_path, "weather.py", FASTMCP_SERVER)

    kept = init_project(tmp_path)

    assert kept.written == ()
    assert {item.path for item in kept.skipped} == {Path("mcp-lint.toml"), WORKFLOW_PATH}
    assert (tmp_path / "mcp-lint.toml").read_text(encoding="utf-8") == 'fail-on = "high"\n'
    assert (tmp_path / WORKFLOW_PATH).read_text(encoding="utf-8") == "name: mine\n"

    forced = init_project(tmp_path, force=True)

    assert forced.written == (Path("mcp-lint.toml"), WORKFLOW_PATH)
    assert "weather" in load_settings(start=tmp_path).servers
    assert "mine" not in (tmp_path / WORKFLOW_PATH).read_text(encoding="utf-8")


def test_existing_pyproject_table_is_left_alone_even_with_force(tmp_path: Path) -> None:
    original = '[project]\nname = "x"\n\n[tool.mcp-lint]\nfail-on = "critical"\n'
    write(tmp_path, "pyproject.toml", original)
    write(tmp_path, "weather.py", FASTMCP_SERVER)

    result = init_project(tmp_path, force=True)

    assert (tmp_path / "pyproject.toml").read_text(encoding="utf-8") == original
    assert [item.path for item in result.skipped] == [Path("pyproject.toml")]
    assert "[tool.mcp-lint]" in result.skipped[0].reason
    assert result.written == (WORKFLOW_PATH,)


def test_pre_commit_lines_are_valid_yaml_naming_the_hook(tmp_path: Path) -> None:
    result = init_project(tmp_path)

    repos = yaml.safe_load("repos:\n" + result.pre_commit)["repos"]

    assert repos[0]["repo"] == f"https://github.com/{REPOSITORY}"
    assert [hook["id"] for hook in repos[0]["hooks"]] == ["mcp-lint"]
    hook_ids = {
        hook["id"]
        for hook in yaml.safe_load((Path(__file__).parent.parent / ".pre-commit-hooks.yaml").read_text())
    }
    assert "mcp-lint" in hook_ids


def test_same_server_in_a_client_config_and_as_a_script_is_listed_once(tmp_path: Path) -> None:
    write(tmp_path, "weather.py", FASTMCP_SERVER)
    write(
        tmp_path,
        ".mcp.json",
        json.dumps({"mcpServers": {"wx": {"command": "python", "args": ["weather.py"]}}}),
    )

    assert [(server.name, server.kind) for server in find_servers(tmp_path)] == [("wx", "client config")]


def test_readme_shows_what_init_writes() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    assert f"uses: {REPOSITORY}@{RELEASE}" in readme
    assert f"repo: https://github.com/{REPOSITORY}\n    rev: {RELEASE}" in readme
    assert "security-events: write" in readme


def test_init_command_prints_what_it_wrote(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    write(tmp_path, "weather.py", FASTMCP_SERVER)
    monkeypatch.chdir(tmp_path)

    assert main(["init"]) == 0
    first = capsys.readouterr().out
    assert "  weather  (python, weather.py)" in first
    assert "wrote mcp-lint.toml" in first and f"wrote {WORKFLOW_PATH.as_posix()}" in first
    assert "- id: mcp-lint" in first

    assert main(["init"]) == 0
    second = capsys.readouterr().out
    assert "left mcp-lint.toml: exists; pass --force to replace it" in second
    assert "wrote" not in second

    assert main(["init", "--force"]) == 0
    assert "wrote mcp-lint.toml" in capsys.readouterr().out


def test_the_pre_commit_lines_name_the_servers_source(tmp_path: Path) -> None:
    # Issue 22: the hook's `files:` did not match the server's source, so a staged edit skipped it.
    write(tmp_path, "weather.py", FASTMCP_SERVER)
    local = yaml.safe_load("repos:\n" + init_project(tmp_path).pre_commit)["repos"][0]
    # A Python server runs with the project's interpreter, so what it imports is there.
    assert local["repo"] == "local"
    [hook] = local["hooks"]
    assert (hook["entry"], hook["language"]) == ("python -m mcp_lint check --jury offline", "system")
    assert hook["files"].endswith("|^weather\\.py$")
    # With a lock file, the project's runner puts its environment first on PATH.
    write(tmp_path, "uv.lock", "version = 1\n")
    [hook] = yaml.safe_load("repos:\n" + init_project(tmp_path, force=True).pre_commit)["repos"][0]["hooks"]
    assert hook["entry"] == "uv run python -m mcp_lint check --jury offline"

    node = tmp_path / "node"
    write(
        node,
        "packages/notes/package.json",
        json.dumps(
            {"name": "notes", "bin": "dist/index.js", "dependencies": {"@modelcontextprotocol/sdk": "1"}}
        ),
    )
    published = yaml.safe_load("repos:\n" + init_project(node).pre_commit)["repos"][0]
    assert published["repo"] == f"https://github.com/{REPOSITORY}" and published["rev"] == RELEASE
    assert published["hooks"][0]["files"].endswith("|^packages/notes/")
