"""Card tracking from an observation: what has been played, what is still unseen, and what
each pass suggests — Run Fast: a pass means "no reply" (R-3.4), a hard constraint; Guandan:
a pass on an opponent's single, pair or triple is soft evidence of no plain reply (players
hold back on purpose), weighed by the sampler (:func:`cardavia.ai.gd_search.sample_hands`).

Only public information and the seat's own hand are used (the Observation).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cardavia.cards import guandan_deck, runfast_deck
from cardavia.observation import Observation
from cardavia.rules.combo import Combo, ComboType

_GD_FULL = [0] * 54
for _c in guandan_deck():
    _GD_FULL[_c.code] += 1
_RF_FULL = [0] * 54
for _c in runfast_deck():
    _RF_FULL[_c.code] += 1


@dataclass(slots=True)
class Tracked:
    """Unseen card counts (codes) and per-seat facts from the public history."""

    unseen: list[int]
    known: dict[int, list[int]] = field(default_factory=dict)  # seat → codes it surely holds
    no_reply: dict[int, list[Combo]] = field(default_factory=dict)  # seat → tops it passed on
    played_any: list[bool] = field(default_factory=list)


def track(obs: Observation) -> Tracked:
    full = _GD_FULL if obs.game == "guandan" else _RF_FULL
    unseen = list(full)
    for c in obs.hand:
        unseen[c.code] -= 1
    played: dict[int, list[int]] = {s: [] for s in range(obs.n_seats)}
    for seat, combo in obs.history:
        if combo is not None:
            for c in combo.cards:
                unseen[c.code] -= 1
                played[seat].append(c.code)
    known: dict[int, list[int]] = {}
    if obs.game == "guandan":
        # tribute cards a seat received (and my returns to a payer) are in that hand,
        # unless that seat has since played a card of the same code
        gifts: list[tuple[int, int]] = [(r, c.code) for g, r, c in obs.tributes if r != obs.seat]
        gifts += [(r, c.code) for g, r, c in obs.my_returns if g == obs.seat and r != obs.seat]
        for seat, code in gifts:
            if code in played[seat]:
                played[seat].remove(code)
                continue
            known.setdefault(seat, []).append(code)
    for seat, codes in known.items():
        ok = []
        for code in codes:
            if unseen[code] > 0:
                ok.append(code)
        known[seat] = ok
    no_reply: dict[int, list[Combo]] = {}
    if obs.game == "guandan":
        no_reply = _guandan_passes(obs)
    else:
        top: Combo | None = None
        passes = 0
        for seat, combo in obs.history:
            if combo is not None:
                top = combo
                passes = 0
            else:
                if top is not None:
                    no_reply.setdefault(seat, []).append(top)
                passes += 1
                if passes >= obs.n_seats - 1:
                    top = None
                    passes = 0
    return Tracked(unseen, known, no_reply, list(obs.played_any))


#: Guandan plays whose passes are read as soft evidence (the groups a hand often holds).
_SOFT_TYPES = frozenset({ComboType.SINGLE, ComboType.PAIR, ComboType.TRIPLE})


def _guandan_passes(obs: Observation) -> dict[int, list[Combo]]:
    """Seat → the opponents' non-bomb singles, pairs and triples it passed on.

    A pass always answers the latest play (a trick never starts with a pass), and a hand
    only shrinks, so "no plain reply then" also holds for the hand now.
    """
    passes: dict[int, list[Combo]] = {}
    top: Combo | None = None
    top_seat = -1
    for seat, combo in obs.history:
        if combo is not None:
            top, top_seat = combo, seat
        elif (
            top is not None
            and not top.tier
            and top.type in _SOFT_TYPES
            and (seat - top_seat) % 2  # an opponent's play, not the partner's
            and seat != obs.seat
        ):
            passes.setdefault(seat, []).append(top)
    return passes


__all__ = ["Tracked", "track"]
