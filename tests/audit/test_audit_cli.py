"""`mcp-lint audit` from the command line: bad inputs are one line and exit 2 before anything runs,
--resume after a real kill runs only what the killed audit had not recorded, and --report writes the
audit's summary."""

from __future__ import annotations

import importlib.util
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from audit_support import rows_by_run, runs, snapshots, stored_rows

from mcp_lint.cli import main

ROOT = Path(__file__).resolve().parents[2]


def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    code = main(["audit", *args])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _one_error_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("mcp-lint: error: "), err
    return lines[0]


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["missing.json"], "missing.json: no such file or folder; name a server.json"),
        ([], "no target: name server.json files, snapshots, registry exports or folders of them"),
        (["{snapshot}", "--workers", "0"], "invalid value for '--workers': 0 is not in the range 1<=x<=4096"),
        (["{snapshot}", "--workers", "many"], "invalid value for '--workers': 'many' is not a valid integer"),
        (["{snapshot}", "--ray-address", "127.0.0.1:6379"], "--ray-address needs --engine ray"),
        (["{snapshot}", "--store", "{folder}"], "cannot use it as the audit store"),
        (["{snapshot}", "--store", "{text}"], "cannot use it as the audit store (file is not a database)"),
        (["{snapshot}", "--report", "{snapshot}"], "--report {snapshot}: this run reads that file"),
        (
            ["{snapshot}", "--fresh-installs", "--cache-dir", "c"],
            "--fresh-installs and --cache-dir contradict",
        ),
    ],
)
def test_bad_input_is_one_line_and_exit_2_with_nothing_run(
    here: Path, capsys: pytest.CaptureFixture[str], args: list[str], expected: str
) -> None:
    snapshot = str(snapshots(1)[0])
    (here / "folder").mkdir()
    (here / "notes.txt").write_text("not a database, but a text file long enough to be read\n" * 20)
    values = {"snapshot": snapshot, "folder": str(here / "folder"), "text": str(here / "notes.txt")}
    code, out, err = _run([arg.format(**values) for arg in args], capsys)
    assert code == 2 and out == ""
    assert expected.format(**values) in _one_error_line(err)
    assert not (here / ".mcp-lint" / "audit.sqlite").exists()


def test_engine_ray_without_ray_is_exit_2_with_the_install_line(here: Path) -> None:
    # Ray made unimportable in a fresh interpreter: what a machine without the extra sees.
    program = (
        "import sys; sys.modules['ray'] = None\n"
        "from mcp_lint.cli import main\n"
        "raise SystemExit(main(sys.argv[1:]))\n"
    )
    snapshot = str(snapshots(1)[0])
    done = subprocess.run(
        [sys.executable, "-c", program, "audit", snapshot, "--engine", "ray"],
        capture_output=True,
        text=True,
        cwd=here,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.strip() == (
        "mcp-lint: error: --engine ray needs Ray, an optional extra: pip install 'mcp-lint[distributed]'"
    )


def test_an_audit_stores_rows_and_writes_the_report(here: Path, capsys: pytest.CaptureFixture[str]) -> None:
    targets = [str(path) for path in snapshots(4)]
    code, out, err = _run([*targets, "--workers", "2", "--report", "audit.md"], capsys)
    rows = stored_rows(here / ".mcp-lint" / "audit.sqlite")
    assert sorted(rows) == sorted(targets)
    assert code == (0 if all(row["status"] == "passed" for row in rows.values()) else 1)
    assert out == "" and "mcp-lint: audited 4 target(s) (4 run, 0 already recorded)" in err
    report = (here / "audit.md").read_text(encoding="utf-8")
    passed = sum(row["status"] == "passed" for row in rows.values())
    assert f"({passed} of 4 passed)" in report and "```mermaid" in report
    code, _, err = _run([*targets, "--resume"], capsys)
    assert "(0 run, 4 already recorded)" in err
    assert runs(here / ".mcp-lint" / "audit.sqlite") == [(1, 4, 0), (2, 0, 4)]


@pytest.mark.timeout(600)
def test_resume_after_a_kill_runs_only_what_was_not_recorded(here: Path) -> None:
    corpus = here / "corpus"
    corpus.mkdir()
    for path in snapshots(24):
        (corpus / path.name).write_bytes(path.read_bytes())
    store = here / "audit.sqlite"
    command = [sys.executable, "-m", "mcp_lint", "audit", "corpus", "--store", str(store), "--workers", "1"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    process = subprocess.Popen(command, cwd=here, env=env, start_new_session=True, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 300
    recorded = 0
    while recorded < 3 and time.monotonic() < deadline and process.poll() is None:
        time.sleep(0.5)
        recorded = _count(store)
    assert process.poll() is None, "the audit finished before it could be killed"
    os.killpg(process.pid, signal.SIGKILL)  # no clean-up: the audit and its workers die at once
    process.wait()
    killed_with = _count(store)
    assert 3 <= killed_with < 24
    rows_before = stored_rows(store)
    done = subprocess.run(
        [*command, "--resume"], cwd=here, env=env, capture_output=True, text=True, timeout=500
    )
    assert done.returncode in (0, 1), done.stderr
    assert f"({24 - killed_with} run, {killed_with} already recorded)" in done.stderr
    assert runs(store) == [(1, 24, 0), (2, 24 - killed_with, killed_with)]
    assert rows_by_run(store) == {1: killed_with, 2: 24 - killed_with}
    rows_after = stored_rows(store)
    assert len(rows_after) == 24 and all(rows_after[target] == row for target, row in rows_before.items())


def _count(store: Path) -> int:
    if not store.exists():
        return 0
    try:
        db = sqlite3.connect(store, timeout=5)
        try:
            return int(db.execute("SELECT count(*) FROM results").fetchone()[0])
        finally:
            db.close()
    except sqlite3.OperationalError:  # the schema is not there yet
        return 0


def test_the_progress_bar_redraws_one_line_on_a_terminal_and_says_nothing_elsewhere() -> None:
    from mcp_lint.audit.job import JobResult
    from mcp_lint.commands.audit import Progress
    from mcp_lint.commands.output import Output

    written: list[tuple[str, bool, bool]] = []

    def echo(message: str, /, *, nl: bool = True, err: bool = False, color: bool | None = None) -> None:
        written.append((message, nl, err))

    results = [
        JobResult(target=f"t{index}", kind="snapshot", status=status, exit_code=0)
        for index, status in enumerate(["passed", "failed"])
    ]
    shown = Progress(2, Output(echo), shown=True)
    for result in results:
        shown(result)
    assert written == [
        ("\r[###############...............] 1/2  passed 1  failed 0  unreachable 0  error 0", False, True),
        ("\r[##############################] 2/2  passed 1  failed 1  unreachable 0  error 0", True, True),
    ]
    written.clear()
    hidden = Progress(2, Output(echo), shown=False)
    for result in results:
        hidden(result)
    assert written == []


@pytest.mark.skipif(importlib.util.find_spec("ray") is None, reason="Ray is not installed")
def test_a_ray_address_where_nothing_listens_is_exit_2_before_anything_is_stored(here: Path) -> None:
    # In a process of its own: Ray reads its settings once, when first imported.
    with socket.socket() as probe:  # a port nothing listens on: bound, never listening
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        address = ["--ray-address", f"127.0.0.1:{port}"]
        done = subprocess.run(
            [sys.executable, "-m", "mcp_lint", "audit", str(snapshots(1)[0]), "--engine", "ray", *address],
            capture_output=True,
            text=True,
            cwd=here,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
            timeout=120,
        )
    assert done.returncode == 2 and done.stdout == ""
    assert f"--ray-address 127.0.0.1:{port}: nothing answers there" in _one_error_line(done.stderr)
    assert not (here / ".mcp-lint").exists()
