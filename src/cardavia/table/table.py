"""One game in progress: seats, the event log, whose turn it is, what each seat may see.

A :class:`Table` is where a move from anywhere (browser, CLI, AI) is validated and
applied. It knows nothing about HTTP, nor which game it runs: the game's series (a
Guandan match or a Run Fast session, :mod:`cardavia.rules.series`) and its deals answer.
Its state is the fold of its log: :meth:`Table.rebuild` reloads a stored log and continues
exactly where it stopped.

>>> table = Table.create(TableConfig.preset("guandan", seed=3, difficulty="easy"))
>>> _ = table.run_ai()             # the AI seats move until the person must act
>>> table.person_to_act(), table.observation(0).seat
(True, 0)
>>> again = Table.rebuild(table.config, table.log)
>>> again.observation(0) == table.observation(0)
True
"""

from __future__ import annotations

import logging
import random
from bisect import bisect_left
from collections.abc import Iterable
from typing import Any, Literal

from cardavia.ai.base import Decision, ReturnDecision
from cardavia.ai.difficulty import STRONGEST
from cardavia.ai.random_agent import RandomAgent
from cardavia.ai.review import public_reason
from cardavia.ai.runner import apply_decision, take_turn
from cardavia.cards import Card, CardError, parse_cards
from cardavia.rules.errors import AmbiguousPlay, NotAllowed, RulesError
from cardavia.rules.events import DealEnded, DealStarted, Event, event_from_json, event_to_json
from cardavia.rules.games import GameName
from cardavia.rules.observation import Observation, history_entry_json, observation, public_event
from cardavia.rules.seeds import decision_seed
from cardavia.rules.series import Series
from cardavia.rules.trick import PHASE_OVER, PHASE_PLAY, PHASE_TRIBUTE, Phase, TrickDeal
from cardavia.table.actions import (
    Action,
    ActionError,
    Hint,
    NextDeal,
    Pass,
    Play,
    Resign,
    Restart,
    ReturnCard,
)
from cardavia.table.ai import AiRequest, decide, decide_safely, hint_of
from cardavia.table.config import PERSON, TableConfig
from cardavia.table.log import DEAL_STARTED, RESIGNED, RESTARTED, TABLE_EVENTS, Cursor, HistoryCache, LogEntry

log = logging.getLogger("cardavia.table")

#: Where a table stands: its deal's phase, or closed (resigned).
TablePhase = Literal["tribute", "play", "over", "closed"]
_PHASES: dict[Phase, TablePhase] = {PHASE_TRIBUTE: "tribute", PHASE_PLAY: "play", PHASE_OVER: "over"}

#: How many of its own entries (restarts, resignation) a compact table keeps in memory.
KEEP_OWN = 1


class Table:
    """One game in progress; build it with :meth:`create` (new) or :meth:`rebuild` (a log).

    ``keep_finished=False`` (the server, whose database holds the whole log) keeps in memory
    only the log entries and the deal objects of the current deal (plus the last settled
    deal): memory stays flat however many deals are played, and a rebuild is linear in the
    log. :attr:`log` is then the retained part, :meth:`entry` finds an entry by its number,
    and :meth:`records` is refused (rebuild the table from its stored log for the records).
    """

    def __init__(self, config: TableConfig, *, keep_finished: bool = True) -> None:
        self.config = config
        self.keep_finished = keep_finished
        self.log: list[LogEntry] = []
        self._seq = 0
        self.series: Series[TrickDeal] = config.rules.new_series(config.seed, keep_finished=keep_finished)
        self._closed = False
        self._own: list[LogEntry] = []  # the table's own recent entries (keep_finished=False)
        self._cursor = Cursor()
        self._history = HistoryCache()

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
            table.fold(item.event if isinstance(item, LogEntry) else item)
        return table

    def fold(self, event_json: dict[str, Any]) -> LogEntry:
        """Apply one stored log entry (no validation: the log holds validated actions)."""
        entry = LogEntry(self._seq + 1, event_json)
        kind = entry.kind
        if kind == RESTARTED:
            self.series.restart()
        elif kind == RESIGNED:
            self._closed = True
        else:
            event = event_from_json(event_json)
            if isinstance(event, DealStarted):
                self._cursor = Cursor(self.series.fold(event), 1)
            else:
                deal = self.deal
                deal.apply(event)
                self._cursor.logged = len(deal.events)
                if isinstance(event, DealEnded):
                    self.series.finish_deal()
        self._keep(entry)
        return entry

    def _keep(self, entry: LogEntry) -> None:
        """Add the next entry to the log (with ``keep_finished=False``, a new deal's start
        drops the finished deals' entries — they live in the database — and keeps only the
        table's own last :data:`KEEP_OWN` entries)."""
        self._seq = entry.seq
        if not self.keep_finished:
            if entry.kind in TABLE_EVENTS:
                self._own = [*self._own, entry][-KEEP_OWN:]
            elif entry.kind == DEAL_STARTED:
                self.log = list(self._own)  # O(KEEP_OWN): a rebuild stays linear in the log
        self.log.append(entry)

    def entry(self, seq: int) -> LogEntry:
        """The log entry numbered ``seq`` (KeyError if it is not kept in memory)."""
        index = bisect_left(self.log, seq, key=lambda e: e.seq)
        if index == len(self.log) or self.log[index].seq != seq:
            raise KeyError(f"log entry {seq} is not in memory")
        return self.log[index]

    # ------------------------------------------------------------------ reading the state

    @property
    def game(self) -> GameName:
        return self.config.game

    @property
    def n_seats(self) -> int:
        return len(self.config.seats)

    @property
    def deal(self) -> TrickDeal:
        """The current deal (the last one dealt)."""
        deal = self.series.deal
        if deal is None:
            raise RuntimeError("the table has no deal yet")
        return deal

    @property
    def closed(self) -> bool:
        """Whether the person resigned: the table takes no more actions."""
        return self._closed

    @property
    def phase(self) -> TablePhase:
        """``tribute``, ``play``, ``over`` (the deal) or ``closed`` (resigned)."""
        return "closed" if self.closed else _PHASES[self.deal.phase]

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
        data = observation(deal, seat, history=False, reply=True).to_json()
        if history:
            data["history"] = items[: len(deal.plays)]
        return data

    def history_json(self) -> list[dict[str, Any]]:
        """The current deal's public history as ``observation(…).to_json()["history"]``
        writes it (the same for every seat). The list is kept and extended between calls
        (a new list for a new deal): read it, never change it."""
        deal = self.deal
        cache = self._history
        if cache.deal is not deal:
            cache.deal, cache.items = deal, []
        for seat_played, combo in deal.plays[len(cache.items) :]:
            cache.items.append(history_entry_json(seat_played, combo))
        return cache.items

    def seats_json(self) -> list[dict[str, Any]]:
        return [s.to_json() for s in self.config.seats]

    def match_json(self) -> dict[str, Any]:
        """Match levels (Guandan) or running totals (Run Fast) and the last settlement."""
        return self.series.to_json()

    def records(self) -> list[dict[str, Any]]:
        """The game records (docs/cli.md "Game records") of every finished deal since the
        last restart, in order."""
        if not self.keep_finished:
            raise RuntimeError("this table keeps only its current deal: rebuild it from its log")
        record = self.config.rules.record
        return [record(d) for d in self.series.finished]

    def hands(self) -> list[list[Card]]:
        """Every seat's current hand — the truth, for tests and audits; never sent to a seat."""
        return [self.deal.hand(s) for s in range(self.n_seats)]

    def seats_to_act(self) -> list[int]:
        """The seats whose action the game waits for (several during the return phase)."""
        return [] if self.closed else self.deal.to_act()

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
        return deal.phase == PHASE_PLAY and all(deal.size[s] == 0 for s in self.config.person_seats)

    def public_event(self, entry: LogEntry, seat: int | None) -> dict[str, Any]:
        """The event of ``entry`` as ``seat`` may see it (``None``: a spectator); see
        :func:`cardavia.rules.observation.public_event`."""
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
            self.series.restart()
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
        except AmbiguousPlay as err:
            raise ActionError(err.code, str(err), self._options(seat, action)) from None
        except (RulesError, CardError) as err:
            raise ActionError(err.code, str(err)) from None
        return self._log_new_events()

    def _check_play_turn(self, seat: int) -> None:
        deal = self.deal
        if deal.phase == PHASE_OVER:
            raise ActionError("not_allowed", "the deal is over; ask for the next deal")
        if deal.phase == PHASE_TRIBUTE:
            raise ActionError("not_your_turn", "the return tribute is not finished; nobody plays yet")
        if deal.turn != seat:
            raise ActionError("not_your_turn", f"it is seat {deal.turn}'s turn, not yours")

    def _play(self, seat: int, action: Play) -> None:
        cards = parse_cards(list(action.cards))
        if action.type is None and action.rank is not None:
            raise ActionError("bad_message", "an interpretation needs its type as well as its rank")
        interpretation = None if action.type is None else (action.type, action.rank)
        self.deal.play(seat, cards, interpretation)

    def _return(self, seat: int, action: ReturnCard) -> None:
        deal = self.deal
        if not self.config.rules.levels:
            raise NotAllowed(f"{self.config.rules.title} has no return tribute")
        if deal.phase != PHASE_TRIBUTE or seat not in deal.pending_returns:
            raise NotAllowed("you owe no return card now")
        card = Card.parse(action.card)
        if card not in deal.hand(seat):
            raise ActionError("illegal", f"you do not hold {card}")
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

    def ai_request(self) -> AiRequest | None:
        """What the AI seat due now must decide, or None: the seat, its agent's level and
        seed, and that seat's observation only. :func:`decide` turns it into a decision
        (in this process or another: everything in it pickles), :meth:`apply_ai` applies it."""
        seat = self.pending_ai_seat()
        if seat is None:
            return None
        return self.seat_request(seat, self.config.seats[seat].difficulty or STRONGEST)

    def seat_request(self, seat: int, difficulty: str) -> AiRequest | None:
        """:meth:`ai_request` for ``seat`` played by the AI at ``difficulty`` — an AI seat, or
        a person's seat played by a stand-in (the person is away, or their turn timer ran
        out); None if ``seat`` is not awaited. The agent sees only that seat's observation."""
        if seat not in self.seats_to_act():
            return None
        return AiRequest(seat, difficulty, self._decision_seed(seat), self.observation(seat), self.seq)

    def apply_ai(self, request: AiRequest, decision: Decision | ReturnDecision | None) -> list[LogEntry]:
        """Carry out ``decision`` (worked out for ``request``, at this table's current
        state); the new log entries, a play or pass with the AI's public reason. ``None``
        (the agent failed) or a decision the rules refuse plays a random legal move instead:
        an agent bug must not stall the table."""
        if request.seq != self.seq or request.seat not in self.seats_to_act():
            raise RuntimeError(f"the AI request of seq {request.seq} is stale (the table is at {self.seq})")
        seat = request.seat
        if decision is not None:
            try:
                apply_decision(self.deal, seat, decision)
            except Exception:
                log.exception("the %s agent chose an illegal move at seat %s", request.difficulty, seat)
                decision = None
        if decision is None:
            take_turn(self.deal, seat, RandomAgent(request.seed))
        entries = self._log_new_events()
        why = public_reason(decision) if isinstance(decision, Decision) else None
        if why is not None and entries and entries[0].kind in ("played", "passed"):
            entries[0].event["reason"] = why  # public: what the other seats may read of it
        return entries

    def step_seat(self, seat: int, difficulty: str) -> list[LogEntry]:
        """Let the AI at ``difficulty`` take ``seat``'s next action here (see :meth:`seat_request`)."""
        request = self.seat_request(seat, difficulty)
        if request is None:
            return []
        return self.apply_ai(request, decide_safely(request.difficulty, request.seed, request.observation))

    def step_ai(self) -> list[LogEntry]:
        """Let one AI seat take its next action; the new log entries (none if no AI is due)."""
        request = self.ai_request()
        if request is None:
            return []
        return self.apply_ai(request, decide_safely(request.difficulty, request.seed, request.observation))

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
        seed, obs = self.hint_request(seat)
        return hint_of(decide(STRONGEST, seed, obs))

    def hint_request(self, seat: int) -> tuple[int, Observation]:
        """What a hint for ``seat`` is worked out from: (seed, the seat's observation);
        :class:`ActionError` when the seat has nothing to do. ``hint_of(decide(STRONGEST,
        *request))`` is the hint, computed wherever."""
        if self.closed:
            raise ActionError("not_allowed", "this table is closed; start a new one")
        if seat not in self.seats_to_act() or not self.is_person(seat):
            raise ActionError("not_your_turn", "there is nothing for you to do now")
        return self._decision_seed(seat), self.observation(seat)

    # ------------------------------------------------------------------ the log

    def _decision_seed(self, seat: int) -> int:
        deal = self.deal
        return decision_seed(self.config.seed, deal.deal_index, len(deal.plays), seat, deal.phase == PHASE_TRIBUTE)

    def _start_deal(self) -> list[LogEntry]:
        self._cursor = Cursor(self.series.start_deal(), 0)
        return self._log_new_events()

    def _append_table_event(self, event_json: dict[str, Any]) -> list[LogEntry]:
        entry = LogEntry(self._seq + 1, event_json)
        self._keep(entry)
        if entry.kind == RESIGNED:
            self._closed = True
        return [entry]

    def _log_new_events(self) -> list[LogEntry]:
        cursor = self._cursor
        deal = cursor.deal
        assert deal is not None
        new: list[Event] = list(deal.events[cursor.logged :])
        cursor.logged = len(deal.events)
        entries: list[LogEntry] = []
        for event in new:
            entry = LogEntry(self._seq + 1, event_to_json(event))
            self._keep(entry)
            entries.append(entry)
            if isinstance(event, DealEnded):
                self.series.finish_deal()
        return entries


def random_seed() -> int:
    """A fresh table seed (non-negative, fits in 63 bits)."""
    return random.SystemRandom().randrange(2**63)
