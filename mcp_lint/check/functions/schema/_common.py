"""What several schema rules share: how they name a parameter's path and tell an identifier from a word."""

from __future__ import annotations

import re

CAMEL = re.compile(r"[a-z][A-Z]")


def prop_path(name: str) -> str:
    return f"inputSchema.properties.{name}"


def identifier_shaped(name: str) -> bool:
    """snake_case or camelCase: a spelling only code uses (not `Title`, `THREE` or `incomplete`)."""
    return ("_" in name.strip("_") and not name.isupper()) or CAMEL.search(name) is not None
