"""What the cheap rollout policies of both games share (:mod:`.guandan.search`, :mod:`.runfast.search`).

>>> from dataclasses import dataclass
>>> @dataclass
... class U:
...     value: float
...     is_bomb: bool = False
>>> weak, strong = U(-0.5), U(0.9)
>>> last_plays_lead([weak, strong]) is strong   # it likely holds the trick: first
True
>>> last_plays_lead([weak, U(0.2)]) is weak      # neither holds: the weak one first
True
>>> last_plays_lead([weak, strong, U(0.1)]) is None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol, TypeVar

#: A planned play at least this hard to beat is expected to hold its trick.
HOLDS_TRICK = 0.8


class PlannedPlay(Protocol):
    """A planner unit as the rollouts see it."""

    @property
    def value(self) -> float: ...

    @property
    def is_bomb(self) -> bool: ...


P = TypeVar("P", bound=PlannedPlay)


def last_plays_lead(units: Sequence[P], holds: float = HOLDS_TRICK) -> P | None:
    """The lead with one or two planned plays left (None with more): the last one; of two,
    the strong one first when it likely holds the trick (value ≥ ``holds``, or a bomb), else
    the weak one."""
    if len(units) == 1:
        return units[0]
    if len(units) != 2:
        return None
    strong = max(units, key=lambda u: u.value)
    if strong.value >= holds or strong.is_bomb:
        return strong
    return min(units, key=lambda u: u.value)


class SizedPlay(PlannedPlay, Protocol):
    """A planned play with its number of cards."""

    @property
    def size(self) -> int: ...


S = TypeVar("S", bound=SizedPlay)


def lead_weakest(plain: Sequence[S], opp_min: int, size_weight: float) -> S:
    """The ordinary lead among ``plain`` (non-bomb plays, non-empty): the weakest (bigger
    plays slightly preferred, by ``size_weight`` per card); against an opponent with
    ``opp_min`` ≤ 2 cards, only plays bigger than that, else the strongest."""
    if opp_min <= 2:
        safe = [u for u in plain if u.size > opp_min]
        if safe:
            return min(safe, key=lambda u: u.value - size_weight * u.size)
        return max(plain, key=lambda u: u.value)
    return min(plain, key=lambda u: u.value - size_weight * u.size)


__all__ = ["HOLDS_TRICK", "PlannedPlay", "SizedPlay", "last_plays_lead", "lead_weakest"]
