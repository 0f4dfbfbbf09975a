"""Cards, ranks and suits, and their text notation (rules.md §0).

Cards are immutable, hashable singletons; each has a small integer ``code``
(0–53) that the engine uses for count arrays.

>>> Card.parse("10h"), Card.parse("bj")
(Card('Th'), Card('BJ'))
>>> format_cards(parse_cards("7h 7h rj"))
'7h 7h RJ'
>>> len(guandan_deck()), len(runfast_deck())
(108, 48)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import IntEnum, StrEnum
from typing import ClassVar


class CardError(ValueError):
    """A card or card list that cannot be read, or that the game's deck does not hold."""

    #: The protocol error code a table answers with (docs/protocol.md).
    code: ClassVar[str] = "bad_message"


class Rank(IntEnum):
    """Card ranks; the integer is the natural rank (2–14), jokers above."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14
    BLACK_JOKER = 15
    RED_JOKER = 16

    @property
    def symbol(self) -> str:
        """The notation of the rank: ``2``…``9``, ``T``, ``J``, ``Q``, ``K``, ``A``, ``BJ``, ``RJ``."""
        return _RANK_SYMBOLS[self]

    @property
    def is_joker(self) -> bool:
        return self >= Rank.BLACK_JOKER

    @classmethod
    def parse(cls, text: str) -> Rank:
        """Read a rank (``10`` is accepted for ``T``; case-insensitive).

        >>> Rank.parse("10"), Rank.parse("q")
        (<Rank.TEN: 10>, <Rank.QUEEN: 12>)
        """
        key = text.strip().upper()
        if key == "10":
            key = "T"
        rank = _SYMBOL_RANKS.get(key)
        if rank is None:
            raise CardError(f"unknown rank {text!r}; ranks are 2 3 4 5 6 7 8 9 T J Q K A")
        return rank


_RANK_SYMBOLS: dict[Rank, str] = {
    **{Rank(n): str(n) for n in range(2, 10)},
    Rank.TEN: "T",
    Rank.JACK: "J",
    Rank.QUEEN: "Q",
    Rank.KING: "K",
    Rank.ACE: "A",
    Rank.BLACK_JOKER: "BJ",
    Rank.RED_JOKER: "RJ",
}
_SYMBOL_RANKS: dict[str, Rank] = {
    s: r for r, s in _RANK_SYMBOLS.items() if not r.is_joker
}


def rank_from_symbol(text: str) -> Rank:
    """Read a rank symbol including the jokers (``BJ``, ``RJ``), as in combo objects.

    >>> rank_from_symbol("RJ"), rank_from_symbol("t")
    (<Rank.RED_JOKER: 16>, <Rank.TEN: 10>)
    """
    key = text.strip().upper()
    if key == "BJ":
        return Rank.BLACK_JOKER
    if key == "RJ":
        return Rank.RED_JOKER
    return Rank.parse(key)

#: Natural ranks in natural order (2 … A).
NATURAL_RANKS: tuple[Rank, ...] = tuple(Rank(n) for n in range(2, 15))


class Suit(StrEnum):
    """The four suits; they have no order in either game."""

    SPADES = "s"
    HEARTS = "h"
    CLUBS = "c"
    DIAMONDS = "d"


SUITS: tuple[Suit, ...] = (Suit.SPADES, Suit.HEARTS, Suit.CLUBS, Suit.DIAMONDS)
_SUIT_INDEX: dict[Suit, int] = {s: i for i, s in enumerate(SUITS)}


class Card:
    """One playing card. Use :meth:`parse` or :func:`card`; instances are shared singletons.

    ``code`` is ``(rank - 2) * 4 + suit index`` (suit order s, h, c, d) for the 52
    natural cards, 52 for the black joker and 53 for the red joker.
    """

    __slots__ = ("_text", "code", "rank", "suit")
    _ALL: ClassVar[list[Card]] = []

    code: int
    rank: Rank
    suit: Suit | None
    _text: str

    def __new__(cls, rank: Rank, suit: Suit | None) -> Card:
        if rank.is_joker:
            if suit is not None:
                raise CardError("a joker has no suit")
            code = 52 if rank == Rank.BLACK_JOKER else 53
        else:
            if suit is None:
                raise CardError(f"rank {rank.symbol} needs a suit")
            code = (rank - 2) * 4 + _SUIT_INDEX[suit]
        if len(cls._ALL) == 54:
            return cls._ALL[code]
        self = object.__new__(cls)
        object.__setattr__(self, "code", code)
        object.__setattr__(self, "rank", rank)
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "_text", rank.symbol if suit is None else rank.symbol + suit.value)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Card is immutable")

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return (card_from_code, (self.code,))

    def __copy__(self) -> Card:
        return self

    def __deepcopy__(self, memo: object) -> Card:
        return self

    def __repr__(self) -> str:
        return f"Card({self._text!r})"

    def __str__(self) -> str:
        return self._text

    def __hash__(self) -> int:
        return self.code

    def __eq__(self, other: object) -> bool:
        return self is other

    def __lt__(self, other: Card) -> bool:
        return self.code < other.code

    @property
    def is_joker(self) -> bool:
        return self.suit is None

    @staticmethod
    def parse(text: str) -> Card:
        """Read one card in the notation of rules.md §0 (case-insensitive, ``10`` for ``T``).

        >>> Card.parse("as"), Card.parse("10D"), Card.parse("Rj")
        (Card('As'), Card('Td'), Card('RJ'))
        >>> Card.parse("1x")
        Traceback (most recent call last):
        ...
        cardavia.cards.CardError: unknown card '1x'; write cards like 7h, Ts, As, BJ, RJ
        """
        key = text.strip().upper()
        found = _PARSE_TABLE.get(key)
        if found is None:
            raise CardError(f"unknown card {text!r}; write cards like 7h, Ts, As, BJ, RJ")
        return found


def _build_all() -> list[Card]:
    cards: list[Card] = []
    for rank in NATURAL_RANKS:
        for suit in SUITS:
            cards.append(Card(rank, suit))
    cards.append(Card(Rank.BLACK_JOKER, None))
    cards.append(Card(Rank.RED_JOKER, None))
    return cards


Card._ALL.extend(_build_all())
ALL_CARDS: tuple[Card, ...] = tuple(Card._ALL)
BLACK_JOKER: Card = ALL_CARDS[52]
RED_JOKER: Card = ALL_CARDS[53]

#: How many distinct cards there are (52 suited cards and two jokers): the length of a count array.
N_CODES = 54


def counts(cards: Iterable[Card]) -> list[int]:
    """A hand as a count array: entry ``code`` holds how many copies of that card it has.

    >>> cnt = counts(parse_cards("2h 2h BJ"))
    >>> len(cnt), cnt[Card.parse("2h").code], cnt[Card.parse("BJ").code]
    (54, 2, 1)
    """
    cnt = [0] * N_CODES
    for c in cards:
        cnt[c.code] += 1
    return cnt

_PARSE_TABLE: dict[str, Card] = {}
for _c in ALL_CARDS:
    _PARSE_TABLE[str(_c).upper()] = _c
    if _c.rank == Rank.TEN and _c.suit is not None:
        _PARSE_TABLE["10" + _c.suit.value.upper()] = _c


def card_from_code(code: int) -> Card:
    """The card with this ``code`` (0–53)."""
    return ALL_CARDS[code]


def card(rank: Rank, suit: Suit | None = None) -> Card:
    """The card of this rank and suit (``suit=None`` for a joker)."""
    return Card(rank, suit)


def parse_cards(text: str | Iterable[str]) -> list[Card]:
    """Read a card list: one space/comma-separated string or an iterable of card strings.

    >>> parse_cards("7h, 10s BJ")
    [Card('7h'), Card('Ts'), Card('BJ')]
    >>> parse_cards(["as", "ad"])
    [Card('As'), Card('Ad')]
    """
    if isinstance(text, str):
        items = text.replace(",", " ").split()
    else:
        items = []
        for item in text:
            if not isinstance(item, str):
                raise CardError(f"a card must be a string, not {item!r}")
            items.extend(item.replace(",", " ").split())
    return [Card.parse(item) for item in items]


def format_cards(cards: Iterable[Card]) -> str:
    """The canonical text of a card list, space-separated, in the given order."""
    return " ".join(str(c) for c in cards)


def card_strings(cards: Iterable[Card]) -> list[str]:
    """The canonical texts of cards, as a list (for JSON)."""
    return [str(c) for c in cards]


def guandan_deck() -> list[Card]:
    """Two full packs with jokers: 108 cards (G-2.1)."""
    return [*ALL_CARDS, *ALL_CARDS]


def runfast_deck() -> list[Card]:
    """The 48-card Run Fast pack (R-2.1): no jokers, no ``Ah``, of the 2s only ``2s``."""
    return [
        c
        for c in ALL_CARDS
        if not c.is_joker
        and not (c.rank == Rank.ACE and c.suit == Suit.HEARTS)
        and not (c.rank == Rank.TWO and c.suit != Suit.SPADES)
    ]


def check_in_deck(cards: Iterable[Card], deck: Iterable[Card], game: str) -> None:
    """Raise :class:`CardError` when ``cards`` hold a card the deck lacks, or too many copies.

    >>> check_in_deck(parse_cards("Ah"), runfast_deck(), "runfast")
    Traceback (most recent call last):
    ...
    cardavia.cards.CardError: card Ah is not in the runfast deck
    """
    available: dict[Card, int] = {}
    for c in deck:
        available[c] = available.get(c, 0) + 1
    seen: dict[Card, int] = {}
    for c in cards:
        if c not in available:
            raise CardError(f"card {c} is not in the {game} deck")
        seen[c] = seen.get(c, 0) + 1
        if seen[c] > available[c]:
            copies = "copy" if available[c] == 1 else "copies"
            raise CardError(
                f"card {c} appears {seen[c]} times; the {game} deck has {available[c]} {copies}"
            )


def sort_cards(cards: Iterable[Card]) -> list[Card]:
    """Cards sorted by natural rank then suit (jokers last)."""
    return sorted(cards, key=lambda c: c.code)
