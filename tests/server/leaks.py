"""The no-leak check: every frame a seat received, against the true game from the database."""

from __future__ import annotations

from typing import Any

from cardavia.cards import card_strings
from cardavia.table import Table, TableConfig

from .ws_client import iter_cards

WINDOW = 8  # a frame shows the state after its whole batch of events (at most this many)


class _Truth:
    """The stored log folded step by step, with what one seat may know at each step."""

    def __init__(self, config: TableConfig, events: list[dict[str, Any]], seat: int) -> None:
        self.table = Table(config)
        self.events = events
        self.seat = seat
        self.hands: list[list[str]] = []  # the seat's true hand after each seq (index seq-1)
        self.allowed: list[set[str]] = []  # cards the seat may have seen after each seq
        own: set[str] = set()
        public: set[str] = set()
        for event in events:
            self.table.fold(event)
            kind = event["event"]
            if kind == "deal_started":
                own, public = set(event["hands"][seat]), set()
            elif kind == "tribute_paid":
                public.add(event["card"])
                if event["to"] == seat:
                    own.add(event["card"])
            elif kind == "returned" and seat in (event["from"], event["to"]):
                own.add(event["card"])
            elif kind == "played":
                public.update(event["cards"])
            self.hands.append(card_strings(self.table.deal.hand(seat)))
            self.allowed.append(own | public)

    def hands_near(self, seq: int) -> list[list[str]]:
        return self.hands[max(0, seq - 1) : seq - 1 + WINDOW]

    def allowed_near(self, seq: int) -> set[str]:
        out: set[str] = set()
        for allowed in self.allowed[max(0, seq - 1) : seq - 1 + WINDOW]:
            out |= allowed
        return out


def check_no_leaks(
    config: TableConfig, events: list[dict[str, Any]], messages: list[dict[str, Any]], seat: int
) -> int:
    """Assert that no frame holds a card the seat could not know; return frames checked."""
    truth = _Truth(config, events, seat)
    last_seq = 0
    checked = 0
    for message in messages:
        if message["type"] == "state":
            seq = message["seq"]
            assert seq >= last_seq, "frames out of order"
            last_seq = seq
            obs = message["observation"]
            assert obs["seat"] == seat
            assert obs["hand"] in truth.hands_near(seq), f"wrong hand in the frame of seq {seq}"
            event = message["event"]
            if event is not None and event["event"] == "deal_started":
                for s, hand in enumerate(event["hands"]):
                    assert (hand is None) == (s != seat), "a deal_started frame shows a hand"
                assert event["seed"] is None, "the deal's seed gives away every hand"
            if event is not None and event["event"] == "returned":
                assert (event["card"] is None) == (seat not in (event["from"], event["to"]))
        elif message["type"] == "hint" and message["cards"]:
            assert set(message["cards"]) <= set(truth.hands[last_seq - 1])
        seen = set(iter_cards(message))
        foreign = seen - truth.allowed_near(max(last_seq, 1))
        assert not foreign, f"seat {seat} was sent cards it may not see: {sorted(foreign)}"
        checked += 1
    return checked
