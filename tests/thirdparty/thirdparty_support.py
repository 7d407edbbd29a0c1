"""Where the pinned third-party MCP servers live, and what a run does when one is missing.

`bash .ci/run` installs them under `.ci/work/` and sets MCP_LINT_THIRDPARTY=1: there a missing
server FAILS its tests, so CI cannot go green without having exercised them. Anywhere else (a plain
`pytest` in a fresh checkout) a missing server skips its tests with a reason that says how to get it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

WORK = Path(__file__).resolve().parents[2] / ".ci" / "work"
REQUIRED_ENV = "MCP_LINT_THIRDPARTY"
INSTALL_HINT = "run `bash .ci/run` to install the third-party test servers into .ci/work"
# One reason for every missing server, so `-ra` folds the skips into a single summary line.
SKIP_REASON = f"third-party test servers not installed: {INSTALL_HINT}"


def required() -> bool:
    """True where a missing server must fail (set by .ci/run), not skip."""
    return os.environ.get(REQUIRED_ENV) == "1"


def require_executable(path: Path) -> str:
    if path.is_file() and os.access(path, os.X_OK):
        return str(path)
    if required():
        pytest.fail(f"{path} is missing ({REQUIRED_ENV}=1): {INSTALL_HINT}", pytrace=False)
    pytest.skip(SKIP_REASON)


def pypi_server(name: str) -> str:
    return require_executable(WORK / "venvs" / name / "bin" / name)


def npm_server(name: str) -> str:
    return require_executable(WORK / "npm" / "node_modules" / ".bin" / name)
