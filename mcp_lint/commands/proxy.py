"""`mcp-lint record` and `mcp-lint proxy`: serve a client on stdio, relay to the real server.

Everything a user can get wrong (the overrides file, --components, --header, --env, the trace
file's folder) is checked before the server is started, so a mistake is one line and exit 2 with
nothing spawned. Once the relay runs, stdout belongs to the protocol: every word of ours goes to
stderr.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qsl, quote_plus, urlsplit

import anyio
from anyio.streams.memory import MemoryObjectSendStream

from mcp_lint.commands.targets import env_pairs
from mcp_lint.errors import EXIT_CLEAN, McpLintError, UsageError, quote
from mcp_lint.overrides import Override, parse_components, read_overrides
from mcp_lint.proxy.downstream import StdioClientSide, protocol_stdout
from mcp_lint.proxy.identity import ServerIdentity
from mcp_lint.proxy.jsonrpc import Frame
from mcp_lint.proxy.record import TraceRecorder
from mcp_lint.proxy.relay import Connect, Relay, ResponseHook, Upstream, run_relay
from mcp_lint.proxy.rewrite import DescriptionRouter
from mcp_lint.reach.resolve import command_name, parse_header
from mcp_lint.traces import NotARegularFile, TraceWriter, is_secret_name, looks_secret, secret_values

TRANSPORTS = ("streamable-http", "sse")


@dataclass(frozen=True)
class ProxyOptions:
    command: tuple[str, ...] = ()  # everything after `--`
    url: str | None = None
    headers: tuple[str, ...] = ()
    transport: str = "streamable-http"
    env: tuple[str, ...] = ()
    env_file: str | None = None
    server_name: str | None = None
    traces: str | None = None
    overrides: str | None = None
    components: str | None = None


@dataclass(frozen=True)
class Plan:
    """What one proxy run does, fully checked before anything starts."""

    options: ProxyOptions
    environment: Mapping[str, str]
    headers: Mapping[str, str]
    identity: ServerIdentity
    overrides: Mapping[tuple[str, str], Override] | None
    components: tuple[str, ...] | None


def run_record(options: ProxyOptions) -> int:
    if not options.traces:
        raise UsageError("mcp-lint record needs --traces FILE: the file each tools/call is appended to")
    return _serve(plan_run(options, "record"))


def run_proxy(options: ProxyOptions) -> int:
    if not options.overrides:
        raise UsageError("mcp-lint proxy needs --overrides FILE (`mcp-lint check --fix` writes one)")
    return _serve(plan_run(options, "proxy"))


def plan_run(options: ProxyOptions, verb: str) -> Plan:
    if bool(options.command) == bool(options.url):
        raise UsageError(
            f"mcp-lint {verb} fronts one server: give either `-- COMMAND ARGS...` or --url URL"
            if options.command
            else f"mcp-lint {verb} needs the server to front: `-- COMMAND ARGS...` or --url URL"
        )
    if options.url and not urlsplit(options.url).scheme.startswith("http"):
        raise UsageError(f"--url {quote(options.url)}: expected an http:// or https:// URL")
    if options.transport not in TRANSPORTS:
        raise UsageError(f"--transport {quote(options.transport)}: use one of {', '.join(TRANSPORTS)}")
    headers = dict(parse_header(value) for value in options.headers)
    if headers and not options.url:
        raise UsageError("--header is for --url; a spawned server gets --env instead")
    extra = env_pairs(options.env, options.env_file)
    components = parse_components(options.components) if options.components is not None else None
    if components is not None and not options.overrides:
        raise UsageError("--components chooses parts of the --overrides rewrites; give --overrides FILE")
    overrides = read_overrides(Path(options.overrides)) if options.overrides else None
    if options.server_name is not None and not options.server_name.strip():
        raise UsageError("--server-name: must not be empty")
    fallback = (
        command_name(options.command) if options.command else (urlsplit(options.url or "").hostname or "")
    )
    return Plan(
        options=options,
        environment={**os.environ, **extra} if options.command else extra,
        headers=headers,
        identity=ServerIdentity(fallback=fallback, explicit=options.server_name),
        overrides=overrides,
        components=components,
    )


# Shell variables whose names read as secret words ("pwd" is a password parameter's name) but hold
# the working directory: redacting them would blank every path a file server returns.
_NOT_SECRET_VARIABLES = frozenset({"PWD", "OLDPWD"})


def secrets_of(plan: Plan) -> frozenset[str]:
    """Every value the trace file must not hold: secret-looking environment and header values."""
    environment = {
        name: value for name, value in plan.environment.items() if name not in _NOT_SECRET_VARIABLES
    }
    found = set(secret_values(environment))
    for name, value in plan.headers.items():
        if value and (is_secret_name(name) or looks_secret(value)):
            found.add(value)
            # `Authorization: Bearer abc...` may be echoed as the token alone.
            scheme, _, credential = value.partition(" ")
            if credential and scheme.lower() in {"bearer", "basic", "token"} and len(credential) >= 6:
                found.add(credential)
    if plan.options.url:
        found.update(url_secrets(plan.options.url))
    return frozenset(found)


def url_secrets(url: str) -> set[str]:
    """The credentials a URL carries: its userinfo's password and user, and each query parameter's
    value whose name or shape looks secret (`?api_key=...`, `?token=...`)."""
    parts = urlsplit(url)
    found = {value for value in (parts.password, parts.username) if value and len(value) >= 6}
    for name, value in parse_qsl(parts.query, keep_blank_values=False):
        if value and (is_secret_name(name) or looks_secret(value)):
            found.add(value)
            found.add(quote_plus(value))
    return {value for value in found if len(value) >= 4}


def _open_writer(plan: Plan) -> TraceWriter | None:
    if not plan.options.traces:
        return None
    path = Path(plan.options.traces)
    try:
        return TraceWriter(path, secrets_of(plan))
    except NotARegularFile as error:
        raise UsageError(f"--traces {path}: {error}; give a file path (records are appended to it)") from None
    except OSError as error:
        raise UsageError(f"--traces {path}: cannot open for appending ({error.strerror or error})") from None


def _serve(plan: Plan) -> int:
    writer = _open_writer(plan)
    hooks: list[ResponseHook] = [plan.identity]
    router = (
        DescriptionRouter(plan.overrides, plan.identity, plan.components)
        if plan.overrides is not None
        else None
    )
    recorder = TraceRecorder(writer, plan.identity) if writer is not None else None
    hooks += [hook for hook in (router, recorder) if hook is not None]
    try:
        with protocol_stdout() as protocol_fd:
            client = StdioClientSide(0, protocol_fd)
            anyio.run(run_relay, client, _connector(plan), Relay(hooks))
    except BaseException as error:
        raise _first_error(error) from None
    finally:
        if writer is not None:
            writer.close()
    if router is not None:
        _note(f"{router.served} tool(s) served from {plan.options.overrides}")
    if recorder is not None and writer is not None:
        unwritten = f", {recorder.failed} could not be written" if recorder.failed else ""
        _note(f"{recorder.recorded} tools/call recorded to {writer.path}{unwritten}")
    return EXIT_CLEAN


def _connector(plan: Plan) -> Connect:
    options = plan.options

    @contextlib.asynccontextmanager
    async def connect(sink: MemoryObjectSendStream[Frame]) -> AsyncIterator[Upstream]:
        if options.url:
            from mcp_lint.proxy.http import http_upstream

            transport = "sse" if options.transport == "sse" else "http"
            async with http_upstream(options.url, plan.headers, sink, transport) as upstream:
                yield upstream
        else:
            from mcp_lint.proxy.stdio import stdio_upstream

            name = lambda: plan.identity.name  # noqa: E731 - read when the server fails, not now
            async with stdio_upstream(options.command, plan.environment, name, sink) as stdio:
                yield stdio

    return connect


def _first_error(error: BaseException) -> BaseException:
    """The McpLintError inside a task group's ExceptionGroup, so the CLI can say it in one line."""
    if isinstance(error, McpLintError):
        return error
    for inner in getattr(error, "exceptions", ()):
        found = _first_error(inner)
        if isinstance(found, McpLintError):
            return found
    return error


def _note(text: str) -> None:
    with contextlib.suppress(OSError):
        os.write(2, f"mcp-lint: {text}\n".encode())
