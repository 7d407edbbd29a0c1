"""`mcp-lint rules` (the catalogue) and `mcp-lint rule CODE-or-NAME` (one rule's documentation)."""

from __future__ import annotations

import difflib
import json

from mcp_lint.check.rules import load_catalogue
from mcp_lint.commands.output import Output
from mcp_lint.errors import UsageError, quote


def run_rules(output_format: str, out: Output) -> int:
    """Every rule: code, name, severity and category, as aligned text or a JSON list."""
    catalogue = load_catalogue()
    if output_format == "json":
        rows = [
            {
                "code": r.code,
                "name": r.name,
                "severity": r.severity.label,
                "category": r.category,
                "status": r.status,
            }
            for r in catalogue.rules
        ]
        out.line(json.dumps(rows, indent=2))
        return 0
    width = max(len(rule.name) for rule in catalogue.rules)
    for rule in catalogue.rules:
        out.line(f"{rule.code}  {rule.name:<{width}}  {rule.severity.label:<8}  {rule.category}")
    return 0


def run_rule(key: str, out: Output) -> int:
    """One rule's documentation; an unknown key is an error suggesting the nearest names."""
    catalogue = load_catalogue()
    rule = catalogue.find(key)
    if rule is None:
        names = [r.name for r in catalogue.rules] + [r.code for r in catalogue.rules]
        # a fragment of a name ("phantom" for phantom-parameter) first, then near spellings
        close = [name for name in names if key.strip() and key.strip().lower() in name.lower()][:3]
        close = close or difflib.get_close_matches(key, names, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else "; see `mcp-lint rules`"
        raise UsageError(f"no rule {quote(key)}{hint}")
    out.report(rule.render_docs())
    return 0
