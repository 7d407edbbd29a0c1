"""The docs generated from rules/ must match the rules, and the README and docs/ must keep their promises."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from mcp_lint.cli import main

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CONTRIBUTING = ROOT / "CONTRIBUTING.md"
GUIDES = sorted((ROOT / "docs").glob("*.md"))
# A markdown link to a file of this repository: [text](path) or [text](path#anchor), not a URL.
LOCAL_LINK = re.compile(r"\]\((?!https?://|#)([^)#\s]+)(?:#[^)]*)?\)")


def read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def test_generated_docs_are_up_to_date() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "generate_docs.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr


def test_readme_opens_with_the_two_commands() -> None:
    block = read(README).split("```sh", 1)[1].split("```", 1)[0]
    commands = [line for line in block.splitlines() if line and not line.startswith("#")]
    assert commands[0].endswith("mcp-lint check -- .venv/bin/python examples/weather_server.py")
    assert commands[1] == "bash .ci/run"


def test_ci_run_ends_with_the_test_suite() -> None:
    lines = [line for line in read(ROOT / ".ci" / "run").splitlines() if line and not line.startswith("#")]
    assert any(line.startswith(".venv/bin/python -m pytest") for line in lines[-3:])


def test_readme_sample_is_real_output(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The sample is an excerpt: each line it shows must appear, in order, in what the first command prints.
    sample = read(README).split("```text\n", 1)[1].split("```", 1)[0].splitlines()
    shown = [line for line in sample if line.strip() and line.strip() != "[...]"]
    monkeypatch.chdir(ROOT)
    code = main(["check", "--", sys.executable, "examples/weather_server.py"])
    output = capsys.readouterr().out.splitlines()
    assert code == 1
    position = 0
    for line in shown:
        assert line in output[position:], f"not in the real output (or out of order): {line!r}"
        position = output.index(line, position) + 1


def test_readme_documents_every_exit_code() -> None:
    readme = read(README)
    for code in (*range(5), 130, 143):
        assert f"| {code} |" in readme


def test_readme_links_every_guide() -> None:
    readme = read(README)
    for guide in GUIDES:
        assert f"](docs/{guide.name})" in readme, guide.name


@pytest.mark.parametrize("page", [README, CONTRIBUTING, *GUIDES], ids=lambda page: page.name)
def test_local_links_resolve(page: Path) -> None:
    broken = [target for target in LOCAL_LINK.findall(read(page)) if not (page.parent / target).exists()]
    assert not broken, broken


def command_help(words: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main([*words, "--help"]) == 0
    return capsys.readouterr().out


def subcommands(help_text: str) -> list[str]:
    listing = help_text.split("Commands:", 1)[1] if "Commands:" in help_text else ""
    return re.findall(r"^  (\w+)  ", listing, re.MULTILINE)


def test_every_command_and_option_is_documented(capsys: pytest.CaptureFixture[str]) -> None:
    # Moving text out of the README must not lose a flag: each one the CLI offers is named in README or docs/.
    documented = read(README) + "".join(read(guide) for guide in GUIDES)
    missing = []
    pending = [[name] for name in subcommands(command_help([], capsys))]
    assert ["check"] in pending
    while pending:
        words = pending.pop()
        text = command_help(words, capsys)
        if f"mcp-lint {' '.join(words)}" not in documented:
            missing.append(" ".join(words))
        pending.extend([*words, name] for name in subcommands(text))
        options = text.split("Options:", 1)[1] if "Options:" in text else ""
        for option in sorted(set(re.findall(r"--[a-z][a-z-]*", options)) - {"--help", "--version"}):
            if not re.search(re.escape(option) + r"(?![\w-])", documented):
                missing.append(f"{' '.join(words)} {option}")
    assert not missing, missing


@pytest.mark.parametrize("script", re.findall(r"python (benchmarks/\w+\.py)", read(CONTRIBUTING)))
def test_contributing_names_benchmarks_that_exist(script: str) -> None:
    assert (ROOT / script).is_file()


def test_every_benchmark_is_in_contributing() -> None:
    contributing = read(CONTRIBUTING)
    for script in sorted((ROOT / "benchmarks").glob("*.py")):
        assert f"python benchmarks/{script.name}" in contributing, script.name
