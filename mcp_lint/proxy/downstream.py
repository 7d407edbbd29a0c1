"""The client's side of a stdio proxy: the proxy's own stdin and stdout, spoken as an MCP server would.

Stdout carries protocol messages and nothing else: `protocol_stdout` moves file descriptor 1 aside
for the proxy's sole use and points 1 at stderr, so a stray print (ours, a library's, even C code's)
lands among the diagnostics instead of corrupting the client's stream.
"""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import AsyncIterator, Iterator

import anyio
import anyio.from_thread
import anyio.lowlevel
import anyio.to_thread
from anyio.streams.memory import MemoryObjectSendStream

from mcp_lint.errors import UsageError
from mcp_lint.proxy.jsonrpc import Frame, LineSplitter, MessageTooLarge

READ_CHUNK = 64 * 1024


@contextlib.contextmanager
def protocol_stdout() -> Iterator[int]:
    """A private duplicate of stdout for protocol messages, with fd 1 sent to stderr meanwhile."""
    sys.stdout.flush()
    private = os.dup(1)
    saved = os.dup(1)
    os.dup2(2, 1)
    try:
        yield private
    finally:
        with contextlib.suppress(OSError):
            sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)
        os.close(private)


class StdioClientSide:
    """Frames from `read_fd`, frames to `write_fd`, one whole line per write."""

    def __init__(self, read_fd: int, write_fd: int) -> None:
        self._read_fd = read_fd
        self._write_fd = write_fd
        self._lock = anyio.Lock()
        self.gone = False  # the client closed its end of our stdout
        self._closed: anyio.Event | None = None  # set when reading our stdin reached its end

    def _closed_event(self) -> anyio.Event:
        if self._closed is None:
            self._closed = anyio.Event()
        return self._closed

    async def input_closed(self) -> None:
        await self._closed_event().wait()

    async def frames(self) -> AsyncIterator[Frame]:
        send, receive = anyio.create_memory_object_stream[bytes](16)
        # A daemon thread, not an anyio worker: a read blocked on a silent client must never keep
        # the process alive after the server has gone and the proxy has nothing left to do.
        closed = self._closed_event()
        reader = threading.Thread(
            target=self._read,
            args=(send, closed, anyio.lowlevel.current_token()),
            daemon=True,
            name="mcp-lint stdin",
        )
        reader.start()
        splitter = LineSplitter()
        try:
            async with receive:
                async for chunk in receive:
                    for line in splitter.feed(chunk):
                        yield Frame.parse(line)
        except MessageTooLarge as error:
            raise UsageError(f"the client sent {error}; mcp-lint proxy stopped") from None
        for line in splitter.rest():
            yield Frame.parse(line)

    def _read(
        self, send: MemoryObjectSendStream[bytes], closed: anyio.Event, token: anyio.lowlevel.EventLoopToken
    ) -> None:
        try:
            while chunk := os.read(self._read_fd, READ_CHUNK):
                anyio.from_thread.run(send.send, chunk, token=token)
        except Exception:  # the loop has ended or the stream was closed: nothing left to read for
            pass
        finally:
            with contextlib.suppress(Exception):
                anyio.from_thread.run_sync(closed.set, token=token)
            with contextlib.suppress(Exception):
                anyio.from_thread.run_sync(send.close, token=token)

    async def write(self, frame: Frame) -> None:
        if self.gone:
            return
        data = frame.line + b"\n"
        async with self._lock:
            try:
                await anyio.to_thread.run_sync(_write_all, self._write_fd, data)
            except (BrokenPipeError, ConnectionResetError):
                self.gone = True


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]
