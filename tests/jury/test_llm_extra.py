"""LLM judges need the `llm` extra (litellm): without it `--jury MODEL` fails on one line, before any server.

Each case runs the CLI in a fresh interpreter with litellm made unimportable the way Python documents
for blocking an import: `sys.modules["litellm"] = None`, after which `import litellm` raises
ModuleNotFoundError and `importlib.util.find_spec("litellm")` answers None, exactly as in an
install without the extra.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from mcp_lint.jury.cache import render

SERVERS = Path(__file__).resolve().parent.parent / "servers"
EXTRA = "pip install 'mcp-lint[llm]'"

CLI = "import sys\n{setup}\nfrom mcp_lint.cli import main\nraise SystemExit(main(sys.argv[1:]))\n"
WITHOUT_LITELLM = CLI.format(setup="sys.modules['litellm'] = None")


def run_without_litellm(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", WITHOUT_LITELLM, *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        check=False,
    )


def server_command(pid_file: Path) -> list[str]:
    return [sys.executable, str(SERVERS / "good_server.py"), "--pid-file", str(pid_file)]


def test_jury_model_without_the_extra_is_a_one_line_usage_error(tmp_path: Path) -> None:
    pid_file = tmp_path / "server.pid"
    args = ["check", "--isolated", "--no-cache", "--jury", "openai/gpt-4o", "--", *server_command(pid_file)]
    result = run_without_litellm(args, tmp_path)
    assert result.returncode == 2, result.stderr
    message = f"jury model 'openai/gpt-4o' needs the LLM extra (litellm is not installed): {EXTRA}"
    assert result.stderr == f"mcp-lint: error: {message}\n"
    assert not pid_file.exists(), "the server was started before the settings were refused"


def test_judges_from_the_config_without_the_extra_name_it_too(tmp_path: Path) -> None:
    pid_file = tmp_path / "server.pid"
    command = ", ".join(f'"{part}"' for part in server_command(pid_file))
    (tmp_path / "mcp-lint.toml").write_text(
        f'[servers.good]\ncommand = [{command}]\n\n[jury]\nmodels = ["anthropic/claude-x"]\n',
        encoding="utf-8",
    )
    result = run_without_litellm(["check", "--no-cache"], tmp_path)
    assert result.returncode == 2, result.stderr
    assert result.stderr.count("\n") == 1
    assert "'anthropic/claude-x' needs the LLM extra" in result.stderr and EXTRA in result.stderr
    assert not pid_file.exists()


def test_offline_jury_runs_without_the_extra(tmp_path: Path) -> None:
    snapshot = tmp_path / "tools.json"
    snapshot.write_text(
        '{"tools": [{"name": "get_weather", "description": "Current weather for a city.",'
        ' "inputSchema": {"type": "object", "properties": {"city": {"type": "string",'
        ' "description": "City name, e.g. Paris."}}, "required": ["city"]}}]}',
        encoding="utf-8",
    )
    result = run_without_litellm(["check", "--isolated", "--format", "json", str(snapshot)], tmp_path)
    assert result.returncode in (0, 1), result.stderr
    assert json.loads(result.stdout)["jury"]["judges"] == ["offline"]


def test_a_broken_litellm_is_a_one_line_usage_error(tmp_path: Path) -> None:
    # Installed (so the pre-flight check passes) but failing on import, as a half-upgraded install does.
    fake = tmp_path / "site" / "litellm"
    fake.mkdir(parents=True)
    (fake / "__init__.py").write_text("raise ImportError('cannot import name Router')\n", encoding="utf-8")
    snapshot = tmp_path / "tools.json"
    snapshot.write_text('{"tools": [{"name": "ping", "inputSchema": {"type": "object"}}]}', encoding="utf-8")
    code = CLI.format(setup=f"sys.path.insert(0, {str(fake.parent)!r})")
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            code,
            "check",
            "--isolated",
            "--no-cache",
            "--jury",
            "openai/x",
            str(snapshot),
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        check=False,
    )
    assert result.returncode == 2, result.stderr
    assert result.stderr == (
        f"mcp-lint: error: litellm could not be imported (cannot import name Router); "
        f"reinstall the LLM extra: {EXTRA}\n"
    )


def test_cache_prune_needs_no_extra(tmp_path: Path) -> None:
    # Pruning computes cache keys from tool text; it calls no model, so it runs without litellm.
    snapshot = tmp_path / "tools.json"
    snapshot.write_text('{"tools": [{"name": "ping", "inputSchema": {"type": "object"}}]}', encoding="utf-8")
    (tmp_path / "mcp-lint.toml").write_text('[servers.saved]\nsnapshot = "tools.json"\n', encoding="utf-8")
    cache = tmp_path / "cache.json"
    cache.write_text(render({}), encoding="utf-8")
    args = ["cache", "prune", "--jury", "openai/gpt-4o", "--cache-file", str(cache)]
    result = run_without_litellm(args, tmp_path)
    assert result.returncode == 0, result.stderr
    assert "nothing to prune" not in result.stdout, "left before computing the keys: proves nothing"
    assert "LLM extra" not in result.stderr and "error" not in result.stderr
