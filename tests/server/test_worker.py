"""The worker thread that runs the AI's moves and the database calls off the event loop."""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from cardavia.server.worker import Worker


def test_calls_run_in_order_on_one_thread_with_errors_returned() -> None:
    worker = Worker("test-worker")

    async def scenario() -> None:
        seen: list[tuple[int, str]] = []

        def job(i: int) -> int:
            seen.append((i, threading.current_thread().name))
            return i * i

        def fail() -> None:
            raise ValueError("boom")

        results = await asyncio.gather(*(worker.run(job, i) for i in range(50)))
        assert results == [i * i for i in range(50)]
        assert [i for i, _ in seen] == list(range(50))
        assert {name for _, name in seen} == {"test-worker"}
        with pytest.raises(ValueError, match="boom"):
            await worker.run(fail)
        assert await worker.run(job, 7) == 49  # still serving after an error

    asyncio.run(scenario())
    worker.shutdown()
    with pytest.raises(RuntimeError):
        asyncio.run(worker.run(int))


def test_a_cancelled_call_that_has_not_started_is_skipped() -> None:
    worker = Worker("test-worker")
    ran: list[str] = []

    async def scenario() -> None:
        release = threading.Event()
        blocker = asyncio.ensure_future(worker.run(release.wait, 5))
        waiting = asyncio.ensure_future(worker.run(ran.append, "cancelled"))
        await asyncio.sleep(0.01)
        waiting.cancel()
        release.set()
        assert await blocker is True
        await worker.run(ran.append, "after")

    asyncio.run(scenario())
    worker.shutdown()
    assert ran == ["after"]


def test_shutdown_finishes_the_calls_already_given() -> None:
    worker = Worker("test-worker")
    done: list[int] = []

    def job(i: int) -> None:
        time.sleep(0.01)
        done.append(i)

    async def scenario() -> None:
        futures = [asyncio.ensure_future(worker.run(job, i)) for i in range(3)]
        await asyncio.sleep(0)
        worker.shutdown(wait=True)
        await asyncio.gather(*futures)

    asyncio.run(scenario())
    assert done == [0, 1, 2]
