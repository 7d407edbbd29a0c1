"""The project's own checks run with the suite, so CI holds every change to them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def run(command: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True)


@pytest.mark.timeout(600)  # a cold mypy cache on a loaded runner; a hang guard, not a time limit
@pytest.mark.parametrize(
    "command",
    [
        [sys.executable, "-m", "ruff", "check", "."],
        [sys.executable, "-m", "ruff", "format", "--check", "."],
        [sys.executable, "-m", "mypy"],
    ],
    ids=["ruff-check", "ruff-format", "mypy-strict"],
)
def test_tool_passes(command: list[str]) -> None:
    result = run(command)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]


# Called by name, never by a reference vulture can see: the rules' YAML names the check functions,
# click calls the commands. Everything else used only dynamically is in tests/vulture_whitelist.py.
DYNAMIC_DECORATORS = "@check_function,@cli.command,@cli.group,@cache.command"


def test_no_dead_code() -> None:
    """vulture over the package with every in-repo user of it (lab, scripts, benchmarks, tests): code
    nothing calls is dead, even when only its own tests would miss it. Dead code inside tests/ is not
    judged here (pytest calls fixtures by name)."""
    result = run(
        [
            sys.executable,
            "-m",
            "vulture",
            "mcp_lint",
            "lab",
            "scripts",
            "benchmarks",
            "tests",
            "--min-confidence",
            "60",
            "--ignore-decorators",
            DYNAMIC_DECORATORS,
        ]
    )
    assert result.returncode in (0, 3), result.stderr  # 3: vulture found something
    dead = [line for line in result.stdout.splitlines() if not line.startswith("tests")]
    assert dead == [], "\n".join(dead)
