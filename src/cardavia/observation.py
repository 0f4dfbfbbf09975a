"""Observations: the only way out of the engine for a seat (design.md §2).

An observation holds the seat's own hand, every seat's card count and the public
history — never another seat's cards. The server sends ``observation(...).to_json()``
to a browser; agents receive the :class:`Observation` itself.

>>> from cardavia.rules.guandan.deal import GuandanMatch
>>> deal = GuandanMatch(seed=3).start_deal()
>>> obs = observation(deal, 0)
>>> len(obs.hand), obs.hand_sizes
(27, (27, 27, 27, 27))
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from cardavia.cards import Card, Rank, card_strings
from cardavia.rules.combo import Combo
from cardavia.rules.trick import TrickDeal

Action = tuple[int, Combo | None]  # (seat, combo) or (seat, None) for a pass


@dataclass(frozen=True, slots=True)
class Observation:
    """What one seat may know about a deal in progress."""

    game: str
    seat: int
    n_seats: int
    phase: str  # "tribute" | "play" | "over"
    deal_index: int
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    turn: int | None
    first_leader: int | None
    top: Combo | None
    top_seat: int | None
    trick: tuple[Action, ...]
    history: tuple[Action, ...]
    places: tuple[int, ...]
    played_any: tuple[bool, ...]
    can_pass: bool
    level: int | None = None
    team_levels: tuple[int, int] | None = None
    opening: bool = False
    must_include: Card | None = None
    tributes: tuple[tuple[int, int, Card], ...] = ()
    tribute_cancelled: bool = False
    pending_returns: tuple[tuple[int, int], ...] = ()  # (recipient, payer)
    return_options: tuple[Card, ...] = ()
    my_returns: tuple[tuple[int, int, Card], ...] = ()  # returns this seat gave or received
    result: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)
    has_reply: bool | None = None  # on the seat's turn over a top play: can anything beat it?

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat and self.phase == "play"

    def to_json(self) -> dict[str, Any]:
        """The JSON form sent over the wire (docs/protocol.md)."""

        def action(a: Action) -> dict[str, Any]:
            seat, combo = a
            if combo is None:
                return {"seat": seat, "pass": True}
            return {"seat": seat, "cards": card_strings(combo.cards), "combo": combo.to_json()}

        return {
            "game": self.game,
            "seat": self.seat,
            "n_seats": self.n_seats,
            "phase": self.phase,
            "deal_index": self.deal_index,
            "hand": card_strings(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "turn": self.turn,
            "first_leader": self.first_leader,
            "top": None if self.top is None else self.top.to_json(),
            "top_seat": self.top_seat,
            "trick": [action(a) for a in self.trick],
            "history": [action(a) for a in self.history],
            "places": list(self.places),
            "played_any": list(self.played_any),
            "can_pass": self.can_pass,
            "level": None if self.level is None else Rank(self.level).symbol,
            "team_levels": None
            if self.team_levels is None
            else [Rank(x).symbol for x in self.team_levels],
            "opening": self.opening,
            "must_include": None if self.must_include is None else str(self.must_include),
            "tributes": [{"from": g, "to": r, "card": str(c)} for g, r, c in self.tributes],
            "tribute_cancelled": self.tribute_cancelled,
            "pending_returns": [{"from": r, "to": p} for r, p in self.pending_returns],
            "return_options": card_strings(self.return_options),
            "my_returns": [{"from": g, "to": r, "card": str(c)} for g, r, c in self.my_returns],
            "result": self.result,
            "has_reply": self.has_reply,
            **({"extra": self.extra} if self.extra else {}),
        }


def observation(deal: TrickDeal, seat: int, *, history: bool = True) -> Observation:
    """The view of ``deal`` for ``seat``: own hand, counts and public history only.

    ``history=False`` leaves the (public, ever-growing) history empty, for a caller that
    keeps it apart (the server sends it once per deal, not once per seat and frame)."""
    extra: dict[str, Any] = {}
    kwargs: dict[str, Any] = {}
    level = getattr(deal, "level", None)
    if deal.game == "guandan":
        from cardavia.rules.guandan.deal import GuandanDeal

        assert isinstance(deal, GuandanDeal)
        kwargs.update(
            level=deal.level,
            team_levels=deal.team_levels,
            tributes=tuple((t.giver, t.receiver, t.card) for t in deal.tributes),
            tribute_cancelled=deal.tribute_cancelled,
            pending_returns=tuple(deal.pending_returns.items()),
            return_options=tuple(deal.return_options(seat)),
            my_returns=tuple(
                (r.giver, r.receiver, r.card)
                for r in deal.returns
                if seat in (r.giver, r.receiver)
            ),
        )
    else:
        level = None
    opening = bool(getattr(deal, "is_opening", False))
    must = getattr(deal, "must_include", None)
    extra.update(deal.public_extras() if hasattr(deal, "public_extras") else {})
    can_pass = (
        deal.phase == "play"
        and deal.turn == seat
        and deal.top is not None
        and deal.check_pass(seat) is None
    )
    has_reply = None
    if deal.phase == "play" and deal.turn == seat and deal.top is not None:
        from cardavia.rules.guandan.moves import patterns as gd_patterns
        from cardavia.rules.runfast.moves import has_reply as rf_has_reply

        cnt = deal.cnt[seat]
        has_reply = bool(gd_patterns(cnt, level, deal.top)) if level else rf_has_reply(cnt, deal.top)
    return Observation(
        has_reply=has_reply,
        game=deal.game,
        seat=seat,
        n_seats=deal.n_seats,
        phase=deal.phase,
        deal_index=deal.deal_index,
        hand=tuple(deal.hand(seat)),
        hand_sizes=tuple(deal.size),
        turn=deal.turn,
        first_leader=deal.first_leader,
        top=deal.top,
        top_seat=deal.top_seat,
        trick=tuple(deal.trick) if deal.top is not None else (),
        history=tuple(deal.plays) if history else (),
        places=tuple(deal.places),
        played_any=tuple(deal.played_any),
        can_pass=can_pass,
        opening=opening,
        must_include=must if opening and deal.turn == seat else None,
        result=deal.result,
        extra=extra,
        **({"level": level} if level is not None and "level" not in kwargs else {}),
        **kwargs,
    )
