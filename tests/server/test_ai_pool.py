"""The AI's worker processes: jobs in priority order, a dead worker replaced and its job
retried once, the event loop free while a search runs, and the server's AI there."""

from __future__ import annotations

import asyncio
import os
import time
from pathlib import Path
from typing import Any

import pytest

from cardavia.server.ai_pool import AiPool, WorkerDied
from cardavia.server.rooms import Room
from cardavia.server.worker import ANALYSIS_PRIORITY, HINT_PRIORITY, MOVE_PRIORITY, Worker
from cardavia.table import Table, TableConfig, decide_safely
from tests.server import pool_jobs


@pytest.fixture(scope="module")
def pool() -> Any:
    pool = AiPool(2, warm=False)
    yield pool
    pool.shutdown()


def test_jobs_run_in_other_processes_and_errors_come_back(pool: AiPool) -> None:
    async def scenario() -> None:
        pids = set(await asyncio.gather(*(pool.run(pool_jobs.pid) for _ in range(8))))
        assert os.getpid() not in pids and pids <= set(pool.pids())
        with pytest.raises(ValueError, match="boom"):
            await pool.run(pool_jobs.fail, "boom")
        assert await pool.run(pool_jobs.nap, 0, "still serving") == "still serving"

    asyncio.run(scenario())


def test_moves_go_before_hints_before_analyses() -> None:
    pool = AiPool(1, warm=False)
    try:
        # the blocker holds the worker while the others queue up
        async def with_blocker() -> list[str]:
            done: list[str] = []
            first = asyncio.create_task(pool.run(pool_jobs.nap, 1.0, "blocker"))
            await asyncio.sleep(0.2)
            tags = [("review", ANALYSIS_PRIORITY), ("hint1", HINT_PRIORITY), ("move1", MOVE_PRIORITY),
                    ("hint2", HINT_PRIORITY), ("move2", MOVE_PRIORITY)]

            async def one(tag: str, prio: int) -> None:
                done.append(await pool.run(pool_jobs.nap, 0, tag, priority=prio))

            await asyncio.gather(first, *(one(t, p) for t, p in tags))
            return done

        asyncio.run(pool.run(pool_jobs.pid))  # the worker is up
        assert asyncio.run(with_blocker()) == ["move1", "move2", "hint1", "hint2", "review"]
    finally:
        pool.shutdown()


def test_a_dead_worker_is_replaced_and_its_job_retried_once(tmp_path: Path) -> None:
    pool = AiPool(1, warm=False)
    try:
        async def scenario() -> None:
            first = await pool.run(pool_jobs.pid)
            retried = await pool.run(pool_jobs.die_once, str(tmp_path / "marker"))
            assert retried != first and pool.deaths == 1  # a new process answered
            with pytest.raises(WorkerDied):
                await pool.run(pool_jobs.die_always)
            assert pool.deaths == 3
            assert await pool.run(pool_jobs.nap, 0, "alive") == "alive"

        asyncio.run(scenario())
    finally:
        pool.shutdown()


def test_the_event_loop_runs_while_a_search_does(pool: AiPool) -> None:
    async def scenario() -> tuple[int, float]:
        cpu = time.process_time()
        search = asyncio.create_task(pool.run(pool_jobs.spin, 1.0))
        ticks = 0
        while not search.done():
            await asyncio.sleep(0.005)
            ticks += 1
        assert await search > 0
        return ticks, time.process_time() - cpu

    # a CPU-second of search ran elsewhere: this process's loop kept turning and spent a
    # small part of that (a search on a thread here would hold our GIL and CPU)
    ticks, used = asyncio.run(scenario())
    assert ticks >= 10 and used < 0.5, (ticks, used)


class _Recorder:
    """A job runner that runs jobs here and records what they were given."""

    def __init__(self) -> None:
        self.jobs: list[tuple[Any, tuple[Any, ...], int]] = []
        self.inner = Worker("recorder")

    async def run(self, fn: Any, *args: Any, priority: int = 0) -> Any:
        self.jobs.append((fn, args, priority))
        return await self.inner.run(fn, *args, priority=priority)

    def shutdown(self, wait: bool = True) -> None:
        self.inner.shutdown(wait)


def test_the_room_sends_the_ai_the_seats_observation_only() -> None:
    async def scenario() -> None:
        table = Table.create(TableConfig.preset("guandan", 4, "normal", "normal"), keep_finished=False)
        seat = table.pending_ai_seat()
        assert seat is not None
        expected = table.observation(seat)

        async def commit(*_: Any) -> None:
            return None

        recorder = _Recorder()
        room = Room("t" * 12, table, {}, commit, 0.0, lambda _: None, recorder)
        room.kick()
        deadline = time.monotonic() + 30
        while table.seq < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.001)
        await room.stop()
        recorder.shutdown()
        fn, args, priority = recorder.jobs[0]
        assert fn is decide_safely and priority == MOVE_PRIORITY
        difficulty, seed, obs = args
        assert difficulty == "normal"
        assert isinstance(seed, int) and obs == expected and obs.seat == seat

    asyncio.run(scenario())


def test_a_server_with_ai_workers_plays_and_hints(tmp_path: Path) -> None:
    from cardavia.server.app import create_app
    from tests.server.conftest import LiveServer, ThreadServer
    from tests.server.ws_client import choose, must_act

    db_url = f"sqlite:///{tmp_path / 'pool.sqlite3'}"
    app = create_app(db_url, pacing=0, allow_seeds=True, ai_workers=1)
    with ThreadServer(app) as running:
        live = LiveServer(running.port, db_url, app)
        created = live.create("guandan", seed=8, difficulty="normal", partner="hard")
        seat = live.connect(created["table_id"], created["token"])
        try:
            hinted = False
            state = seat.recv_until(lambda m: m["type"] == "state" and must_act(m["observation"]), 60)
            while True:
                obs = state["observation"]
                if obs["phase"] == "over":
                    break
                if not hinted:
                    seat.send({"type": "hint"})
                    hint = seat.recv_until(lambda m: m["type"] in ("hint", "error"), 60)
                    assert hint["type"] == "hint", hint
                    hinted = True
                seat.send(choose(obs, 8))
                state = seat.recv_until(
                    lambda m: m["type"] == "state"
                    and (m["observation"]["phase"] == "over" or must_act(m["observation"])), 60)
        finally:
            seat.close()
        pids = app.state.registry._ai.pids()
        assert len(pids) == 1 and os.getpid() not in pids
    stored = live.stored_table(created["table_id"])
    assert stored.deal.over
