"""One Run Fast deal as a state machine (R-1 – R-5), built on :class:`TrickDeal`.

>>> hands, _ = deal_hands(7)
>>> deal = RunFastDeal.start(hands)
>>> deal.size, deal.is_opening, str(deal.must_include)
([16, 16, 16], True, '3h')
>>> deal.turn == next(s for s in range(3) if Card.parse("3h") in deal.hand(s))
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from cardavia.cards import Card, card_from_code, runfast_deck
from cardavia.rules.combo import Combo
from cardavia.rules.errors import RulesError
from cardavia.rules.events import DealEnded, DealStarted, Event, Played
from cardavia.rules.runfast.combos import (
    ACE_BOMB_TIER,
    BOMB_TIER,
    THREE_OF_HEARTS,
    check_cards,
    readings_of,
)
from cardavia.rules.runfast.moves import Pattern, all_moves, concretize, has_reply, patterns
from cardavia.rules.runfast.settlement import settle
from cardavia.rules.trick import TrickDeal

HAND_SIZE = 16
N_SEATS = 3
THREE_HEARTS: Card = card_from_code(THREE_OF_HEARTS)


def deal_hands(seed: int) -> tuple[tuple[tuple[Card, ...], ...], int]:
    """Shuffle the 48-card pack with ``seed``: three 16-card hands and the holder of ``3h``,
    who leads (R-2.1 – R-2.3).

    >>> hands, leader = deal_hands(1)
    >>> [len(h) for h in hands], Card.parse("3h") in hands[leader]
    ([16, 16, 16], True)
    """
    rng = random.Random(seed)
    deck = runfast_deck()
    rng.shuffle(deck)
    hands = tuple(
        tuple(sorted(deck[i * HAND_SIZE : (i + 1) * HAND_SIZE], key=lambda c: c.code))
        for i in range(N_SEATS)
    )
    return hands, _holder_of_three_hearts(hands)


def _holder_of_three_hearts(hands: Sequence[Sequence[Card]]) -> int:
    for seat, hand in enumerate(hands):
        if THREE_HEARTS in hand:
            return seat
    raise RulesError("no hand holds 3h; its holder leads the first play (R-2.3)")


class RunFastDeal(TrickDeal):
    """A Run Fast deal: the holder of ``3h`` leads with it, everyone must beat when they can,
    and the first player out wins and settles at once.

    Bomb bonuses (R-5.4) are tracked trick by trick: a bomb played as a reply becomes the
    trick's *standing* bomb; a stronger bomb replaces it; when the trick ends (or the deal
    ends on it) the standing bomb's seat earns the bonus.
    """

    game = "runfast"
    n_seats = N_SEATS

    def __init__(self, start: DealStarted) -> None:
        if start.game != self.game:
            raise RulesError(f"a {start.game} deal cannot be played as Run Fast")
        super().__init__(start)
        check_cards([c for hand in start.hands for c in hand])
        for seat, hand in enumerate(start.hands):
            if not hand:
                raise RulesError(f"seat {seat} is dealt no cards; every seat needs a hand")
        holder = _holder_of_three_hearts(start.hands)
        if start.leader != holder:
            raise RulesError(
                f"seat {holder} holds 3h and must lead (R-2.3), not seat {start.leader}"
            )
        self.bomb_bonuses: list[int] = []
        self.standing_bomb: int | None = None  # seat of the bomb reply on top of this trick
        self._opening = True

    # ------------------------------------------------------------------ construction

    @classmethod
    def start(
        cls, hands: Sequence[Sequence[Card]], *, seed: int = 0, deal_index: int = 0
    ) -> RunFastDeal:
        """A new deal from dealt hands (seat 0 first); the holder of ``3h`` leads (R-2.3).

        Hands need not hold 16 cards (handy for tests), but together they must come from
        the 48-card pack, each seat needs at least one card and someone must hold ``3h``.
        """
        frozen = tuple(tuple(h) for h in hands)
        if len(frozen) != N_SEATS:
            raise RulesError(f"Run Fast needs {N_SEATS} hands, got {len(frozen)}")
        check_cards([c for hand in frozen for c in hand])
        leader = _holder_of_three_hearts(frozen)
        return cls(DealStarted(cls.game, deal_index, seed, frozen, None, leader, None))

    @classmethod
    def fresh(cls, seed: int, level: int | None = None) -> RunFastDeal:
        """A deal shuffled from ``seed`` (``level`` is ignored: Run Fast has none)."""
        hands, _ = deal_hands(seed)
        return cls.start(hands, seed=seed)

    @classmethod
    def from_events(cls, events: Sequence[Event]) -> RunFastDeal:
        """Rebuild a deal by folding its event log."""
        if not events or not isinstance(events[0], DealStarted):
            raise RulesError("an event log starts with DealStarted")
        deal = cls(events[0])
        for event in events[1:]:
            deal.apply(event)
        return deal

    # ------------------------------------------------------------------ reading the state

    @property
    def is_opening(self) -> bool:
        """Whether no card has been played yet this deal (the next play is the opening)."""
        return self._opening

    @property
    def opening(self) -> bool:
        return self._opening

    @property
    def must_include(self) -> Card | None:
        """``3h`` while the opening play is due (R-2.3), else None."""
        return THREE_HEARTS if self._opening else None

    def public_extras(self) -> dict[str, Any]:
        """Public Run Fast facts for observations: the bomb bonuses earned so far."""
        return {"bomb_bonuses": list(self.bomb_bonuses)}

    def public_fields(self, seat: int) -> dict[str, Any]:
        """The opening rule (R-2.3: ``3h`` must be in the first play, told to its holder when
        it is their turn) and the bomb bonuses earned so far (R-5.4)."""
        opening = self._opening
        return {
            "opening": opening,
            "must_include": THREE_HEARTS if opening and self.turn == seat else None,
            "extra": self.public_extras(),
        }

    def has_reply(self, seat: int) -> bool:
        return self.top is not None and has_reply(self.cnt[seat], self.top)

    def moves_for(self, seat: int) -> list[Combo]:
        return all_moves(self.cnt[seat], self.top, self._opening)

    def move_patterns(self, seat: int) -> list[Pattern]:
        """The abstract moves ``seat`` may play now (see ``moves.patterns``)."""
        return patterns(self.cnt[seat], self.top, self._opening)

    # ------------------------------------------------------------------ rule hooks

    def readings(self, cards: Sequence[Card]) -> list[Combo]:
        return readings_of(cards, self._opening)

    def check_allowed(self, seat: int, combo: Combo) -> str | None:
        if self._opening and THREE_HEARTS not in combo.cards:
            return f"the opening play must include 3h (R-2.3); {combo.describe()} does not"
        return super().check_allowed(seat, combo)

    def check_pass(self, seat: int) -> str | None:
        """R-3.4: a follower may pass only when no reply exists, bombs included."""
        if self.top is None:
            return f"seat {seat} leads and cannot pass"
        found = patterns(self.cnt[seat], self.top, self._opening)
        if not found:
            return None
        example = concretize(found[0], self.cnt[seat], self._opening)
        cards = " ".join(str(c) for c in example.cards)
        return (
            f"seat {seat} must beat {self.top.describe()} (R-3.4); for example {cards}"
            f" ({example.describe()})"
        )

    def deal_finished(self) -> bool:
        return len(self.places) >= 1  # the first player out ends the deal

    def final_places(self) -> tuple[int, ...]:
        return (self.places[0],)

    def settlement(self, places: tuple[int, ...]) -> dict[str, Any]:
        """R-5: the winner, each seat's score, the bomb bonuses and who never played."""
        winner = places[0]
        bonuses = self._bonuses_at_end()
        never = [s for s in range(N_SEATS) if not self.played_any[s]]
        scores = settle(winner, [self.hand(s) for s in range(N_SEATS)], never, bonuses)
        return {"winner": winner, "scores": scores, "bomb_bonuses": bonuses, "never_played": never}

    def _bonuses_at_end(self) -> list[int]:
        """Bonuses earned, plus the standing bomb of the trick the deal ends in (R-5.4)."""
        extra = [] if self.standing_bomb is None else [self.standing_bomb]
        return [*self.bomb_bonuses, *extra]

    # ------------------------------------------------------------------ fold

    def apply(self, event: Event) -> None:
        if isinstance(event, Played):
            tier = event.combo.tier
            if tier in (BOMB_TIER, ACE_BOMB_TIER) and self.top is not None:
                # a bomb played as a reply over another player's cards stands; a
                # stronger bomb in the same trick takes the bonus away from it.
                self.standing_bomb = event.seat
            self._opening = False
        elif isinstance(event, DealEnded):
            self.bomb_bonuses = self._bonuses_at_end()
            self.standing_bomb = None
        super().apply(event)

    def on_trick_end(self, winner: int) -> None:
        if self.standing_bomb is not None:
            self.bomb_bonuses.append(self.standing_bomb)
            self.standing_bomb = None


def __getattr__(name: str) -> object:
    """``RunFastSession`` lived here; it is now in :mod:`cardavia.rules.runfast.session`."""
    if name == "RunFastSession":
        from cardavia.rules.runfast.session import RunFastSession

        return RunFastSession
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
