"""Combinations shared by both games: a play is cards plus their interpretation.

A :class:`Combo` is one reading of a set of physical cards (design.md §2): its type,
main rank, size, the cards and what each card stands for (wilds resolved). ``tier`` and
``power`` are precomputed comparison keys filled in by the game's rules, so that
:func:`beats` is a tuple comparison shared by both games.

>>> from cardavia.rules.guandan import classify
>>> [c.describe() for c in classify("5s 6d 7c 8h 9s", level=2)]
['straight 9']
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from cardavia.cards import Card, Rank, card_strings


class ComboType(StrEnum):
    """Every combination type of both games (their JSON names, cli.md)."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    FULL_HOUSE = "full_house"
    STRAIGHT = "straight"
    PAIR_RUN = "pair_run"
    TRIPLE_RUN = "triple_run"
    BOMB = "bomb"
    STRAIGHT_FLUSH = "straight_flush"
    JOKER_BOMB = "joker_bomb"
    ACE_BOMB = "ace_bomb"
    HEAVENLY_BOMB = "heavenly_bomb"

    @classmethod
    def parse(cls, text: str) -> ComboType:
        """Read a type name (``full_house``, ``full-house`` and ``Full House`` all work)."""
        key = text.strip().lower().replace("-", "_").replace(" ", "_")
        try:
            return cls(key)
        except ValueError:
            names = ", ".join(t.value for t in cls)
            raise ValueError(f"unknown combination type {text!r}; types are {names}") from None


SEQUENCE_TYPES = frozenset(
    {ComboType.STRAIGHT, ComboType.PAIR_RUN, ComboType.TRIPLE_RUN, ComboType.STRAIGHT_FLUSH}
)


@dataclass(frozen=True, slots=True)
class Combo:
    """One reading of a set of cards.

    ``rank`` is the main rank (None for the four-joker bomb); ``represented`` says what each
    card of ``cards`` stands for, in the same order. ``tier`` is 0 for ordinary combinations
    and the bomb class for bombs (higher beats lower); ``power`` orders combinations of the
    same type and size (or bombs of the same tier).
    """

    type: ComboType
    rank: Rank | None
    size: int
    cards: tuple[Card, ...]
    represented: tuple[Card, ...]
    tier: int
    power: int

    def __post_init__(self) -> None:
        if len(self.cards) != self.size or len(self.represented) != self.size:
            raise ValueError(
                f"a {self.type.value} of size {self.size} needs {self.size} cards and readings"
            )

    @property
    def is_bomb(self) -> bool:
        return self.tier > 0

    @property
    def key(self) -> tuple[str, str | None]:
        """(type, rank): what makes two readings of the same cards different."""
        return (self.type.value, None if self.rank is None else self.rank.symbol)

    def describe(self) -> str:
        """Short text: ``'straight 9'``, ``'bomb 7 (5 cards)'``, ``'joker_bomb'``."""
        text = self.type.value
        if self.rank is not None:
            text += f" {self.rank.symbol}"
        if self.type == ComboType.BOMB:
            text += f" ({self.size} cards)"
        return text

    def to_json(self) -> dict[str, Any]:
        """The combo object of cli.md."""
        return {
            "type": self.type.value,
            "rank": None if self.rank is None else self.rank.symbol,
            "size": self.size,
            "cards": card_strings(self.cards),
            "as": card_strings(self.represented),
        }


def beats(play: Combo, prev: Combo) -> bool:
    """Whether ``play`` may go over ``prev`` (G-4.5, G-5.5, R-3.3, R-4.3).

    An ordinary play needs the same type and size and a higher power; a bomb beats every
    ordinary play and a bomb of a lower (tier, power).
    """
    if play.tier:
        return not prev.tier or (play.tier, play.power) > (prev.tier, prev.power)
    if prev.tier:
        return False
    return play.type == prev.type and play.size == prev.size and play.power > prev.power


_TYPE_ORDER: dict[ComboType, int] = {t: i for i, t in enumerate(ComboType)}


def strength(combo: Combo) -> tuple[int, int, int, int]:
    """A total order used to pick "the strongest reading" of a card set (cli.md ``beats``)."""
    return (combo.tier, combo.power, combo.size, _TYPE_ORDER[combo.type])
