"""A pool of worker processes for the AI: moves, hints and any other search.

The event loop hands a job — a module-level callable and picklable arguments, with a
priority — to :meth:`AiPool.run` and awaits its result; it never waits on a search. Jobs
wait in one queue in order of priority (lower first: AI moves, then hints, then longer
analyses such as a deal review), then of submission, and go to the first free worker.

Each worker is a process of its own (``spawn``: a fresh interpreter, no inherited locks or
sockets), fronted by one thread of this process that sends it a job over a pipe and
blocks, without the GIL, until the answer comes back. A worker that dies (killed, out of
memory, a crash in native code) is replaced, and the job it was running is retried once
on the new worker; a second death is :class:`WorkerDied` for the caller. A worker whose
server dies (even by ``kill -9``) reads the end of its pipe and exits.

What a job receives is what it is given: the server sends an AI worker the agent's level,
its seed and the seat's :class:`~cardavia.rules.observation.Observation` — never the table.

>>> import asyncio, operator
>>> pool = AiPool(1, warm=False)
>>> asyncio.run(pool.run(operator.add, 2, 3))
5
>>> pool.shutdown()
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import multiprocessing
import os
import pickle
import queue
import signal
import threading
from collections.abc import Callable, Sequence
from multiprocessing.connection import Connection
from typing import Any, TypeVar

from cardavia.server.worker import _settle

T = TypeVar("T")

log = logging.getLogger("cardavia.server")

_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...]]
_Item = tuple[int, int, "_Job | None"]
_STOP_PRIORITY = 1 << 30


class WorkerDied(RuntimeError):
    """The job's worker process died twice while running it."""


def default_workers() -> int:
    """One worker per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)


def warm_up(agent_specs: Sequence[str]) -> None:
    """A worker's start: register the learned AI levels (``cardavia serve --agent``) and load
    the agents and the rules once, so the first real search is not slower than the rest."""
    if agent_specs:
        from cardavia.env.agents import parse_spec

        for spec in agent_specs:
            parse_spec(spec)
    from cardavia.table import GAMES, Table, TableConfig

    for game in GAMES:
        table = Table.create(TableConfig.preset(game, 0, "normal", "normal"))
        table.step_ai()


def _child(conn: Connection, warm: bool, agent_specs: Sequence[str]) -> None:
    """A worker process: answer jobs until the pipe closes (the server stopped or died)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    if warm:
        try:
            warm_up(agent_specs)
        except Exception:  # the jobs will show the same fault to their callers
            log.exception("an AI worker could not warm up")
    try:
        conn.send("ready")  # jobs come only now: none waits for a cold worker
    except (EOFError, OSError):
        return
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return
        if message is None:
            return
        fn, args = message
        try:
            answer: tuple[bool, Any] = (True, fn(*args))
        except BaseException as err:  # handed to the caller
            answer = (False, err)
        try:
            conn.send(answer)
        except (EOFError, OSError):
            return
        except Exception as err:  # the result (or the error) does not pickle
            conn.send((False, RuntimeError(f"the job's answer could not be sent back: {err!r}")))


class _Slot:
    """One worker process and the thread of this process that feeds it."""

    def __init__(self, pool: AiPool, index: int) -> None:
        self.pool = pool
        self.index = index
        self.process: multiprocessing.process.BaseProcess | None = None
        self.conn: Connection | None = None
        self.thread = threading.Thread(target=self._serve, name=f"{pool.name}-{index}", daemon=True)

    def _spawn(self) -> Connection:
        ctx = multiprocessing.get_context("spawn")
        ours, theirs = ctx.Pipe()
        process = ctx.Process(
            target=_child, args=(theirs, self.pool.warm, tuple(self.pool.agent_specs)),
            name=f"{self.pool.name}-{self.index}", daemon=True,
        )
        process.start()
        theirs.close()
        self.process, self.conn = process, ours
        try:
            ours.recv()  # "ready" once warmed up (this thread takes no job before)
        except (EOFError, OSError):
            log.error("AI worker %s exited while starting (exit code %s)", self.index, process.exitcode)
        self.pool._ready.set()
        return ours

    def _reap(self) -> None:
        if self.conn is not None:
            with contextlib.suppress(OSError):
                self.conn.close()
        if self.process is not None:
            self.process.join(timeout=1)
            if self.process.is_alive():
                self.process.kill()
                self.process.join(timeout=5)
        self.process = self.conn = None

    def _serve(self) -> None:
        conn = self._spawn()
        while True:
            _, _, job = self.pool._queue.get()
            if job is None:
                with contextlib.suppress(OSError, ValueError):
                    conn.send(None)
                self._reap()
                return
            loop, future, fn, args = job
            if future.cancelled():
                continue
            outcome: tuple[Any, BaseException | None]
            for attempt in (1, 2):
                try:
                    payload = pickle.dumps((fn, args), protocol=pickle.HIGHEST_PROTOCOL)
                except Exception as err:  # the caller's arguments: its error
                    outcome = (None, err)
                    break
                try:
                    conn.send_bytes(payload)
                    ok, value = conn.recv()
                except (EOFError, OSError) as err:
                    code = self.process.exitcode if self.process is not None else None
                    self._reap()
                    self.pool.deaths += 1
                    log.warning(
                        "AI worker %s died (exit code %s) running %s; %s", self.index, code,
                        getattr(fn, "__name__", fn), "retrying once" if attempt == 1 else "giving up",
                    )
                    conn = self._spawn()
                    outcome = (None, WorkerDied(f"the AI worker died twice on this job ({err!r})"))
                    continue
                outcome = (value, None) if ok else (None, value)
                break
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, future, *outcome)


class AiPool:
    """``workers`` processes; :meth:`run` awaits ``fn(*args)`` computed in one of them."""

    def __init__(
        self, workers: int, *, name: str = "cardavia-ai", warm: bool = True,
        agent_specs: Sequence[str] = (),
    ) -> None:
        if workers < 1:
            raise ValueError("an AI pool needs at least one worker")
        self.name = name
        self.warm = warm
        self.agent_specs = list(agent_specs)
        #: Worker processes that died (and were replaced) so far.
        self.deaths = 0
        self._queue: queue.PriorityQueue[_Item] = queue.PriorityQueue()
        self._order = itertools.count()
        self._closed = False
        self._ready = threading.Event()
        self._slots = [_Slot(self, i) for i in range(workers)]
        for slot in self._slots:
            slot.thread.start()

    @property
    def size(self) -> int:
        return len(self._slots)

    def wait_ready(self, timeout: float | None = None) -> bool:
        """Block until a worker has started (and warmed up); whether one has."""
        return self._ready.wait(timeout)

    def pids(self) -> list[int]:
        """The worker processes' ids (those alive now)."""
        return [s.process.pid for s in self._slots if s.process is not None and s.process.pid is not None]

    async def run(self, fn: Callable[..., T], *args: Any, priority: int = 0) -> T:
        """``fn(*args)`` in a worker process, after every job submitted before it with a
        ``priority`` as low or lower. ``fn`` must be importable by name (a module-level
        function) and its arguments and result must pickle."""
        if self._closed:
            raise RuntimeError("the AI pool is shut down")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put((priority, next(self._order), (loop, future, fn, args)))
        return await future

    def shutdown(self, wait: bool = True) -> None:
        """Stop every worker after the jobs already submitted."""
        if not self._closed:
            self._closed = True
            for _ in self._slots:
                self._queue.put((_STOP_PRIORITY, next(self._order), None))
        if wait:
            for slot in self._slots:
                slot.thread.join()
