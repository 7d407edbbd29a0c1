"""What a spawned server inherits: the SDK's safe variables and what the target names, nothing else."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from reflect_support import SERVERS, Spawner

from mcp_lint.reach.targets import StdioTarget
from mcp_lint.reflect import reflect_all
from mcp_lint.reflect.live import spawn_environment

PREFIX = "Environment variables visible to this server: "


def visible_names(spawner: Spawner, **kwargs: object) -> set[str]:
    target = spawner.target("env", "env_echo_server.py", **kwargs)
    [result] = reflect_all([target], 10)
    assert result.error is None, result.error
    assert result.snapshot is not None
    [tool] = result.snapshot.tools
    assert tool.description.startswith(PREFIX)
    spawner.assert_gone()
    return set(tool.description[len(PREFIX) :].split(","))


def test_parent_secrets_are_not_passed(spawner: Spawner, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test-should-not-leak")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "nope")
    monkeypatch.setenv("MCP_LINT_UNRELATED", "1")
    names = visible_names(spawner, env={"MCP_LINT_GIVEN": "yes", "API_TOKEN": "for-this-server"})
    assert "OPENAI_API_KEY" not in names
    assert "AWS_SECRET_ACCESS_KEY" not in names
    assert "MCP_LINT_UNRELATED" not in names
    assert {"MCP_LINT_GIVEN", "API_TOKEN", "PATH"} <= names


def test_target_env_overrides_defaults(spawner: Spawner, tmp_path: Path) -> None:
    env = spawn_environment(StdioTarget("x", "cmd", env={"PATH": "/custom/bin", "EXTRA": "1"}))
    assert env["PATH"] == "/custom/bin" and env["EXTRA"] == "1"
    assert "OPENAI_API_KEY" not in env


def test_default_environment_is_small(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    env = spawn_environment(StdioTarget("x", "cmd"))
    assert "OPENAI_API_KEY" not in env
    assert set(env) <= {"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}
    assert env.get("PATH") == os.environ.get("PATH")


def test_cwd_is_used(tmp_path: Path) -> None:
    marker = tmp_path / "cwd.txt"
    code = f"import os; open({str(marker)!r}, 'w').write(os.getcwd())"
    reflect_all([StdioTarget("cwd", sys.executable, ("-c", code), cwd=str(tmp_path))], 5)
    assert marker.read_text(encoding="utf-8") == str(tmp_path)


def test_arguments_are_passed_verbatim(spawner: Spawner, tmp_path: Path) -> None:
    odd = tmp_path / "dir with spaces" / "pid $HOME;`x`.txt"
    odd.parent.mkdir()
    target = StdioTarget("odd", sys.executable, (str(SERVERS / "good_server.py"), "--pid-file", str(odd)))
    [result] = reflect_all([target], 10)
    assert result.error is None, result.error
    assert odd.read_text(encoding="utf-8").isdigit()
