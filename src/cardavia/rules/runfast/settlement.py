"""Run Fast settlement (R-5): what each seat wins or pays when the first player goes out.

Each opponent pays the winner 1 point per card left, doubled when that opponent never
played a card (R-5.1), plus 10 for holding the ``2s`` (R-5.2) and 10 for each unplayed bomb
still in hand (R-5.3). Each bomb bonus (R-5.4) pays its bomber 20, 10 from each opponent.
Every settlement sums to zero (R-5.5).

>>> from cardavia.cards import parse_cards
>>> settle(0, [[], parse_cards("5s 6d"), parse_cards("2s 9c 9d")], [], [])
[15, -2, -13]
>>> settle(1, [parse_cards("Ks"), [], parse_cards("4s 4h 4c 4d")], [2], [1])
[-11, 39, -28]
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from cardavia.cards import Card
from cardavia.rules.errors import RulesError
from cardavia.rules.runfast.combos import ACE_BOMB_CODES, TWO_OF_SPADES, check_cards

N_SEATS = 3
CARD_POINT = 1
NEVER_PLAYED_FACTOR = 2
TWO_OF_SPADES_PENALTY = 10
UNPLAYED_BOMB_PENALTY = 10
BOMB_BONUS = 20  # received by the bomber, half paid by each opponent


def unplayed_bombs(hand: Sequence[Card]) -> int:
    """The bombs still held (R-5.3): each rank held four times, and the three aces.

    >>> from cardavia.cards import parse_cards
    >>> unplayed_bombs(parse_cards("3s 3h 3c 3d As Ac Ad 7s"))
    2
    """
    per_rank: dict[int, int] = {}
    codes: set[int] = set()
    for c in hand:
        per_rank[c.rank] = per_rank.get(c.rank, 0) + 1
        codes.add(c.code)
    bombs = sum(1 for k in per_rank.values() if k == 4)
    if codes >= ACE_BOMB_CODES:
        bombs += 1
    return bombs


def payment(hand: Sequence[Card], never_played: bool) -> int:
    """What one opponent holding ``hand`` pays the winner (R-5.1 – R-5.3), before bonuses.

    >>> from cardavia.cards import parse_cards
    >>> payment(parse_cards("2s 5c 5d 5h 5s"), never_played=True)
    30
    """
    cards = len(hand) * CARD_POINT * (NEVER_PLAYED_FACTOR if never_played else 1)
    two = TWO_OF_SPADES_PENALTY if any(c.code == TWO_OF_SPADES for c in hand) else 0
    return cards + two + UNPLAYED_BOMB_PENALTY * unplayed_bombs(hand)


def settle(
    winner: int,
    hands_left: Sequence[Sequence[Card]],
    never_played: Collection[int],
    bomb_bonuses: Sequence[int],
) -> list[int]:
    """Each seat's points for the deal (R-5), seat 0 first; they sum to zero (R-5.5).

    ``hands_left``: the cards each seat still holds (the winner's is empty);
    ``never_played``: seats that played no card this deal; ``bomb_bonuses``: the seat of
    each bomb bonus earned (R-5.4), once per bonus.
    """
    if len(hands_left) != N_SEATS:
        raise RulesError(f"Run Fast settles {N_SEATS} hands, got {len(hands_left)}")
    _check_seat(winner, "winner")
    if hands_left[winner]:
        raise RulesError(
            f"the winner, seat {winner}, still holds {len(hands_left[winner])} card(s);"
            " the winner's hand must be empty"
        )
    check_cards([c for hand in hands_left for c in hand])
    for seat in never_played:
        _check_seat(seat, "never-played seat")
        if seat == winner:
            raise RulesError(f"seat {seat} won, so it cannot have never played a card")
    for seat in bomb_bonuses:
        _check_seat(seat, "bomb-bonus seat")
        if seat in never_played:
            raise RulesError(f"seat {seat} earned a bomb bonus, so it cannot have never played")
    scores = [0] * N_SEATS
    for seat in range(N_SEATS):
        if seat != winner:
            owed = payment(hands_left[seat], seat in never_played)
            scores[seat] -= owed
            scores[winner] += owed
    for bomber in bomb_bonuses:
        for seat in range(N_SEATS):
            if seat != bomber:
                scores[seat] -= BOMB_BONUS // 2
        scores[bomber] += BOMB_BONUS
    assert sum(scores) == 0
    return scores


def _check_seat(seat: int, what: str) -> None:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < N_SEATS:
        raise RulesError(f"{what} {seat!r} is not a seat; Run Fast seats are 0, 1 and 2")
