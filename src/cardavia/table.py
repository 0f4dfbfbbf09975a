"""One game in progress: seats, the event log, whose turn it is, what each seat may see.

A :class:`Table` is where a move from anywhere (browser, CLI, AI) is validated and
applied (design.md §1). It knows nothing about HTTP. Its state is the fold of its log:
:meth:`Table.rebuild` reloads a stored log and continues exactly where it stopped.

>>> table = Table.create(TableConfig.preset("guandan", seed=3, difficulty="easy"))
>>> _ = table.run_ai()             # the AI seats move until the person must act
>>> table.person_to_act(), table.observation(0).seat
(True, 0)
>>> again = Table.rebuild(table.config, table.log)
>>> again.observation(0) == table.observation(0)
True
"""

from __future__ import annotations

import hashlib
import logging
import random
from bisect import bisect_left
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from cardavia.ai.base import Agent
from cardavia.ai.difficulty import AI_LEVELS, STRONGEST, agent_for
from cardavia.ai.random_agent import RandomAgent
from cardavia.cards import Card, CardError, Rank, card_strings, parse_cards
from cardavia.events import DealEnded, DealStarted, Event, event_from_json, event_to_json
from cardavia.observation import Observation, observation
from cardavia.record import deal_record
from cardavia.rules.combo import Combo
from cardavia.rules.errors import (
    AmbiguousPlay,
    CardsNotInHand,
    DealOver,
    NotYourTurn,
    RulesError,
)
from cardavia.rules.trick import PHASE_OVER, PHASE_PLAY, PHASE_TRIBUTE, TrickDeal

log = logging.getLogger("cardavia.table")

GAMES: tuple[str, ...] = ("guandan", "runfast")
SEAT_COUNTS: dict[str, int] = {"guandan": 4, "runfast": 3}
PERSON: Literal["person"] = "person"
AI: Literal["ai"] = "ai"

#: Log entries that belong to the table, not to a deal (the engine's events are the rest).
RESTARTED = "restarted"
RESIGNED = "resigned"
TABLE_EVENTS = frozenset({RESTARTED, RESIGNED})
DEAL_STARTED = "deal_started"

SeatKind = Literal["person", "ai"]


# ---------------------------------------------------------------------------- configuration


@dataclass(frozen=True, slots=True)
class SeatConfig:
    """Who sits in a seat: a person, or an AI at a difficulty."""

    seat: int
    kind: SeatKind
    difficulty: str | None = None
    name: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "difficulty": self.difficulty,
            "name": self.name,
        }

    @staticmethod
    def from_json(data: dict[str, Any]) -> SeatConfig:
        kind = str(data["kind"])
        if kind not in (PERSON, AI):
            raise ValueError(f"seat kind {kind!r} is neither 'person' nor 'ai'")
        difficulty = data.get("difficulty")
        seat_kind: SeatKind = PERSON if kind == PERSON else AI
        return SeatConfig(
            seat=int(data["seat"]),
            kind=seat_kind,
            difficulty=None if difficulty is None else str(difficulty),
            name=str(data.get("name", "")),
        )


@dataclass(frozen=True, slots=True)
class TableConfig:
    """The game, its seed and the seats: everything needed to replay the log."""

    game: str
    seed: int
    seats: tuple[SeatConfig, ...]

    def __post_init__(self) -> None:
        if self.game not in GAMES:
            raise ValueError(f"unknown game {self.game!r}; games are {', '.join(GAMES)}")
        if len(self.seats) != SEAT_COUNTS[self.game]:
            need = SEAT_COUNTS[self.game]
            raise ValueError(f"{self.game} needs {need} seats, got {len(self.seats)}")
        for index, seat in enumerate(self.seats):
            if seat.seat != index:
                raise ValueError(f"seat {index} is configured as seat {seat.seat}")
            if seat.kind == AI and seat.difficulty not in AI_LEVELS:
                names = ", ".join(AI_LEVELS)
                raise ValueError(f"unknown difficulty {seat.difficulty!r}; choose one of {names}")

    @classmethod
    def preset(
        cls,
        game: str,
        seed: int,
        difficulty: str = "normal",
        partner: str = STRONGEST,
    ) -> TableConfig:
        """The product's presets: the person in seat 0; Guandan's partner (seat 2) plays at
        ``partner``, every other AI at ``difficulty``."""
        if game not in GAMES:
            raise ValueError(f"unknown game {game!r}; games are {', '.join(GAMES)}")
        seats = [SeatConfig(0, PERSON, None, "You")]
        for s in range(1, SEAT_COUNTS[game]):
            level = partner if game == "guandan" and s == 2 else difficulty
            name = "Partner" if game == "guandan" and s == 2 else f"AI {s}"
            seats.append(SeatConfig(s, AI, level, name))
        return cls(game, seed, tuple(seats))

    @property
    def person_seats(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if s.kind == PERSON)

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "seed": self.seed, "seats": [s.to_json() for s in self.seats]}

    @staticmethod
    def from_json(data: dict[str, Any]) -> TableConfig:
        return TableConfig(
            game=str(data["game"]),
            seed=int(data["seed"]),
            seats=tuple(SeatConfig.from_json(s) for s in data["seats"]),
        )


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One entry of a table's log: a sequence number (from 1) and the event's JSON."""

    seq: int
    event: dict[str, Any]

    @property
    def kind(self) -> str:
        return str(self.event.get("event"))


# ---------------------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class Play:
    """Play ``cards``; ``rank``/``type`` name the reading when several are legal (G-5.6)."""

    cards: tuple[str, ...]
    type: str | None = None
    rank: str | None = None


@dataclass(frozen=True, slots=True)
class Pass:
    """Pass the turn."""


@dataclass(frozen=True, slots=True)
class ReturnCard:
    """Return ``card`` to the tribute payer (G-3.5)."""

    card: str


@dataclass(frozen=True, slots=True)
class NextDeal:
    """Deal the next deal once the current one is over."""


@dataclass(frozen=True, slots=True)
class Restart:
    """Restart the match (G-1.7) or the Run Fast session: levels/totals reset, new deal."""


@dataclass(frozen=True, slots=True)
class Resign:
    """Leave the table for good: no further actions are accepted."""


Action = Play | Pass | ReturnCard | NextDeal | Restart | Resign


class ActionError(ValueError):
    """A refused action: a short ``code`` (docs/protocol.md), one clear sentence, and for
    ``ambiguous`` the legal readings as combo objects. The table is unchanged."""

    def __init__(self, code: str, message: str, options: Sequence[dict[str, Any]] = ()) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.options = list(options)


@dataclass(frozen=True, slots=True)
class Hint:
    """The strongest agent's suggestion for a seat: cards to play or return, or a pass."""

    cards: tuple[str, ...] | None
    combo: dict[str, Any] | None
    is_pass: bool
    reason: str
    reason_key: str = ""  # the web catalog's ``reasons.<key>`` (language-independent)
    reason_args: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "cards": None if self.cards is None else list(self.cards),
            "combo": self.combo,
            "pass": self.is_pass,
            "reason": self.reason,
            "reason_key": self.reason_key,
            "reason_args": dict(self.reason_args),
        }


# ---------------------------------------------------------------------------- the games


class _Game(Protocol):
    """What a table needs from a game's match or session object."""

    @property
    def deal(self) -> TrickDeal | None: ...

    def new_deal(self) -> TrickDeal:
        """Deal the next deal (live)."""
        ...

    def fold_start(self, start: DealStarted) -> TrickDeal:
        """Rebuild: begin the deal that ``start`` opens."""
        ...

    def deal_ended(self) -> None:
        """Bookkeeping once the current deal is over (levels, totals)."""
        ...

    def restart(self) -> None:
        """Discard the current deal and reset the match or session."""
        ...

    def finished_deals(self) -> Sequence[TrickDeal]: ...

    def match_json(self) -> dict[str, Any]: ...


def _sym(level: int) -> str:
    return Rank(level).symbol


def deal_seed(table_seed: int, index: int) -> int:
    """The shuffle seed of deal ``index`` at a table: a hash of the table's seed, so that
    the seeds published in finished deals' records give away nothing about later deals
    (the engine's own derivation is linear in the match seed).

    >>> deal_seed(7, 0) != deal_seed(7, 1), 0 <= deal_seed(7, 0) < 2**63
    (True, True)
    """
    digest = hashlib.sha256(f"cardavia-deal:{table_seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


class _Guandan:
    def __init__(self, seed: int, keep_finished: bool) -> None:
        from cardavia.rules.guandan.deal import GuandanMatch

        self.seed = seed
        self.match = GuandanMatch(seed, keep_finished=keep_finished)
        self.last: TrickDeal | None = None  # the last deal settled since the (re)start

    @property
    def deal(self) -> TrickDeal | None:
        return self.match.deal

    def new_deal(self) -> TrickDeal:
        if self.match.match_winner is not None:
            self.last = None  # start_deal begins a new match
        return self.match.start_deal(seed=deal_seed(self.seed, self.match.deal_count))

    def fold_start(self, start: DealStarted) -> TrickDeal:
        from cardavia.rules.guandan.deal import GuandanDeal
        from cardavia.rules.guandan.tribute import plan_tribute

        match = self.match
        if match.match_winner is not None:
            match.restart()  # as start_deal does after a match win
            self.last = None
        deal = GuandanDeal(start)
        if start.leader is None and match.previous_places is not None:
            deal.plan = plan_tribute(match.previous_places, start.hands, deal.level)
        match.deal = deal
        match.deal_count = start.deal + 1
        return deal

    def deal_ended(self) -> None:
        self.match.finish_deal()
        if self.match.deal is not None:
            self.last = self.match.deal

    def restart(self) -> None:
        self.match.restart()
        self.last = None

    def finished_deals(self) -> Sequence[TrickDeal]:
        return self.match.finished

    def match_json(self) -> dict[str, Any]:
        match = self.match
        last: dict[str, Any] | None = None
        if self.last is not None:
            deal = self.last
            result = deal.result or {}
            last = {
                "deal": deal.deal_index,
                "places": list(deal.places),
                "winner_team": result.get("winner_team"),
                "advance": result.get("advance"),
                "levels": [_sym(x) for x in result.get("levels", [])],
                "next_level": _sym(result["next_level"]) if "next_level" in result else None,
                "match_winner": result.get("match_winner"),
            }
        return {
            "levels": [_sym(x) for x in match.levels],
            "deal_level": _sym(match.deal.level if match.deal is not None else match.deal_level),
            "match_winner": match.match_winner,
            "last_settlement": last,
        }


class _RunFast:
    def __init__(self, seed: int, keep_finished: bool) -> None:
        from cardavia.rules.runfast.deal import RunFastSession

        self.seed = seed
        self.session = RunFastSession(seed, keep_finished=keep_finished)
        self.last: TrickDeal | None = None  # the last deal settled since the (re)start

    @property
    def deal(self) -> TrickDeal | None:
        return self.session.deal

    def new_deal(self) -> TrickDeal:
        return self.session.start_deal(seed=deal_seed(self.seed, self.session.deal_count))

    def fold_start(self, start: DealStarted) -> TrickDeal:
        from cardavia.rules.runfast.deal import RunFastDeal

        deal = RunFastDeal(start)
        self.session.deal = deal
        self.session.deal_count = start.deal + 1
        return deal

    def deal_ended(self) -> None:
        self.session.finish_deal()
        if self.session.deal is not None:
            self.last = self.session.deal

    def restart(self) -> None:
        self.session.totals = [0] * len(self.session.totals)
        self.session.deal = None
        self.last = None

    def finished_deals(self) -> Sequence[TrickDeal]:
        return self.session.finished

    def match_json(self) -> dict[str, Any]:
        session = self.session
        last: dict[str, Any] | None = None
        if self.last is not None:
            deal = self.last
            result = deal.result or {}
            winner = result.get("winner")
            scores = list(result.get("scores", []))
            last = {
                "deal": deal.deal_index,
                "winner": winner,
                "scores": scores,
                "bomb_bonuses": list(result.get("bomb_bonuses", [])),
                "never_played": list(result.get("never_played", [])),
                "lines": _runfast_lines(deal),
            }
        return {"totals": list(session.totals), "last_settlement": last}


def _runfast_lines(deal: TrickDeal) -> list[dict[str, Any]]:
    """Per losing seat, what it paid and why (R-5.1 – R-5.3): the cards it still held are
    public once the deal is over."""
    from cardavia.rules.runfast.settlement import payment, unplayed_bombs

    result = deal.result or {}
    winner = result.get("winner")
    never = set(result.get("never_played", []))
    lines: list[dict[str, Any]] = []
    for seat in range(deal.n_seats):
        if seat == winner:
            continue
        hand = deal.hand(seat)
        lines.append(
            {
                "seat": seat,
                "cards_left": len(hand),
                "never_played": seat in never,
                "holds_2s": any(str(c) == "2s" for c in hand),
                "unplayed_bombs": unplayed_bombs(hand),
                "pays": payment(hand, seat in never),
            }
        )
    return lines


def _make_game(config: TableConfig, keep_finished: bool) -> _Game:
    if config.game == "guandan":
        return _Guandan(config.seed, keep_finished)
    return _RunFast(config.seed, keep_finished)


# ---------------------------------------------------------------------------- the table


@dataclass(slots=True)
class _Cursor:
    deal: TrickDeal | None = None
    logged: int = 0  # how many of deal.events are in the table log


@dataclass(slots=True)
class _HistoryCache:
    deal: TrickDeal | None = None
    items: list[dict[str, Any]] = field(default_factory=list)


@dataclass(slots=True)
class _State:
    closed: bool = False
    cursor: _Cursor = field(default_factory=_Cursor)
    history: _HistoryCache = field(default_factory=_HistoryCache)


def _action_json(seat: int, combo: Combo | None) -> dict[str, Any]:
    """One history entry as :meth:`Observation.to_json` writes it."""
    if combo is None:
        return {"seat": seat, "pass": True}
    return {"seat": seat, "cards": card_strings(combo.cards), "combo": combo.to_json()}


class Table:
    """One game in progress; build it with :meth:`create` (new) or :meth:`rebuild` (a log).

    ``keep_finished=False`` (the server, whose database holds the whole log) keeps in memory
    only the log entries and the deal objects of the current deal (plus the table's own
    entries and the last settled deal): memory stays flat however many deals are played.
    :attr:`log` is then the retained part, :meth:`entry` finds an entry by its number, and
    :meth:`records` is refused (rebuild the table from its stored log for the records).
    """

    def __init__(self, config: TableConfig, *, keep_finished: bool = True) -> None:
        self.config = config
        self.keep_finished = keep_finished
        self.log: list[LogEntry] = []
        self._seq = 0
        self._game = _make_game(config, keep_finished)
        self._state = _State()

    # ------------------------------------------------------------------ construction

    @classmethod
    def create(cls, config: TableConfig, *, keep_finished: bool = True) -> Table:
        """A new table with its first deal dealt (the AI has not moved yet)."""
        table = cls(config, keep_finished=keep_finished)
        table._start_deal()
        return table

    @classmethod
    def rebuild(
        cls,
        config: TableConfig,
        log: Iterable[LogEntry | dict[str, Any]],
        *,
        keep_finished: bool = True,
    ) -> Table:
        """The table whose log is ``log`` (entries, or their JSON events in order)."""
        table = cls(config, keep_finished=keep_finished)
        for item in log:
            event_json = item.event if isinstance(item, LogEntry) else item
            table._fold(event_json)
        return table

    def fold(self, event_json: dict[str, Any]) -> LogEntry:
        """Apply one stored log entry (no validation: the log holds validated actions)."""
        return self._fold(event_json)

    def _fold(self, event_json: dict[str, Any]) -> LogEntry:
        entry = LogEntry(self._seq + 1, event_json)
        kind = entry.kind
        if kind == RESTARTED:
            self._game.restart()
        elif kind == RESIGNED:
            self._state.closed = True
        else:
            event = event_from_json(event_json)
            if isinstance(event, DealStarted):
                deal = self._game.fold_start(event)
                self._state.cursor = _Cursor(deal, 1)
            else:
                deal = self.deal
                deal.apply(event)
                self._state.cursor.logged = len(deal.events)
                if isinstance(event, DealEnded):
                    self._game.deal_ended()
        self._keep(entry)
        return entry

    def _append(self, event_json: dict[str, Any]) -> LogEntry:
        """Number the next log entry and keep it."""
        entry = LogEntry(self._seq + 1, event_json)
        self._keep(entry)
        return entry

    def _keep(self, entry: LogEntry) -> None:
        """Add the next entry to the log (with ``keep_finished=False``, a new deal's start
        drops the finished deals' entries: they live in the database)."""
        self._seq = entry.seq
        if not self.keep_finished and entry.kind == DEAL_STARTED:
            # the finished deals' entries live in the database; the table's own last one
            # stays (only the last: a log of restarts must not make every fold re-filter them)
            self.log = [e for e in self.log if e.kind in TABLE_EVENTS][-1:]
        self.log.append(entry)

    def entry(self, seq: int) -> LogEntry:
        """The log entry numbered ``seq`` (KeyError if it is not kept in memory)."""
        index = bisect_left(self.log, seq, key=lambda e: e.seq)
        if index == len(self.log) or self.log[index].seq != seq:
            raise KeyError(f"log entry {seq} is not in memory")
        return self.log[index]

    # ------------------------------------------------------------------ reading the state

    @property
    def game(self) -> str:
        return self.config.game

    @property
    def n_seats(self) -> int:
        return len(self.config.seats)

    @property
    def deal(self) -> TrickDeal:
        """The current deal (the last one dealt)."""
        deal = self._game.deal
        if deal is None:
            raise RuntimeError("the table has no deal yet")
        return deal

    @property
    def closed(self) -> bool:
        """Whether the person resigned: the table takes no more actions."""
        return self._state.closed

    @property
    def phase(self) -> str:
        """``tribute``, ``play``, ``over`` (the deal) or ``closed`` (resigned)."""
        return "closed" if self.closed else self.deal.phase

    @property
    def seq(self) -> int:
        """The sequence number of the last log entry (0 for an empty log)."""
        return self._seq

    def is_person(self, seat: int) -> bool:
        return 0 <= seat < self.n_seats and self.config.seats[seat].kind == PERSON

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know (own hand, counts, public history)."""
        return observation(self.deal, seat)

    def observation_json(self, seat: int, *, history: bool = True) -> dict[str, Any]:
        """``observation(seat).to_json()``, with the history's JSON kept between calls (it
        only grows during a deal), so that a frame costs O(new actions), not O(deal).

        ``history=False``: the same with an empty ``history`` list (in its place), for a
        caller that adds :meth:`history_json` itself."""
        deal = self.deal
        items = self.history_json()
        data = observation(deal, seat, history=False).to_json()
        if history:
            data["history"] = items[: len(deal.plays)]
        return data

    def history_json(self) -> list[dict[str, Any]]:
        """The current deal's public history as ``observation(…).to_json()["history"]``
        writes it (the same for every seat). The list is kept and extended between calls
        (a new list for a new deal): read it, never change it."""
        deal = self.deal
        cache = self._state.history
        if cache.deal is not deal:
            cache.deal, cache.items = deal, []
        for seat_played, combo in deal.plays[len(cache.items) :]:
            cache.items.append(_action_json(seat_played, combo))
        return cache.items

    def seats_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.config.seats]

    def match_json(self) -> dict[str, Any]:
        """Match levels (Guandan) or running totals (Run Fast) and the last settlement."""
        return self._game.match_json()

    def records(self) -> list[dict[str, Any]]:
        """The game records (cli.md "Game records") of every finished deal, in order."""
        if not self.keep_finished:
            raise RuntimeError("this table keeps only its current deal: rebuild it from its log")
        return [deal_record(d) for d in self._game.finished_deals()]

    def hands(self) -> list[list[Card]]:
        """Every seat's current hand — the truth, for tests and audits; never sent to a seat."""
        return [self.deal.hand(s) for s in range(self.n_seats)]

    def _returns_owed(self) -> dict[int, int]:
        pending: dict[int, int] = getattr(self.deal, "pending_returns", {})
        return pending

    def seats_to_act(self) -> list[int]:
        """The seats whose action the game waits for (several during the return phase)."""
        if self.closed:
            return []
        deal = self.deal
        if deal.phase == PHASE_TRIBUTE:
            return sorted(self._returns_owed())
        if deal.phase == PHASE_PLAY and deal.turn is not None:
            return [deal.turn]
        return []

    def pending_ai_seat(self) -> int | None:
        """The AI seat to act now, if any (AI recipients return before anyone plays)."""
        for seat in self.seats_to_act():
            if not self.is_person(seat):
                return seat
        return None

    def person_to_act(self) -> bool:
        """Whether a person's action is awaited."""
        return any(self.is_person(s) for s in self.seats_to_act())

    @property
    def fast_forward(self) -> bool:
        """Whether the deal goes on with no person holding cards (G-6.1 allows finishing it at
        once, without pacing)."""
        deal = self.deal
        return deal.phase == PHASE_PLAY and all(
            deal.size[s] == 0 for s in self.config.person_seats
        )

    def public_event(self, entry: LogEntry, seat: int | None) -> dict[str, Any]:
        """The event of ``entry`` as ``seat`` may see it (``None``: a spectator).

        ``deal_started`` keeps only the seat's own hand (others are ``null``) and drops the
        deal's seed; a ``returned`` card is shown only to its giver and receiver.
        """
        return public_event(entry.event, seat)

    # ------------------------------------------------------------------ acting

    def apply_action(self, seat: int, action: Action) -> list[LogEntry]:
        """Validate and apply a person's ``action`` for ``seat``; return the new log entries.

        Raises :class:`ActionError` (and changes nothing) when the action is refused.
        """
        if not self.is_person(seat):
            if 0 <= seat < self.n_seats:
                raise ActionError("not_allowed", f"seat {seat} is played by the AI")
            raise ActionError("not_allowed", f"seat {seat} does not exist at this table")
        if self.closed:
            raise ActionError("not_allowed", "this table is closed; start a new one")
        if isinstance(action, Resign):
            return self._append_table_event({"event": RESIGNED, "seat": seat})
        if isinstance(action, Restart):
            entries = self._append_table_event({"event": RESTARTED, "seat": seat})
            self._game.restart()
            return entries + self._start_deal()
        if isinstance(action, NextDeal):
            if not self.deal.over:
                raise ActionError("not_allowed", "the deal is not over yet; finish it first")
            return self._start_deal()
        try:
            if isinstance(action, ReturnCard):
                self._return(seat, action)
            elif isinstance(action, Pass):
                self._check_play_turn(seat)
                self.deal.pass_turn(seat)
            else:
                self._check_play_turn(seat)
                self._play(seat, action)
        except ActionError:
            raise
        except AmbiguousPlay as err:
            options = self._options(seat, action)
            raise ActionError("ambiguous", str(err), options) from None
        except (NotYourTurn, DealOver) as err:
            raise ActionError("not_your_turn", str(err)) from None
        except CardError as err:
            raise ActionError("bad_message", str(err)) from None
        except RulesError as err:
            raise ActionError("illegal", str(err)) from None
        return self._log_new_events()

    def _check_play_turn(self, seat: int) -> None:
        deal = self.deal
        if deal.phase == PHASE_OVER:
            raise ActionError("not_allowed", "the deal is over; ask for the next deal")
        if deal.phase == PHASE_TRIBUTE:
            raise ActionError(
                "not_your_turn", "the return tribute is not finished; nobody plays yet"
            )
        if deal.turn != seat:
            raise ActionError("not_your_turn", f"it is seat {deal.turn}'s turn, not yours")

    def _play(self, seat: int, action: Play) -> None:
        cards = parse_cards(list(action.cards))
        if action.type is None and action.rank is not None:
            raise ActionError("bad_message", "an interpretation needs its type as well as its rank")
        interpretation = None if action.type is None else (action.type, action.rank)
        self.deal.play(seat, cards, interpretation)

    def _return(self, seat: int, action: ReturnCard) -> None:
        from cardavia.rules.guandan.deal import GuandanDeal

        deal = self.deal
        if not isinstance(deal, GuandanDeal):
            raise ActionError("not_allowed", "Run Fast has no return tribute")
        if deal.phase != PHASE_TRIBUTE or seat not in deal.pending_returns:
            raise ActionError("not_allowed", "you owe no return card now")
        card = Card.parse(action.card)
        if deal.cnt[seat][card.code] == 0:
            raise CardsNotInHand(f"you do not hold {card}")
        deal.return_card(seat, card)

    def _options(self, seat: int, action: Action) -> list[dict[str, Any]]:
        if not isinstance(action, Play):
            return []
        try:
            readings = self.deal.legal_readings(seat, parse_cards(list(action.cards)))
        except (RulesError, CardError):
            return []
        if action.type is not None:
            readings = [r for r in readings if r.type.value == action.type] or readings
        return [r.to_json() for r in readings]

    def step_ai(self) -> list[LogEntry]:
        """Let one AI seat take its next action; the new log entries (none if no AI is due)."""
        seat = self.pending_ai_seat()
        if seat is None:
            return []
        deal = self.deal
        obs = observation(deal, seat)
        difficulty = self.config.seats[seat].difficulty or STRONGEST
        agent = agent_for(difficulty, self._decision_seed(seat))
        try:
            self._ai_move(agent, seat, obs)
        except Exception:  # an agent bug must not stall the table: a random legal move
            log.exception("the %s agent failed at seat %s; playing a random move", difficulty, seat)
            self._ai_move(RandomAgent(self._decision_seed(seat)), seat, obs)
        return self._log_new_events()

    def _ai_move(self, agent: Agent, seat: int, obs: Observation) -> None:
        deal = self.deal
        if deal.phase == PHASE_TRIBUTE:
            choice = agent.choose_return(obs)
            deal.return_card(seat, choice.card)  # type: ignore[attr-defined]
            return
        decision = agent.act(obs)
        if decision.combo is None:
            deal.pass_turn(seat)
        else:
            deal.play_combo(seat, decision.combo)

    def run_ai(self, max_steps: int = 100_000) -> list[LogEntry]:
        """Step the AI seats until a person must act (or the deal is over)."""
        entries: list[LogEntry] = []
        for _ in range(max_steps):
            new = self.step_ai()
            if not new:
                break
            entries.extend(new)
        return entries

    def hint(self, seat: int) -> Hint:
        """The strongest agent's suggestion for ``seat`` (its own observation only)."""
        if self.closed:
            raise ActionError("not_allowed", "this table is closed; start a new one")
        if seat not in self.seats_to_act() or not self.is_person(seat):
            raise ActionError("not_your_turn", "there is nothing for you to do now")
        deal = self.deal
        obs = observation(deal, seat)
        agent = agent_for(STRONGEST, self._decision_seed(seat))
        if deal.phase == PHASE_TRIBUTE:
            ret = agent.choose_return(obs)
            return Hint((str(ret.card),), None, False, ret.reason, ret.reason_key, dict(ret.reason_args))
        decision = agent.act(obs)
        combo: Combo | None = decision.combo
        if combo is None:
            return Hint(None, None, True, decision.reason, decision.reason_key, dict(decision.reason_args))
        return Hint(
            tuple(card_strings(combo.cards)), combo.to_json(), False, decision.reason,
            decision.reason_key, dict(decision.reason_args),
        )

    # ------------------------------------------------------------------ the log

    def _decision_seed(self, seat: int) -> int:
        """A seed for one decision, a function of the game position only (deal, plays so
        far, seat, phase): a rebuilt table plays on alike, whatever order independent
        actions (two return cards) arrived in."""
        deal = self.deal
        phase = 1 if deal.phase == PHASE_TRIBUTE else 0
        key = ((deal.deal_index * 1_009 + len(deal.plays)) * 8 + seat) * 2 + phase
        return (self.config.seed * 1_000_003 + key * 7_919) % (2**63)

    def _start_deal(self) -> list[LogEntry]:
        deal = self._game.new_deal()
        self._state.cursor = _Cursor(deal, 0)
        return self._log_new_events()

    def _append_table_event(self, event_json: dict[str, Any]) -> list[LogEntry]:
        entry = self._append(event_json)
        if entry.kind == RESIGNED:
            self._state.closed = True
        return [entry]

    def _log_new_events(self) -> list[LogEntry]:
        cursor = self._state.cursor
        deal = cursor.deal
        assert deal is not None
        new: list[Event] = list(deal.events[cursor.logged :])
        cursor.logged = len(deal.events)
        entries: list[LogEntry] = []
        for event in new:
            entry = self._append(event_to_json(event))
            entries.append(entry)
            if isinstance(event, DealEnded):
                self._game.deal_ended()
        return entries


def public_event(event: dict[str, Any], seat: int | None) -> dict[str, Any]:
    """An event's JSON as ``seat`` may see it (see :meth:`Table.public_event`).

    >>> public_event({"event": "returned", "from": 0, "to": 3, "card": "5s"}, 1)["card"] is None
    True
    """
    kind = event.get("event")
    if kind == "deal_started":
        hands = event.get("hands") or []
        return {
            **event,
            "seed": None,  # the shuffle's seed would give away every hand
            "hands": [h if i == seat else None for i, h in enumerate(hands)],
            "hand_sizes": [len(h) for h in hands],
        }
    if kind == "returned" and seat not in (event.get("from"), event.get("to")):
        return {**event, "card": None}
    return event


def random_seed() -> int:
    """A fresh table seed (non-negative, fits in 63 bits)."""
    return random.SystemRandom().randrange(2**63)


__all__ = [
    "AI",
    "GAMES",
    "PERSON",
    "Action",
    "ActionError",
    "Hint",
    "LogEntry",
    "NextDeal",
    "Pass",
    "Play",
    "Resign",
    "Restart",
    "ReturnCard",
    "SeatConfig",
    "Table",
    "TableConfig",
    "public_event",
    "random_seed",
]
