"""The docs generated from rules/ must match the rules, and the README must keep its promises."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_generated_docs_are_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "generate_docs.py"), "--check"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert result.returncode == 0, result.stderr


def test_readme_opens_with_the_two_commands() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("```sh", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line and not line.startswith("#")]
    assert commands[0].endswith("mcp-lint check -- .venv/bin/python examples/weather_server.py")
    assert commands[1] == "bash .ci/run"


def test_readme_documents_every_exit_code() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for code in (*range(5), 130, 143):
        assert f"| {code} |" in readme
