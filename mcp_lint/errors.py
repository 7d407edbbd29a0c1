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
