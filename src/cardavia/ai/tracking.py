"""Card tracking from an observation: what has been played, what is still unseen, and what
each pass suggests.

This module holds what every game shares; each game's search reads its own evidence
(:func:`cardavia.ai.guandan.search.track`: tribute cards and passes as soft evidence;
:func:`cardavia.ai.runfast.search.track`: every pass a hard "no reply", R-3.4).

Only public information and the seat's own hand are used (the Observation).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from cardavia.observation import Observation
from cardavia.rules.combo import Combo, Pattern


@dataclass(slots=True)
class Tracked:
    """Unseen card counts (codes) and per-seat facts from the public history."""

    unseen: list[int]
    known: dict[int, list[int]] = field(default_factory=dict)  # seat → codes it surely holds
    no_reply: dict[int, list[Combo]] = field(default_factory=dict)  # seat → tops it passed on
    played_any: list[bool] = field(default_factory=list)


def unseen_cards(obs: Observation, deck: Sequence[int]) -> tuple[list[int], dict[int, list[int]]]:
    """The counts of ``deck`` (a count array) neither in the hand nor played, and the codes
    each seat has played."""
    unseen = list(deck)
    for c in obs.hand:
        unseen[c.code] -= 1
    played: dict[int, list[int]] = {s: [] for s in range(obs.n_seats)}
    for seat, combo in obs.history:
        if combo is not None:
            for c in combo.cards:
                unseen[c.code] -= 1
                played[seat].append(c.code)
    return unseen, played


def still_held(
    gifts: Sequence[tuple[int, int]], played: dict[int, list[int]], unseen: Sequence[int]
) -> dict[int, list[int]]:
    """Seat → the codes it surely holds: of the cards it was seen to receive (``gifts``:
    seat, code), those it has not played since (a played copy cancels one gift) and that
    are still unseen."""
    known: dict[int, list[int]] = {}
    for seat, code in gifts:
        if code in played[seat]:
            played[seat].remove(code)
            continue
        known.setdefault(seat, []).append(code)
    for seat, codes in known.items():
        known[seat] = [code for code in codes if unseen[code] > 0]
    return known


def same_turn(choice: Pattern | None, seen: Combo | None) -> bool:
    """Whether a policy's ``choice`` (None = pass) is the turn a seat was seen to take: a
    pass for a pass, else a play of the same type, size and power (the cards may differ).

    >>> from cardavia.rules.runfast.combos import classify
    >>> from cardavia.rules.runfast.moves import SINGLE
    >>> same_turn(SINGLE[9], classify("9h")[0]), same_turn(SINGLE[9], None), same_turn(None, None)
    (True, False, True)
    """
    if choice is None or seen is None:
        return choice is None and seen is None
    return choice.type is seen.type and choice.size == seen.size and choice.power == seen.power


__all__ = ["Tracked", "same_turn", "still_held", "unseen_cards"]
