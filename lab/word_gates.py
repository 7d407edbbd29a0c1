"""Write `mcp_lint/jury/data/word-gates.json`: the word gate of every pattern the offline jury scans
behind one (`mcp_lint.jury.regex_scan.Gated`), derived from the patterns as they are now; and
`mcp_lint/jury/data/cue-families.json`: what each cue family of the lexicon scans with
(`regex_scan.family_sources`).

    python -m lab.word_gates

Run it after changing `mcp_lint/jury/data/lexicon.yaml` or a gated pattern: without it a lint derives
the changed patterns' gates at start-up (same answers, a few milliseconds slower), and
tests/jury/test_regex_scan.py fails until the file is written again.
"""

from __future__ import annotations

import json
from pathlib import Path

import mcp_lint.jury.features  # noqa: F401  (its modules make their gated patterns at import)
from mcp_lint.jury.features.lexicon import CJK, CUE_FAMILY_PATTERNS
from mcp_lint.jury.regex_scan import FAMILIES_FILE, GATED, GATES_FILE, families_document, gates_document

JURY = Path(__file__).resolve().parent.parent / "mcp_lint" / "jury"
TARGET = JURY / GATES_FILE
FAMILIES = JURY / FAMILIES_FILE


def main() -> int:
    document = gates_document(gated.pattern for gated in GATED)
    TARGET.write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{TARGET}: {len(document['gates'])} gates")
    families = families_document((patterns, CJK) for patterns in CUE_FAMILY_PATTERNS)
    FAMILIES.write_text(json.dumps(families, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"{FAMILIES}: {len(families['families'])} families")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
