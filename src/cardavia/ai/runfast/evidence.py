"""What a Run Fast seat's own plays say about its hand (inference from plays).

A pass is proof (R-3.4: a seat with a reply must beat); a play is evidence. A seat that led
a low single while holding a pair run, or answered with a split triple while a single
fitted, would have played from a differently shaped hand than most. This module reads each
other seat's latest plays from the public history — what the table showed it (the play it
answered, or none for a lead), the hand sizes then, and the rank counts it has played from
that play on (a hand only shrinks, so the hand it played from is its hand now plus those
cards). :func:`cardavia.ai.runfast.search.sample_hands` weighs a sampled hand by how many of
these plays the ``basic`` policy, holding it, would not have made.

Tricks are followed as R-3.5 runs them: a trick ends when both other seats pass on the latest
play, and that play's seat leads the next one. The deal's opening play (R-2.3: it must hold
the 3 of hearts) is not read.

>>> from cardavia.rules.runfast.combos import classify
>>> five, king = classify("5s")[0], classify("Kd")[0]
>>> seen = recent_plays([(0, five), (1, king), (2, None), (0, None), (1, five)], [15, 14, 16], me=2)
>>> [(p.seat, p.top is None, p.sizes, p.since[13]) for p in seen[1]]
[(1, True, (15, 15, 16), 0), (1, False, (15, 16, 16), 1)]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.cards import N_CODES
from cardavia.rules.combo import Combo
from cardavia.rules.observation import HistoryEntry
from cardavia.rules.runfast.moves import rank_counts

SEATS = 3


@dataclass(frozen=True, slots=True)
class Play:
    """A seat's past play: what it answered (None: it led), the hand sizes before it, and
    the rank counts the seat has played from this play on (this play included)."""

    seat: int
    combo: Combo
    top: Combo | None
    sizes: tuple[int, ...]
    since: tuple[int, ...]


def play_ranks(combo: Combo) -> list[int]:
    """The rank counts of a play's cards."""
    cnt = [0] * N_CODES
    for card in combo.cards:
        cnt[card.code] += 1
    return rank_counts(cnt)


def recent_plays(
    history: Sequence[HistoryEntry], hand_sizes: Sequence[int], me: int, per_seat: int = 2
) -> dict[int, list[Play]]:
    """Each other seat's latest ``per_seat`` plays (newest first), the opening play apart."""
    sizes = list(hand_sizes)
    for seat, combo in history:
        if combo is not None:
            sizes[seat] += combo.size
    seen: list[tuple[int, Combo, Combo | None, tuple[int, ...]]] = []
    top: Combo | None = None
    passes = 0
    for index, (seat, combo) in enumerate(history):
        if combo is None:
            passes += 1
            if passes >= SEATS - 1:
                top, passes = None, 0
            continue
        if index > 0:
            seen.append((seat, combo, top, tuple(sizes)))
        sizes[seat] -= combo.size
        top, passes = combo, 0
    found: dict[int, list[Play]] = {}
    played: dict[int, list[int]] = {s: [0] * 15 for s in range(SEATS)}
    for seat, combo, before, at in reversed(seen):
        rc = play_ranks(combo)
        mine = played[seat]
        for r in range(15):
            mine[r] += rc[r]
        if seat == me or len(found.get(seat, ())) >= per_seat:
            continue
        found.setdefault(seat, []).append(Play(seat, combo, before, at, tuple(mine)))
    return found


__all__ = ["Play", "play_ranks", "recent_plays"]
