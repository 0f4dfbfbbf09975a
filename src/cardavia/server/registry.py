"""The tables a server process holds in memory, loaded from the database on demand.

A table is created once (``POST /api/tables``) and afterwards loaded by folding its stored
log whenever a browser connects — after a server restart too: every unfinished table
resumes exactly where it stopped. Idle tables (no connection, no AI to move) are dropped
from memory; the database has all of them.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import re
import secrets
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any, TypeVar

from cardavia.rules.games import GameName
from cardavia.server.ai_pool import AiPool
from cardavia.server.limits import DEFAULT_LIMITS, Limits, TokenBucket
from cardavia.server.people import FRIENDS_KEY, PeopleDB, PeopleSettings, friends_of
from cardavia.server.people_store import PeopleStore
from cardavia.server.rooms import PersonFirst, Room, token_hash
from cardavia.server.store import StaleOwner, Store, StoreError
from cardavia.server.worker import JobRunner, Worker
from cardavia.table import Table, TableConfig

if TYPE_CHECKING:
    from cardavia.server.cluster import Cluster

try:
    from redis.exceptions import RedisError
except ImportError:  # one process without Redis: nothing raises it
    class RedisError(Exception):  # type: ignore[no-redef]
        """(redis is not installed)"""

T = TypeVar("T")

log = logging.getLogger("cardavia.server")

#: How often the SQLite write-ahead log is copied into the database file.
CHECKPOINT_SECONDS = 1.0
#: How long a new table stays in memory waiting for its player's first connection.
NEW_TABLE_HOLD_SECONDS = 10.0

TABLE_ID_RE = re.compile(r"^[A-Za-z0-9_-]{8,64}$")
#: Summaries and records of tables not in memory, kept by (table id, last seq).
CACHED_TABLES = 256
#: Client addresses whose table-creation budget is remembered (and tables whose restart
#: budget is).
TRACKED_CLIENTS = 4096


class LimitReached(Exception):
    """A client asked for more than :class:`~cardavia.server.limits.Limits` allows."""


class TableUnavailable(Exception):
    """A stored table cannot be loaded (a damaged row, a database fault): one sentence."""


def mixed_seed(secret: bytes, nonce: bytes | None = None) -> int:
    """A server-chosen table seed: fresh randomness mixed with the server secret (63 bits).

    >>> 0 <= mixed_seed(b"k", b"n") < 2**63 and mixed_seed(b"k", b"n") == mixed_seed(b"k", b"n")
    True
    """
    nonce = secrets.token_bytes(16) if nonce is None else nonce
    digest = hmac.new(secret, nonce, hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def _expert(config: TableConfig) -> bool:
    return any(seat.difficulty == "expert" for seat in config.seats)


class Registry:
    """Rooms by table id, one database worker thread, the AI's worker, the pacing of the AI.

    ``ai_workers`` > 0: the AI's moves and hints of every room run in that many worker
    processes (:class:`~cardavia.server.ai_pool.AiPool`), AI moves first. 0: on one AI
    thread of this process, in the order asked (with a pool of *threads*, several AI steps
    would compete with the event loop for the GIL and a person's action would wait behind
    all of them; processes do not share it).
    """

    def __init__(
        self, store: Store, pacing: float, limits: Limits = DEFAULT_LIMITS, *,
        ai_workers: int = 0, agent_specs: Sequence[str] = (),
    ) -> None:
        self.store = store
        self.pacing = pacing
        self.limits = limits
        self.rooms: dict[str, Room] = {}
        self._db = Worker("cardavia-db")
        self._ai: JobRunner = (
            AiPool(ai_workers, agent_specs=agent_specs) if ai_workers > 0 else Worker("cardavia-ai")
        )
        self._priority = PersonFirst(limits.person_first_seconds)
        self._load_locks: dict[str, asyncio.Lock] = {}
        self._cache: OrderedDict[tuple[str, str], tuple[int, Any]] = OrderedDict()
        self._create_buckets: OrderedDict[str, TokenBucket] = OrderedDict()
        self._restart_buckets: OrderedDict[str, dict[int, TokenBucket]] = OrderedDict()
        self._secret: bytes | None = None
        self._pending: list[
            tuple[str, list[tuple[int, dict[str, Any]]], bool, asyncio.Future[None]]
        ] = []
        self._flusher: asyncio.Task[None] | None = None
        #: Several processes (``--redis``): ownership, routing and fan-out of the tables.
        self.cluster: Cluster | None = None
        self._checkpointer: asyncio.Task[None] | None = None
        #: Tables with friends: invite links and seat changes (server/people.py).
        self.people_db = PeopleDB(self.db, PeopleStore(store))

    async def ready(self, timeout: float = 120.0) -> None:
        """Wait until the AI can move (a worker process has started and warmed up)."""
        if isinstance(self._ai, AiPool):
            await asyncio.to_thread(self._ai.wait_ready, timeout)

    def start(self) -> None:
        """Start the background work (SQLite checkpoints); call from the running loop."""
        if self.store.is_sqlite_file and self._checkpointer is None:
            self._checkpointer = asyncio.create_task(self._checkpoints())

    async def _checkpoints(self, every: float = CHECKPOINT_SECONDS) -> None:
        while True:
            await asyncio.sleep(every)
            try:
                await asyncio.to_thread(self.store.checkpoint)
            except RuntimeError as err:  # the loop's executor is shut down: the server stops
                log.info("SQLite checkpoints stop: %s", err)
                return
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

    def _fences(self, table_ids: Iterable[str]) -> dict[str, int] | None:
        """The ownership tokens the writes of these tables carry (several processes)."""
        if self.cluster is None:
            return None
        return {t: f for t in table_ids if (f := self.cluster.fence(t)) is not None}

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            try:
                await self.db(
                    self.store.append_many, [(t, e, c) for t, e, c, _ in batch],
                    self._fences(t for t, *_ in batch),
                )
            except Exception:
                # find the failing table: commit one by one, each gets its own outcome
                for table_id, entries, closed, done in batch:
                    try:
                        fence = self.cluster.fence(table_id) if self.cluster is not None else None
                        await self.db(self.store.append_events, table_id, entries, closed, fence)
                    except Exception as err:
                        if isinstance(err, StaleOwner) and self.cluster is not None:
                            self.cluster.leases.pop(table_id, None)  # another process has it
                        if not done.done():
                            done.set_exception(err)
                    else:
                        if not done.done():
                            done.set_result(None)
                continue
            for *_, done in batch:
                if not done.done():
                    done.set_result(None)

    def _room(
        self,
        table_id: str,
        table: Table,
        hashes: dict[int, str],
        restarts: int = 0,
        owner: str | None = None,
        friends: PeopleSettings | None = None,
    ) -> Room:
        buckets = self._restart_buckets.setdefault(table_id, {})
        self._restart_buckets.move_to_end(table_id)
        while len(self._restart_buckets) > TRACKED_CLIENTS:
            self._restart_buckets.popitem(last=False)
        room = Room(
            table_id, table, hashes, self.commit, self.pacing, self._idle, self._ai,
            self._priority, limits=self.limits, restarts=restarts, owner=owner,
            restart_buckets=buckets,
            people=None if friends is None else (friends, self.people_db),
        )
        room.remote = self.cluster
        self.rooms[table_id] = room
        return room

    def _idle(self, room: Room) -> None:
        if self.rooms.get(room.table_id) is room and room.idle:
            del self.rooms[room.table_id]
            if self.cluster is not None:
                self.cluster.release_soon(room.table_id)

    async def new_seed(self) -> int:
        """A seed for a table whose client did not choose one (:func:`mixed_seed`)."""
        if self._secret is None:
            self._secret = await self.db(self.store.seed_secret)
        return mixed_seed(self._secret)

    def check_create(self, config: TableConfig, client: str | None) -> None:
        """Refuse (:class:`LimitReached`) a table this client may not open now."""
        if client is None:
            return
        if _expert(config):
            held = sum(1 for r in self.rooms.values() if r.owner == client and _expert(r.table.config))
            if held >= self.limits.expert_tables_per_client:
                raise LimitReached(
                    f"you already have {held} tables with an expert AI open, the most at "
                    "once; finish or leave one, or choose another level"
                )
        bucket = self._create_buckets.get(client)
        if bucket is None:
            bucket = TokenBucket(self.limits.create_rate, self.limits.create_burst)
            self._create_buckets[client] = bucket
            while len(self._create_buckets) > TRACKED_CLIENTS:
                self._create_buckets.popitem(last=False)
        self._create_buckets.move_to_end(client)
        if not bucket.allow():
            wait = max(1, round(bucket.wait_seconds()))
            raise LimitReached(f"too many new tables; wait {wait} s and try again")

    async def create(
        self, config: TableConfig, client: str | None = None, friends: PeopleSettings | None = None
    ) -> tuple[str, str, Room]:
        """A new table: (table id, the person's token, its room). The AI starts moving.
        ``client``: the creator's address (for :meth:`check_create`); ``friends``: a table
        with friends (the token is the creator's; the other person seats wait for their
        invite links)."""
        self.check_create(config, client)
        if self.cluster is not None and client is not None:  # the rate over all processes
            wait = await self.cluster.take_token(
                f"create:{client}", self.limits.create_rate, self.limits.create_burst)
            if wait is not None:
                raise LimitReached(f"too many new tables; wait {max(1, round(wait))} s and try again")
        # dealing takes ~0.1 ms: less than handing it to a thread and back (no AI runs here)
        table = Table.create(config, keep_finished=False)  # finished deals: in the database
        table_id = secrets.token_urlsafe(12)
        token = secrets.token_urlsafe(24)
        seats = config.person_seats if friends is None else (friends.creator,)
        hashes = {seat: token_hash(token) for seat in seats}
        entries = [(e.seq, e.event) for e in table.log]
        stored = config.to_json()
        if friends is not None:
            stored[FRIENDS_KEY] = friends.to_json()
        fence = None
        if self.cluster is not None:  # a new id: its lease is free
            fence = await self.cluster.acquire(table_id)
            if fence is None:
                raise TableUnavailable("a new table could not be opened now; try again")
            self.cluster.hold(table_id, fence)
        try:
            await self.db(self.store.create_table, table_id, stored, hashes, entries, fence)
        except BaseException:
            if self.cluster is not None:
                await self.cluster.release(table_id)
            raise
        room = self._room(table_id, table, hashes, owner=client, friends=friends)
        room.hold(NEW_TABLE_HOLD_SECONDS)
        room.kick()
        return table_id, token, room

    async def get(self, table_id: str) -> Room | None:
        """The room of ``table_id``, loading (and resuming) it from the database if needed.

        Loads of different tables run side by side (a lock per table id, not one for all);
        :class:`TableUnavailable` when the stored table cannot be loaded."""
        if not TABLE_ID_RE.match(table_id):
            return None
        room = self.rooms.get(table_id)
        if room is not None and not room.broken:
            return room
        lock = self._load_locks.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                room = self.rooms.get(table_id)
                if room is not None and not room.broken:
                    return room
                if self.cluster is not None:
                    return await self._get_shared(table_id)
                loaded = await self._load(table_id)
                if loaded is None:
                    return None
                table, stored_hashes, restarts, friends = loaded
                return self._room(table_id, table, stored_hashes, restarts, friends=friends)
        finally:
            if not lock.locked() and self._load_locks.get(table_id) is lock:
                del self._load_locks[table_id]

    async def _get_shared(self, table_id: str) -> Room | None:
        """Several processes: own the table if nobody does, else follow its owner."""
        cluster = self.cluster
        assert cluster is not None
        try:
            token = await cluster.take(table_id)
            if token is None:
                await cluster.follow(table_id)  # from now on its entries are kept
        except (RedisError, OSError) as err:
            raise TableUnavailable(
                f"table {table_id} cannot be loaded now (Redis cannot be reached: {err}); try again later"
            ) from None
        if token is not None:
            cluster.hold(table_id, token)
        try:
            loaded = await self._load(table_id)
        except BaseException:
            if token is not None:
                await cluster.release(table_id)
            raise
        if loaded is None:
            if token is not None:
                await cluster.release(table_id)
            cluster.release_soon(table_id)
            return None
        table, stored_hashes, restarts, friends = loaded
        room = self._room(table_id, table, stored_hashes, restarts, friends=friends)
        cluster.attach(room)
        return room

    async def _load(
        self, table_id: str, keep_finished: bool = False
    ) -> tuple[Table, dict[int, str], int, PeopleSettings | None] | None:
        """Fold a stored table: (table, token hashes, restarts in its log, the settings of
        a table with friends), or None."""
        try:
            stored = await self.db(self.store.load_table, table_id)
            if stored is None:
                return None
            config = TableConfig.from_json(stored.config)
            table = await asyncio.to_thread(
                partial(Table.rebuild, config, stored.events, keep_finished=keep_finished)
            )
        except StoreError as err:
            log.error("table %s cannot be loaded: %s", table_id, err)
            raise TableUnavailable(f"table {table_id} cannot be loaded: it is stored damaged") from None
        except Exception as err:
            log.exception("table %s cannot be loaded", table_id)
            raise TableUnavailable(
                f"table {table_id} cannot be loaded now (the database failed: "
                f"{type(err).__name__}); try again later"
            ) from None
        restarts = sum(1 for e in stored.events if e.get("event") == "restarted")
        try:
            friends = friends_of(stored.config)
        except (TypeError, ValueError):
            log.error("table %s has damaged friends settings", table_id)
            raise TableUnavailable(f"table {table_id} cannot be loaded: it is stored damaged") from None
        return table, stored.token_hashes, restarts, friends

    async def cached(
        self, table_id: str, part: str, make: Callable[[Table], T], keep_finished: bool = False
    ) -> T | None:
        """``make(table)`` of a table that is not in memory, cached until its log grows
        (repeated requests for an idle table do not fold its log each time)."""
        if not TABLE_ID_RE.match(table_id):
            return None
        try:
            last = await self.db(self.store.last_seq, table_id)
        except Exception as err:
            raise TableUnavailable(
                f"table {table_id} cannot be read now (the database failed: "
                f"{type(err).__name__}); try again later"
            ) from None
        if last is None:
            return None
        key = (table_id, part)
        hit = self._cache.get(key)
        if hit is not None and hit[0] == last:
            self._cache.move_to_end(key)
            value: T = hit[1]
            return value
        loaded = await self._load(table_id, keep_finished)
        if loaded is None:
            return None
        table = loaded[0]
        value = make(table)
        self._cache[key] = (table.seq, value)
        while len(self._cache) > CACHED_TABLES:
            self._cache.popitem(last=False)
        return value

    async def records(self, table_id: str) -> tuple[GameName, list[dict[str, Any]]] | None:
        """(game, the records of every finished deal) of a table, from its stored log (a
        room keeps only its current deal), or None for an unknown table."""
        return await self.cached(
            table_id, "records", lambda t: (t.game, t.records()), keep_finished=True
        )

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
        if self.cluster is not None:
            await self.cluster.stop()
        self.rooms.clear()
        self._ai.shutdown(wait=True)
        self._db.shutdown(wait=True)
        self.store.close()
