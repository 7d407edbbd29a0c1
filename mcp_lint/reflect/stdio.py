"""A stdio transport for the SDK client that a linter can trust with a misbehaving server.

The SDK's own `stdio_client` buffers stdout without bound, writes the server's stderr to a file
handle, and forwards non-JSON lines as errors. A linter needs more: a cap on what is read so a
runaway server cannot exhaust memory, the server's last stderr lines for the error message, and a
record of stdout pollution so it becomes a finding instead of a failure. The JSON-RPC framing
and the protocol itself stay the SDK's: this module only moves lines.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
from collections.abc import AsyncIterator, Mapping, Sequence
from dataclasses import dataclass, field

import anyio
import anyio.abc
import mcp_types
from anyio.streams.memory import MemoryObjectReceiveStream, MemoryObjectSendStream
from mcp.client._transport import TransportStreams
from mcp.shared.message import SessionMessage

from mcp_lint.errors import ServerError, quote

# One JSON-RPC message larger than this is not a tools listing anyone should ship.
MAX_MESSAGE_BYTES = 32 * 1024 * 1024
STDERR_KEEP_BYTES = 16 * 1024
POLLUTION_KEEP_LINES = 5
# A line that names an error: "Error: Cannot find module ...", "RuntimeError: ...", "error: ..."
_ERROR_HEADLINE = re.compile(r"\s*(?:[\w.]*(?:Error|Exception)\b|error\b)")
EXIT_GRACE_SECONDS = 2.0


@dataclass
class ProcessMonitor:
    """What the transport saw of the process; read after the session ends for errors and findings."""

    command: str
    stderr_tail: bytearray = field(default_factory=bytearray)
    stdout_pollution: list[str] = field(default_factory=list)
    polluted_lines: int = 0
    overflow: str | None = None
    # Notifications the server sent; a request that times out says how many came instead of an answer.
    notifications: int = 0
    returncode: int | None = None
    # True once mcp-lint had to signal the process, so its exit status is ours, not the server's.
    signalled: bool = False

    def last_stderr_lines(self, count: int = 5) -> str:
        """The last `count` lines of stderr; if none of them names the error, the last line before
        them that does goes first (Node ends a crash with its stack, `code: ...` and its version)."""
        text = self.stderr_tail.decode("utf-8", "replace")
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        tail = lines[-count:]
        if not any(_ERROR_HEADLINE.match(line) for line in tail):
            earlier = [line for line in lines[:-count] if _ERROR_HEADLINE.match(line)]
            if earlier:
                tail = [earlier[-1], "...", *tail]
        return " | ".join(tail)


def resolve_command(command: str, env: Mapping[str, str], cwd: str | None) -> str:
    """Find the executable the way the child would, so a typo fails with a clear message."""
    if os.sep in command or (os.altsep and os.altsep in command):
        candidate = command if os.path.isabs(command) or cwd is None else os.path.join(cwd, command)
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            return candidate
        raise ServerError(f"cannot start server: {quote(command)} is not an executable file; check the path")
    found = shutil.which(command, path=env.get("PATH", os.defpath))
    if found is None:
        raise ServerError(
            f"cannot start server: command {quote(command)} was not found on PATH; "
            "install it or give its full path"
        )
    return found


def _record_pollution(monitor: ProcessMonitor, line: bytes) -> None:
    monitor.polluted_lines += 1
    if len(monitor.stdout_pollution) < POLLUTION_KEEP_LINES:
        text = line.decode("utf-8", "replace").strip()
        monitor.stdout_pollution.append(text[:200])


def _classify(line: bytes, monitor: ProcessMonitor) -> SessionMessage | Exception | None:
    stripped = line.strip()
    if not stripped:
        return None
    try:
        message = mcp_types.jsonrpc_message_adapter.validate_json(stripped, by_name=False)
    except ValueError as exc:
        # A line that claims to be JSON-RPC but is malformed is a protocol error for the session;
        # anything else is log noise on the wrong stream, tolerated and reported as pollution.
        if stripped.startswith(b"{") and b'"jsonrpc"' in stripped:
            return exc
        _record_pollution(monitor, stripped)
        return None
    if isinstance(message, mcp_types.JSONRPCNotification):
        monitor.notifications += 1
    # A response whose id is the string form of ours ("1" for 1) is accepted: the SDK correlates them on
    # purpose (`coerce_request_id`, as the TypeScript SDK does), so every real client accepts such a
    # server, and a linter that refused it would fail servers that work everywhere they are used.
    return SessionMessage(message)


async def _pump_stdout(
    stdout: anyio.abc.ByteReceiveStream,
    sink: MemoryObjectSendStream[SessionMessage | Exception],
    monitor: ProcessMonitor,
) -> None:
    buffer = bytearray()
    async with sink:
        with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            async for chunk in stdout:
                buffer += chunk
                while (newline := buffer.find(b"\n")) >= 0:
                    line = bytes(buffer[:newline])
                    del buffer[: newline + 1]
                    item = _classify(line, monitor)
                    if item is not None:
                        await sink.send(item)
                if len(buffer) > MAX_MESSAGE_BYTES:
                    # Whether a newline would have come later is unknown: the line is not read to its end.
                    cap = MAX_MESSAGE_BYTES // (1024 * 1024)
                    monitor.overflow = (
                        f"server sent a message larger than {cap} MiB on stdout "
                        "(the most mcp-lint reads as one message); mcp-lint stopped reading it"
                    )
                    return
            if buffer.strip():
                item = _classify(bytes(buffer), monitor)
                if item is not None:
                    await sink.send(item)


async def _pump_stderr(stderr: anyio.abc.ByteReceiveStream, monitor: ProcessMonitor) -> None:
    with contextlib.suppress(anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
        async for chunk in stderr:
            monitor.stderr_tail += chunk
            if len(monitor.stderr_tail) > STDERR_KEEP_BYTES:
                del monitor.stderr_tail[: len(monitor.stderr_tail) - STDERR_KEEP_BYTES]


async def _pump_stdin(
    stdin: anyio.abc.ByteSendStream, source: MemoryObjectReceiveStream[SessionMessage]
) -> None:
    async with source:
        with contextlib.suppress(anyio.ClosedResourceError, anyio.BrokenResourceError, OSError):
            async for message in source:
                payload = message.message.model_dump_json(by_alias=True, exclude_unset=True)
                await stdin.send(payload.encode("utf-8") + b"\n")


def signal_group(process: anyio.abc.Process, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError, OSError):
        if os.name == "posix":
            os.killpg(process.pid, signum)
        else:  # pragma: no cover - Windows has no process groups to signal
            process.kill()


def _group_alive(process: anyio.abc.Process) -> bool:
    """Whether any process is left in the server's process group (signal 0 only checks)."""
    if os.name != "posix":  # pragma: no cover - no process groups
        return False
    try:
        os.killpg(process.pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # EPERM: a member we may not signal is still a member
        return True
    return True


async def clear_group(process: anyio.abc.Process) -> None:
    """SIGTERM what the server left in its process group, then SIGKILL whatever ignores it.

    Children the server spawned share its group (it was started in a session of its own) and can
    outlive it: a helper that ignores SIGTERM would otherwise be orphaned on every path, the normal
    exit, a timeout and mcp-lint's own interruption alike. The group id stays reserved while any
    member lives, so signalling it cannot reach an unrelated process.
    """
    if not _group_alive(process):
        return
    signal_group(process, signal.SIGTERM)
    with anyio.move_on_after(EXIT_GRACE_SECONDS):
        while _group_alive(process):
            await anyio.sleep(0.05)
        return
    signal_group(process, getattr(signal, "SIGKILL", signal.SIGTERM))


async def spawn_server(
    command: str, args: Sequence[str], env: Mapping[str, str], cwd: str | None
) -> anyio.abc.Process:
    """Start a stdio server with piped stdin, stdout and stderr, never through a shell, in a session
    of its own (so its whole process group can be stopped), or a ServerError saying why it could not."""
    executable = resolve_command(command, env, cwd)
    try:
        return await anyio.open_process(
            [executable, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=dict(env),
            cwd=cwd,
            start_new_session=os.name == "posix",
        )
    except OSError as exc:
        raise ServerError(f"cannot start server {quote(command)}: {exc.strerror or exc}") from None


async def stop_process(process: anyio.abc.Process, monitor: ProcessMonitor) -> None:
    # The MCP lifecycle: close stdin, give the server a moment, then terminate its whole tree.
    if process.stdin is not None:
        with contextlib.suppress(Exception):
            await process.stdin.aclose()
    for signum in (None, signal.SIGTERM, getattr(signal, "SIGKILL", signal.SIGTERM)):
        if signum is not None:
            monitor.signalled = True
            signal_group(process, signum)
        with anyio.move_on_after(EXIT_GRACE_SECONDS):
            monitor.returncode = await process.wait()
            break
    await clear_group(process)


@contextlib.asynccontextmanager
async def bounded_stdio(
    command: str,
    args: Sequence[str],
    env: Mapping[str, str],
    cwd: str | None,
    monitor: ProcessMonitor,
) -> AsyncIterator[TransportStreams]:
    """Spawn the server and yield the SDK's (read, write) streams over its stdin/stdout."""
    process = await spawn_server(command, args, env, cwd)

    to_session, from_server = anyio.create_memory_object_stream[SessionMessage | Exception](16)
    to_server, from_session = anyio.create_memory_object_stream[SessionMessage](16)
    assert process.stdout is not None and process.stderr is not None and process.stdin is not None
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(_pump_stdout, process.stdout, to_session, monitor)
            group.start_soon(_pump_stderr, process.stderr, monitor)
            group.start_soon(_pump_stdin, process.stdin, from_session)
            try:
                yield from_server, to_server
            finally:
                with anyio.CancelScope(shield=True):
                    await to_server.aclose()
                    await from_server.aclose()
                    await stop_process(process, monitor)
                group.cancel_scope.cancel()
    finally:
        with anyio.CancelScope(shield=True):
            if monitor.returncode is None and process.returncode is None:
                monitor.signalled = True
                signal_group(process, getattr(signal, "SIGKILL", signal.SIGTERM))
            with contextlib.suppress(Exception):
                await process.aclose()
            await clear_group(process)
            monitor.returncode = process.returncode
