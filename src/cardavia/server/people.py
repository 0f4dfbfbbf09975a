"""People at a table with friends (docs/protocol.md, "Tables with friends").

A table created with per-seat choices (``POST /api/tables`` with ``seats``) has a
:class:`People` beside its :class:`~cardavia.server.rooms.Room`: who sits where (person
seats with an invite link until they are claimed), who is connected, which seats the
stand-in AI holds (a person away for longer than the grace period, or whose turn timer ran
out), the spectators, the reactions, and what only the creator may do. Solo tables have
none of it and work as before.

Who sits where is kept in the stored config (seat kinds and names; the table's own settings
under ``"friends"``) and the token hashes of the ``tables`` row; presence, stand-ins and
timers live in memory (after a restart every absent person has the whole grace period
again).

>>> clean_name("  Zoë  ")
'Zoë'
>>> clean_name("\\u200b\\u200f ")
Traceback (most recent call last):
...
cardavia.server.people.NameRefused: choose a name: it cannot be empty or only invisible characters
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from cardavia.ai.difficulty import STRONGEST
from cardavia.server.limits import TokenBucket
from cardavia.server.people_store import PeopleStore
from cardavia.table import AI, PERSON, Resign, SeatConfig, TableConfig

if TYPE_CHECKING:
    from cardavia.server.clients import Client
    from cardavia.server.rooms import Room

log = logging.getLogger("cardavia.server")

#: The seat number of a spectator's connection.
SPECTATOR = -1
#: The key of a table's own settings in its stored config.
FRIENDS_KEY = "friends"

NAME_MAX = 24
#: Turn timer choices in seconds (0: off).
TURN_TIMERS = (0, 15, 30, 60)
DEFAULT_GRACE = 60.0
GRACE_RANGE = (1.0, 600.0)
#: Who may watch: nobody, the public table only, or the public table and every hand once
#: a deal has ended.
SPECTATE_CHOICES = ("off", "public", "hands")
#: The fixed reactions (the page translates them): no free text, nothing to moderate.
REACTIONS = ("nice", "sorry", "thanks", "hurry")
#: Reactions per seat: a burst of 3, then one every 3 s.
REACTION_RATE = 1 / 3
REACTION_BURST = 3.0
#: Spectator connections a table takes at once.
MAX_SPECTATORS = 32
#: Invite and spectator codes: 24 random bytes (192 bits), URL-safe.
CODE_BYTES = 24

#: Action events that carry who acted (``"by"``): the person, the stand-in or an AI seat.
ACTION_EVENTS = frozenset({"played", "passed", "returned"})
BY_PERSON = "person"
BY_STAND_IN = "stand_in"
BY_AI = "ai"

# bidirectional controls: dropped from names (the page isolates every name itself)
_BIDI_CONTROLS = frozenset([*range(0x202A, 0x202F), *range(0x2066, 0x206A), 0x200E, 0x200F, 0x061C])
# letters that show as nothing (fillers, blank patterns)
_BLANK_LETTERS = frozenset({0x115F, 0x1160, 0x3164, 0xFFA0, 0x2800, 0x180E, 0x034F, 0x17B4, 0x17B5})
_EDGE_CATEGORIES = frozenset({"Cf", "Zs", "Zl", "Zp", "Cc", "Cn", "Co", "Cs"})
_INVISIBLE_CATEGORIES = _EDGE_CATEGORIES | {"Mn", "Me"}


class NameRefused(ValueError):
    """A display name that cannot be used; the message is one sentence for the person."""


def _edge_blank(ch: str) -> bool:
    return unicodedata.category(ch) in _EDGE_CATEGORIES or ord(ch) in _BLANK_LETTERS


def _invisible(ch: str) -> bool:
    return unicodedata.category(ch) in _INVISIBLE_CATEGORIES or ord(ch) in _BLANK_LETTERS


def clean_name(raw: str) -> str:
    """A display name as shown: NFC, bidirectional controls dropped, blank characters
    trimmed at both ends; 1–24 characters of any script. :class:`NameRefused` (with a
    sentence) for an empty or invisible name, control characters, or a longer one."""
    text = "".join(ch for ch in unicodedata.normalize("NFC", raw) if ord(ch) not in _BIDI_CONTROLS)
    if any(unicodedata.category(ch) == "Cc" and not ch.isspace() for ch in text) or any(
        ch in "\n\r\t\v\f" for ch in text.strip()
    ):
        raise NameRefused("a name cannot contain control characters such as line breaks")
    start, end = 0, len(text)
    while start < end and _edge_blank(text[start]):
        start += 1
    while end > start and _edge_blank(text[end - 1]):
        end -= 1
    text = text[start:end]
    if not text or all(_invisible(ch) for ch in text):
        raise NameRefused("choose a name: it cannot be empty or only invisible characters")
    if len(text) > NAME_MAX:
        raise NameRefused(f"a name is at most {NAME_MAX} characters; this one has {len(text)}")
    return text


def new_code() -> str:
    """An invite or spectator code (unguessable: 192 random bits)."""
    return secrets.token_urlsafe(CODE_BYTES)


def ai_name(seat: int) -> str:
    return f"AI {seat}"


@dataclass(frozen=True, slots=True)
class PeopleSettings:
    """A table's own settings (stored in its config under ``"friends"``)."""

    difficulty: str = "normal"  # the stand-in's level (and the level of AI seats filled in)
    grace: float = DEFAULT_GRACE
    turn_timer: int = 0
    spectators: str = "off"
    creator: int = 0
    watch_hash: str | None = None  # the spectator link's hash (None: no open link)
    #: Spectators get tokens of their own (tables created before: the link's code itself
    #: is also the spectators' token while the link is open)
    spectator_tokens: bool = False

    def to_json(self) -> dict[str, Any]:
        return {
            "difficulty": self.difficulty,
            "grace": self.grace,
            "turn_timer": self.turn_timer,
            "spectators": self.spectators,
            "creator": self.creator,
            "watch_hash": self.watch_hash,
            "spectator_tokens": self.spectator_tokens,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> PeopleSettings:
        timer = int(data.get("turn_timer", 0))
        spectators = str(data.get("spectators", "off"))
        watch = data.get("watch_hash")
        return PeopleSettings(
            difficulty=str(data.get("difficulty") or "normal"),
            grace=min(max(float(data.get("grace", DEFAULT_GRACE)), GRACE_RANGE[0]), GRACE_RANGE[1]),
            turn_timer=timer if timer in TURN_TIMERS else 0,
            spectators=spectators if spectators in SPECTATE_CHOICES else "off",
            creator=int(data.get("creator", 0)),
            watch_hash=None if watch is None else str(watch),
            spectator_tokens=data.get("spectator_tokens") is True,
        )


def friends_of(config: dict[str, Any]) -> PeopleSettings | None:
    """The settings of a stored config, or None for a solo table."""
    data = config.get(FRIENDS_KEY)
    return PeopleSettings.from_json(data) if isinstance(data, dict) else None


class PeopleDB:
    """The stored side of :class:`People`, run on the server's database thread."""

    def __init__(self, run: Callable[..., Awaitable[Any]], store: PeopleStore) -> None:
        self.run = run
        self.store = store


def _sentence_list(names: list[str]) -> str:
    return ", ".join(names)


class People:
    """The people side of one room (see the module's docstring)."""

    def __init__(self, room: Room, settings: PeopleSettings, db: PeopleDB) -> None:
        self.room = room
        self.settings = settings
        self.db = db
        now = time.monotonic()
        #: person seats without a connection: since when
        self.gone_since: dict[int, float] = {s: now for s in self.claimed_seats()}
        #: seats the stand-in holds (away for longer than the grace period)
        self.stand_in: set[int] = set()
        #: person seats awaited now: since when (their turn timer runs from there)
        self.awaited: dict[int, float] = {}
        #: seats whose turn timer ran out: the stand-in plays that one turn
        self.expired: set[int] = set()
        self._wake: asyncio.TimerHandle | None = None
        self._reactions: dict[int, TokenBucket] = {}
        self._shown = ""
        #: hashes of spectator tokens known to watch (the database has them all)
        self._watchers: set[str] = set()
        #: spectator connections opened with the link's code itself (tables from before
        #: spectators had tokens of their own): they end with the link
        self.legacy: set[Client] = set()

    # ------------------------------------------------------------------ reading

    @property
    def table_id(self) -> str:
        return self.room.table_id

    def config(self) -> TableConfig:
        return self.room.table.config

    def person_seats(self) -> tuple[int, ...]:
        return self.config().person_seats

    def claimed_seats(self) -> list[int]:
        return [s for s in self.person_seats() if s in self.room.token_hashes]

    def open_seats(self) -> list[int]:
        return [s for s in self.person_seats() if s not in self.room.token_hashes]

    @property
    def waiting(self) -> bool:
        """Person seats still to be claimed: nothing moves until they are (or the creator
        starts with the AI in them)."""
        return bool(self.open_seats()) and not self.room.table.closed

    def connected(self, seat: int) -> bool:
        return any(not c.closed for c in self.room.clients.get(seat, ()))

    def name(self, seat: int) -> str:
        return self.config().seats[seat].name

    def seat_state(self, seat: int) -> str:
        """``ai``, ``open`` (an invite not yet used), ``here``, ``away`` (in the grace
        period) or ``stand_in`` (the AI plays for the person)."""
        if self.config().seats[seat].kind == AI:
            return "ai"
        if seat not in self.room.token_hashes:
            return "open"
        if seat in self.stand_in:
            return "stand_in"
        return "here" if self.connected(seat) else "away"

    def due(self) -> tuple[int, str, str] | None:
        """The seat the AI moves now: (seat, level, who acts), or None."""
        table = self.room.table
        if self.waiting:
            return None
        for seat in table.seats_to_act():
            cfg = table.config.seats[seat]
            if cfg.kind == AI:
                return seat, cfg.difficulty or STRONGEST, BY_AI
            if seat in self.stand_in or seat in self.expired:
                return seat, self.settings.difficulty, BY_STAND_IN
        return None

    def spectator_observation(self) -> dict[str, Any]:
        """What a spectator sees: the public table from seat 0's side, without any hand,
        return options, own returns or anything computed from a hand."""
        data = self.room.table.observation_json(0, history=False)
        data.update(
            seat=None, hand=[], must_include=None, return_options=[], my_returns=[],
            has_reply=None, can_pass=False,
        )
        return data

    async def is_watching(self, token: str | None) -> bool:
        """Whether ``token`` is a spectator token of this table that still watches."""
        from cardavia.server.rooms import token_hash

        if not token or len(token) > 256 or self.settings.spectators == "off":
            return False
        digest = token_hash(token)
        if digest in self._watchers:
            return True
        if await self.db.run(self.db.store.is_watcher, digest, self.table_id):
            self._watchers.add(digest)
            return True
        return False

    async def admit_watcher(self) -> str:
        """A new spectator's own token (stored as its hash)."""
        from cardavia.server.rooms import token_hash

        token = secrets.token_urlsafe(24)
        digest = token_hash(token)
        await self.db.run(self.db.store.add_watcher, digest, self.table_id)
        self._watchers.add(digest)
        return token

    def may_read_record(self, seat: int | None) -> bool:
        """Whether a viewer (a seat, SPECTATOR) may read the finished deals' hands."""
        if seat is None:
            return False
        return seat != SPECTATOR or self.settings.spectators == "hands"

    # ------------------------------------------------------------------ frames

    def frame(self, viewer: int) -> str:
        """The ``room`` frame for one connection."""
        table = self.room.table
        now = time.monotonic()
        timer = self.settings.turn_timer
        turns = [
            {"seat": s, "left": round(max(0.0, since + timer - now), 1)}
            for s, since in sorted(self.awaited.items())
            if timer and s not in self.stand_in and s not in self.expired
        ]
        data = {
            "type": "room",
            "table_id": self.table_id,
            "you": None if viewer == SPECTATOR else viewer,
            "creator": self.settings.creator,
            "waiting": self.waiting,
            "seats": [
                {"seat": s.seat, "kind": s.kind, "name": s.name, "difficulty": s.difficulty,
                 "state": self.seat_state(s.seat)}
                for s in table.config.seats
            ],
            "awaiting": self.open_seats() if self.waiting else table.seats_to_act(),
            "timer": {"seconds": timer, "turns": turns} if timer else None,
            "grace": self.settings.grace,
            "stand_in_level": self.settings.difficulty,
            "spectators": self.settings.spectators,
            "watch_open": self.settings.watch_hash is not None,
            "watching": len(self.room.clients.get(SPECTATOR, ())),
        }
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def broadcast_room(self) -> None:
        for seat, clients in list(self.room.clients.items()):
            if not clients:
                continue
            text = self.frame(seat)
            for c in clients:
                c.send(text)

    # ------------------------------------------------------------------ presence and timers

    def after_publish(self, acted: set[int]) -> None:
        """The log grew: the seats that acted end their turn (and their timer)."""
        for seat in acted:
            self.awaited.pop(seat, None)
            self.expired.discard(seat)
        self.update()

    def update(self) -> None:
        """Recompute presence, stand-ins and timers; tell everybody when anything shown
        changed; wake the AI when a stand-in is due; schedule the next deadline."""
        if self.room.broken:
            return
        table = self.room.table
        now = time.monotonic()
        grace = self.settings.grace
        for seat in self.claimed_seats():
            if self.connected(seat):
                self.gone_since.pop(seat, None)
                self.stand_in.discard(seat)
            else:
                since = self.gone_since.setdefault(seat, now)
                if now - since >= grace:
                    self.stand_in.add(seat)
        for seat in list(self.stand_in):
            if seat not in self.room.token_hashes:
                self.stand_in.discard(seat)
        to_act = set() if self.waiting or table.closed else set(table.seats_to_act())
        for seat in list(self.awaited):
            if seat not in to_act or not table.is_person(seat):
                del self.awaited[seat]
                self.expired.discard(seat)
        for seat in to_act:
            if table.is_person(seat) and seat in self.room.token_hashes:
                self.awaited.setdefault(seat, now)
        timer = self.settings.turn_timer
        if timer:
            for seat, since in self.awaited.items():
                if seat not in self.stand_in and now - since >= timer:
                    self.expired.add(seat)
        self._schedule(now)
        shown = json.dumps(
            [self.frame(SPECTATOR).split(',"timer"')[0], sorted(self.awaited.items()),
             sorted(self.expired)]
        )
        if shown != self._shown:
            self._shown = shown
            self.broadcast_room()
        self.room.kick()

    def _schedule(self, now: float) -> None:
        deadlines = [
            since + self.settings.grace
            for seat, since in self.gone_since.items()
            if seat not in self.stand_in and seat in self.room.token_hashes
        ]
        if self.settings.turn_timer:
            deadlines += [
                since + self.settings.turn_timer
                for seat, since in self.awaited.items()
                if seat not in self.stand_in and seat not in self.expired
            ]
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        if not deadlines or not self.room.clients:
            return  # nobody is connected: nothing to show, nothing runs
        delay = max(0.0, min(deadlines) - now) + 0.01
        self._wake = asyncio.get_running_loop().call_later(delay, self.update)

    def stop(self) -> None:
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None

    # ------------------------------------------------------------------ people's requests

    def refusal(self, seat: int, action: object) -> tuple[str, str] | None:
        """Why a game action of ``seat`` is refused before the table sees it (or None)."""
        from cardavia.table import Restart

        if seat == SPECTATOR:
            return ("not_allowed", "spectators watch the table; they cannot act")
        if self.waiting and not isinstance(action, Resign):
            names = _sentence_list([f"seat {s}" for s in self.open_seats()])
            return (
                "not_allowed",
                f"the table is waiting for players ({names}); the creator can start with "
                "the AI in the empty seats",
            )
        if isinstance(action, Restart) and seat != self.settings.creator:
            return ("not_allowed", "only the table's creator can restart the match")
        return None

    def react(self, client: Client, reaction: str) -> None:
        if client.seat == SPECTATOR:
            client.send_error("not_allowed", "spectators watch the table; they cannot react")
            return
        bucket = self._reactions.get(client.seat)
        if bucket is None:
            bucket = self._reactions[client.seat] = TokenBucket(REACTION_RATE, REACTION_BURST)
        if not bucket.allow():
            wait = max(1, round(bucket.wait_seconds()))
            client.send_error("rate_limited", f"too many reactions; wait {wait} s")
            return
        text = json.dumps({"type": "reaction", "seat": client.seat, "reaction": reaction})
        for clients in list(self.room.clients.values()):
            for c in clients:
                c.send(text)

    def _config_json(self) -> dict[str, Any]:
        return {**self.config().to_json(), FRIENDS_KEY: self.settings.to_json()}

    def _set_seats(self, seats: list[SeatConfig]) -> None:
        table = self.room.table
        table.config = replace(table.config, seats=tuple(seats))
        self.room.refresh_seats()

    async def _save(self, revoke: tuple[int, ...] = ()) -> None:
        await self.db.run(
            self.db.store.save_seats, self.table_id, self._config_json(),
            dict(self.room.token_hashes), revoke,
        )

    def _creator_only(self, client: Client, what: str) -> bool:
        if client.seat != self.settings.creator:
            client.send_error("not_allowed", f"only the table's creator can {what}")
            return False
        return True

    async def start(self, client: Client) -> None:
        """The creator starts now: the AI takes every seat still open."""
        if not self._creator_only(client, "start the table"):
            return
        async with self.room.lock:
            empty = self.open_seats()
            if not empty:
                client.send_error("not_allowed", "every seat is taken already")
                return
            seats = list(self.config().seats)
            for s in empty:
                seats[s] = SeatConfig(s, AI, self.settings.difficulty, ai_name(s))
            self._set_seats(seats)
            await self._save(tuple(empty))
            self.room.resend_state()
        self.update()

    async def invite(self, client: Client, target: int | str) -> None:
        """A new link for a seat (an open one, or an AI seat between deals) or a new
        spectator link; only the creator gets its code."""
        if not self._creator_only(client, "invite"):
            return
        code = new_code()
        from cardavia.server.rooms import token_hash

        async with self.room.lock:
            table = self.room.table
            if target == "watch":
                if self.settings.spectators == "off":
                    client.send_error("not_allowed", "this table takes no spectators")
                    return
                self.settings = replace(self.settings, watch_hash=token_hash(code))
                await self.db.run(self.db.store.add_invite, token_hash(code), self.table_id, None)
                await self._save()
                self._drop_spectators()
            else:
                assert isinstance(target, int)
                if not 0 <= target < table.n_seats or target == self.settings.creator:
                    client.send_error("not_allowed", f"seat {target} cannot be offered")
                    return
                seat = table.config.seats[target]
                if seat.kind == PERSON and target in self.room.token_hashes:
                    client.send_error("not_allowed", f"seat {target} is taken by {seat.name}")
                    return
                if seat.kind == AI:
                    if table.phase != "over" and not self._fresh():
                        client.send_error(
                            "not_allowed",
                            "an AI seat can be offered between deals only; wait for the deal's end",
                        )
                        return
                    seats = list(table.config.seats)
                    seats[target] = SeatConfig(target, PERSON, None, "")
                    self._set_seats(seats)
                await self.db.run(self.db.store.add_invite, token_hash(code), self.table_id, target)
                await self._save()
                self.room.resend_state()
        client.send(json.dumps({"type": "invite", "target": target, "code": code}))
        self.update()

    def _fresh(self) -> bool:
        """Nothing has been played in the table's current deal yet and it is the first."""
        deal = self.room.table.deal
        return deal.deal_index == 0 and not deal.plays and not deal.events[1:]

    async def revoke(self, client: Client, target: int | str) -> None:
        if not self._creator_only(client, "revoke a link"):
            return
        async with self.room.lock:
            if target == "spectators":
                # everyone watching stops: their tokens end (the link, if open, stays)
                await self.db.run(self.db.store.end_watchers, self.table_id)
                self._watchers.clear()
                self._drop_spectators(everyone=True)
            elif target == "watch":
                self.settings = replace(self.settings, watch_hash=None)
                await self.db.run(self.db.store.revoke, self.table_id, None)
                await self._save()
                self._drop_spectators()
            else:
                assert isinstance(target, int)
                count = await self.db.run(self.db.store.revoke, self.table_id, target)
                if not count:
                    client.send_error("not_allowed", f"seat {target} has no open link")
                    return
        client.send(json.dumps({"type": "revoked", "target": target}))
        self.update()

    def _drop_spectators(self, *, everyone: bool = False) -> None:
        """Close the spectators watching with the link's code (the link changed), or
        ``everyone`` watching (their tokens ended)."""
        for c in list(self.room.clients.get(SPECTATOR, ())):
            if everyone or c in self.legacy:
                c.send_error("auth", "the table's creator ended the watching" if everyone
                             else "the spectator link was replaced or revoked")
                c.close(4401)
                self.legacy.discard(c)

    async def close(self, client: Client) -> None:
        """The creator closes the table for everybody."""
        if not self._creator_only(client, "close the table"):
            return
        await self.room.act(client, Resign(), direct=True)

    async def resign(self, client: Client) -> bool:
        """A person leaves: the AI takes the seat for good (the last person leaving closes
        the table). When the creator leaves, the creator's rights (start, invite, hand a seat
        to a new invitee, restart, close) pass to the lowest seat still held by a person.
        Returns whether the table must close instead (the caller does)."""
        seat = client.seat
        async with self.room.lock:
            if self.room.table.closed:
                client.send_error("not_allowed", "this table is closed; start a new one")
                return False
            staying = [s for s in self.claimed_seats() if s != seat]
            if not staying:
                return True
            if seat == self.settings.creator:
                # the creator's rights pass on: the lowest seat a person still holds
                self.settings = replace(self.settings, creator=min(staying))
            seats = list(self.config().seats)
            seats[seat] = SeatConfig(seat, AI, self.settings.difficulty, ai_name(seat))
            self.room.token_hashes.pop(seat, None)
            self._set_seats(seats)
            await self._save()
            left = json.dumps({"type": "left", "seat": seat})
            for c in list(self.room.clients.get(seat, ())):
                c.send(left)
                c.close(1000)
            self.room.resend_state()
        self.update()
        return False

    async def claim(self, code_hash: str, seat: int, name: str) -> str | None:
        """Seat a person who opened an invite link: their own token, or None when the link
        or the seat is no longer open."""
        from cardavia.server.rooms import token_hash

        async with self.room.lock:
            table = self.room.table
            if table.closed or seat not in self.open_seats():
                return None
            token = secrets.token_urlsafe(24)
            hashes = {**self.room.token_hashes, seat: token_hash(token)}
            seats = list(table.config.seats)
            seats[seat] = SeatConfig(seat, PERSON, None, name)
            config = {**replace(table.config, seats=tuple(seats)).to_json(),
                      FRIENDS_KEY: self.settings.to_json()}
            if not await self.db.run(self.db.store.claim, code_hash, self.table_id, config, hashes):
                return None
            self.room.token_hashes[seat] = hashes[seat]
            self.gone_since[seat] = time.monotonic()
            self._set_seats(seats)
            self.room.resend_state()
        self.update()
        return token
