"""The rule-set hash: what a verdict was decided by, so a stored record is reused only when the same
rules would decide it again (`mcp-lint audit --resume`).

It covers the rule files and the rubric (`rules/`), the offline jury's weights and word lists, and
the settings that turn findings into a verdict (profile, fail-on, floor, and the audit's own options
that change what a job reaches). Not mcp-lint's version, which the store records beside it: a release
that changes no rule keeps an audit resumable.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict
from pathlib import Path

from mcp_lint.audit.job import JobSettings, run_settings
from mcp_lint.resources import rules_dir

_JURY_DATA = Path(__file__).resolve().parent.parent / "jury" / "data"

# Settings that change where a job looks, not what the rules decide.
_NOT_VERDICT = frozenset({"cache_dir", "install_timeout", "fresh_installs"})


def rule_set_hash(settings: JobSettings) -> str:
    digest = hashlib.sha256()
    for folder in (rules_dir(), _JURY_DATA):
        for path in sorted(item for item in folder.rglob("*") if item.is_file()):
            digest.update(f"{folder.name}/{path.relative_to(folder).as_posix()}\0".encode())
            digest.update(path.read_bytes())
            digest.update(b"\0")
    chosen = {key: value for key, value in asdict(settings).items() if key not in _NOT_VERDICT}
    lint = run_settings(settings)
    chosen.update({"fail_on": lint.fail_on, "profile": lint.profile, "min_score": lint.min_score})
    digest.update(json.dumps(chosen, sort_keys=True).encode())
    return digest.hexdigest()[:16]
