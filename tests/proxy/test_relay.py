"""The relay's bookkeeping on raw frames: ids per direction, batches, cancellation, rewrites."""

from __future__ import annotations

import json
from typing import Any

import pytest

from mcp_lint.overrides import Override
from mcp_lint.proxy import DescriptionRouter, Frame, PendingRequest, Relay, ServerIdentity
from mcp_lint.proxy.jsonrpc import LineSplitter, MessageTooLarge


class Seen:
    """A hook that remembers which request each answer was matched to."""

    def __init__(self) -> None:
        self.matched: list[tuple[str, Any]] = []

    def on_response(self, request: PendingRequest, response: dict[str, Any]) -> None:
        self.matched.append((request.method, response["id"]))


def frame(data: Any) -> Frame:
    return Frame.parse(json.dumps(data).encode())


def request(request_id: Any, method: str, params: Any = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params or {}}


def answer(request_id: Any, result: Any) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "result": result}


def test_answers_are_matched_by_id_and_1_is_not_the_string_1_unless_nothing_else_fits() -> None:
    seen = Seen()
    relay = Relay([seen])
    relay.from_client(frame(request(1, "tools/list")))
    relay.from_client(frame(request("1", "tools/call")))
    relay.from_client(frame(request(7, "ping")))
    relay.from_server(frame(answer("1", {})))
    relay.from_server(frame(answer(1, {})))
    relay.from_server(frame(answer("7", {})))  # a stringified id answers the numeric request
    assert seen.matched == [("tools/call", "1"), ("tools/list", 1), ("ping", "7")]
    assert relay.pending == {}


def test_server_requests_and_client_answers_do_not_touch_the_clients_pending_requests() -> None:
    seen = Seen()
    relay = Relay([seen])
    relay.from_client(frame(request(1, "tools/call", {"name": "confirm"})))
    sampling = frame(request(1, "sampling/createMessage"))  # the server's own id space
    assert relay.from_server(sampling) is sampling
    relay.from_client(frame(answer(1, {"role": "assistant"})))  # the client answers the server
    assert seen.matched == [] and list(relay.pending) == ["1"]
    relay.from_server(frame(answer(1, {"content": []})))
    assert seen.matched == [("tools/call", 1)]


def test_a_cancelled_request_is_forgotten() -> None:
    seen = Seen()
    relay = Relay([seen])
    relay.from_client(frame(request(5, "tools/call")))
    relay.from_client(
        frame({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 5}})
    )
    relay.from_server(frame(answer(5, {})))
    assert seen.matched == [] and relay.pending == {}


def test_a_batch_passes_whole_and_only_its_rewritten_answer_changes() -> None:
    identity = ServerIdentity(fallback="srv")
    router = DescriptionRouter({("srv", "a"): Override("srv", "a", "New A.")}, identity)
    relay = Relay([identity, router])
    relay.from_client(frame([request(1, "tools/list"), request(2, "ping")]))
    tools = [{"name": "a", "description": "Old A.", "x-extra": [1]}, {"name": "b", "description": "B."}]
    batch = frame([answer(1, {"tools": tools, "nextCursor": "c"}), answer(2, {})])
    out = relay.from_server(batch)
    assert out.data == [
        answer(1, {"tools": [{**tools[0], "description": "New A."}, tools[1]], "nextCursor": "c"}),
        answer(2, {}),
    ]
    assert router.served == 1


def test_an_answer_nothing_changes_is_forwarded_as_the_same_bytes() -> None:
    relay = Relay([ServerIdentity(fallback="srv")])
    relay.from_client(frame(request(1, "initialize")))
    raw = b'{"jsonrpc": "2.0",  "id": 1, "result": {"serverInfo": {"name": "weather", "version": "1"}}}'
    original = Frame.parse(raw)
    assert relay.from_server(original).raw == raw


def test_the_server_name_comes_from_initialize_or_discover_unless_given() -> None:
    for method, result in [
        ("initialize", {"serverInfo": {"name": "weather  api"}}),
        ("server/discover", {"_meta": {"io.modelcontextprotocol/serverInfo": {"name": "weather  api"}}}),
    ]:
        identity = ServerIdentity(fallback="server_py")
        relay = Relay([identity])
        assert identity.name == "server_py"
        relay.from_client(frame(request(1, method)))
        relay.from_server(frame(answer(1, result)))
        assert identity.name == "weather api"
    assert ServerIdentity(fallback="x", explicit="mine", reported="weather").name == "mine"


def test_requests_in_flight_when_the_server_goes_get_error_answers() -> None:
    relay = Relay()
    relay.from_client(frame(request(1, "tools/call")))
    relay.from_client(frame(request("b", "ping")))
    errors = [item.data for item in relay.abandoned("server exited")]
    assert [(error["id"], error["error"]["code"]) for error in errors] == [(1, -32000), ("b", -32000)]
    assert all("server exited" in error["error"]["message"] for error in errors)


def test_lines_are_split_whole_and_a_runaway_line_is_refused() -> None:
    splitter = LineSplitter(limit=32)
    assert splitter.feed(b'{"a":1}\r\n\n{"b"') == [b'{"a":1}']
    assert splitter.feed(b":2}\n") == [b'{"b":2}']
    assert splitter.feed(b"tail") == [] and splitter.rest() == [b"tail"]
    with pytest.raises(MessageTooLarge):
        splitter.feed(b"x" * 40)


def test_json_too_deep_to_read_is_still_json_to_forward() -> None:
    deep = Frame.parse(b"[" * 100_000 + b"]" * 100_000)
    assert deep.data is None and deep.looks_like_json
    for banner in (b"Starting server v1.2...", b"[INFO] listening", b'{"unterminated": '):
        assert not Frame.parse(banner).looks_like_json and not Frame.parse(banner).is_json_rpc


def test_the_secrets_of_a_run_are_its_secret_environment_and_header_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from mcp_lint.commands.proxy import ProxyOptions, plan_run, secrets_of

    monkeypatch.setenv("PWD", "/home/me/project")  # "pwd" is a secret word, but not this variable
    monkeypatch.setenv("GITHUB_TOKEN", "inherited-token-value")
    stdio = plan_run(
        ProxyOptions(command=("srv",), env=("DB_PASSWORD=hunter22", "MODE=production")), "record"
    )
    assert {"inherited-token-value", "hunter22"} <= secrets_of(stdio)
    assert not {"/home/me/project", "production"} & secrets_of(stdio)
    http = plan_run(
        ProxyOptions(url="https://x.test/mcp", headers=("Authorization: Bearer abcdef123",)), "record"
    )
    assert secrets_of(http) == {"Bearer abcdef123", "abcdef123"}  # the shell's own variables are not sent
