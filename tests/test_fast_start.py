"""The pre-commit path (`mcp-lint check tools.json` on a saved snapshot) imports only what it uses.

A live client stack (the SDK's `mcp` package pulls in its client, server and HTTP stack) and the
LLM stack (litellm) take seconds to import on a slow runner; a snapshot lint with the default offline
jury needs neither. Checked in a fresh interpreter, since the test process itself imports everything.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

# Module prefixes a snapshot lint must not import (a prefix also covers its submodules).
# The SARIF reporter (sarif-om) and the source locator (GitPython) only load when SARIF is asked for.
HEAVY = (
    "mcp_lint.reflect.live",
    "mcp_lint.reflect.stdio",
    "mcp",
    "mcp.client",
    "httpx",
    "litellm",
    "mcp_lint.jury.llm",  # the LLM judges: an offline run never calls one
    "mcp_lint.jury.answer",  # the pydantic models of an LLM judge's answer, built only when one answers
    "jsonschema",  # asked only about a schema or data file the quick checks are not sure of
    "sarif_om",
    "git",
    "mcp_lint.locate",
    "mcp_lint.config_tables",  # the config file's pydantic models: built only when a config file is read
    "tomllib",  # likewise the TOML parser (its regexes compile at import)
    "yaml",  # the package's YAML data is read from its JSON copies (mcp_lint.parsed_yaml)
    "statistics",  # with random, fractions and decimal: neither the mean nor the median needs it
    "asyncio",  # only the LLM judges run an event loop (the live path's client brings its own)
    "mcp_lint.jury.cache",  # the LLM verdicts' cache: the offline jury keeps none
)

PROBE = """
import contextlib, io, json, sys
from mcp_lint.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
heavy = json.loads(sys.stdin.read())
loaded = sorted(name for name in sys.modules if any(name == p or name.startswith(p + ".") for p in heavy))
print(json.dumps({"code": code, "loaded": loaded, "linted": "mcp_lint.check.engine" in sys.modules}))
"""


def test_a_snapshot_lint_imports_no_live_client_and_no_llm_stack(tmp_path: Path) -> None:
    tool = {
        "name": "get_weather",
        "description": "Current weather for a city.",
        "inputSchema": {
            "type": "object",
            "properties": {"city": {"type": "string", "description": "City name, e.g. Paris."}},
            "required": ["city"],
        },
    }
    snapshot = tmp_path / "tools.json"
    snapshot.write_text(json.dumps({"protocolVersion": "2026-07-28", "tools": [tool]}), encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-c", PROBE, "check", "--isolated", "--format", "json", str(snapshot)],
        input=json.dumps(HEAVY),
        capture_output=True,
        text=True,
        check=True,
    )
    outcome = json.loads(result.stdout)
    assert outcome["code"] in (0, 1), result.stderr
    assert outcome["linted"]
    assert outcome["loaded"] == []
