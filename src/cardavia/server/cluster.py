"""Several server processes for the same tables: ownership, routing, fan-out, failover.

``cardavia serve --db postgresql://… --redis redis://…`` on N processes (docs/deploy.md).
Any process may hold a connection of any table; exactly one **owns** the table: it alone
applies actions, runs the AI and writes the log.

- **Ownership** is a Redis lease, ``lease:{table}`` = ``{process}:{token}``, taken with
  ``SET NX PX`` and renewed every :data:`RENEW_SECONDS` while the table is in that
  process's memory. The token comes from ``INCR fence:{table}``: it only grows. Before the
  new owner reads the log it records its token in the table's row (``Store.claim``); every
  write of the log checks, in its own transaction, that the row still holds the writer's
  token (``Store.append_many(fences=…)``). So a process that lost its lease without knowing
  (paused, cut off) has every later write refused (:class:`~cardavia.server.store.StaleOwner`)
  and its clients reconnect; the log cannot fork (the ``(table, seq)`` key backs this up).
- **Routing**: a process with connections to a table it does not own *follows* it: it
  folds the entries the owner publishes on ``table:{table}`` into its own copy (so it
  renders each of its seats' frames itself: frames differ per seat), and forwards its
  clients' actions to the owner's channel ``node:{process}``; the owner applies them like
  its own clients' and answers refusals to that one client. Hints are worked out where the
  person is connected (the observation is there).
- **Failover**: a follower checks the lease every :data:`WATCH_SECONDS`; once it is gone
  (its owner died: the lease expires after :data:`LEASE_MS`), the follower takes it, claims
  the table, folds whatever the log holds beyond its copy and carries on — the AI included.
  Browsers connected to the dead process reconnect (the page does it by itself) to any
  process.

Messages are ``{process id} {json}``: a process skips its own at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
from dataclasses import asdict
from typing import TYPE_CHECKING, Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from cardavia.server.clients import Client
from cardavia.table import Action, LogEntry, NextDeal, Pass, Play, Resign, Restart, ReturnCard

if TYPE_CHECKING:
    from cardavia.server.registry import Registry
    from cardavia.server.rooms import Room

log = logging.getLogger("cardavia.server")

#: How long a lease lives without renewal: a dead owner's tables move after this.
LEASE_MS = 3000
#: How often an owner renews its leases.
RENEW_SECONDS = 1.0
#: How often a follower looks whether its table's owner is still there.
WATCH_SECONDS = 0.25
#: How often a follower compares its copies with the stored logs: a batch of entries lost
#: on the way (pub/sub delivers at most once) is read from the database then, even when no
#: later batch comes to show the gap.
AUDIT_SECONDS = 2.0
#: How long a forwarded action waits for the owner's answer before looking again.
FORWARD_SECONDS = 1.5
#: How long a forwarded action keeps trying (an owner dying meanwhile included).
FORWARD_GIVE_UP_SECONDS = 8.0
#: The fence counters expire a day after their last use (a restarted counter is caught up
#: from the table's row: see :meth:`Cluster.acquire`).
FENCE_TTL_MS = 86_400_000

_ACQUIRE = """
if redis.call('exists', KEYS[1]) == 1 then return 0 end
local t = redis.call('incr', KEYS[2])
if tonumber(ARGV[2]) > t then redis.call('set', KEYS[2], ARGV[2]); t = tonumber(ARGV[2]) end
redis.call('pexpire', KEYS[2], ARGV[4])
redis.call('set', KEYS[1], ARGV[1] .. ':' .. t, 'PX', ARGV[3])
return t
"""
_RENEW = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
return 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""

#: A token bucket shared by every process (``burst`` at once, ``rate`` a second), on
#: Redis's clock: 1 and the tokens left when a token was taken, else 0.
_BUCKET = """
local rate, burst = tonumber(ARGV[1]), tonumber(ARGV[2])
local t = redis.call('time')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local v = redis.call('hmget', KEYS[1], 'tokens', 'stamp')
local tokens, stamp = tonumber(v[1]) or burst, tonumber(v[2]) or now
tokens = math.min(burst, tokens + math.max(0, now - stamp) * rate)
local ok = 0
if tokens >= 1 then tokens = tokens - 1; ok = 1 end
redis.call('hset', KEYS[1], 'tokens', tostring(tokens), 'stamp', tostring(now))
redis.call('pexpire', KEYS[1], math.ceil(burst / math.max(rate, 0.001) * 1000) + 1000)
return {ok, tostring(tokens)}
"""

_ACTIONS: dict[str, type[Any]] = {
    "play": Play, "pass": Pass, "return": ReturnCard, "next_deal": NextDeal,
    "restart": Restart, "resign": Resign,
}
_NAMES = {cls: name for name, cls in _ACTIONS.items()}
#: The log entries a seat's own action makes (to tell whether a lost forward was applied).
_BY_SEAT = frozenset({"played", "passed", "returned", "restarted", "resigned"})


def action_to_json(action: Action) -> dict[str, Any]:
    """An action as the owner's channel carries it.

    >>> action_to_json(Play(("H3",), None, None))
    {'kind': 'play', 'cards': ['H3'], 'type': None, 'rank': None}
    """
    data = asdict(action)
    return {"kind": _NAMES[type(action)], **{k: list(v) if isinstance(v, tuple) else v for k, v in data.items()}}


def action_from_json(data: dict[str, Any]) -> Action:
    """The inverse of :func:`action_to_json`.

    >>> action_from_json({'kind': 'play', 'cards': ['H3'], 'type': None, 'rank': None})
    Play(cards=('H3',), type=None, rank=None)
    """
    fields = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items() if k != "kind"}
    action: Action = _ACTIONS[str(data["kind"])](**fields)
    return action


class RemoteClient:
    """A client of another process, as the owner's room sees it: a seat whose refusals are
    collected and sent back."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.frames: list[str] = []

    def send(self, text: str) -> None:
        self.frames.append(text)

    def send_error(self, code: str, message: str, options: list[dict[str, object]] | None = None) -> None:
        from cardavia.server.messages import ErrorMessage

        self.send(ErrorMessage(code=code, message=message, options=options).model_dump_json(exclude_none=True))


class Cluster:
    """This process's part in a group of servers sharing one PostgreSQL and one Redis."""

    def __init__(self, url: str, registry: Registry) -> None:
        self.url = url
        self.registry = registry
        self.node = secrets.token_hex(6)
        self.redis: aioredis.Redis = aioredis.from_url(url)
        self._pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
        #: table id → the ownership token this process holds.
        self.leases: dict[str, int] = {}
        self._subscribed: set[str] = set()
        self._buffers: dict[str, list[tuple[int, list[dict[str, Any]]]]] = {}
        self._replies: dict[str, asyncio.Future[dict[str, Any]]] = {}
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._tasks: list[asyncio.Task[Any]] = []
        self._promoting: set[str] = set()
        self._acquire = self.redis.register_script(_ACQUIRE)
        self._renew = self.redis.register_script(_RENEW)
        self._release = self.redis.register_script(_RELEASE)
        self._bucket = self.redis.register_script(_BUCKET)

    # ------------------------------------------------------------------ life cycle

    async def start(self) -> None:
        await self.redis.ping()
        await self._pubsub.subscribe(self._node_channel(self.node))
        for work in (self._read(), self._publish_loop(), self._keep()):
            self._tasks.append(asyncio.create_task(work))

    async def stop(self) -> None:
        """Release every lease (the tables move at once, not after the lease's time)."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        for table_id in list(self.leases):
            with contextlib.suppress(RedisError, OSError):
                await self.release(table_id)
        with contextlib.suppress(RedisError, OSError):
            await self._pubsub.aclose()  # type: ignore[no-untyped-call,unused-ignore]  # untyped before redis 8
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()

    @staticmethod
    def _node_channel(node: str) -> str:
        return f"cardavia:node:{node}"

    @staticmethod
    def _table_channel(table_id: str) -> str:
        return f"cardavia:table:{table_id}"

    # ------------------------------------------------------------------ shared limits

    async def take_token(self, name: str, rate: float, burst: float) -> float | None:
        """Take a token from the bucket ``name`` that all the processes share: None when
        one was taken, else the seconds until one will be there. If Redis cannot answer,
        the token is granted (each process's own limits still hold)."""
        try:
            ok, left = await self._bucket(keys=[f"cardavia:bucket:{name}"], args=[rate, burst])
        except (RedisError, OSError) as err:
            log.warning("Redis: a shared limit could not be checked (%s)", err)
            return None
        if int(ok):
            return None
        return max(0.0, (1.0 - float(left)) / rate) if rate > 0 else float("inf")

    # ------------------------------------------------------------------ ownership

    def _value(self, token: int) -> str:
        return f"{self.node}:{token}"

    async def acquire(self, table_id: str, at_least: int = 0) -> int | None:
        """Take the table's lease if nobody holds it: the new token (not yet held: see
        :meth:`hold`), or None."""
        token = int(await self._acquire(
            keys=[f"cardavia:lease:{table_id}", f"cardavia:fence:{table_id}"],
            args=[self.node, at_least, LEASE_MS, FENCE_TTL_MS],
        ))
        return token or None

    async def take(self, table_id: str) -> int | None:
        """Take the table (lease, then its row's claim): the token, or None when another
        process owns it (or the table does not exist)."""
        at_least = 0
        for _ in range(3):
            token = await self.acquire(table_id, at_least)
            if token is None:
                return None
            newer = await self.registry.db(self.registry.store.claim, table_id, token)
            if newer is None:
                return token
            await self._release(keys=[f"cardavia:lease:{table_id}"], args=[self._value(token)])
            if newer < 0:  # no such table
                return None
            at_least = newer + 1  # the counter is behind the row (Redis lost it): catch up
        return None

    def hold(self, table_id: str, token: int) -> None:
        """From now on this process owns the table (writes carry ``token``)."""
        self.leases[table_id] = token

    async def release(self, table_id: str) -> None:
        token = self.leases.pop(table_id, None)
        if token is not None:
            await self._release(keys=[f"cardavia:lease:{table_id}"], args=[self._value(token)])

    def release_soon(self, table_id: str) -> None:
        if table_id in self.leases:
            task = asyncio.get_running_loop().create_task(self._quiet(self.release(table_id)))
            self._tasks.append(task)
            task.add_done_callback(self._forget)
        if table_id in self._subscribed:
            self._subscribed.discard(table_id)
            self._tasks.append(asyncio.get_running_loop().create_task(
                self._quiet(self._pubsub.unsubscribe(self._table_channel(table_id)))))
            self._tasks[-1].add_done_callback(self._forget)

    def _forget(self, task: asyncio.Task[Any]) -> None:
        with contextlib.suppress(ValueError):
            self._tasks.remove(task)

    @staticmethod
    async def _quiet(work: Any) -> None:
        try:
            await work
        except (RedisError, OSError) as err:
            log.warning("Redis: %s", err)

    async def owner_of(self, table_id: str) -> str | None:
        value = await self.redis.get(f"cardavia:lease:{table_id}")
        if value is None:
            return None
        text = value.decode() if isinstance(value, bytes) else str(value)
        return text.split(":", 1)[0]

    def owns(self, table_id: str) -> bool:
        return table_id in self.leases

    def fence(self, table_id: str) -> int | None:
        return self.leases.get(table_id)

    async def _keep(self) -> None:
        """Renew this process's leases; watch the owners of the tables it follows."""
        loop = asyncio.get_running_loop()
        renewed = audited = 0.0
        while True:
            await asyncio.sleep(WATCH_SECONDS)
            try:
                if loop.time() - renewed >= RENEW_SECONDS and self.leases:
                    renewed = loop.time()
                    held = list(self.leases.items())
                    async with self.redis.pipeline(transaction=False) as pipe:
                        for table_id, token in held:
                            await self._renew(keys=[f"cardavia:lease:{table_id}"],
                                              args=[self._value(token), LEASE_MS], client=pipe)
                        answers = await pipe.execute()
                    for (table_id, token), ok in zip(held, answers, strict=True):
                        if not ok and self.leases.get(table_id) == token:
                            self._lost(table_id)
                followed = [tid for tid, room in self.registry.rooms.items()
                            if tid not in self.leases and room.clients and not room.broken]
                if followed:
                    values = await self.redis.mget([f"cardavia:lease:{t}" for t in followed])
                    for table_id, value in zip(followed, values, strict=True):
                        if value is None:
                            self.promote_soon(table_id)
                    if loop.time() - audited >= AUDIT_SECONDS:
                        audited = loop.time()
                        await self._audit(followed)
            except (RedisError, OSError) as err:
                log.warning("Redis: %s", err)

    async def _audit(self, followed: list[str]) -> None:
        """Read what a followed table's log holds beyond this copy (a lost batch)."""
        stored = await self.registry.db(self.registry.store.last_seqs, followed)
        for table_id, last in stored.items():
            room = self.registry.rooms.get(table_id)
            if room is not None and table_id not in self.leases and last > room.table.seq:
                log.info("table %s: %d entries missed on the way; read from the log",
                         table_id, last - room.table.seq)
                self._resync_soon(room)

    def _lost(self, table_id: str) -> None:
        """The lease went to another process: this copy stops (its clients reconnect)."""
        log.warning("table %s: the lease was lost; its clients reconnect", table_id)
        self.leases.pop(table_id, None)
        room = self.registry.rooms.get(table_id)
        if room is not None:
            room.fenced("this table moved to another server; reconnect")

    def promote_soon(self, table_id: str) -> None:
        if table_id in self._promoting:
            return
        self._promoting.add(table_id)
        task = asyncio.get_running_loop().create_task(self._promote(table_id))
        self._tasks.append(task)
        task.add_done_callback(self._forget)

    async def _promote(self, table_id: str) -> bool:
        try:
            return await self._take_over(table_id)
        except Exception:
            log.exception("table %s could not be taken over", table_id)
            return False
        finally:
            self._promoting.discard(table_id)

    async def _promote_now(self, table_id: str) -> bool:
        while table_id in self._promoting:
            await asyncio.sleep(0.02)
        if self.owns(table_id):
            return True
        self._promoting.add(table_id)
        return await self._promote(table_id)

    async def _take_over(self, table_id: str) -> bool:
        """Take over a followed table whose owner is gone: claim it, fold what the log holds
        beyond this copy, and drive it."""
        room = self.registry.rooms.get(table_id)
        if room is None or room.broken or self.owns(table_id):
            return self.owns(table_id)
        token = await self.take(table_id)
        if token is None:
            return False
        try:
            async with room.lock:
                await self._catch_up(room)
                self.hold(table_id, token)
        except BaseException:
            await self._release(keys=[f"cardavia:lease:{table_id}"], args=[self._value(token)])
            raise
        log.info("table %s: taken over at seq %d", table_id, room.table.seq)
        room.kick()
        return True

    async def _catch_up(self, room: Room) -> None:
        """Fold the stored entries beyond the room's copy, and show them."""
        stored = await self.registry.db(self.registry.store.events_since, room.table_id, room.table.seq)
        self._fold(room, [(seq, event) for seq, event in stored])

    # ------------------------------------------------------------------ fan-out

    async def follow(self, table_id: str) -> None:
        """Receive the table's entries from now on (buffered until :meth:`attach`)."""
        self._buffers.setdefault(table_id, [])
        if table_id not in self._subscribed:
            self._subscribed.add(table_id)
            await self._pubsub.subscribe(self._table_channel(table_id))

    def attach(self, room: Room) -> None:
        """The room now in memory gets what arrived while it loaded."""
        for first, events in self._buffers.pop(room.table_id, []):
            self._fold(room, list(enumerate(events, start=first)))

    def announce(self, room: Room, entries: list[LogEntry]) -> None:
        """The owner committed ``entries``: every follower gets them, in this order."""
        if not entries:
            return
        message = {"first": entries[0].seq, "events": [e.event for e in entries]}
        self._send(self._table_channel(room.table_id), message)

    def _send(self, channel: str, message: dict[str, Any]) -> None:
        self._outbox.put_nowait((channel, f"{self.node} {json.dumps(message, separators=(',', ':'))}"))

    async def _publish_loop(self) -> None:
        while True:
            batch = [await self._outbox.get()]
            while not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            try:
                async with self.redis.pipeline(transaction=False) as pipe:
                    for channel, text in batch:
                        pipe.publish(channel, text)
                    await pipe.execute()
            except (RedisError, OSError) as err:
                log.warning("Redis: could not publish %d messages: %s", len(batch), err)

    def _fold(self, room: Room, entries: list[tuple[int, dict[str, Any]]]) -> None:
        """Apply entries the owner committed to a follower's copy (those it lacks, in
        order) and show them; a gap makes it read the log."""
        table = room.table
        new: list[LogEntry] = []
        for seq, event in entries:
            if seq <= table.seq:
                continue
            if seq != table.seq + 1:
                self._resync_soon(room)
                break
            new.append(table.fold(event))
        if new:
            room.show(new)

    def _resync_soon(self, room: Room) -> None:
        async def resync() -> None:
            async with room.lock:
                await self._catch_up(room)

        task = asyncio.get_running_loop().create_task(resync())
        self._tasks.append(task)
        task.add_done_callback(self._forget)

    async def _read(self) -> None:
        while True:
            try:
                message = await self._pubsub.get_message(timeout=1.0)
            except (RedisError, OSError) as err:
                log.warning("Redis: the subscription failed (%s); reconnecting", err)
                await asyncio.sleep(0.5)
                continue
            if message is None or message.get("type") != "message":
                continue
            try:
                self._dispatch(message["channel"].decode(), message["data"].decode())
            except Exception:
                log.exception("a cluster message could not be handled")

    def _dispatch(self, channel: str, data: str) -> None:
        sender, _, body = data.partition(" ")
        if sender == self.node:
            return
        payload = json.loads(body)
        if channel.startswith("cardavia:table:"):
            table_id = channel[len("cardavia:table:"):]
            first, events = int(payload["first"]), list(payload["events"])
            if table_id in self._buffers:
                self._buffers[table_id].append((first, events))
                return
            room = self.registry.rooms.get(table_id)
            if room is not None and not self.owns(table_id) and not room.broken:
                self._fold(room, list(enumerate(events, start=first)))
            return
        kind = payload.get("t")
        if kind == "reply":
            future = self._replies.pop(str(payload["req"]), None)
            if future is not None and not future.done():
                future.set_result(payload)
        elif kind in ("act", "pace"):
            task = asyncio.get_running_loop().create_task(self._serve_remote(sender, payload))
            self._tasks.append(task)
            task.add_done_callback(self._forget)

    # ------------------------------------------------------------------ routing

    async def _serve_remote(self, sender: str, payload: dict[str, Any]) -> None:
        """An action forwarded by a follower: apply it if this process owns the table."""
        table_id = str(payload["table"])
        room = self.registry.rooms.get(table_id)
        reply: dict[str, Any] = {"t": "reply", "req": payload["req"]}
        if room is None or room.broken or not self.owns(table_id):
            reply["status"] = "not_owner"
        elif payload["t"] == "pace":
            room.set_pace(str(payload["speed"]))
            reply["status"] = "done"
        else:
            client = RemoteClient(int(payload["seat"]))
            try:
                accepted = await room.act(client, action_from_json(payload["action"]))  # type: ignore[arg-type]
            except Exception as err:  # a failed commit (the room is broken): try again
                log.warning("table %s: a forwarded action failed: %s", table_id, err)
                reply["status"] = "not_owner"
            else:
                reply |= {"status": "done", "accepted": accepted, "frames": client.frames}
        self._send(self._node_channel(sender), reply)

    def forward_pace(self, room: Room, speed: str) -> None:
        """A follower's client set the AI's speed: the owner's pacing changes."""
        task = asyncio.get_running_loop().create_task(self._pace(room, speed))
        self._tasks.append(task)
        task.add_done_callback(self._forget)

    async def _pace(self, room: Room, speed: str) -> None:
        await self.forward(room, RemoteClient(-1), None, speed)  # type: ignore[arg-type]

    async def forward(self, room: Room, client: Client, action: Action | None, speed: str | None = None) -> bool:
        """A follower's client acted: have the owner apply it (or take the table over when
        the owner is gone). Whether the action was accepted."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FORWARD_GIVE_UP_SECONDS
        sent_at = room.table.seq
        sent = False
        while loop.time() < deadline:
            if self.owns(room.table_id):
                return await self._locally(room, client, action, speed, sent, sent_at)
            try:
                owner = await self.owner_of(room.table_id)
            except (RedisError, OSError):
                owner = ""
            if owner is None or owner == self.node:
                if await self._promote_now(room.table_id):
                    return await self._locally(room, client, action, speed, sent, sent_at)
                await asyncio.sleep(WATCH_SECONDS)
                continue
            if not owner:
                await asyncio.sleep(WATCH_SECONDS)
                continue
            request = secrets.token_hex(8)
            future: asyncio.Future[dict[str, Any]] = loop.create_future()
            self._replies[request] = future
            message: dict[str, Any] = {"req": request, "table": room.table_id}
            if action is None:
                message |= {"t": "pace", "speed": speed}
            else:
                message |= {"t": "act", "seat": client.seat, "action": action_to_json(action)}
            self._send(self._node_channel(owner), message)
            sent = True
            try:
                reply = await asyncio.wait_for(future, FORWARD_SECONDS)
            except TimeoutError:
                self._replies.pop(request, None)
                continue  # the owner may be gone: look again
            if reply.get("status") != "done":
                await asyncio.sleep(0.05)
                continue
            for frame in reply.get("frames", ()):
                client.send(str(frame))
            return bool(reply.get("accepted", True))
        client.send_error("server_error", "the table's server does not answer; try again")
        return False

    async def _locally(
        self, room: Room, client: Client, action: Action | None, speed: str | None, sent: bool, sent_at: int,
    ) -> bool:
        if action is None:
            room.set_pace(str(speed))
            return True
        if sent and self._applied_since(room, client.seat, action, sent_at):
            return True  # the old owner applied it before it went: not twice
        return await room.act(client, action)

    @staticmethod
    def _applied_since(room: Room, seat: int, action: Action, since: int) -> bool:
        for entry in room.table.log:
            if entry.seq <= since:
                continue
            if isinstance(action, NextDeal) and entry.kind == "deal_started":
                return True
            if entry.kind in _BY_SEAT and entry.event.get("seat", entry.event.get("from")) == seat:
                return True
        return False
