"""A stdio "server" that never reads its stdin and never exits by itself (until signalled)."""

import signal

signal.pause()
