"""The rule-set hash: what a verdict was decided by, so a stored record is reused only when the same
rules would decide it again (`mcp-lint audit --resume`).

It covers the rule files and the rubric (`rules/`), the package's own code and data (the rule
functions, the offline jury's weights and word lists: a verdict is decided by the code as much as by
the rule files, and an upgrade or a local edit that changes either must not reuse old rows), and the
settings that turn findings into a verdict (profile, fail-on, floor, and the audit's own options that
change what a job reaches). Compiled bytecode caches are left out, so the hash is the same however the
package was installed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path

from mcp_lint.audit.job import JobSettings, run_settings
from mcp_lint.resources import rules_dir

_PACKAGE = Path(__file__).resolve().parent.parent

# Settings that change where a job looks, not what the rules decide.
_NOT_VERDICT = frozenset({"cache_dir", "install_timeout", "fresh_installs"})


def _counts(path: Path) -> bool:
    return path.is_file() and path.suffix != ".pyc" and "__pycache__" not in path.parts


def rule_set_hash(settings: JobSettings) -> str:
    digest = hashlib.sha256()
    for folder in (rules_dir(), _PACKAGE):
        for path in sorted(item for item in folder.rglob("*") if _counts(item)):
            digest.update(f"{folder.name}/{path.relative_to(folder).as_posix()}\0".encode())
            digest.update(path.read_bytes())
            digest.update(b"\0")
    chosen = {key: value for key, value in asdict(settings).items() if key not in _NOT_VERDICT}
    lint = run_settings(settings)
    chosen.update({"fail_on": lint.fail_on, "profile": lint.profile, "min_score": lint.min_score})
    digest.update(json.dumps(chosen, sort_keys=True).encode())
    return digest.hexdigest()[:16]
