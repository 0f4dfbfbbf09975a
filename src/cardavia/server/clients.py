"""One WebSocket connection of a seat: an outgoing queue drained by its own writer task,
so that a slow browser never holds up a table, and a per-connection rate limit."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from starlette.websockets import WebSocket

from cardavia.server.messages import ErrorMessage

log = logging.getLogger("cardavia.server")

#: Frames waiting for a slow client before the connection is dropped.
MAX_QUEUED = 4096


class RateLimiter:
    """A token bucket: ``burst`` messages at once, ``rate`` per second on average.

    Accepted game actions are refunded (:meth:`refund`): the game itself paces them (a seat
    acts only in turn), so only refused messages and hints wear the bucket down.
    """

    def __init__(self, rate: float = 10.0, burst: float = 30.0) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def allow(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def refund(self) -> None:
        self.tokens = min(self.burst, self.tokens + 1.0)



class Client:
    """A seat's connection: :meth:`send` never blocks; frames go out in order."""

    def __init__(self, ws: WebSocket, seat: int) -> None:
        self.ws = ws
        self.seat = seat
        self.limiter = RateLimiter()
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=MAX_QUEUED)
        self._writer = asyncio.create_task(self._write())
        self._close_code = 1000
        self._closer: asyncio.Task[None] | None = None
        self.closed = False

    def send(self, text: str) -> None:
        """Queue one frame; a client that stops reading is disconnected."""
        if self.closed:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("dropping a client of seat %s that stopped reading", self.seat)
            self.close(1008)

    def send_error(
        self, code: str, message: str, options: list[dict[str, object]] | None = None
    ) -> None:
        frame = ErrorMessage(code=code, message=message, options=options)
        self.send(frame.model_dump_json(exclude_none=True))

    def close(self, code: int = 1000) -> None:
        """Close after the queued frames are sent."""
        if self.closed:
            return
        self.closed = True
        self._close_code = code
        with contextlib.suppress(asyncio.QueueFull):
            self._queue.put_nowait(None)
        if self._queue.full():  # the writer is stuck behind the queue: close right away
            self._writer.cancel()
            self._closer = asyncio.create_task(self._close_socket(code))

    async def _close_socket(self, code: int) -> None:
        with contextlib.suppress(Exception):
            await self.ws.close(code)

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    await self._close_socket(self._close_code)
                    return
                await self.ws.send_text(text)
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket went away; the reader notices and cleans up
            self.closed = True

    async def finish(self) -> None:
        """Stop the writer (the connection is gone or being closed). Frames queued before a
        server-side :meth:`close` are still sent (for up to two seconds)."""
        if self.closed and not self._writer.done():
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self._writer), timeout=2.0)
        self.closed = True
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._writer
