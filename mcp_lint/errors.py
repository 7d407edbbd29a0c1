"""Errors that end a run, each carrying the exit code the CLI maps it to."""

from __future__ import annotations

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_UNREACHABLE = 3
EXIT_INCOMPLETE = 4


class McpLintError(Exception):
    """A failure to report on one line. The message says what, where, and how to fix it."""

    exit_code = EXIT_USAGE


class UsageError(McpLintError):
    """Bad command line, configuration or input file (exit 2)."""

    exit_code = EXIT_USAGE


class ServerError(McpLintError):
    """A server could not be reached or reflected (exit 3)."""

    exit_code = EXIT_UNREACHABLE


# What an error message quotes of a user's value: enough to recognise it, never the whole of a
# 10 MB argument echoed back into a CI log as one line.
QUOTE_LIMIT = 80


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """`value` as repr() shows it, cut after `limit` characters with the full length said."""
    if isinstance(value, str):
        if len(value) <= limit:
            return repr(value)
        return f"{value[:limit]!r}... ({len(value):,} characters)"
    text = repr(value)
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text):,} characters)"
