"""Helpers shared by the fixture servers: command-line flags and a pid file tests can watch."""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence


def base_parser(description: str) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--pid-file", help="write this process's pid here, so a test can check it is gone")
    return parser


def write_pid(path: str | None) -> None:
    if path:
        with open(path, "w", encoding="utf-8") as handle:
            handle.write(str(os.getpid()))


def parse(parser: argparse.ArgumentParser, argv: Sequence[str] | None = None) -> argparse.Namespace:
    args = parser.parse_args(argv)
    write_pid(args.pid_file)
    return args
