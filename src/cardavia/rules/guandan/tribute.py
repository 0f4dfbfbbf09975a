"""Tribute, anti-tribute and return (G-3), as pure functions of places and hands.

>>> from cardavia.cards import parse_cards
>>> hands = [parse_cards("3s 4s"), parse_cards("RJ 5d"), parse_cards("As 6c"), parse_cards("Kd 9s")]
>>> plan = plan_tribute([0, 2, 1, 3], hands, level=2)   # double win by seats 0 and 2
>>> [(t.giver, t.receiver, str(t.card)) for t in plan.tributes], plan.cancelled
([(1, 0, 'RJ'), (3, 2, 'Kd')], False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cardavia.cards import Card, card_from_code
from cardavia.rules.errors import RulesError
from cardavia.rules.guandan.combos import group_power, wild_code

SUIT_ORDER = (0, 1, 2, 3)  # s, h, c, d: the documented tie order among equal tribute cards


def partner(seat: int) -> int:
    """The seat opposite (G-1.1)."""
    return (seat + 2) % 4


def card_strength(c: Card, level: int) -> int:
    """Single-card order (G-4.4) as an integer."""
    return group_power(int(c.rank), level)


def full_places(places: Sequence[int]) -> list[int]:
    """Complete a finishing order: two seats are enough for a 1st+2nd finish (cli.md)."""
    seats = list(places)
    if len(set(seats)) != len(seats) or any(not 0 <= s <= 3 for s in seats):
        raise RulesError(f"places {list(places)} must list distinct seats from 0 to 3")
    if len(seats) < 2:
        raise RulesError("places need at least the first two finishers")
    if len(seats) == 2:
        if seats[1] != partner(seats[0]):
            raise RulesError(
                f"places {seats} name two finishers who are not partners; give all four places"
            )
        rest = [s for s in range(4) if s not in seats]
        return seats + rest  # the opponents' order does not matter for tribute or levels
    if len(seats) == 3:
        seats.append(next(s for s in range(4) if s not in seats))
    return seats


def tribute_card(hand: Sequence[Card], level: int) -> Card | None:
    """The strongest card of a hand by single-card order, wild hearts excluded (G-3.2).

    Ties between suits go by suit order s, h, c, d.
    """
    wc = wild_code(level)
    best: Card | None = None
    best_key = (-1, 0)
    for c in hand:
        if c.code == wc:
            continue
        key = (card_strength(c, level), -(c.code % 4) if c.suit is not None else 0)
        if key > best_key:
            best, best_key = c, key
    return best


def return_eligible(hand: Sequence[Card], level: int) -> list[Card]:
    """The cards a recipient may return (G-3.5): non-wild 2–T, else the lowest-strength cards."""
    wc = wild_code(level)
    distinct = sorted({c for c in hand}, key=lambda c: c.code)
    low = [c for c in distinct if c.code != wc and c.suit is not None and int(c.rank) <= 10]
    if low:
        return low
    pool = [c for c in distinct if c.code != wc] or distinct
    if not pool:
        return []
    weakest = min(card_strength(c, level) for c in pool)
    return [c for c in pool if card_strength(c, level) == weakest]


@dataclass(frozen=True, slots=True)
class Transfer:
    giver: int
    receiver: int
    card: Card


@dataclass(frozen=True, slots=True)
class TributePlan:
    """What G-3 decides for a new deal, before anyone returns a card."""

    payers: tuple[int, ...]
    cancelled: bool
    tributes: tuple[Transfer, ...]
    returns: tuple[tuple[int, int], ...]  # (recipient, payer): who returns to whom
    leader: int  # G-3.4 / G-3.6
    first: int = field(default=0)


def plan_tribute(places: Sequence[int], hands: Sequence[Sequence[Card]], level: int) -> TributePlan:
    """Who pays whom, or the anti-tribute (G-3.1–G-3.4, G-3.6), from the previous places.

    ``hands`` are the four newly dealt hands (G-3.7).
    """
    order = full_places(places)
    if len(hands) != 4:
        raise RulesError(f"tribute needs four hands, got {len(hands)}")
    first, second, last = order[0], order[1], order[3]
    double = second == partner(first)
    payers: tuple[int, ...] = ((first + 1) % 4, (first + 3) % 4) if double else (last,)
    red_jokers = sum(1 for p in payers for c in hands[p] if c.code == 53)
    if red_jokers >= 2:  # G-3.4 anti-tribute
        return TributePlan(payers, True, (), (), first, first)
    cards: dict[int, Card] = {}
    for p in payers:
        card = tribute_card(hands[p], level)
        if card is None:
            raise RulesError(f"seat {p} has no card it could pay as tribute")
        cards[p] = card
    tributes: tuple[Transfer, ...]
    returns: tuple[tuple[int, int], ...]
    if double:
        a, b = payers[0], payers[1]  # a = first payer after 1st place in turn order (G-3.3)
        if card_strength(cards[b], level) > card_strength(cards[a], level):
            to_first, to_second = b, a
        else:
            to_first, to_second = a, b
        tributes = (
            Transfer(to_first, first, cards[to_first]),
            Transfer(to_second, second, cards[to_second]),
        )
        returns = ((first, to_first), (second, to_second))
        leader = to_first  # G-3.6: received the return from 1st place
    else:
        tributes = (Transfer(last, first, cards[last]),)
        returns = ((first, last),)
        leader = last
    return TributePlan(payers, False, tributes, returns, leader, first)


def hands_after_tribute(
    hands: Sequence[Sequence[Card]], tributes: Sequence[Transfer]
) -> list[list[Card]]:
    """The hands once the tribute cards have moved."""
    out = [list(h) for h in hands]
    for t in tributes:
        out[t.giver].remove(t.card)
        out[t.receiver].append(t.card)
    return out


__all__ = [
    "Transfer",
    "TributePlan",
    "card_from_code",
    "card_strength",
    "full_places",
    "hands_after_tribute",
    "partner",
    "plan_tribute",
    "return_eligible",
    "tribute_card",
]
