"""The send gate: one call at a time prepares its request; litellm's `logger_fn` lets the next one go."""

from __future__ import annotations

import asyncio
import threading

from fake_llm_server import FakeLLM, make_tool

from mcp_lint.jury.llm import LiteLLMJudge, SendGate


def test_next_call_waits_until_the_request_is_reported_sent() -> None:
    async def main() -> list[str]:
        gate = SendGate(max_hold=10.0)
        events: list[str] = []
        first_in = asyncio.Event()
        let_first_send = asyncio.Event()

        async def first() -> None:
            async with gate.hold() as sent:
                events.append("first preparing")
                first_in.set()
                await let_first_send.wait()
                events.append("first sent")
                sent({"log_event_type": "pre_api_call"})
                await asyncio.sleep(0.05)  # waiting for the answer: the gate is already free
                sent({"log_event_type": "post_api_call"})  # litellm calls it again; no effect
                events.append("first answered")

        async def second() -> None:
            await first_in.wait()
            async with gate.hold():
                events.append("second preparing")

        task = asyncio.gather(first(), second())
        await asyncio.sleep(0.02)
        assert events == ["first preparing"]  # second is held back while first prepares
        let_first_send.set()
        await task
        return events

    assert asyncio.run(main()) == ["first preparing", "first sent", "second preparing", "first answered"]


def test_a_report_from_another_thread_releases_the_gate() -> None:
    # Some providers' paths call `logger_fn` from litellm's worker thread.
    async def main() -> None:
        gate = SendGate(max_hold=10.0)
        second_in = asyncio.Event()

        async def first() -> None:
            async with gate.hold() as sent:
                worker = threading.Thread(target=sent, args=({},))
                worker.start()
                worker.join()
                await asyncio.wait_for(second_in.wait(), timeout=5)  # still inside: released by the worker

        async def second() -> None:
            await asyncio.sleep(0.01)
            async with gate.hold():
                second_in.set()

        await asyncio.gather(first(), second())

    asyncio.run(main())


def test_a_call_that_never_reports_holds_the_gate_at_most_max_hold() -> None:
    async def main() -> float:
        gate = SendGate(max_hold=0.05)
        loop = asyncio.get_running_loop()
        started = loop.time()
        got_in = 0.0

        async def silent() -> None:
            async with gate.hold():
                await asyncio.sleep(0.5)  # e.g. fetching credentials; never calls `sent`

        async def next_call() -> None:
            nonlocal got_in
            await asyncio.sleep(0.01)
            async with gate.hold():
                got_in = loop.time() - started

        await asyncio.gather(silent(), next_call())
        return got_in

    assert 0.04 <= asyncio.run(main()) < 0.4


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
