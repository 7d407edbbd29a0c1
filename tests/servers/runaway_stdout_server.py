"""Writes bytes to stdout forever, never a newline: the reader must stop at its cap."""

from __future__ import annotations

import sys

from _common import base_parser, parse


def main() -> None:
    parse(base_parser(__doc__ or ""))
    chunk = b"x" * (1024 * 1024)
    out = sys.stdout.buffer
    try:
        while True:
            out.write(chunk)
            out.flush()
    except (BrokenPipeError, OSError):
        sys.exit(0)


if __name__ == "__main__":
    main()
