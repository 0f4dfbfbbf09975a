"""One Guandan deal as a state machine (G-2 – G-6), built on :class:`TrickDeal`.

>>> hands, leader = deal_hands(7)
>>> deal = GuandanDeal.start(hands, level=2, leader=leader)
>>> str(deal.phase), deal.level, sum(deal.size)
('play', 2, 108)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardavia.cards import Card, guandan_deck
from cardavia.rules.combo import Combo
from cardavia.rules.errors import CardsNotInHand, DealOver, IllegalPlay, NotYourTurn, RulesError
from cardavia.rules.events import DealStarted, Event, LeaderSet, Returned, TributeCancelled, TributePaid
from cardavia.rules.guandan.combos import readings_of
from cardavia.rules.guandan.levels import DealSettlement, settle_deal
from cardavia.rules.guandan.moves import all_moves, patterns
from cardavia.rules.guandan.tribute import TributePlan, partner, plan_tribute, return_eligible
from cardavia.rules.trick import PHASE_OVER, PHASE_PLAY, PHASE_TRIBUTE, TrickDeal


def deal_hands(seed: int) -> tuple[tuple[tuple[Card, ...], ...], int]:
    """Shuffle two packs with ``seed``: four 27-card hands and a random first leader (G-2.4)."""
    rng = random.Random(seed)
    deck = guandan_deck()
    rng.shuffle(deck)
    hands = tuple(tuple(sorted(deck[i * 27 : (i + 1) * 27], key=lambda c: c.code)) for i in range(4))
    return hands, rng.randrange(4)


class GuandanDeal(TrickDeal):
    """A Guandan deal: tribute phase (when the match says so), then play until three finish."""

    game = "guandan"
    n_seats = 4

    def __init__(self, start: DealStarted) -> None:
        super().__init__(start)
        if start.level is None:
            raise ValueError("a Guandan deal needs a level")
        self.level: int = start.level
        self.team_levels: tuple[int, int] = start.team_levels or (start.level, start.level)
        self.tributes: list[TributePaid] = []
        self.returns: list[Returned] = []
        self.tribute_cancelled = False
        self.plan: TributePlan | None = None

    # ------------------------------------------------------------------ construction

    @classmethod
    def start(
        cls,
        hands: Sequence[Sequence[Card]],
        level: int,
        *,
        seed: int = 0,
        deal_index: int = 0,
        team_levels: tuple[int, int] | None = None,
        leader: int | None = None,
        previous_places: Sequence[int] | None = None,
    ) -> GuandanDeal:
        """A new deal: first deal of a match (``leader`` given) or with tribute (G-3)."""
        if (leader is None) == (previous_places is None):
            raise ValueError("give either the first leader or the previous deal's places")
        frozen = tuple(tuple(h) for h in hands)
        deal = cls(DealStarted("guandan", deal_index, seed, frozen, level, leader, team_levels))
        if previous_places is not None:
            deal.begin_tribute(plan_tribute(previous_places, frozen, level))
        return deal

    @classmethod
    def fresh(cls, seed: int, level: int | None = None) -> GuandanDeal:
        """A first-of-match deal shuffled from ``seed`` at ``level`` (both teams there; from
        the seed when not given: 2 + seed mod 13) — a self-contained board for tournaments."""
        hands, leader = deal_hands(seed)
        lv = 2 + seed % 13 if level is None else level
        return cls.start(hands, lv, seed=seed, team_levels=(lv, lv), leader=leader)

    @classmethod
    def from_events(cls, events: Sequence[Event]) -> GuandanDeal:
        """Rebuild a deal by folding its event log."""
        first = events[0]
        if not isinstance(first, DealStarted):
            raise ValueError("an event log starts with DealStarted")
        deal = cls(first)
        for event in events[1:]:
            deal.apply(event)
        return deal

    def begin_tribute(self, plan: TributePlan) -> None:
        """Apply the automatic part of G-3: the tribute cards move, or the anti-tribute."""
        if self.phase != PHASE_TRIBUTE:
            raise RulesError("tribute only happens before the first play")
        self.plan = plan
        if plan.cancelled:
            self.apply(TributeCancelled(plan.payers))
            self.apply(LeaderSet(plan.leader))
            return
        for t in plan.tributes:
            self.apply(TributePaid(t.giver, t.receiver, t.card))

    # ------------------------------------------------------------------ tribute phase

    def return_options(self, seat: int) -> list[Card]:
        """The cards ``seat`` may return now (empty if it owes no return)."""
        if seat not in self.pending_returns:
            return []
        return return_eligible(self.hand(seat), self.level)

    def return_card(self, seat: int, card: Card) -> Returned:
        """The recipient ``seat`` returns ``card`` to its payer (G-3.5)."""
        if self.phase == PHASE_OVER:
            raise DealOver("the deal is over")
        if seat not in self.pending_returns:
            raise NotYourTurn(f"seat {seat} owes no return card")
        if self.cnt[seat][card.code] == 0:
            raise CardsNotInHand(f"seat {seat} does not hold {card}")
        eligible = return_eligible(self.hand(seat), self.level)
        if card not in eligible:
            names = " ".join(str(c) for c in eligible)
            raise IllegalPlay(f"{card} may not be returned; choose one of {names}")
        event = Returned(seat, self.pending_returns[seat], card)
        self.apply(event)
        if not self.pending_returns:
            self.apply(LeaderSet(self._leader_after_returns()))
        return event

    def _leader_after_returns(self) -> int:
        """G-3.6: the payer who received the return from 1st place."""
        if self.plan is not None:
            return self.plan.leader
        first_tribute = self.tributes[0]
        return next(r.receiver for r in self.returns if r.giver == first_tribute.receiver)

    # ------------------------------------------------------------------ fold

    def apply(self, event: Event) -> None:
        if isinstance(event, TributePaid):
            self.tributes.append(event)
            self.pending_returns[event.receiver] = event.giver
        elif isinstance(event, Returned):
            self.returns.append(event)
            self.pending_returns.pop(event.giver, None)
        elif isinstance(event, TributeCancelled):
            self.tribute_cancelled = True
        super().apply(event)

    # ------------------------------------------------------------------ rule hooks

    def readings(self, cards: Sequence[Card]) -> list[Combo]:
        return readings_of(cards, self.level)

    @property
    def level_rank(self) -> int:
        return self.level

    def has_reply(self, seat: int) -> bool:
        return bool(patterns(self.cnt[seat], self.level, self.top))

    def moves_for(self, seat: int) -> list[Combo]:
        return all_moves(self.cnt[seat], self.level, self.top)

    def public_fields(self, seat: int) -> dict[str, Any]:
        """Levels, the tribute (public) and the returns ``seat`` gave or received (G-3.5:
        a returned card is known to its giver and receiver only)."""
        return {
            "level": self.level,
            "team_levels": self.team_levels,
            "tributes": tuple((t.giver, t.receiver, t.card) for t in self.tributes),
            "tribute_cancelled": self.tribute_cancelled,
            "pending_returns": tuple(self.pending_returns.items()),
            "return_options": tuple(self.return_options(seat)),
            "my_returns": tuple(
                (r.giver, r.receiver, r.card) for r in self.returns if seat in (r.giver, r.receiver)
            ),
        }

    def check_pass(self, seat: int) -> str | None:
        return None  # G-4.1: a follower may always pass

    def deal_finished(self) -> bool:
        return len(self.places) >= 3  # G-6.1

    def final_places(self) -> tuple[int, ...]:
        rest = [s for s in range(4) if s not in self.places]
        return (*self.places, *rest)

    def handover(self, last_player: int) -> int:
        """G-4.3: the finished player's partner leads, else the next active player."""
        mate = partner(last_player)
        if self.size[mate] > 0:
            return mate
        return self.next_active(last_player)

    def settlement(self, places: tuple[int, ...]) -> dict[str, Any]:
        s = self.settle(places)
        return {
            "winner_team": s.winner_team,
            "advance": s.advance,
            "levels": list(s.levels),
            "next_level": s.next_level,
            "match_winner": s.match_winner,
        }

    def settle(self, places: Sequence[int]) -> DealSettlement:
        return settle_deal(self.team_levels, self.level, places)

    @property
    def is_playing(self) -> bool:
        return self.phase == PHASE_PLAY


def __getattr__(name: str) -> object:
    """``GuandanMatch`` lived here; it is now in :mod:`cardavia.rules.guandan.match`."""
    if name == "GuandanMatch":
        from cardavia.rules.guandan.match import GuandanMatch

        return GuandanMatch
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
