"""The tables a server process holds in memory, loaded from the database on demand.

A table is created once (``POST /api/tables``) and afterwards loaded by folding its stored
log whenever a browser connects — after a server restart too: every unfinished table
resumes exactly where it stopped. Idle tables (no connection, no AI to move) are dropped
from memory; the database has all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import secrets
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from cardavia.server.rooms import PersonFirst, Room, token_hash
from cardavia.server.store import Store
from cardavia.server.worker import Worker
from cardavia.table import Table, TableConfig

T = TypeVar("T")

log = logging.getLogger("cardavia.server")

#: How often the SQLite write-ahead log is copied into the database file.
CHECKPOINT_SECONDS = 1.0
#: How long a new table stays in memory waiting for its player's first connection.
NEW_TABLE_HOLD_SECONDS = 10.0

TABLE_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")


class Registry:
    """Rooms by table id, one database worker thread, one AI worker thread, the pacing of
    the AI.

    The AI's moves and hints of every room run on the one AI thread, in the order asked:
    with a pool of threads, several AI steps would compete with the event loop for the GIL
    (and with each other) and a person's action would wait behind all of them.
    """

    def __init__(self, store: Store, pacing: float) -> None:
        self.store = store
        self.pacing = pacing
        self.rooms: dict[str, Room] = {}
        self._db = Worker("cardavia-db")
        self._ai = Worker("cardavia-ai")
        self._priority = PersonFirst()
        self._load_lock = asyncio.Lock()
        self._pending: list[
            tuple[str, list[tuple[int, dict[str, Any]]], bool, asyncio.Future[None]]
        ] = []
        self._flusher: asyncio.Task[None] | None = None
        self._checkpointer: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Start the background work (SQLite checkpoints); call from the running loop."""
        if self.store.is_sqlite_file and self._checkpointer is None:
            self._checkpointer = asyncio.create_task(self._checkpoints())

    async def _checkpoints(self, every: float = CHECKPOINT_SECONDS) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await asyncio.to_thread(self.store.checkpoint)
            except Exception:
                log.exception("SQLite checkpoint failed")

    async def db(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a store call on the database thread (writes are serialised there)."""
        return await self._db.run(fn, *args)

    async def commit(
        self, table_id: str, entries: list[tuple[int, dict[str, Any]]], closed: bool
    ) -> None:
        """Store new log entries; returns once they are committed.

        Group commit: requests that arrive while the database thread is busy are written
        together in one transaction, so one slow table never queues the others one by one.
        """
        loop = asyncio.get_running_loop()
        done: asyncio.Future[None] = loop.create_future()
        self._pending.append((table_id, entries, closed, done))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.create_task(self._flush())
        await done

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self.db(self.store.append_many, [(t, e, c) for t, e, c, _ in batch])
            except Exception:
                # find the failing table: commit one by one, each gets its own outcome
                for table_id, entries, closed, done in batch:
                    try:
                        await self.db(self.store.append_events, table_id, entries, closed)
                    except Exception as err:
                        if not done.done():
                            done.set_exception(err)
                    else:
                        if not done.done():
                            done.set_result(None)
                continue
            for *_, done in batch:
                if not done.done():
                    done.set_result(None)

    def _room(self, table_id: str, table: Table, hashes: dict[int, str]) -> Room:
        room = Room(
            table_id, table, hashes, self.commit, self.pacing, self._idle, self._ai, self._priority
        )
        self.rooms[table_id] = room
        return room

    def _idle(self, room: Room) -> None:
        if self.rooms.get(room.table_id) is room and room.idle:
            del self.rooms[room.table_id]

    async def create(self, config: TableConfig) -> tuple[str, str, Room]:
        """A new table: (table id, the person's token, its room). The AI starts moving."""
        # dealing takes ~0.1 ms: less than handing it to a thread and back (no AI runs here)
        table = Table.create(config, keep_finished=False)  # finished deals: in the database
        table_id = secrets.token_urlsafe(12)
        token = secrets.token_urlsafe(24)
        hashes = {seat: token_hash(token) for seat in config.person_seats}
        entries = [(e.seq, e.event) for e in table.log]
        await self.db(self.store.create_table, table_id, config.to_json(), hashes, entries)
        room = self._room(table_id, table, hashes)
        room.hold(NEW_TABLE_HOLD_SECONDS)
        room.kick()
        return table_id, token, room

    async def get(self, table_id: str) -> Room | None:
        """The room of ``table_id``, loading (and resuming) it from the database if needed."""
        if not TABLE_ID_RE.match(table_id):
            return None
        room = self.rooms.get(table_id)
        if room is not None and not room.broken:
            return room
        async with self._load_lock:
            room = self.rooms.get(table_id)
            if room is not None and not room.broken:
                return room
            stored = await self.db(self.store.load_table, table_id)
            if stored is None:
                return None
            config = TableConfig.from_json(stored.config)
            table = await asyncio.to_thread(
                partial(Table.rebuild, config, stored.events, keep_finished=False)
            )
            return self._room(table_id, table, stored.token_hashes)

    async def records(self, table_id: str) -> tuple[str, list[dict[str, Any]]] | None:
        """(game, the records of every finished deal) of a table, from its stored log (a
        room keeps only its current deal), or None for an unknown table."""
        if not TABLE_ID_RE.match(table_id):
            return None
        stored = await self.db(self.store.load_table, table_id)
        if stored is None:
            return None
        config = TableConfig.from_json(stored.config)
        table = await asyncio.to_thread(Table.rebuild, config, stored.events)
        return config.game, table.records()

    def release(self, room: Room) -> None:
        """A connection left: drop the room if nothing else uses it."""
        self._idle(room)

    async def shutdown(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._checkpointer
        for room in list(self.rooms.values()):
            await room.stop()
        if self._flusher is not None:
            await self._flusher
        self.rooms.clear()
        self._ai.shutdown(wait=True)
        self._db.shutdown(wait=True)
        self.store.close()
