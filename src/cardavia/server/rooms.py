"""A table being served: its connections, the order of its actions, the AI driver.

Every change follows one path: apply on the :class:`~cardavia.table.Table` under the
room's lock → commit the new log entries → broadcast one ``state`` frame per entry to each
connected seat (its own observation; the event as that seat may see it). Nothing is sent
before it is committed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from cardavia.server.clients import Client
from cardavia.server.messages import HintMessage, SeatInfo, StateMessage
from cardavia.table import Action, ActionError, LogEntry, Table

log = logging.getLogger("cardavia.server")

#: Persists new entries of a table: (table_id, [(seq, event json)], closed).
Committer = Callable[[str, list[tuple[int, dict[str, Any]]], bool], Awaitable[None]]


def token_hash(token: str) -> str:
    """What the database keeps instead of a seat token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


class CommitFailed(RuntimeError):
    """The log entries could not be stored; the room must be reloaded from the database."""


class Room:
    """One table in memory with its connected clients."""

    def __init__(
        self,
        table_id: str,
        table: Table,
        token_hashes: dict[int, str],
        commit: Committer,
        pacing: float,
        on_idle: Callable[[Room], None],
    ) -> None:
        self.table_id = table_id
        self.table = table
        self.token_hashes = token_hashes
        self.pacing = pacing
        self.lock = asyncio.Lock()
        self.clients: dict[int, set[Client]] = {}
        self.broken = False
        self._commit_entries = commit
        self._on_idle = on_idle
        self._driver: asyncio.Task[None] | None = None
        self._seats = [SeatInfo(**s) for s in table.seats_json()]

    # ------------------------------------------------------------------ connections

    def seat_for_token(self, token: str | None) -> int | None:
        """The seat this token acts for, or None (constant-time comparison)."""
        if not token or len(token) > 256:
            return None
        digest = token_hash(token)
        found: int | None = None
        for seat, stored in self.token_hashes.items():
            if hmac.compare_digest(digest, stored):
                found = seat
        return found

    async def join(self, client: Client) -> None:
        """Register a connection and send it the current state.

        The client is registered before the first ``await``, so a room handed out by the
        registry cannot be dropped as idle in between."""
        self.clients.setdefault(client.seat, set()).add(client)
        async with self.lock:
            client.send(self._state_text(client.seat, None, self.table.seq))
        self.kick()

    def leave(self, client: Client) -> None:
        seat_clients = self.clients.get(client.seat)
        if seat_clients is not None:
            seat_clients.discard(client)
            if not seat_clients:
                del self.clients[client.seat]
        self._maybe_idle()

    @property
    def idle(self) -> bool:
        """No connection, no AI running, nothing in progress: safe to drop from memory."""
        driving = self._driver is not None and not self._driver.done()
        return not self.clients and not driving and not self.lock.locked()

    def _maybe_idle(self) -> None:
        if self.idle:
            self._on_idle(self)

    # ------------------------------------------------------------------ actions

    async def act(self, client: Client, action: Action) -> bool:
        """A person's action: apply, commit, broadcast; errors go to ``client`` only.

        Returns whether the action was accepted."""
        async with self.lock:
            if self.broken:
                client.send_error("server_error", "the table is reloading; reconnect")
                return False
            try:
                entries = self.table.apply_action(client.seat, action)
            except ActionError as err:
                client.send_error(err.code, err.message, err.options or None)
                return False
            except Exception:
                log.exception("table %s failed on %r", self.table_id, action)
                self._break("the server failed on that action; reconnect")
                return False
            await self._publish(entries)
        self.kick()
        return True

    async def hint(self, client: Client) -> None:
        """The strongest agent's suggestion, computed off the event loop."""
        async with self.lock:
            try:
                hint = await asyncio.to_thread(self.table.hint, client.seat)
            except ActionError as err:
                client.send_error(err.code, err.message)
                return
            except Exception:
                log.exception("the hint failed at table %s", self.table_id)
                client.send_error("server_error", "no hint could be computed; try again")
                return
        frame = HintMessage.model_validate(hint.to_json())
        client.send(frame.model_dump_json())

    async def _publish(self, entries: list[LogEntry]) -> None:
        """Commit, then broadcast (called with the lock held)."""
        if not entries:
            return
        try:
            await self._commit_entries(
                self.table_id, [(e.seq, e.event) for e in entries], self.table.closed
            )
        except Exception as err:
            log.exception("could not store events of table %s", self.table_id)
            self._break("the game could not be saved; reconnect")
            raise CommitFailed(str(err)) from err
        for entry in entries:
            self._broadcast(entry)

    def _break(self, message: str) -> None:
        """Give up this in-memory copy: clients reconnect and the table is reloaded from the
        database (which holds every committed event)."""
        self.broken = True
        for seat_clients in self.clients.values():
            for c in seat_clients:
                c.send_error("server_error", message)
                c.close(1011)

    def _broadcast(self, entry: LogEntry) -> None:
        for seat, seat_clients in self.clients.items():
            if not seat_clients:
                continue
            text = self._state_text(seat, entry, entry.seq)
            for c in seat_clients:
                c.send(text)

    def _state_text(self, seat: int, entry: LogEntry | None, seq: int) -> str:
        table = self.table
        frame = StateMessage(
            table_id=self.table_id,
            seq=seq,
            observation=table.observation_json(seat),
            event=None if entry is None else table.public_event(entry, seat),
            match=table.match_json(),
            seats=self._seats,
            phase=table.phase,  # type: ignore[arg-type]
        )
        return frame.model_dump_json()

    # ------------------------------------------------------------------ the AI

    def kick(self) -> None:
        """Start the AI driver if an AI seat is due and none is running."""
        if self.broken or (self._driver is not None and not self._driver.done()):
            return
        if self.table.pending_ai_seat() is None:
            return
        self._driver = asyncio.create_task(self._drive())
        self._driver.add_done_callback(self._driver_done)

    def _driver_done(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("AI driver of table %s failed", self.table_id, exc_info=task.exception())
        self._maybe_idle()

    async def _drive(self) -> None:
        """Step the AI seats one move at a time, pacing them so people can follow."""
        while not self.broken:
            if self.table.pending_ai_seat() is None:
                return
            if self.pacing > 0 and not self.table.fast_forward:
                await asyncio.sleep(self.pacing)
            async with self.lock:
                if self.broken or self.table.pending_ai_seat() is None:
                    return
                try:
                    entries = await asyncio.to_thread(self.table.step_ai)
                except Exception:
                    log.exception("the AI failed at table %s", self.table_id)
                    self._break("the AI failed; reconnect")
                    return
                await self._publish(entries)

    async def stop(self) -> None:
        """Cancel the AI driver (server shutdown)."""
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._driver
