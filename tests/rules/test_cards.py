"""Card notation (rules.md §0) and the decks (G-2.1, R-2.1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cardavia.cards import (
    ALL_CARDS,
    Card,
    CardError,
    Rank,
    check_in_deck,
    format_cards,
    guandan_deck,
    parse_cards,
    runfast_deck,
)


def test_notation_round_trip_for_every_card() -> None:
    for c in ALL_CARDS:
        assert Card.parse(str(c)) is c
        assert Card.parse(str(c).lower()) is c


def test_input_is_case_insensitive_and_accepts_10() -> None:
    assert parse_cards("10h th TH 10S bj Rj") == parse_cards("Th Th Th Ts BJ RJ")
    assert format_cards(parse_cards("10d, as")) == "Td As"


@pytest.mark.parametrize("bad", ["1h", "Tx", "11s", "J", "", "BJJ", "10"])
def test_malformed_cards_raise_a_clear_error(bad: str) -> None:
    with pytest.raises(CardError, match="unknown card"):
        Card.parse(bad)


def test_guandan_deck_has_108_cards_two_of_each() -> None:
    """G-2.1: two packs with jokers."""
    deck = guandan_deck()
    assert len(deck) == 108
    assert all(deck.count(c) == 2 for c in ALL_CARDS)


def test_runfast_deck_has_48_cards() -> None:
    """R-2.1: no jokers, no Ah, only the 2 of spades."""
    deck = runfast_deck()
    assert len(deck) == 48
    names = {str(c) for c in deck}
    assert "Ah" not in names and "BJ" not in names and "RJ" not in names
    assert {n for n in names if n.startswith("2")} == {"2s"}
    assert sum(1 for c in deck if c.rank == Rank.ACE) == 3


def test_check_in_deck_refuses_missing_cards_and_extra_copies() -> None:
    with pytest.raises(CardError, match="2d is not in the runfast deck"):
        check_in_deck(parse_cards("2d"), runfast_deck(), "runfast")
    with pytest.raises(CardError, match="appears 3 times"):
        check_in_deck(parse_cards("7h 7h 7h"), guandan_deck(), "guandan")
    check_in_deck(parse_cards("7h 7h"), guandan_deck(), "guandan")


def test_cards_are_immutable_singletons() -> None:
    c = Card.parse("7h")
    with pytest.raises(AttributeError):
        c.rank = Rank.TWO
    assert Card(Rank.SEVEN, c.suit) is c


@given(st.lists(st.sampled_from(ALL_CARDS), max_size=30))
def test_format_then_parse_is_identity(cards: list[Card]) -> None:
    assert parse_cards(format_cards(cards)) == cards
