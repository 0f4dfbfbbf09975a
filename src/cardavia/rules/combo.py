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
from typing import Any, NamedTuple

from cardavia.cards import Card, Rank, card_strings, parse_cards, rank_from_symbol


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

    def to_json(self, *, keys: bool = False) -> dict[str, Any]:
        """The combo object of docs/cli.md; ``keys=True`` adds ``tier`` and ``power`` (the
        event log stores them, so a stored play needs no re-classification)."""
        data: dict[str, Any] = {
            "type": self.type.value,
            "rank": None if self.rank is None else self.rank.symbol,
            "size": self.size,
            "cards": card_strings(self.cards),
            "as": card_strings(self.represented),
        }
        if keys:
            data["tier"] = self.tier
            data["power"] = self.power
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Combo:
        """Read :meth:`to_json`'s object back (``tier``/``power`` default to 0 when absent).

        >>> from cardavia.rules.guandan import classify
        >>> combo = classify("5s 6d 7c 8h 9s", level=2)[0]
        >>> Combo.from_json(combo.to_json(keys=True)) == combo
        True
        """
        rank = data.get("rank")
        return cls(
            type=ComboType.parse(str(data["type"])),
            rank=None if rank is None else rank_from_symbol(str(rank)),
            size=int(data["size"]),
            cards=tuple(parse_cards(data["cards"])),
            represented=tuple(parse_cards(data["as"])),
            tier=int(data.get("tier", 0)),
            power=int(data.get("power", 0)),
        )


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


def rank_symbol(rank: int) -> str:
    """A rank value's symbol; 15/16 are the small and big jokers, 0 "any rank" (a wild pair)."""
    return {15: "BJ", 16: "RJ"}.get(rank) or (Rank(rank).symbol if 2 <= rank <= 14 else str(rank))


class Pattern(NamedTuple):
    """An abstract move: which ranks (and suit, for straight flushes) and how many wilds.

    ``slots`` are (physical rank, count) pairs — 14 is the ace even in ace-low sequences,
    15/16 the jokers, 0 "a pair of wilds standing for any rank" (full house only).
    """

    type: ComboType
    rank: int
    size: int
    tier: int
    power: int
    slots: tuple[tuple[int, int], ...]
    suit: int
    wilds: int

    def describe(self) -> str:
        text = f"{self.type.value} {rank_symbol(self.rank)}" if self.type != ComboType.JOKER_BOMB else "joker_bomb"
        if self.type == ComboType.BOMB:
            text += f" ({self.size} cards)"
        if self.wilds:
            text += f" ({self.wilds} wild{'s' if self.wilds > 1 else ''})"
        return text

    def beats(self, top: Combo | Pattern | None) -> bool:
        """Whether this pattern may be played over ``top`` (None: leading)."""
        if top is None:
            return True
        if self.tier:
            return not top.tier or (self.tier, self.power) > (top.tier, top.power)
        return (
            not top.tier
            and self.type == top.type
            and self.size == top.size
            and self.power > top.power
        )
