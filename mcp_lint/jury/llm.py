"""An LLM judge behind litellm: one chat completion per tool, all six components in one structured answer.

litellm is imported lazily, on the first call: it takes seconds to import and most runs (offline jury,
warm cache) never need it. Provider credentials and endpoints come from litellm's usual environment
variables (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`, ...); a per-model `api_base` can override the endpoint.

Retries: rate limits (429), timeouts (408 or client-side), 5xx and connection errors are retried up to
`max_retries` times with exponential backoff `backoff_base * 2**n` (scaled by a jitter in [0.5, 1.0]), or
the server's Retry-After when that is longer, capped at `MAX_BACKOFF`. A refused connection (or a host
that does not resolve) gets at most `CONNECT_RETRIES` of them; once one call has given up on it, the
judge's other calls fail at once with the same reason, which names the endpoint. litellm's and the OpenAI
client's own retries are turned off so this is the only retry loop. A malformed answer (not JSON, or not
matching `JudgeAnswer`) is retried once, outside that budget, because models at temperature 0 occasionally
truncate or drift and a second try usually succeeds; a second malformed answer fails the call. Any other error
(authentication, bad request, unknown model) fails at once. Failures surface as `JudgeCallError` with a
one-line reason; they are never cached.

Concurrent calls share one event loop, and litellm spends several milliseconds of CPU on it per call,
split into many small steps between awaits. Left alone, the loop interleaves those steps across every
call in flight, so all of them finish preparing their requests together, send together, get answered
together and stay in lockstep: each round trip then costs the provider's latency plus the CPU of every
call in the round, not of one. A `SendGate` shared by the calls of a run lets one call at a time prepare
its request, up to the point litellm reports it as sent (litellm's per-call `logger_fn` hook), so
requests leave one after another as soon as each is ready and the CPU work of one overlaps the network
wait of the others. The gate changes only the order of that work: every call, retry and backoff is the
same.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib.util
import logging
import os
import random
import re
import threading
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar
from urllib.parse import urlsplit, urlunsplit

from mcp_lint.errors import UsageError, quote
from mcp_lint.jury.base import JudgeVerdict
from mcp_lint.jury.prompt import MalformedAnswer, build_messages, parse_answer, response_format
from mcp_lint.jury.rubric import Rubric, load_rubric
from mcp_lint.model import Tool

# Sampling settings are part of the cache key: a verdict is only reusable under the same settings.
SAMPLING: Mapping[str, Any] = {"temperature": 0}

MAX_BACKOFF = 30.0
_Answer = TypeVar("_Answer")
# A refused connection or an unknown host is rarely fixed within seconds; two quick retries cover a
# server restarting without making a run against a dead endpoint wait through the whole budget.
CONNECT_RETRIES = 2
_RETRYABLE_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 529})
_MALFORMED_RETRIES = 1
_LITELLM_PREFIX = re.compile(r"^(litellm\.\w+:\s*)?(\w+:\s*)?")


class JudgeCallError(Exception):
    """A judge call that failed for good; `reason` is one line, fit for the report."""

    def __init__(self, reason: str, attempts: int, usage: CallUsage | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.attempts = attempts
        # Tokens spent before giving up (malformed answers are billed too).
        self.usage = usage if usage is not None else CallUsage(attempts=attempts)


@dataclass(frozen=True)
class CallUsage:
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float | None = 0.0  # None: litellm could not price a response
    attempts: int = 1


@dataclass(frozen=True)
class JudgeResult:
    verdict: JudgeVerdict
    usage: CallUsage


LLM_EXTRA = "pip install 'mcp-lint[llm]'"


def missing_extra_problem(models: Sequence[str]) -> str | None:
    """Why these models cannot be called in this install (litellm, the `llm` extra, is absent); else None.

    Asked before any server starts, so it looks for litellm without importing it (which takes seconds).
    """
    if not models or importlib.util.find_spec("litellm") is not None:
        return None
    return f"jury model {models[0]!r} needs the LLM extra (litellm is not installed): {LLM_EXTRA}"


@functools.cache
def import_litellm() -> Any:
    """Import litellm quietly and offline: no price-map download, no banners, no telemetry.

    Done once per process, not before every call: each `Logger.setLevel` below also empties every
    logger's level cache, which litellm's logging checks then rebuild during the next call.
    """
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_LOG", "ERROR")
    os.environ.setdefault("LITELLM_TELEMETRY", "False")
    try:
        import litellm as module
    except ImportError as exc:  # present (settings were validated) but broken
        raise UsageError(
            f"litellm could not be imported ({exc}); reinstall the LLM extra: {LLM_EXTRA}"
        ) from None

    # Typed as Any: these knobs are plain module globals, not all of them declared in litellm's stubs.
    litellm: Any = module
    litellm.suppress_debug_info = True
    litellm.telemetry = False
    litellm.disable_hf_tokenizer_download = True
    litellm.set_verbose = False
    for name in ("LiteLLM", "LiteLLM Router", "LiteLLM Proxy", "litellm"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    return litellm


EXAMPLE_MODEL = "openai/gpt-4.1-mini"
_PROVIDERS_HINT = (
    f"write provider/model, e.g. {EXAMPLE_MODEL} (providers: https://docs.litellm.ai/docs/providers)"
)


def model_id_problem(model: str) -> str | None:
    """What is wrong with a model id on its face, without importing litellm; None when nothing is."""
    provider, slash, name = model.partition("/")
    if not model.strip():
        return f"jury model id is empty; {_PROVIDERS_HINT}"
    if model != model.strip() or (slash and (not provider or not name.strip())):
        return f"jury model {quote(model)} is not a model id; {_PROVIDERS_HINT}"
    return None


def model_routing_problem(model: str, api_base: str | None = None) -> str | None:
    """Why litellm could not route a call to `model`, found without a network call; None when it can.

    litellm would otherwise fail every call with a paragraph about providers, one tool at a time.
    """
    litellm = import_litellm()
    try:
        litellm.get_llm_provider(model=model, api_base=api_base)
    except Exception:
        provider, slash, _ = model.partition("/")
        what = f"litellm knows no provider {quote(provider)}" if slash else "it names no provider"
        return f"jury model {quote(model)}: {what}; {_PROVIDERS_HINT}"
    return None


def missing_credentials(model: str) -> list[str]:
    """Provider keys litellm needs for `model` and cannot find in the environment.

    Checked before any call: a missing key is not a transient failure, and retrying it with
    backoff only delays the one-line answer the user needs. Base URLs are not keys (providers
    such as Ollama have a default), so they never count as missing.
    """
    litellm = import_litellm()
    try:
        report = litellm.validate_environment(model=model)
    except Exception:
        return []  # an unknown provider: let the call itself say what is wrong
    missing = report.get("missing_keys") if isinstance(report, Mapping) else None
    if not isinstance(missing, list):
        return []
    return [str(key) for key in missing if not str(key).endswith(("_API_BASE", "_BASE_URL", "_BASE"))]


def _status_code(exc: BaseException) -> int | None:
    code = getattr(exc, "status_code", None)
    return code if isinstance(code, int) else None


def _retry_after(exc: BaseException) -> float | None:
    response = getattr(exc, "response", None)
    headers = getattr(response, "headers", None)
    if headers is None:
        headers = getattr(exc, "litellm_response_headers", None)
    if headers is None:
        return None
    try:
        value = headers.get("retry-after")
    except AttributeError:
        return None
    try:
        return max(0.0, float(value)) if value is not None else None
    except (TypeError, ValueError):
        # An HTTP-date Retry-After is rare from LLM providers; fall back to our own backoff.
        return None


def _one_line(text: str, limit: int = 200) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def describe_error(exc: BaseException, api_base: str | None = None) -> str:
    """One line for the report. A network failure says so and names the endpoint, never a key."""
    failure = connection_failure(exc)
    if failure is not None:
        endpoint = _endpoint(exc, api_base)
        return _one_line(f"{failure} {endpoint}: {_root_cause(exc)}")
    status = _status_code(exc)
    message = str(exc) or type(exc).__name__
    # litellm prefixes messages with "litellm.ClassName: ClassName: "; the head below already says it.
    message = _LITELLM_PREFIX.sub("", message)
    head = type(exc).__name__ + (f" {status}" if status is not None else "")
    return _one_line(f"{head}: {message.strip()}")


# Matched by class name over the exception chain, so the check works whichever transport litellm used
# (httpx or aiohttp) without importing either. litellm reports all of these as a 500, which they are not.
_TIMEOUT_NAMES = frozenset({"TimeoutError", "APITimeoutError", "TimeoutException"})
_CONNECT_NAMES = frozenset({"ConnectError", "ClientConnectorError", "ConnectionRefusedError", "gaierror"})
_LOST_NAMES = frozenset(
    {"APIConnectionError", "ServerDisconnectedError", "RemoteProtocolError", "ReadError", "ConnectionError"}
)
COULD_NOT_CONNECT = "could not connect to"
LOST_CONNECTION = "lost the connection to"


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not item for item in seen):
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def connection_failure(exc: BaseException) -> str | None:
    """`COULD_NOT_CONNECT`, `LOST_CONNECTION`, or None when `exc` is not a network failure below HTTP."""
    names = {kind.__name__ for item in _chain(exc) for kind in type(item).__mro__}
    if names & _TIMEOUT_NAMES:
        return None
    if names & _CONNECT_NAMES:
        return COULD_NOT_CONNECT
    if names & _LOST_NAMES:
        return LOST_CONNECTION
    return None


def _root_cause(exc: BaseException) -> str:
    root = _chain(exc)[-1]
    if isinstance(root, OSError) and isinstance(root.errno, int) and root.errno > 0:
        return os.strerror(root.errno)
    if isinstance(root, OSError) and root.strerror:
        return root.strerror
    return str(root).strip() or type(root).__name__


def _endpoint(exc: BaseException, api_base: str | None) -> str:
    # The URL the HTTP client really tried (deepest in the chain: litellm's own wrapper carries a
    # placeholder), which also covers a base taken from OPENAI_API_BASE and friends.
    for item in reversed(_chain(exc)):
        try:
            url = getattr(getattr(item, "request", None), "url", None)
        except Exception:  # httpx raises when an error was built without its request
            continue
        if url:
            return safe_url(str(url))
    return safe_url(api_base) if api_base else "the provider's endpoint"


def safe_url(url: str) -> str:
    """`url` without user, password, query or fragment: the parts that can carry a key."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "(unparseable URL)"
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit((parts.scheme, host, parts.path, "", "")) if host else "(unparseable URL)"


class SendGate:
    """Lets one call at a time prepare its request; shared by the calls of one run (see the module doc).

    A call holds the gate from when it starts preparing until litellm calls `logger_fn` just before the
    request goes out (the first of its calls: litellm calls it again with the answer), until litellm
    returns or raises without sending, or for at most `max_hold` seconds. The limit keeps a call that
    waits on something other than CPU before sending (fetching credentials, or a provider path that
    never calls `logger_fn`) from holding up the others: the gate only orders CPU work.
    """

    def __init__(self, max_hold: float = 0.05) -> None:
        self.max_hold = max_hold
        self._lock = asyncio.Lock()

    @contextlib.asynccontextmanager
    async def hold(self) -> AsyncIterator[Callable[[Any], None]]:
        """Wait for the gate; yields the `logger_fn` to pass to litellm, which lets the gate go."""
        await self._lock.acquire()
        loop = asyncio.get_running_loop()
        loop_thread = threading.get_ident()
        held = True

        def release() -> None:
            nonlocal held
            if held:
                held = False
                self._lock.release()

        def sent(_details: Any) -> None:
            if not held:
                return  # litellm's later calls (with the answer) may come after the loop has closed
            # Some providers call it from litellm's worker thread; the lock belongs to the loop.
            if threading.get_ident() == loop_thread:
                release()
            else:
                loop.call_soon_threadsafe(release)

        limit = loop.call_later(self.max_hold, release)
        try:
            yield sent
        finally:
            limit.cancel()
            release()


class LiteLLMJudge:
    """Scores tools with one model through litellm. `name` is the model id, as reports show it."""

    def __init__(
        self,
        model: str,
        api_base: str | None = None,
        timeout: float = 60.0,
        max_retries: int = 4,
        *,
        backoff_base: float = 0.5,
        rubric: Rubric | None = None,
        seed: int | None = None,
    ) -> None:
        self.model = model
        self.api_base = api_base
        self.timeout = timeout
        self.max_retries = max(0, max_retries)
        self.backoff_base = max(0.0, backoff_base)
        self.rubric = rubric if rubric is not None else load_rubric()
        self._random = random.Random(seed)
        # Set once a call has given up because the endpoint refused it: the judge's other calls then
        # fail at once with the same reason instead of each spending its retries on a dead endpoint.
        self._unreachable: str | None = None

    @property
    def name(self) -> str:
        return self.model

    @property
    def sampling(self) -> Mapping[str, Any]:
        return SAMPLING

    def judge(self, tool: Tool, siblings: Sequence[str]) -> JudgeVerdict:
        """Synchronous form, to satisfy the `Judge` protocol; the jury runner uses `ajudge`."""
        return asyncio.run(self.ajudge(tool, siblings)).verdict

    def _backoff(self, retry: int, exc: BaseException) -> float:
        delay = self.backoff_base * (2.0**retry) * (0.5 + 0.5 * self._random.random())
        hinted = _retry_after(exc)
        if hinted is not None:
            delay = max(delay, hinted)
        return min(delay, MAX_BACKOFF)

    async def ajudge(
        self, tool: Tool, siblings: Sequence[str], *, gate: SendGate | None = None
    ) -> JudgeResult:
        """Judge one tool; with a `gate`, each attempt waits its turn to prepare its request."""
        messages = build_messages(tool, siblings, self.rubric)
        answer, usage = await self.complete(messages, response_format(), parse_answer, gate=gate)
        verdict = JudgeVerdict(
            judge=self.name,
            scores={k: float(v) for k, v in answer.scores().items()},
            reasons=answer.reasons(),
            rewrite=answer.rewrite.strip() or None,
        )
        return JudgeResult(verdict, usage)

    async def complete(
        self,
        messages: list[dict[str, str]],
        answer_format: Mapping[str, Any],
        parse: Callable[[str | None], _Answer],
        *,
        gate: SendGate | None = None,
    ) -> tuple[_Answer, CallUsage]:
        """One structured chat completion with this judge's retries, parsed by `parse` (which raises
        `MalformedAnswer` on an answer to retry once); shared by judging and by `--fix`'s rewrites."""
        litellm = import_litellm()
        kwargs: dict[str, Any] = {
            "model": self.model,
            "messages": messages,
            "timeout": self.timeout,
            "response_format": dict(answer_format),
            "max_retries": 0,
            **SAMPLING,
        }
        if self.api_base:
            kwargs["api_base"] = self.api_base
        attempts = 0
        transient_retries = 0
        malformed_retries = 0
        prompt_tokens = 0
        completion_tokens = 0
        cost: float | None = 0.0
        while True:
            if self._unreachable is not None:
                spent = CallUsage(prompt_tokens, completion_tokens, cost, attempts)
                raise JudgeCallError(
                    f"{self._unreachable} (not tried again: an earlier call failed the same way)",
                    attempts,
                    spent,
                )
            attempts += 1
            try:
                async with _turn(gate) as sent:
                    call_kwargs = kwargs if sent is None else {**kwargs, "logger_fn": sent}
                    # The client timeout alone does not bound a provider that trickles bytes; wait_for does.
                    response = await asyncio.wait_for(
                        litellm.acompletion(**call_kwargs), timeout=self.timeout + 5
                    )
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                refused = connection_failure(exc) == COULD_NOT_CONNECT
                budget = min(self.max_retries, CONNECT_RETRIES) if refused else self.max_retries
                if self._is_transient(exc, litellm) and transient_retries < budget:
                    await asyncio.sleep(self._backoff(transient_retries, exc))
                    transient_retries += 1
                    continue
                reason = describe_error(exc, self.api_base)
                if refused and self._unreachable is None:
                    self._unreachable = reason
                suffix = f" (after {attempts} attempts)" if attempts > 1 else ""
                spent = CallUsage(prompt_tokens, completion_tokens, cost, attempts)
                raise JudgeCallError(reason + suffix, attempts, spent) from None
            p, c, call_cost = self._usage(response, litellm)
            prompt_tokens += p
            completion_tokens += c
            cost = None if cost is None or call_cost is None else cost + call_cost
            try:
                answer = parse(_content(response))
            except MalformedAnswer as exc:
                if malformed_retries < _MALFORMED_RETRIES:
                    malformed_retries += 1
                    continue
                spent = CallUsage(prompt_tokens, completion_tokens, cost, attempts)
                raise JudgeCallError(f"malformed answer: {_one_line(str(exc))}", attempts, spent) from None
            return answer, CallUsage(prompt_tokens, completion_tokens, cost, attempts)

    @staticmethod
    def _is_transient(exc: BaseException, litellm: Any) -> bool:
        if isinstance(exc, asyncio.TimeoutError | TimeoutError | ConnectionError):
            return True
        transient_types = tuple(
            t
            for t in (
                getattr(litellm, "Timeout", None),
                getattr(litellm, "APIConnectionError", None),
                getattr(litellm, "RateLimitError", None),
                getattr(litellm, "ServiceUnavailableError", None),
                getattr(litellm, "InternalServerError", None),
                getattr(litellm, "BadGatewayError", None),
            )
            if isinstance(t, type)
        )
        if transient_types and isinstance(exc, transient_types):
            return True
        status = _status_code(exc)
        return status in _RETRYABLE_STATUS or (status is not None and status >= 500)

    @staticmethod
    def _usage(response: Any, litellm: Any) -> tuple[int, int, float | None]:
        usage = getattr(response, "usage", None)
        prompt = getattr(usage, "prompt_tokens", 0) or 0
        completion = getattr(usage, "completion_tokens", 0) or 0
        # litellm already priced the response while logging it; pricing again costs a few ms per call.
        hidden = getattr(response, "_hidden_params", None)
        if isinstance(hidden, Mapping) and "response_cost" in hidden:
            known = hidden["response_cost"]
            cost = float(known) if isinstance(known, int | float) and not isinstance(known, bool) else None
            return int(prompt), int(completion), cost
        try:
            cost = float(litellm.completion_cost(completion_response=response))
        except Exception:
            # Models missing from litellm's price map (local, self-hosted, new) raise here: cost unknown.
            cost = None
        return int(prompt), int(completion), cost


@contextlib.asynccontextmanager
async def _turn(gate: SendGate | None) -> AsyncIterator[Callable[[Any], None] | None]:
    if gate is None:
        yield None
        return
    async with gate.hold() as sent:
        yield sent


def _content(response: Any) -> str | None:
    try:
        content = response.choices[0].message.content
    except (AttributeError, IndexError, TypeError):
        return None
    return content if isinstance(content, str) else None
