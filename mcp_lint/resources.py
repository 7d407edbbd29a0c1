"""Where the files the package ships beside its code are found, in a wheel and in a source checkout."""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).parent
# The offline jury's data files (lexicon, weights, word gates), read as plain files beside the code as
# the rules are: `importlib.resources.files` would import three more modules (its reader for a package
# on disk) at a default lint's first read, for the same bytes.
JURY_DATA = PACKAGE_DIR / "jury" / "data"


def rules_dir() -> Path:
    """The rules folder (rule files and the jury's rubric).

    A wheel carries it inside the package as `mcp_lint/_rules` (pyproject's force-include); in a source
    checkout it is `rules/` beside the package.
    """
    bundled = PACKAGE_DIR / "_rules"
    if bundled.is_dir():
        return bundled
    return PACKAGE_DIR.parent / "rules"
