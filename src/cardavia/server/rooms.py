"""A table being served: its connections, the order of its actions, the AI driver.

Every change follows one path: apply on the :class:`~cardavia.table.Table` under the
room's lock → commit the new log entries → broadcast one ``state`` frame per entry to each
connected seat (its own observation; the event as that seat may see it). Nothing is sent
before it is committed.

The AI's moves and hints run off the event loop: in a pool of worker processes
(:mod:`cardavia.server.ai_pool`, given the seat's observation only) or on one worker thread
shared by all rooms (``--ai-workers 0``); see :class:`~cardavia.server.registry.Registry`.

Frames are written as :class:`~cardavia.server.messages.StateMessage` would write them
(byte for byte: tests/server/test_frames.py), but without validating the model on every
frame, and with the parts that do not change between frames kept as JSON text: the deal's
history (it only grows), the match (it changes with a deal's start or end), the seats.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import random
from collections import deque
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, Protocol, TypeVar

import pydantic_core
from pydantic import TypeAdapter

from cardavia.ai.difficulty import STRONGEST
from cardavia.server.clients import Client
from cardavia.server.limits import DEFAULT_LIMITS, Limits, TokenBucket
from cardavia.server.messages import PACE_FACTORS, HintMessage, SeatInfo
from cardavia.server.people import (
    ACTION_EVENTS,
    BY_PERSON,
    MAX_SPECTATORS,
    SPECTATOR,
    People,
    PeopleDB,
    PeopleSettings,
)
from cardavia.server.why import latest_reasons
from cardavia.server.worker import HINT_PRIORITY, MOVE_PRIORITY, JobRunner
from cardavia.table import Action, ActionError, LogEntry, Resign, Restart, Table, decide, decide_safely, hint_of

T = TypeVar("T")

log = logging.getLogger("cardavia.server")

#: Persists new entries of a table: (table_id, [(seq, event json)], closed).
Committer = Callable[[str, list[tuple[int, dict[str, Any]]], bool], Awaitable[None]]

#: Log entries that change nothing in :meth:`Table.match_json` (only a deal's start and end,
#: a restart or a resignation can): after these the match's JSON text is reused.
IN_DEAL_EVENTS = frozenset(
    {"played", "passed", "returned", "tribute_paid", "tribute_cancelled", "leader_set"}
)

_SEATS = TypeAdapter(list[SeatInfo])

#: The share of the pacing in which a paced AI move is worked out (the rest of the pause
#: is waited before it starts); a move worked out within it shows exactly on time.
THINK_SHARE = 0.8
#: The random part of a paced AI move's pause, as a share of the pacing.
THINK_JITTER = 0.1
_JITTER = random.Random()


def _reason(err: BaseException) -> str:
    """An exception's message as a sentence part (a KeyError's is its key's repr)."""
    text = str(err.args[0]) if isinstance(err, KeyError) and err.args else str(err)
    return text[:200] or type(err).__name__


def _json(value: Any) -> str:
    """Compact JSON text, as pydantic's ``model_dump_json`` writes the same value."""
    return pydantic_core.to_json(value).decode()


def token_hash(token: str) -> str:
    """What the database keeps instead of a seat token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def _mark(entries: list[LogEntry], by: str) -> None:
    """Record who acted in the action events of a table with friends (an additive field of
    the stored event: ``"by"``)."""
    for entry in entries:
        if entry.kind in ACTION_EVENTS:
            entry.event["by"] = by


def _actors(entries: list[LogEntry]) -> set[int]:
    """The seats whose action made these entries."""
    seats: set[int] = set()
    for entry in entries:
        if entry.kind in ACTION_EVENTS:
            seat = entry.event.get("from" if entry.kind == "returned" else "seat")
            if isinstance(seat, int):
                seats.add(seat)
    return seats


class Remote(Protocol):
    """The other server processes (:class:`~cardavia.server.cluster.Cluster`): a room of a
    table this process does not own follows its owner."""

    def owns(self, table_id: str) -> bool: ...

    async def forward(self, room: Room, client: Client, action: Action) -> bool: ...

    def forward_pace(self, room: Room, speed: str) -> None: ...

    def announce(self, room: Room, entries: list[LogEntry]) -> None: ...


class CommitFailed(RuntimeError):
    """The log entries could not be stored; the room must be reloaded from the database."""


class PersonFirst:
    """People before the AI, within a bound: while a person's action is being applied,
    committed and sent (at any table), an AI step (at any table) waits, but for at most
    ``max_wait`` seconds in all; AI steps already running finish.

    The bound matters: actions that are always accepted (a stream of restarts from one
    client) would otherwise hold every table's AI back for as long as they come."""

    def __init__(self, max_wait: float = DEFAULT_LIMITS.person_first_seconds) -> None:
        self.max_wait = max_wait
        self._acting = 0
        self._clear: asyncio.Event | None = None

    @contextlib.contextmanager
    def person(self) -> Iterator[None]:
        """Around a person's action."""
        self._acting += 1
        try:
            yield
        finally:
            self._acting -= 1
            if not self._acting and self._clear is not None:
                self._clear.set()
                self._clear = None

    async def ai_turn(self) -> None:
        """Wait until no person's action is in progress, or ``max_wait`` seconds."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self.max_wait
        while self._acting:
            left = deadline - loop.time()
            if left <= 0:
                return
            if self._clear is None:
                self._clear = asyncio.Event()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._clear.wait(), left)


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
        ai_worker: JobRunner | None = None,
        priority: PersonFirst | None = None,
        *,
        limits: Limits = DEFAULT_LIMITS,
        restarts: int = 0,
        owner: str | None = None,
        restart_buckets: dict[int, TokenBucket] | None = None,
        people: tuple[PeopleSettings, PeopleDB] | None = None,
    ) -> None:
        self.table_id = table_id
        self.limits = limits
        #: Restarts in the table's whole log (capped: :attr:`Limits.max_restarts`).
        self.restarts = restarts
        #: The client address that created the table (None once reloaded).
        self.owner = owner
        # per seat; kept by the registry while the room comes and goes from memory
        self._restart_buckets = {} if restart_buckets is None else restart_buckets
        self._hinting = False
        self.table = table
        self.token_hashes = token_hashes
        self.pacing = pacing
        self.pace_factor = 1.0  # the page's AI speed setting (set_pace)
        #: (seq, seconds) of the last paced AI moves: when each showed after it was due
        self.shown_after: deque[tuple[int, float]] = deque(maxlen=512)
        self.lock = asyncio.Lock()
        self.clients: dict[int, set[Client]] = {}
        self.broken = False
        self._commit_entries = commit
        self._on_idle = on_idle
        self._driver: asyncio.Task[None] | None = None
        self._ai_worker = ai_worker
        self._priority = priority or PersonFirst()
        self._hold: asyncio.TimerHandle | None = None
        #: Several processes: the owner elsewhere applies this room's actions (None: this
        #: process alone serves the table).
        self.remote: Remote | None = None
        self._seats = [SeatInfo(**s) for s in table.seats_json()]
        # the constant and the slowly changing parts of a state frame, as JSON text
        self._frame_head = '{"type":"state","table_id":' + _json(table_id) + ',"seq":'
        self._seats_text = _SEATS.dump_json(self._seats).decode()
        self._match_text: str | None = None
        self._history_items: list[dict[str, Any]] | None = None
        self._history_done = 0
        self._history_text = ""
        #: A table with friends: its people (None for a solo table).
        self.people: People | None = None if people is None else People(self, *people)

    def refresh_seats(self) -> None:
        """The table's seats changed (a table with friends): frames show the new ones."""
        self._seats = [SeatInfo(**s) for s in self.table.seats_json()]
        self._seats_text = _SEATS.dump_json(self._seats).decode()

    def resend_state(self) -> None:
        """Send every connection the current state again (``event`` null): after the seats
        changed."""
        for seat, seat_clients in self.clients.items():
            text = self._state_text(seat, None, self.table.seq)
            for c in seat_clients:
                c.send(text)

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
        settings = None if self.people is None else self.people.settings
        # a table from before spectators had tokens of their own: the link's code watches
        legacy = settings is not None and settings.spectators != "off" and not settings.spectator_tokens
        watch = settings.watch_hash if settings is not None and legacy else None
        if found is None and watch is not None and hmac.compare_digest(digest, watch):
            found = SPECTATOR
        return found

    async def join(self, client: Client) -> bool:
        """Register a connection and send it the current state; False (nothing done) when
        its seat already has :attr:`Limits.connections_per_seat` connections.

        The client is registered before the first ``await``, so a room handed out by the
        registry cannot be dropped as idle in between."""
        cap = MAX_SPECTATORS if client.seat == SPECTATOR else self.limits.connections_per_seat
        if len(self.clients.get(client.seat, ())) >= cap:
            return False
        self.clients.setdefault(client.seat, set()).add(client)
        self.release_hold(drop=False)
        async with self.lock:
            client.send(self._state_text(client.seat, None, self.table.seq))
            if self.people is not None:
                client.send(self.people.frame(client.seat))
        if self.people is not None:
            self.people.update()
        self.kick()
        return True

    def leave(self, client: Client) -> None:
        seat_clients = self.clients.get(client.seat)
        if seat_clients is not None:
            seat_clients.discard(client)
            if not seat_clients:
                del self.clients[client.seat]
        if self.people is not None:
            self.people.update()
        self._maybe_idle()

    def hold(self, seconds: float) -> None:
        """Keep this room in memory, even idle, until its first connection or for
        ``seconds``: a new table's player connects right after creating it, and should not
        find it dropped (once its AI seats have moved) and reloaded from the database."""
        self.release_hold(drop=False)
        self._hold = asyncio.get_running_loop().call_later(seconds, self.release_hold)

    def release_hold(self, drop: bool = True) -> None:
        """End :meth:`hold` (and drop the room if it is idle, unless ``drop`` is false)."""
        if self._hold is not None:
            self._hold.cancel()
            self._hold = None
            if drop:
                self._maybe_idle()

    @property
    def idle(self) -> bool:
        """No connection, no AI running, nothing in progress, not held: safe to drop from
        memory."""
        driving = self._driver is not None and not self._driver.done()
        return (
            not self.clients and not driving and not self.lock.locked() and self._hold is None
        )

    def _maybe_idle(self) -> None:
        if self.idle:
            self._on_idle(self)

    # ------------------------------------------------------------------ actions

    async def act(self, client: Client, action: Action, *, direct: bool = False) -> bool:
        """A person's action: apply, commit, broadcast; errors go to ``client`` only.
        ``direct``: past the people's rules (the creator closing a table with friends).

        Returns whether the action was accepted."""
        if self.following:
            assert self.remote is not None
            return await self.remote.forward(self, client, action)
        with self._priority.person():
            people = self.people
            if people is not None and not direct:
                refusal = people.refusal(client.seat, action)
                if refusal is not None:
                    client.send_error(*refusal)
                    return False
                # a person leaving a table with friends hands the seat to the AI (the last
                # one to leave closes the table)
                if isinstance(action, Resign) and not await people.resign(client):
                    return True
            return await self._act(client, action)

    async def _act(self, client: Client, action: Action) -> bool:
        async with self.lock:
            if self.broken:
                client.send_error("server_error", "the table is reloading; reconnect")
                return False
            refusal = self._refuse_restart(client.seat) if isinstance(action, Restart) else None
            if refusal is not None:
                client.send_error(*refusal)
                return False
            before = self._position()
            try:
                entries = self.table.apply_action(client.seat, action)
            except ActionError as err:
                client.send_error(err.code, err.message, err.options or None)
                return False
            except (ValueError, KeyError, TypeError) as err:
                if self._position() != before:  # half applied: reload from the database
                    log.exception("table %s failed on %r", self.table_id, action)
                    self._break("the server failed on that action; reconnect")
                    return False
                # a client value the rules could not read: refused, nothing changed
                client.send_error("bad_message", f"that action could not be read: {_reason(err)}")
                return False
            except Exception:
                log.exception("table %s failed on %r", self.table_id, action)
                self._break("the server failed on that action; reconnect")
                return False
            if isinstance(action, Restart):
                self.restarts += 1
            if self.people is not None:
                _mark(entries, BY_PERSON)
            await self._publish(entries)
        self.kick()
        return True

    def set_pace(self, speed: str) -> None:
        """The page's AI speed: the server's pacing times a factor (instant: no pause)."""
        if self.following:
            assert self.remote is not None
            self.remote.forward_pace(self, speed)
            return
        self.pace_factor = PACE_FACTORS[speed]

    @property
    def following(self) -> bool:
        """Whether another process owns the table (this room shows what it publishes)."""
        return self.remote is not None and not self.remote.owns(self.table_id)

    def show(self, entries: list[LogEntry]) -> None:
        """Send the frames of entries folded into the table from elsewhere (the owner)."""
        self._broadcast(entries)

    def fenced(self, message: str) -> None:
        """Another process took the table: stop, and have the clients reconnect."""
        self._break(message)

    def _refuse_restart(self, seat: int) -> tuple[str, str] | None:
        """Why a restart is refused before the table is touched (or None): the table's cap
        of restarts, or the seat's restart rate."""
        if self.restarts >= self.limits.max_restarts:
            return (
                "not_allowed",
                f"this table has been restarted {self.restarts} times, the most a table "
                "allows; open a new table",
            )
        bucket = self._restart_buckets.get(seat)
        if bucket is None:
            bucket = TokenBucket(self.limits.restart_rate, self.limits.restart_burst)
            self._restart_buckets[seat] = bucket
        if not bucket.allow():
            wait = max(1, round(bucket.wait_seconds()))
            return ("rate_limited", f"too many restarts; wait {wait} s and try again")
        return None

    def _position(self) -> tuple[int, int, int, int]:
        """What an action changes (to tell a refused action from a half-applied one)."""
        table = self.table
        deal = table.deal
        return (table.seq, len(deal.events), len(deal.plays), id(deal))

    async def hint(self, client: Client) -> None:
        """The strongest agent's suggestion, computed off the event loop, after the AI
        moves waiting for the AI thread; one at a time per table."""
        if self._hinting:
            client.send_error(
                "rate_limited", "a hint for this table is being worked out; wait for it"
            )
            return
        self._hinting = True
        try:
            await self._hint(client)
        finally:
            self._hinting = False

    async def _hint(self, client: Client) -> None:
        async with self.lock:
            try:
                seed, obs = self.table.hint_request(client.seat)
                decision = await self._off_loop(decide, STRONGEST, seed, obs, priority=HINT_PRIORITY)
                hint = hint_of(decision)
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
        if self.remote is not None:
            self.remote.announce(self, entries)
        self._broadcast(entries)
        if self.people is not None:
            self.people.after_publish(_actors(entries))

    def _break(self, message: str) -> None:
        """Give up this in-memory copy: clients reconnect and the table is reloaded from the
        database (which holds every committed event)."""
        self.broken = True
        for seat_clients in self.clients.values():
            for c in seat_clients:
                c.send_error("server_error", message)
                c.close(1011)

    def _broadcast(self, entries: list[LogEntry]) -> None:
        """One frame per entry to each connected seat. Every frame shows the state after
        all of ``entries`` (they were applied together), so the observation, the match and
        the phase are written once per seat, not once per entry."""
        if self._match_text is not None and any(e.kind not in IN_DEAL_EVENTS for e in entries):
            self._match_text = None
        if not any(self.clients.values()):
            return
        table = self.table
        for seat, seat_clients in self.clients.items():
            if not seat_clients:
                continue
            state = self._state_parts(seat)
            viewer = None if seat == SPECTATOR else seat
            for entry in entries:
                text = self._frame(entry.seq, table.public_event(entry, viewer), state)
                for c in seat_clients:
                    c.send(text)

    def _state_text(self, seat: int, entry: LogEntry | None, seq: int) -> str:
        """The ``state`` frame (a :class:`StateMessage`) of ``seat`` after ``entry``; on
        (re)connect (no entry) with the AI seats' latest public reasons (server/why.py)."""
        viewer = None if seat == SPECTATOR else seat
        event = None if entry is None else self.table.public_event(entry, viewer)
        text = self._frame(seq, event, self._state_parts(seat))
        if entry is None:
            text = f'{text[:-1]},"reasons":{_json(latest_reasons(self.table.log))}}}'
        return text

    def _state_parts(self, seat: int) -> tuple[str, str, str]:
        """The JSON text of the seat's observation, of the match and of the phase."""
        table = self.table
        # the history is the same for every seat and only grows: its text is kept
        items = table.history_json()
        if items is not self._history_items:
            self._history_items, self._history_done, self._history_text = items, 0, ""
        if self._history_done < len(items):
            new = _json(items[self._history_done :])[1:-1]
            self._history_text = f"{self._history_text},{new}" if self._history_text else new
            self._history_done = len(items)
        if seat == SPECTATOR and self.people is not None:
            public = self.people.spectator_observation()
        else:
            public = table.observation_json(seat, history=False)
        observation = _json(public).replace(
            '"history":[]', f'"history":[{self._history_text}]', 1
        )
        if self._match_text is None:
            self._match_text = _json(table.match_json())
        return observation, self._match_text, _json(table.phase)

    def _frame(self, seq: int, event: dict[str, Any] | None, state: tuple[str, str, str]) -> str:
        observation, match, phase = state
        return (
            f'{self._frame_head}{seq},"observation":{observation},"event":{_json(event)},'
            f'"match":{match},"seats":{self._seats_text},"phase":{phase}}}'
        )

    async def _off_loop(self, fn: Callable[..., T], *args: Any, priority: int = 0) -> T:
        """Run ``fn`` on the AI's worker (processes or a thread; a thread of the default
        executor if the room has none); lower ``priority`` values go first."""
        if self._ai_worker is None:
            return await asyncio.to_thread(fn, *args)
        return await self._ai_worker.run(fn, *args, priority=priority)

    # ------------------------------------------------------------------ the AI

    def kick(self) -> None:
        """Start the AI driver if an AI seat is due and none is running."""
        if self.broken or self.following or (self._driver is not None and not self._driver.done()):
            return
        if self.due() is None:
            return
        self._driver = asyncio.create_task(self._drive())
        self._driver.add_done_callback(self._driver_done)

    def _driver_done(self, task: asyncio.Task[None]) -> None:
        if not task.cancelled() and task.exception() is not None:
            log.error("AI driver of table %s failed", self.table_id, exc_info=task.exception())
        self._maybe_idle()

    async def _drive(self) -> None:
        """Step the AI seats one move at a time, pacing them so people can follow.

        Paced moves show after the same delay whatever the AI had to think (L1: a quick
        forced pass must not look different from a considered one): the pause is
        :meth:`think_time`, of which the first part is waited before the move is worked
        out and the rest after it, before it is committed and sent."""
        loop = asyncio.get_running_loop()
        while not self.broken:
            if self.due() is None:
                return
            paced = self.paced_seconds > 0 and not self.table.fast_forward
            due_at = loop.time()
            shown_at = due_at + (self.think_time() if paced else 0.0)
            if paced:
                await asyncio.sleep(self.paced_seconds * (1.0 - THINK_SHARE))
            await self._priority.ai_turn()
            async with self.lock:
                due = self.due()
                if self.broken or self.following or due is None:
                    return
                seat, level, by = due
                try:
                    request = self.table.seat_request(seat, level)
                    assert request is not None
                    try:
                        decision = await self._off_loop(
                            decide_safely, request.difficulty, request.seed, request.observation,
                            priority=MOVE_PRIORITY,
                        )
                    except Exception:  # the worker failed (died twice): a random legal move
                        log.exception("the AI worker failed at table %s", self.table_id)
                        decision = None
                    entries = self.table.apply_ai(request, decision)
                except Exception:
                    log.exception("the AI failed at table %s", self.table_id)
                    self._break("the AI failed; reconnect")
                    return
                if paced:
                    await asyncio.sleep(max(0.0, shown_at - loop.time()))
                    if entries:  # how long after it was due each paced move showed (L1)
                        self.shown_after.append((entries[-1].seq, loop.time() - due_at))
                if by:
                    _mark(entries, by)
                await self._publish(entries)

    def due(self) -> tuple[int, str, str] | None:
        """The seat the AI moves next: (seat, level, who acts — ``""`` at a solo table)."""
        if self.people is not None:
            return self.people.due()
        seat = self.table.pending_ai_seat()
        if seat is None:
            return None
        return seat, self.table.config.seats[seat].difficulty or STRONGEST, ""

    def think_time(self) -> float:
        """The pause before a paced AI move is shown: the pacing plus a random part (the
        same distribution for every move)."""
        return self.paced_seconds * (1.0 + THINK_JITTER * _JITTER.random())

    @property
    def paced_seconds(self) -> float:
        """The pause between AI moves: the server's pacing times the page's speed factor."""
        return self.pacing * self.pace_factor

    async def stop(self) -> None:
        """Cancel the AI driver (server shutdown)."""
        self.release_hold(drop=False)
        if self.people is not None:
            self.people.stop()
        if self._driver is not None:
            self._driver.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._driver
