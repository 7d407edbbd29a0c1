"""The one reader of env files: `--env-file` on the command line and `envFile` of a VS Code config.

A line is `KEY=VALUE`, optionally after `export `; blank lines and `#` comments are skipped, and one
layer of quotes around the value is dropped, as a shell sourcing the file would see it.
"""

from __future__ import annotations

import errno
import os
from pathlib import Path

from mcp_lint.errors import UsageError
from mcp_lint.files import InputFileError, read_input_file


def parse_env_file(path: Path, *, unreadable: str) -> dict[str, str]:
    """The variables of the env file at `path`.

    `unreadable` starts the error when the file cannot be read (each caller names the option or the
    config entry that pointed at it); a malformed line is reported as `path:line`.
    """
    try:
        # Regular files only, under the input cap: /dev/zero or a FIFO as an env file is one line.
        lines = read_input_file(path, "an env file", label=unreadable).splitlines()
    except InputFileError as exc:
        detail = exc.detail.removeprefix("cannot read: ")
        if exc.reason == "missing":
            detail = os.strerror(errno.ENOENT)
        raise UsageError(f"{unreadable}: {detail}") from None
    variables: dict[str, str] = {}
    for number, line in enumerate(lines, 1):
        stripped = line.strip()
        if not stripped or stripped.startswith("#"):
            continue
        key, equals, value = stripped.removeprefix("export ").partition("=")
        if not equals or not key.strip():
            raise UsageError(f"{path}:{number}: expected KEY=VALUE")
        variables[key.strip()] = value.strip().strip('"').strip("'")
    return variables
