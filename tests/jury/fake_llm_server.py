"""A local OpenAI-compatible chat completions server for jury tests and the benchmark.

It answers `/v1/chat/completions` and `/chat/completions` with a `JudgeAnswer` whose scores are derived
deterministically from the tool it was asked about (see `expected_scores`), records every request, and
can inject faults per request: `429` (with Retry-After), any other HTTP status such as `500`, `slow`
(sleeps past the client timeout), `malformed` (a 200 whose content is not the JSON asked for) and `drop`
(closes the connection without answering).
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from mcp_lint.config import JurySettings
from mcp_lint.jury.base import COMPONENTS
from mcp_lint.jury.prompt import decode_data_block
from mcp_lint.model import ServerSnapshot, Tool

FAULTS = ("429", "500", "slow", "malformed", "drop")


def expected_scores(description: str, model: str = "") -> dict[str, int]:
    """Scores the fake judge gives: a pure function of the description (and of the model for `examples`)."""
    size = len(description)
    base = 1 + min(4, size // 40)
    bump = 1 if model.endswith("-b") else 0
    return {
        "purpose": base,
        "guidelines": max(1, base - 1),
        "limitations": 1 if "not" not in description else min(5, base + 1),
        "parameters": 3,
        "length": min(5, 1 + size // 60),
        "examples": min(5, 2 + bump),
    }


@dataclass(frozen=True)
class Recorded:
    path: str
    model: str
    tool: str | None
    fault: str | None
    body: Mapping[str, Any]


class FakeLLM:
    def __init__(self, latency: float = 0.0, slow_seconds: float = 3.0) -> None:
        self.latency = latency
        self.slow_seconds = slow_seconds
        self.retry_after = "0"
        self.requests: list[Recorded] = []
        self._lock = threading.Lock()
        # (model or None, tool or None) -> faults consumed one per matching request, in order.
        self._queued: dict[tuple[str | None, str | None], list[str]] = {}
        self._always: dict[tuple[str | None, str | None], str] = {}
        self.in_flight = 0
        self.max_in_flight = 0
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), _make_handler(self))
        self._server.daemon_threads = True
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeLLM:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> FakeLLM:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def queue_faults(
        self, faults: Iterable[str], *, tool: str | None = None, model: str | None = None
    ) -> None:
        with self._lock:
            self._queued.setdefault((model, tool), []).extend(faults)

    def always_fail(self, fault: str, *, tool: str | None = None, model: str | None = None) -> None:
        with self._lock:
            self._always[(model, tool)] = fault

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.max_in_flight = 0
            self._queued.clear()
            self._always.clear()

    def calls(self, *, tool: str | None = None, model: str | None = None) -> int:
        with self._lock:
            return sum(
                1
                for r in self.requests
                if (tool is None or r.tool == tool) and (model is None or r.model == model)
            )

    def call_counts(self) -> dict[tuple[str, str | None], int]:
        counts: dict[tuple[str, str | None], int] = {}
        with self._lock:
            for r in self.requests:
                counts[(r.model, r.tool)] = counts.get((r.model, r.tool), 0) + 1
        return counts

    def _pick_fault(self, model: str, tool: str | None) -> str | None:
        with self._lock:
            for key in ((model, tool), (None, tool), (model, None), (None, None)):
                queue = self._queued.get(key)
                if queue:
                    return queue.pop(0)
            for key in ((model, tool), (None, tool), (model, None), (None, None)):
                if key in self._always:
                    return self._always[key]
        return None

    def _record(self, entry: Recorded) -> None:
        with self._lock:
            self.requests.append(entry)
            self.in_flight += 1
            self.max_in_flight = max(self.max_in_flight, self.in_flight)

    def _done(self) -> None:
        with self._lock:
            self.in_flight -= 1


def _answer(payload: Mapping[str, Any], model: str) -> dict[str, Any]:
    description = str(payload.get("description") or "")
    scores = expected_scores(description, model)
    answer: dict[str, Any] = {
        name: {"reason": f"{model} on {payload.get('name')}: {name} is {scores[name]}", "score": scores[name]}
        for name in COMPONENTS
    }
    answer["rewrite"] = f"Rewritten by {model}: {description[:40]}"
    return answer


def _rewrite_answer(payload: Mapping[str, Any]) -> dict[str, str]:
    """The fake rewriter (`check --fix --unsafe-fixes`): parts built from the material it was sent, plus
    an invented example for a tool whose name contains "invent", so the faithfulness check has work."""
    name = str(payload.get("name"))
    schema = payload.get("input_schema") or {}
    properties = list(schema.get("properties", {})) if isinstance(schema, Mapping) else []
    calls = payload.get("successful_calls") or []
    parts = dict.fromkeys(("purpose", "guidelines", "limitations", "parameters", "examples"), "")
    if properties:
        parts["guidelines"] = f"Call it only when you know `{properties[0]}`."
        parts["parameters"] = "Parameters: " + "; ".join(f"`{item}` (string)" for item in properties) + "."
    if calls:
        call = calls[0]
        shown = ", ".join(f"{key}={json.dumps(value)}" for key, value in call["arguments"].items())
        parts["examples"] = f"Example: {name}({shown}) returned {json.dumps(call['result'])}."
    if "invent" in name:
        parts["examples"] = f'Example: {name}(mode="turbo") returned "done".'
    return parts


def _make_handler(fake: FakeLLM) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        # Headers and body go out in separate writes; with Nagle on, delayed ACKs add ~40 ms per request.
        disable_nagle_algorithm = True

        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            if self.path != "/_calls":
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                return
            counts = [[model, tool, n] for (model, tool), n in sorted(fake.call_counts().items(), key=str)]
            self._send(200, {"calls": counts, "max_in_flight": fake.max_in_flight})

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            if self.path == "/_reset":
                fake.reset()
                self._send(200, {"ok": True})
                return
            if self.path.rstrip("/") not in ("/v1/chat/completions", "/chat/completions"):
                self._send(404, {"error": {"message": f"no route {self.path}", "type": "not_found"}})
                return
            body = json.loads(raw)
            model = str(body.get("model", ""))
            tool: str | None = None
            payload: Mapping[str, Any] = {}
            for message in body.get("messages", []):
                content = message.get("content")
                if isinstance(content, str) and message.get("role") == "user":
                    try:
                        payload = decode_data_block(content)
                        tool = str(payload.get("name"))
                    except ValueError:
                        pass
            fault = fake._pick_fault(model, tool)
            fake._record(Recorded(self.path, model, tool, fault, body))
            try:
                self._respond(fault, model, payload, body)
            finally:
                fake._done()

        def _respond(self, fault: str | None, model: str, payload: Mapping[str, Any], body: Any) -> None:
            if fake.latency:
                time.sleep(fake.latency)
            if fault == "429":
                self._send(
                    429,
                    {"error": {"message": "rate limited", "type": "rate_limit_error"}},
                    {"Retry-After": fake.retry_after},
                )
                return
            if fault is not None and fault.isdigit():
                self._send(int(fault), {"error": {"message": f"injected {fault}", "type": "server_error"}})
                return
            if fault == "drop":
                self.close_connection = True
                self.connection.close()
                return
            if fault == "slow":
                time.sleep(fake.slow_seconds)
            rewriting = (
                body.get("response_format", {}).get("json_schema", {}).get("name") == "mcp_lint_rewrite"
            )
            answer = _rewrite_answer(payload) if rewriting else _answer(payload, model)
            content_text = "this is {not json" if fault == "malformed" else json.dumps(answer)
            prompt_tokens = sum(len(str(m.get("content", ""))) for m in body.get("messages", [])) // 4
            completion_tokens = len(content_text) // 4
            self._send(
                200,
                {
                    "id": f"chatcmpl-fake-{len(fake.requests)}",
                    "object": "chat.completion",
                    "created": 0,
                    "model": model,
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content_text},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {
                        "prompt_tokens": prompt_tokens,
                        "completion_tokens": completion_tokens,
                        "total_tokens": prompt_tokens + completion_tokens,
                    },
                },
            )

        def _send(
            self, status: int, body: Mapping[str, Any], headers: Mapping[str, str] | None = None
        ) -> None:
            data = json.dumps(body).encode("utf-8")
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for key, value in (headers or {}).items():
                    self.send_header(key, value)
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                # The client gave up (timeout); nothing to answer.
                pass

    return Handler


@pytest.fixture
def fake_llm(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeLLM]:
    """A started fake, and only it may answer: a stray base URL from the developer's shell must not
    redirect calls. Shared by the jury tests and the fixer's (their conftests import it)."""
    for name in ("OPENAI_BASE_URL", "OPENAI_API_BASE", "OPENAI_ORGANIZATION", "OPENAI_PROJECT"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    with FakeLLM() as fake:
        yield fake


def make_tool(name: str, description: str, **extra: Any) -> Tool:
    raw: dict[str, Any] = {
        "name": name,
        "description": description,
        "inputSchema": {"type": "object", "properties": {"query": {"type": "string"}}},
    }
    raw.update(extra)
    return Tool(name=name, raw=raw)


def make_server(name: str, tools: dict[str, str]) -> ServerSnapshot:
    return ServerSnapshot(name=name, tools=tuple(make_tool(t, d) for t, d in tools.items()))


def llm_settings(
    fake: FakeLLM, cache_path: Path | None, models: tuple[str, ...] = ("openai/judge-a",), **overrides: Any
) -> JurySettings:
    values: dict[str, Any] = {
        "models": models,
        "api_bases": dict.fromkeys(models, fake.api_base),
        "cache_path": cache_path,
        "timeout": 5.0,
        "max_retries": 2,
        "backoff_base": 0.01,
    }
    values.update(overrides)
    return JurySettings(**values)


def main(argv: list[str] | None = None) -> None:
    """Serve from a separate process (the benchmark does, so the server's threads don't share its GIL).

    Prints `PORT <n>` once listening; GET /_calls returns call counts, POST /_reset clears them.
    """
    import argparse
    import sys

    parser = argparse.ArgumentParser()
    parser.add_argument("--latency", type=float, default=0.0)
    args = parser.parse_args(argv)
    with FakeLLM(latency=args.latency) as fake:
        print(f"PORT {fake.port}", flush=True)
        # Serve until the parent closes our stdin (or dies).
        sys.stdin.read()


if __name__ == "__main__":
    main()
