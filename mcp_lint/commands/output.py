"""Where the commands write: stdout and stderr through one `echo`-like callable.

The CLI passes `click.echo`, which strips ANSI codes off a non-terminal unless told that colour was
asked for; the commands never import click.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from mcp_lint.report.safe import printable


class Echo(Protocol):
    def __call__(
        self, message: str, /, *, nl: bool = True, err: bool = False, color: bool | None = None
    ) -> None: ...


@dataclass(frozen=True)
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
        self.echo(text, err=True)

    def warning(self, text: str) -> None:
        # One line whatever a server or a file put in it: control characters shown, not obeyed.
        self.echo(f"mcp-lint: warning: {printable(text)}", err=True)

    def error(self, text: str) -> None:
        self.echo(f"mcp-lint: error: {printable(text)}", err=True)
