"""Where the commands write: stdout and stderr through one `echo`-like callable.

The CLI passes `click.echo`, which strips ANSI codes off a non-terminal unless told that colour was
asked for; the commands never import click.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from mcp_lint.errors import UsageError
from mcp_lint.model import RunResult
from mcp_lint.report import floor_line
from mcp_lint.sanitize import defuse_commands, printable


class Echo(Protocol):
    def __call__(
        self, message: str, /, *, nl: bool = True, err: bool = False, color: bool | None = None
    ) -> None: ...


@dataclass(frozen=True, eq=False, repr=False)
class Output:
    echo: Echo

    def line(self, text: str) -> None:
        """A line of the command's result on stdout."""
        self.echo(text)

    def report(self, text: str, *, color: bool | None = None) -> None:
        """A rendered text on stdout, as is (it ends with its own newline); `color` True keeps its
        ANSI codes off a terminal too, None keeps them only on one."""
        self.echo(text, nl=False, color=color)

    def note(self, text: str) -> None:
        """A line for the person on stderr, apart from the result."""
        self.echo(defuse_commands(text), err=True)

    def warning(self, text: str) -> None:
        # One line whatever a server or a file put in it: control characters shown, not obeyed.
        self.echo(f"mcp-lint: warning: {printable(text)}", err=True)

    def error(self, text: str) -> None:
        self.echo(f"mcp-lint: error: {printable(text)}", err=True)


def explain_outcome(result: RunResult, out: Output) -> None:
    """The stderr lines that say why a run ends as it does, after its report: the servers under the
    score floor, the servers that could not be linted, the jury's warnings and what it left unscored.
    `check` and `gate` end the same way."""
    for server in result.under_floor:
        out.note(f"mcp-lint: {floor_line(server, result.floor or 0.0)}")
    for server in result.servers:
        if server.error is not None:
            out.error(server.error)
    if result.jury is not None:
        for warning in result.jury.warnings:
            out.warning(warning)
        unscored = result.jury.unscored
        if unscored:
            first = unscored[0]
            out.error(
                f"{len(unscored)} tool/judge pair(s) unscored, e.g. {first.server}/"
                f"{first.tool} by {first.judge}: {first.reason}"
            )


def shown_path(path: Path) -> str:
    """`path` relative to the working directory when it is under it, as the user would type it."""
    try:
        return path.resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


@contextmanager
def writing(where: object, what: str) -> Iterator[None]:
    """Turn a failed write into the one-line usage error every command gives (exit 2):
    `WHERE: cannot write WHAT: REASON`. The writes inside are atomic, so nothing is half-written."""
    try:
        yield
    except OSError as exc:
        raise UsageError(f"{where}: cannot write {what}: {exc.strerror or exc}") from None
