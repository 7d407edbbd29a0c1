"""The pre-commit hooks (`.pre-commit-hooks.yaml`): their manifest, and `pre-commit try-repo` run for
real against a temporary repository holding a snapshot and an mcp-lint config.

try-repo builds the hook's environment the way a user's pre-commit does: a virtualenv and
`pip install` of this checkout, dependencies from PyPI. That takes a minute or more on two cores, so
the run is marked `slow` (it still runs by default; `-m 'not slow'` skips it).
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path
from typing import Any

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
HOOKS: list[dict[str, Any]] = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
SNAPSHOT = ROOT / "tests/fixtures/golden/smelly-snapshot.json"


def hook(hook_id: str) -> dict[str, Any]:
    return next(item for item in HOOKS if item["id"] == hook_id)


def test_manifest_declares_whole_project_hooks_and_a_snapshot_one() -> None:
    assert [item["id"] for item in HOOKS] == ["mcp-lint", "mcp-lint-live", "mcp-lint-snapshots"]
    for item in HOOKS:
        assert item["language"] == "python"
        assert item["entry"] == "mcp-lint check"
        assert item["require_serial"] is True
        assert item["minimum_pre_commit_version"]
    # The whole-project hooks lint what the config names; the snapshot hook lints the files changed.
    assert hook("mcp-lint")["pass_filenames"] is False
    assert hook("mcp-lint-live")["pass_filenames"] is False
    assert hook("mcp-lint-snapshots")["pass_filenames"] is True
    assert hook("mcp-lint")["args"] == ["--jury", "offline"]
    assert hook("mcp-lint-snapshots")["args"] == ["--jury", "offline"]
    assert "stages" not in hook("mcp-lint")
    assert "stages" not in hook("mcp-lint-snapshots")
    assert hook("mcp-lint-live")["stages"] == ["pre-push", "manual"]
    assert "args" not in hook("mcp-lint-live")


@pytest.mark.parametrize(
    ("path", "runs"),
    [
        (".mcp.json", True),
        (".vscode/mcp.json", True),
        ("server.json", True),
        ("pkg/server.json", True),
        ("mcp-lint.toml", True),
        (".mcp-lint.toml", True),
        ("pyproject.toml", True),
        ("tools.json", True),
        ("snapshots/weather.json", True),
        ("tests/weather.tools.json", True),
        (".mcp-lint/jury-cache.json", True),
        ("claude_desktop_config.json", True),
        ("src/server.py", False),
        ("package.json", False),
        ("README.md", False),
        ("mytools.json", False),
    ],
)
def test_files_pattern(path: str, runs: bool) -> None:
    for hook_id in ("mcp-lint", "mcp-lint-live"):
        assert bool(re.search(hook(hook_id)["files"], path)) is runs


@pytest.mark.parametrize(
    ("path", "linted"),
    [
        ("tools.json", True),
        ("tests/weather.tools.json", True),
        ("weather-tools.json", True),
        ("snapshots/weather.json", True),
        ("pkg/snapshot/weather.json", True),
        # Not snapshots: configs, registry entries, the jury cache, nested folders of data.
        (".mcp.json", False),
        ("server.json", False),
        (".mcp-lint/jury-cache.json", False),
        ("snapshots/old/weather.json", False),
        ("mytools.json", False),
        ("src/server.py", False),
    ],
)
def test_snapshot_hook_passes_only_snapshot_files(path: str, linted: bool) -> None:
    assert bool(re.search(hook("mcp-lint-snapshots")["files"], path)) is linted


def _pre_commit_path() -> str | None:
    """Where pre-commit is importable from, when that is not this interpreter's own site-packages
    (a developer's side install): the pre-commit process needs it on PYTHONPATH."""
    spec = importlib.util.find_spec("pre_commit")
    if spec is None or spec.origin is None:
        pytest.skip("pre-commit is not installed (it is in the test extra)")
    folder = Path(spec.origin).parent.parent
    return None if folder == Path(sysconfig.get_paths()["purelib"]) else str(folder)


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_try_repo_lints_the_configured_snapshot(tmp_path: Path) -> None:
    pre_commit_path = _pre_commit_path()
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    project = tmp_path / "project"
    (project / "snapshots").mkdir(parents=True)
    shutil.copy(SNAPSHOT, project / "snapshots" / "smelly.json")
    (project / "mcp-lint.toml").write_text(
        '[servers.smelly]\nsnapshot = "snapshots/smelly.json"\n', encoding="utf-8"
    )
    _git(project, "init", "-q")
    _git(project, "add", ".")
    # The hook runs from the environment try-repo builds, never from this checkout's import path.
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GITHUB_", "PYTHONPATH"))}
    env |= {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"), "NO_COLOR": "1"}
    if pre_commit_path:
        env["PYTHONPATH"] = pre_commit_path

    def try_repo(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "try-repo", str(ROOT), *args],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
        )

    # Each try-repo builds the hooks' environment anew (a minute or more), so this is the one run, of
    # every hook of the default stage in that one environment: the snapshot's findings fail both the
    # whole-project hook (through the config) and the snapshot hook (given the file), scored by the
    # offline jury (no network, no model). Which files start a hook is the pattern tests' business.
    failed = try_repo("--all-files", "--verbose")
    assert failed.returncode == 1, failed.stdout + failed.stderr
    for name in ("mcp-lint (offline)", "mcp-lint (committed snapshots)"):
        line = next(line for line in failed.stdout.splitlines() if line.startswith(name))
        assert line.endswith("Failed"), failed.stdout
    assert "mcp-lint (configured jury)" not in failed.stdout  # pre-push and manual only
    assert failed.stdout.count("MCP301 hidden-instructions") >= 2
    assert failed.stdout.count("jury: offline") == 2


# A server importing a package that the published hook's own environment (mcp-lint and what it
# depends on) does not install: run by that environment's `python`, it could not start (exit 3).
SERVER_WITH_DEPENDENCY = '''"""A small server with a third-party import."""

import vulture  # noqa: F401  (any package beyond mcp-lint's own dependencies)
from mcp.server.mcpserver import MCPServer

server = MCPServer("deps-demo", version="1.0.0")


@server.tool()
def count_words(text: str) -> int:
    """Counts the words in `text` (split on whitespace) and returns the count as an integer."""
    return len(text.split())


if __name__ == "__main__":
    server.run()
'''


def test_the_hook_init_prints_runs_a_server_with_dependencies_and_on_its_source(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Issue 22: the hook init set up ran the server with the hook's own virtualenv (exit 3 for any
    # import beyond mcp), and its `files:` did not match the server's source. Offline: the printed
    # hook is a local one (language: system), so pre-commit builds no environment.
    pre_commit_path = _pre_commit_path()
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    from mcp_lint.cli import main

    project = tmp_path / "project"
    (project / "src" / "demo").mkdir(parents=True)
    server = project / "src" / "demo" / "server.py"
    server.write_text(SERVER_WITH_DEPENDENCY, encoding="utf-8")
    monkeypatch.chdir(project)
    assert main(["init"]) == 0
    printed = capsys.readouterr().out
    snippet = printed.split("add to .pre-commit-config.yaml, under repos:\n", 1)[1]
    config = yaml.safe_load("repos:\n" + snippet)
    [hook_config] = config["repos"][0]["hooks"]
    assert config["repos"][0]["repo"] == "local" and hook_config["language"] == "system"
    assert re.search(hook_config["files"], "src/demo/server.py")
    # The published hooks' pattern, widened to the server's folder.
    assert hook_config["files"] == hook("mcp-lint")["files"] + "|^src/demo/"
    (project / ".pre-commit-config.yaml").write_text("repos:\n" + snippet, encoding="utf-8")
    _git(project, "init", "-q")
    _git(project, "add", ".")
    _git(
        project,
        "-c",
        "user.name=t",
        "-c",
        "user.email=t@example.com",
        "commit",
        "-q",
        "--no-verify",
        "-m",
        "x",
    )

    # The project's interpreter is this one: it has mcp, the server's import and (on PYTHONPATH) mcp-lint.
    env = {key: value for key, value in os.environ.items() if not key.startswith(("GITHUB_", "PYTHONPATH"))}
    env |= {
        "PRE_COMMIT_HOME": str(tmp_path / "pre-commit-home"),
        "NO_COLOR": "1",
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), pre_commit_path])),
    }

    def pre_commit(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "pre_commit", "run", "--verbose", *args],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
        )

    # A staged edit of the description runs the hook, and the server starts with its dependency.
    server.write_text(
        SERVER_WITH_DEPENDENCY.replace("Counts the words", "Counts the words of"), encoding="utf-8"
    )
    _git(project, "add", "src/demo/server.py")
    ran = pre_commit()
    output = ran.stdout + ran.stderr
    assert "mcp-lint (offline)" in output and "Skipped" not in output, output
    assert "could not lint" not in output and "exit code: 3" not in output, output
    assert "demo  1 tool" in output and "jury: offline" in output, output
    assert ran.returncode in (0, 1), output
