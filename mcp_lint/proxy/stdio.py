"""The server side of a stdio proxy: the spawned server process, never started through a shell.

The process handling is the linter's own (mcp_lint.reflect.stdio): the server runs in a session of
its own, so stopping it (the client closed, the proxy was interrupted or is dying) ends its whole
process group, helpers included. Its stderr is passed on to the proxy's stderr as it comes, since
clients show a server's stderr in their logs, and its tail is kept for the error message.
"""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import AsyncIterator, Callable, Mapping, Sequence

import anyio
import anyio.abc
from anyio.streams.memory import MemoryObjectSendStream

from mcp_lint.errors import quote
from mcp_lint.proxy.jsonrpc import Frame, LineSplitter, MessageTooLarge
from mcp_lint.reflect.stdio import (
    STDERR_KEEP_BYTES,
    ProcessMonitor,
    clear_group,
    signal_group,
    spawn_server,
    stop_process,
)
from mcp_lint.sanitize import printable

# Lines of stdout pollution described on stderr; more would drown the server's own diagnostics.
POLLUTION_REPORTED_LINES = 5


class StdioUpstream:
    def __init__(self, process: anyio.abc.Process, monitor: ProcessMonitor, name: Callable[[], str]) -> None:
        self._process = process
        self._monitor = monitor
        self._name = name
        self._write_lock = anyio.Lock()

    async def send(self, frame: Frame) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        async with self._write_lock:
            # A server that died cannot take the message; its closed stdout ends the session instead.
            with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
                await stdin.send(frame.line + b"\n")

    async def finish(self) -> None:
        await stop_process(self._process, self._monitor)

    async def failure(self) -> str:
        if self._monitor.overflow:
            return self._monitor.overflow
        with anyio.move_on_after(2.0):
            self._monitor.returncode = await self._process.wait()
        code = self._monitor.returncode
        how = "closed its stdout" if code is None else f"exited with code {code}"
        parts = [f"server {self._name()!r} ({self._monitor.command}) {how} while the client was connected"]
        stderr = self._monitor.last_stderr_lines()
        if stderr:
            parts.append(f"last stderr: {stderr}")
        return "; ".join(parts)

    async def pump_stdout(self, sink: MemoryObjectSendStream[Frame]) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        splitter = LineSplitter()
        async with sink:
            with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
                try:
                    async for chunk in stdout:
                        for line in splitter.feed(chunk):
                            await self._pass_on(line, sink)
                except MessageTooLarge as error:
                    self._monitor.overflow = f"server sent {error} on stdout; mcp-lint stopped reading it"
                    return
                for line in splitter.rest():
                    await self._pass_on(line, sink)

    async def _pass_on(self, line: bytes, sink: MemoryObjectSendStream[Frame]) -> None:
        frame = Frame.parse(line)
        if frame.looks_like_json:
            await sink.send(frame)
            return
        # Not a message: forwarded, it would break the client just as it breaks a linter (MCP001).
        self._monitor.polluted_lines += 1
        if self._monitor.polluted_lines <= POLLUTION_REPORTED_LINES:
            text = printable(line.decode("utf-8", "replace"))[:200]
            _stderr(f"mcp-lint: server stdout line is not JSON-RPC, not forwarded: {text}\n".encode())

    async def pump_stderr(self) -> None:
        stderr = self._process.stderr
        assert stderr is not None
        tail = self._monitor.stderr_tail
        with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            async for chunk in stderr:
                _stderr(chunk)
                tail += chunk
                if len(tail) > STDERR_KEEP_BYTES:
                    del tail[: len(tail) - STDERR_KEEP_BYTES]


def _stderr(data: bytes) -> None:
    with contextlib.suppress(OSError):
        os.write(2, data)


@contextlib.asynccontextmanager
async def stdio_upstream(
    command: Sequence[str],
    env: Mapping[str, str],
    name: Callable[[], str],
    sink: MemoryObjectSendStream[Frame],
    cwd: str | None = None,
) -> AsyncIterator[StdioUpstream]:
    """Start `command` and relay its stdout into `sink` until it closes; stop its group on the way out.

    `name` says what the server is called when it fails: known only once it has introduced itself.
    """
    monitor = ProcessMonitor(command=" ".join(quote(part, 60) if " " in part else part for part in command))
    process = await spawn_server(command[0], command[1:], env, cwd)
    upstream = StdioUpstream(process, monitor, name)
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(upstream.pump_stdout, sink)
            group.start_soon(upstream.pump_stderr)
            try:
                yield upstream
            finally:
                with anyio.CancelScope(shield=True):
                    await stop_process(process, monitor)
                group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            if process.returncode is None:
                signal_group(process, getattr(signal, "SIGKILL", signal.SIGTERM))
            with contextlib.suppress(Exception):
                await process.aclose()
            await clear_group(process)
