"""Dies at start-up before answering anything: a traceback on stderr, then exit status 1."""

from __future__ import annotations

import sys

from _common import base_parser, parse

LAST_LINE = "RuntimeError: DATABASE_URL is not set; cannot start the inventory server"


def main() -> None:
    parse(base_parser(__doc__ or ""))
    sys.stderr.write(
        "Traceback (most recent call last):\n"
        '  File "/srv/inventory/server.py", line 12, in <module>\n'
        "    connect(os.environ['DATABASE_URL'])\n"
        f"{LAST_LINE}\n"
    )
    sys.stderr.flush()
    sys.exit(1)


if __name__ == "__main__":
    main()
