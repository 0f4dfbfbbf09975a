"""A thread that runs the event loop's blocking calls one at a time, in the order given.

The server has two: the AI's moves and hints (off the event loop), and the database. A
:class:`~concurrent.futures.ThreadPoolExecutor` with ``run_in_executor`` does the same, but
each call then builds a ``concurrent.futures.Future`` (with its condition and lock), a work
item and an asyncio future chained to it: about four times the cost of this hand-over,
which the server pays for every AI move and every group commit.

>>> import asyncio
>>> worker = Worker("doc")
>>> asyncio.run(worker.run(sum, [1, 2, 3]))
6
>>> worker.shutdown()
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import queue
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

T = TypeVar("T")

_Job = tuple[asyncio.AbstractEventLoop, "asyncio.Future[Any]", Callable[..., Any], tuple[Any, ...]]
#: (priority, order of submission, job or None to stop)
_Item = tuple[int, int, "_Job | None"]

#: The priority of AI moves: first.
MOVE_PRIORITY = 0
#: The priority of hints: every AI move waiting for the thread goes first.
HINT_PRIORITY = 10
#: The priority of longer analyses (a deal's review): after moves and hints.
ANALYSIS_PRIORITY = 20
#: The priority of the stop request: after everything submitted.
_STOP_PRIORITY = 1 << 30


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.done():  # cancelled while it ran
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


class JobRunner(Protocol):
    """Where the AI's work runs: this module's :class:`Worker` (a thread of the server) or
    :class:`~cardavia.server.ai_pool.AiPool` (worker processes). A job is a callable and
    its arguments, with a priority (lower first)."""

    async def run(self, fn: Callable[..., T], *args: Any, priority: int = 0) -> T: ...

    def shutdown(self, wait: bool = True) -> None: ...


class Worker:
    """One daemon thread; :meth:`run` awaits ``fn(*args)`` computed there. Calls wait in
    order of ``priority`` (lower first), then of submission."""

    def __init__(self, name: str) -> None:
        self._queue: queue.PriorityQueue[_Item] = queue.PriorityQueue()
        self._order = itertools.count()
        self._thread = threading.Thread(target=self._serve, name=name, daemon=True)
        self._closed = False
        self._thread.start()

    async def run(self, fn: Callable[..., T], *args: Any, priority: int = 0) -> T:
        """``fn(*args)`` on the worker thread, after every call submitted before it with a
        ``priority`` as low or lower."""
        if self._closed:
            raise RuntimeError("the worker is shut down")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put((priority, next(self._order), (loop, future, fn, args)))
        return await future

    def _serve(self) -> None:
        while True:
            _, _, job = self._queue.get()
            if job is None:
                return
            loop, future, fn, args = job
            if future.cancelled():  # its caller gave up before it started
                continue
            try:
                outcome: tuple[Any, BaseException | None] = (fn(*args), None)
            except BaseException as err:  # handed to the caller
                outcome = (None, err)
            with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits
                loop.call_soon_threadsafe(_settle, future, *outcome)

    def shutdown(self, wait: bool = True) -> None:
        """Stop after the calls already submitted (calls whose caller was cancelled are
        skipped); ``wait``: until the thread has finished."""
        if not self._closed:
            self._closed = True
            self._queue.put((_STOP_PRIORITY, next(self._order), None))
        if wait:
            self._thread.join()
