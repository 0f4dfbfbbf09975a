"""One WebSocket connection of a seat: an outgoing queue drained by its own writer task,
so that a slow browser never holds up a table, and a per-connection rate limit."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket

from cardavia.server.guard import TRANSPORT_KEY
from cardavia.server.limits import DEFAULT_LIMITS, Limits, TokenBucket
from cardavia.server.messages import ErrorMessage

log = logging.getLogger("cardavia.server")

#: Frames waiting for a slow client before the connection is dropped.
MAX_QUEUED = DEFAULT_LIMITS.max_queued
#: Close code for a client that does not read its frames (or breaks a limit).
CLOSE_POLICY = 1008


class RateLimiter(TokenBucket):
    """A connection's frame budget (see :class:`~cardavia.server.limits.Limits`)."""

    def __init__(self, rate: float = 10.0, burst: float = 30.0) -> None:
        super().__init__(rate, burst)


class Client:
    """A seat's connection: :meth:`send` never blocks; frames go out in order."""

    def __init__(self, ws: WebSocket, seat: int, limits: Limits = DEFAULT_LIMITS) -> None:
        self.ws = ws
        self.seat = seat
        self.limiter = RateLimiter(limits.frame_rate, limits.frame_burst)
        #: Frames refused by :attr:`limiter` since the last one it let through.
        self.refused_in_a_row = 0
        self._send_timeout = limits.send_timeout
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(maxsize=limits.max_queued)
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
            self.close(CLOSE_POLICY)

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
            await asyncio.wait_for(self.ws.close(code), timeout=self._send_timeout)

    async def _write(self) -> None:
        try:
            while True:
                text = await self._queue.get()
                if text is None:
                    await self._close_socket(self._close_code)
                    return
                try:
                    await asyncio.wait_for(self.ws.send_text(text), timeout=self._send_timeout)
                except TimeoutError:
                    # the client has not taken a frame for that long: it stopped reading
                    log.warning("closing a client of seat %s that stopped reading", self.seat)
                    self.closed = True
                    await self._close_socket(CLOSE_POLICY)
                    await self._abort()
                    return
        except asyncio.CancelledError:
            raise
        except Exception:  # the socket went away; the reader notices and cleans up
            self.closed = True

    async def _abort(self) -> None:
        """Drop the connection (its close frame could not be written either): the reader
        gets a disconnect and cleans up. (The transport is the server's, found by
        :class:`~cardavia.server.guard.Guard`.)"""
        transport = self.ws.scope.get(TRANSPORT_KEY)
        abort = getattr(transport, "abort", None)
        if callable(abort):
            abort()

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
