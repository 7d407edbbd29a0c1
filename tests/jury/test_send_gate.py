"""The send gate: one call at a time prepares its request; litellm's `logger_fn` lets the next one go."""

from __future__ import annotations

import asyncio
import threading

from fake_llm_server import FakeLLM, make_tool

from mcp_lint.jury.llm import LiteLLMJudge, SendGate

# No test here waits on the clock: each step waits on the event it needs. A gate that failed to let go
# would leave a test waiting for good (max_hold is an hour where the test is not about it), and
# pytest-timeout ends it. A coroutine runs until its first blocking await, so right after it signals
# that it is about to take the gate, it has either taken it or is queued behind the holder.
HOUR = 3600.0


def test_next_call_waits_until_the_request_is_reported_sent() -> None:
    async def main() -> list[str]:
        gate = SendGate(max_hold=HOUR)
        events: list[str] = []
        first_in = asyncio.Event()
        second_trying = asyncio.Event()
        second_in = asyncio.Event()

        async def first() -> None:
            async with gate.hold() as sent:
                events.append("first preparing")
                first_in.set()
                await second_trying.wait()
                assert events == ["first preparing"]  # second is held back while first prepares
                events.append("first sent")
                sent({"log_event_type": "pre_api_call"})
                await second_in.wait()  # waiting for the answer: the gate is already free
                sent({"log_event_type": "post_api_call"})  # litellm calls it again; no effect
                events.append("first answered")

        async def second() -> None:
            await first_in.wait()
            second_trying.set()
            async with gate.hold():
                events.append("second preparing")
                second_in.set()

        await asyncio.gather(first(), second())
        return events

    assert asyncio.run(main()) == ["first preparing", "first sent", "second preparing", "first answered"]


def test_a_report_from_another_thread_releases_the_gate() -> None:
    # Some providers' paths call `logger_fn` from litellm's worker thread.
    async def main() -> None:
        gate = SendGate(max_hold=HOUR)
        first_in = asyncio.Event()
        second_in = asyncio.Event()

        async def first() -> None:
            async with gate.hold() as sent:
                first_in.set()
                worker = threading.Thread(target=sent, args=({},))
                worker.start()
                worker.join()
                await second_in.wait()  # still inside: released by the worker

        async def second() -> None:
            await first_in.wait()
            async with gate.hold():
                second_in.set()

        await asyncio.gather(first(), second())

    asyncio.run(main())


def test_a_call_that_never_reports_holds_the_gate_until_max_hold() -> None:
    """The silent call never calls `sent` and stays inside until the next call is in: only the
    max_hold timer can have let the next one in."""

    async def main() -> list[str]:
        gate = SendGate(max_hold=0.05)
        events: list[str] = []
        silent_in = asyncio.Event()
        next_trying = asyncio.Event()
        next_in = asyncio.Event()

        async def silent() -> None:
            async with gate.hold():  # e.g. fetching credentials; never calls `sent`
                silent_in.set()
                await next_trying.wait()
                events.append("next held back" if not next_in.is_set() else "next got in at once")
                await next_in.wait()
                events.append("silent still preparing")

        async def next_call() -> None:
            await silent_in.wait()
            next_trying.set()
            async with gate.hold():
                next_in.set()
                events.append("next in")

        await asyncio.gather(silent(), next_call())
        return events

    assert asyncio.run(main()) == ["next held back", "next in", "silent still preparing"]


def test_an_error_before_sending_releases_the_gate() -> None:
    async def main() -> bool:
        gate = SendGate(max_hold=10.0)
        try:
            async with gate.hold():
                raise RuntimeError("bad request")
        except RuntimeError:
            pass
        return not gate._lock.locked()

    assert asyncio.run(main())


def test_the_gate_does_not_change_the_request(fake_llm: FakeLLM) -> None:
    judge = LiteLLMJudge("openai/judge-a", fake_llm.api_base, timeout=5.0, max_retries=0)
    tool = make_tool("ping", "Ping the service.")

    async def main() -> None:
        await judge.ajudge(tool, ["status"])
        await judge.ajudge(tool, ["status"], gate=SendGate())

    asyncio.run(main())
    without, with_gate = (r.body for r in fake_llm.requests)
    assert with_gate == without
