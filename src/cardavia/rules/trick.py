"""The deal as a state machine, shared by both games: turns, passes, tricks, finishing.

A deal is the fold of its events (:mod:`cardavia.rules.events`). Live actions (:meth:`play`,
:meth:`pass_turn`) validate first and then apply the event they produce, so a refused
action never changes the state. Games plug in their combinations and turn rules by
overriding a few hooks (:class:`cardavia.rules.guandan.deal.GuandanDeal`,
:class:`cardavia.rules.runfast.deal.RunFastDeal`).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from enum import StrEnum
from typing import Any, ClassVar, Self, TypeVar

from cardavia.cards import (
    ALL_CARDS,
    N_CODES,
    Card,
    CardError,
    card_from_code,
    counts,
    format_cards,
    parse_cards,
    rank_from_symbol,
)
from cardavia.rules.combo import Combo, ComboType, beats
from cardavia.rules.errors import (
    AmbiguousPlay,
    BadInterpretation,
    CardsNotInHand,
    DealOver,
    IllegalPass,
    IllegalPlay,
    NotAllowed,
    NotYourTurn,
)
from cardavia.rules.events import (
    DealEnded,
    DealStarted,
    Event,
    LeaderSet,
    Passed,
    Played,
    Returned,
    TributeCancelled,
    TributePaid,
)
from cardavia.rules.observation import Observation, observation

#: What a caller may pass to say which reading is meant: a Combo, a type, or (type, rank).
Interpretation = Combo | ComboType | str | tuple[ComboType | str, str | int | None] | None

_E = TypeVar("_E", Played, Passed)



class Phase(StrEnum):
    """Where a deal stands: the return tribute (Guandan), play, or over."""

    TRIBUTE = "tribute"
    PLAY = "play"
    OVER = "over"


PHASE_TRIBUTE = Phase.TRIBUTE
PHASE_PLAY = Phase.PLAY
PHASE_OVER = Phase.OVER


class TrickDeal(ABC):
    """One deal in progress. Subclasses set ``game`` and ``n_seats`` and the rule hooks."""

    game: ClassVar[str]
    n_seats: ClassVar[int]

    def __init__(self, start: DealStarted) -> None:
        if len(start.hands) != self.n_seats:
            raise ValueError(f"{self.game} needs {self.n_seats} hands, got {len(start.hands)}")
        self.seed = start.seed
        self.deal_index = start.deal
        self.dealt: tuple[tuple[Card, ...], ...] = start.hands
        self.cnt: list[list[int]] = [counts(h) for h in start.hands]
        self.size: list[int] = [len(h) for h in start.hands]
        self.phase: Phase = PHASE_PLAY if start.leader is not None else PHASE_TRIBUTE
        self.turn: int | None = start.leader
        self.first_leader: int | None = start.leader
        self.top: Combo | None = None
        self.top_seat: int | None = None
        self.passes = 0
        self.places: list[int] = []
        self.played_any: list[bool] = [False] * self.n_seats
        self.plays: list[tuple[int, Combo | None]] = []  # every action of the play phase
        self.trick: list[tuple[int, Combo | None]] = []  # the current trick's actions
        self.result: dict[str, Any] | None = None
        self.events: list[Event] = [start]
        #: recipient → payer for each return card still owed (G-3.5); empty outside tribute
        self.pending_returns: dict[int, int] = {}

    @classmethod
    @abstractmethod
    def fresh(cls, seed: int, level: int | None = None) -> Self:
        """A self-contained first deal shuffled from ``seed`` (the game's own level rules)."""

    # ------------------------------------------------------------------ reading the state

    def hand(self, seat: int) -> list[Card]:
        """The cards ``seat`` holds, sorted by code."""
        out: list[Card] = []
        for card, n in zip(ALL_CARDS, self.cnt[seat], strict=True):  # hot: every observation
            if n:
                out.append(card)
                if n > 1:
                    out.extend([card] * (n - 1))
        return out

    def is_active(self, seat: int) -> bool:
        return self.size[seat] > 0 and self.phase != PHASE_OVER

    @property
    def over(self) -> bool:
        return self.phase == PHASE_OVER

    @property
    def leading(self) -> bool:
        """Whether the player to move leads a fresh trick."""
        return self.top is None

    def next_active(self, seat: int) -> int:
        """The next seat after ``seat`` in turn order that still holds cards."""
        for step in range(1, self.n_seats + 1):
            s = (seat + step) % self.n_seats
            if self.size[s] > 0:
                return s
        return seat

    def observation(self, seat: int) -> Observation:
        """What ``seat`` may know of this deal (see :func:`cardavia.rules.observation.observation`)."""
        return observation(self, seat)

    @property
    def level_rank(self) -> int | None:
        """The rank the deal is played at (Guandan's level, G-1.2); None for a game without."""
        return None

    @property
    def opening(self) -> bool:
        """Whether the next play is the deal's opening play under an opening rule (R-2.3)."""
        return False

    def to_act(self) -> list[int]:
        """The seats whose action the deal waits for: the recipients owing a return card in
        the tribute phase (G-3.5, in seat order), the player to move in play, none when over."""
        if self.phase == PHASE_TRIBUTE:
            return sorted(self.pending_returns)
        if self.phase == PHASE_PLAY and self.turn is not None:
            return [self.turn]
        return []

    def can_follow(self, seat: int) -> bool:
        """Whether ``seat`` is to move on a trick it did not lead (it may reply or pass)."""
        return self.phase == PHASE_PLAY and self.turn == seat and self.top is not None

    def can_pass(self, seat: int) -> bool:
        """Whether ``seat`` may pass now (its turn, a trick to follow, the game allows it)."""
        return (
            self.phase == PHASE_PLAY
            and self.turn == seat
            and self.top is not None
            and self.check_pass(seat) is None
        )

    def legal_moves(self, seat: int | None = None) -> list[Combo]:
        """Every distinct play ``seat`` (default: the seat to move) may make now, as concrete
        combinations (docs/cli.md ``legal``: same cards and same (type, rank) = one move).
        Empty when it is not that seat's turn to play; a pass is not listed (see
        :meth:`can_pass`). Play one with :meth:`play_combo`."""
        who = self.turn if seat is None else seat
        if self.phase != PHASE_PLAY or who is None or who != self.turn:
            return []
        return self.moves_for(who)

    @abstractmethod
    def has_reply(self, seat: int) -> bool:
        """Whether ``seat`` holds anything that beats the trick's top play (bombs included)."""

    @abstractmethod
    def moves_for(self, seat: int) -> list[Combo]:
        """The game's concrete legal plays for ``seat`` in the current situation."""

    def public_fields(self, seat: int) -> dict[str, Any]:
        """The game's own fields of :class:`~cardavia.rules.observation.Observation` for
        ``seat`` (levels, tribute, opening rule …); only what that seat may know."""
        return {}

    # ------------------------------------------------------------------ the tribute phase
    # (a Guandan phase; a game without one never enters it and owes no return)

    def return_options(self, seat: int) -> list[Card]:
        """The cards ``seat`` may return now (empty if it owes no return)."""
        return []

    def return_card(self, seat: int, card: Card) -> Returned:
        """``seat`` returns ``card`` to its tribute payer (G-3.5)."""
        if self.phase == PHASE_OVER:
            raise DealOver("the deal is over")
        raise NotAllowed(f"{self.game} has no return tribute; seat {seat} owes no card")

    # ------------------------------------------------------------------ rule hooks

    @abstractmethod
    def readings(self, cards: Sequence[Card]) -> list[Combo]:
        """Every reading of ``cards`` in the current situation."""

    def check_allowed(self, seat: int, combo: Combo) -> str | None:
        """Why ``combo`` may not be played now (None when it may)."""
        if self.top is not None and not beats(combo, self.top):
            return f"{combo.describe()} does not beat {self.top.describe()}"
        return None

    @abstractmethod
    def check_pass(self, seat: int) -> str | None:
        """Why ``seat`` may not pass now (None when it may)."""

    @abstractmethod
    def deal_finished(self) -> bool:
        """Whether the finishing order so far ends the deal."""

    def final_places(self) -> tuple[int, ...]:
        """The finishing order recorded when the deal ends."""
        return tuple(self.places)

    @abstractmethod
    def settlement(self, places: tuple[int, ...]) -> dict[str, Any]:
        """The result recorded in :class:`DealEnded`."""

    def handover(self, last_player: int) -> int:
        """Who leads when ``last_player`` has finished and everyone else passed."""
        return self.next_active(last_player)

    # ------------------------------------------------------------------ live actions

    def _check_turn(self, seat: int) -> None:
        if self.phase == PHASE_OVER:
            raise DealOver("the deal is over; no more plays")
        if self.phase != PHASE_PLAY:
            raise NotYourTurn(f"the deal is in the {self.phase} phase; nobody plays yet")
        if not 0 <= seat < self.n_seats:
            raise NotYourTurn(f"seat {seat} does not exist; seats are 0 to {self.n_seats - 1}")
        if seat != self.turn:
            raise NotYourTurn(f"it is seat {self.turn}'s turn, not seat {seat}'s")

    def _check_holds(self, seat: int, cards: Sequence[Card]) -> None:
        need = counts(cards)
        have = self.cnt[seat]
        for code in range(N_CODES):
            if need[code] > have[code]:
                card = card_from_code(code)
                raise CardsNotInHand(
                    f"seat {seat} does not hold {card}"
                    + (f" {need[code]} times" if need[code] > 1 else "")
                )

    def legal_readings(self, seat: int, cards: Sequence[Card]) -> list[Combo]:
        """The readings of ``cards`` that ``seat`` may play now (turn not checked)."""
        return [r for r in self.readings(cards) if self.check_allowed(seat, r) is None]

    def choose_reading(
        self, seat: int, cards: Sequence[Card], interpretation: Interpretation = None
    ) -> Combo:
        """Validate a play and return the reading it is played as (G-5.6). Changes nothing."""
        if not cards:
            raise IllegalPlay("a play needs at least one card; to pass, pass")
        self._check_holds(seat, cards)
        readings = self.readings(cards)
        text = format_cards(cards)
        if not readings:
            raise IllegalPlay(f"{text} is not a combination in {self.game}")
        if interpretation is not None:
            chosen = _match_interpretation(readings, interpretation)
            if chosen is None:
                options = ", ".join(r.describe() for r in readings)
                raise BadInterpretation(
                    f"{text} cannot be read as {_describe_interpretation(interpretation)};"
                    f" it reads as {options}"
                )
            why = self.check_allowed(seat, chosen)
            if why is not None:
                raise IllegalPlay(why)
            return chosen
        legal = [r for r in readings if self.check_allowed(seat, r) is None]
        if not legal:
            why = self.check_allowed(seat, readings[-1])
            raise IllegalPlay(why or f"{text} may not be played now")
        if len(legal) > 1:
            options = ", ".join(r.describe() for r in legal)
            raise AmbiguousPlay(f"{text} can be played as {options}; choose one")
        return legal[0]

    def play(
        self, seat: int, cards: Sequence[Card] | str, interpretation: Interpretation = None
    ) -> Played:
        """Play ``cards`` for ``seat`` (with the intended reading when several are legal)."""
        self._check_turn(seat)
        card_list = _as_cards(cards)
        combo = self.choose_reading(seat, card_list, interpretation)
        return self._act(Played(seat, combo))

    def play_combo(self, seat: int, combo: Combo) -> Played:
        """Play a reading produced by the engine (an agent's move); validated the same way."""
        self._check_turn(seat)
        chosen = self.choose_reading(seat, list(combo.cards), combo)
        return self._act(Played(seat, chosen))

    def pass_turn(self, seat: int) -> Passed:
        """Pass for ``seat``."""
        self._check_turn(seat)
        if self.top is None:
            raise IllegalPass(f"seat {seat} leads and cannot pass")
        why = self.check_pass(seat)
        if why is not None:
            raise IllegalPass(why)
        return self._act(Passed(seat))

    def _act(self, event: _E) -> _E:
        self.apply(event)
        if isinstance(event, Played) and self.phase == PHASE_PLAY and self.deal_finished():
            places = self.final_places()
            self.apply(DealEnded(places, self.settlement(places)))
        return event

    # ------------------------------------------------------------------ the fold

    def apply(self, event: Event) -> None:
        """Fold one event into the state (no validation: events come from validated actions)."""
        if isinstance(event, Played):
            self._apply_played(event)
        elif isinstance(event, Passed):
            self._apply_passed(event)
        elif isinstance(event, LeaderSet):
            self.phase = PHASE_PLAY
            self.turn = event.seat
            self.first_leader = event.seat
        elif isinstance(event, TributePaid | Returned):
            self.cnt[event.giver][event.card.code] -= 1
            self.size[event.giver] -= 1
            self.cnt[event.receiver][event.card.code] += 1
            self.size[event.receiver] += 1
        elif isinstance(event, TributeCancelled):
            pass
        elif isinstance(event, DealEnded):
            self.phase = PHASE_OVER
            self.turn = None
            self.places = list(event.places)
            self.result = event.result
        elif isinstance(event, DealStarted):
            raise ValueError("a deal has exactly one DealStarted event, at its start")
        self.events.append(event)

    def _apply_played(self, event: Played) -> None:
        seat, combo = event.seat, event.combo
        cnt = self.cnt[seat]
        for c in combo.cards:
            cnt[c.code] -= 1
        self.size[seat] -= len(combo.cards)
        self.played_any[seat] = True
        if self.top is None:
            self.trick = []
        self.top = combo
        self.top_seat = seat
        self.passes = 0
        self.plays.append((seat, combo))
        self.trick.append((seat, combo))
        if self.size[seat] == 0:
            self.places.append(seat)
        self.turn = self.next_active(seat)

    def _apply_passed(self, event: Passed) -> None:
        seat = event.seat
        self.passes += 1
        self.plays.append((seat, None))
        self.trick.append((seat, None))
        assert self.top_seat is not None
        active = sum(1 for s in self.size if s > 0)
        last = self.top_seat
        if self.size[last] > 0:
            trick_over = self.passes >= active - 1
            leader = last
        else:
            trick_over = self.passes >= active
            leader = self.handover(last)
        if trick_over:
            self.top = None
            self.top_seat = None
            self.passes = 0
            self.turn = leader
            self.on_trick_end(last)
        else:
            self.turn = self.next_active(seat)

    def on_trick_end(self, winner: int) -> None:  # noqa: B027 - an optional hook
        """Hook called when a trick ends; ``winner`` made its last play."""


def _as_cards(cards: Sequence[Card] | str) -> list[Card]:
    if isinstance(cards, str):
        return parse_cards(cards)
    out = list(cards)
    for c in out:
        if not isinstance(c, Card):
            raise CardError(f"{c!r} is not a card")
    return out


def _describe_interpretation(interpretation: Interpretation) -> str:
    if isinstance(interpretation, Combo):
        return interpretation.describe()
    if isinstance(interpretation, tuple):
        return " ".join(str(x) for x in interpretation if x is not None)
    return str(interpretation)


def _match_interpretation(readings: list[Combo], interpretation: Interpretation) -> Combo | None:
    """The reading named by ``interpretation`` (a Combo, a type, or (type, rank))."""
    if interpretation is None:
        return None
    if isinstance(interpretation, Combo):
        want_type = interpretation.type
        want_rank = interpretation.rank
        for r in readings:
            if r.type == want_type and r.rank == want_rank and r.size == interpretation.size:
                return r
        return None
    type_part: ComboType | str
    rank_part: str | int | None
    if isinstance(interpretation, tuple):
        type_part, rank_part = interpretation
    else:
        type_part, rank_part = interpretation, None
    try:
        ctype = type_part if isinstance(type_part, ComboType) else ComboType.parse(str(type_part))
    except ValueError as err:  # an unknown type name is a bad interpretation, not a fault
        raise BadInterpretation(str(err)) from None
    candidates = [r for r in readings if r.type == ctype]
    if rank_part is not None:
        rank = (
            rank_from_symbol(rank_part) if isinstance(rank_part, str) else rank_part
        )
        candidates = [r for r in candidates if r.rank is not None and int(r.rank) == int(rank)]
    if len(candidates) == 1:
        return candidates[0]
    if len(candidates) > 1:
        options = ", ".join(r.describe() for r in candidates)
        raise AmbiguousPlay(f"that type fits several readings ({options}); name the rank too")
    return None
