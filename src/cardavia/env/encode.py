"""The observation tensor: a flat ``float32`` vector built from one seat's ``Observation``.

Seats are *relative*: block ``k`` of a per-seat field is the seat ``k`` places after the
observer in turn order (0 = the observer, Guandan 2 = the partner). Every entry lies in
[0, 1]. :func:`fields` lists the layout (docs/env.md prints the same table).

>>> [f.name for f in fields("runfast")][:3]
['hand', 'played', 'hand_sizes']
>>> size("guandan"), size("runfast")
(554, 334)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np
from numpy.typing import NDArray

from cardavia.env import _engine as eng

_TYPES = list(eng.ComboType)
_TYPE_INDEX = {t: i for i, t in enumerate(_TYPES)}
_PHASES: dict[str, int] = {eng.PHASE_TRIBUTE: 0, eng.PHASE_PLAY: 1, eng.PHASE_OVER: 2}
COPIES = {"guandan": 2.0, "runfast": 1.0}
MAX_HAND = {"guandan": 28.0, "runfast": 16.0}  # a Guandan tribute recipient briefly holds 28


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    size: int
    offset: int
    meaning: str


@cache
def fields(game: str) -> tuple[Field, ...]:
    """The tensor layout of ``game``: name, size, offset and meaning of every field."""
    n = eng.N_SEATS[eng.check_game(game)]
    copies = int(COPIES[game])
    spec: list[tuple[str, int, str]] = [
        ("hand", 54, f"own hand: count of each card code (0–53, see Card.code) / {copies}"),
        ("played", n * 54, f"per relative seat: cards it has played this deal, per code / {copies}"),
        ("hand_sizes", n, f"per relative seat: cards held / {int(MAX_HAND[game])}"),
        ("top_cards", 54, f"the play to beat: its cards per code / {copies} (zeros when leading)"),
        ("top_type", len(_TYPES), "the play to beat: one-hot combination type (ComboType order)"),
        ("top_rank", 17, "the play to beat: one-hot main rank value 0–16 (0: four-joker bomb)"),
        ("top_seat", n, "who made the play to beat: one-hot relative seat"),
        ("to_move", n, "who acts now: one-hot relative seat (zeros when the deal is over)"),
        ("trick_played", n, "per relative seat: has played in the current trick"),
        ("trick_passed", n, "per relative seat: its last action in the current trick was a pass"),
        ("places", n * n, "per relative seat: one-hot finishing place (zeros while still playing)"),
        ("played_any", n, "per relative seat: has played at least one card this deal"),
        ("can_pass", 1, "1 when the observer may pass now"),
        ("phase", 3, "one-hot tribute / play / over"),
    ]
    if eng.has_levels(game):
        spec += [
            ("level", 13, "one-hot deal level 2…A"),
            ("team_levels", 26, "one-hot level 2…A of the observer's team, then of the other team"),
            ("tribute_cards", 54, "cards paid as tribute this deal (public), per code / 2"),
            ("tribute_paid", n, "per relative seat: paid a tribute card"),
            ("tribute_received", n, "per relative seat: received a tribute card"),
            ("tribute_cancelled", 1, "1 after an anti-tribute (G-3.4)"),
            ("my_returns", 54, "cards the observer gave back or was given back (G-3.5), per code / 2"),
            ("return_due", 1, "1 while the observer owes a return card"),
        ]
    else:
        spec += [
            ("opening", 1, "1 while the opening play (with 3h, R-2.3) is due"),
            ("bomb_bonuses", n, "per relative seat: bomb bonuses earned (R-5.4) / 4"),
        ]
    out: list[Field] = []
    offset = 0
    for name, width, meaning in spec:
        out.append(Field(name, width, offset, meaning))
        offset += width
    return tuple(out)


@cache
def size(game: str) -> int:
    """The length of the observation tensor of ``game``."""
    last = fields(game)[-1]
    return last.offset + last.size


@cache
def _offsets(game: str) -> dict[str, int]:
    return {f.name: f.offset for f in fields(game)}


def played_counts(obs: eng.Observation) -> list[list[int]]:
    """Per absolute seat, the count of each card code it has played (from the history)."""
    out = [[0] * 54 for _ in range(obs.n_seats)]
    for seat, combo in obs.history:
        if combo is not None:
            row = out[seat]
            for c in combo.cards:
                row[c.code] += 1
    return out


def encode(
    obs: eng.Observation,
    played: Sequence[Sequence[int]] | NDArray[np.float32] | None = None,
    out: NDArray[np.float32] | None = None,
) -> NDArray[np.float32]:
    """The tensor of ``obs``. ``played`` (per absolute seat, card counts played) may be given
    by a caller that tracks it, instead of being counted from ``obs.history``; ``out``
    receives the tensor (zeroed here) instead of a new array."""
    game = obs.game
    n = obs.n_seats
    me = obs.seat
    o = _offsets(game)
    inv = 1.0 / COPIES[game]
    if out is None:
        out = np.zeros(size(game), dtype=np.float32)
    else:
        out[:] = 0.0
    hand = o["hand"]
    for c in obs.hand:
        out[hand + c.code] += inv
    counts = played_counts(obs) if played is None else played
    base = o["played"]
    sizes = o["hand_sizes"]
    for rel in range(n):
        seat = (me + rel) % n
        out[base + rel * 54 : base + rel * 54 + 54] = counts[seat]
        out[sizes + rel] = obs.hand_sizes[seat] / MAX_HAND[game]
    out[base : base + n * 54] *= inv
    top = obs.top
    if top is not None:
        tc = o["top_cards"]
        for c in top.cards:
            out[tc + c.code] += inv
        out[o["top_type"] + _TYPE_INDEX[top.type]] = 1.0
        out[o["top_rank"] + (0 if top.rank is None else int(top.rank))] = 1.0
        if obs.top_seat is not None:
            out[o["top_seat"] + (obs.top_seat - me) % n] = 1.0
    mover = _to_move(obs)
    if mover is not None:
        out[o["to_move"] + (mover - me) % n] = 1.0
    tp, tpass = o["trick_played"], o["trick_passed"]
    for seat, combo in obs.trick:
        rel = (seat - me) % n
        if combo is None:
            out[tpass + rel] = 1.0
        else:
            out[tp + rel] = 1.0
            out[tpass + rel] = 0.0
    pl = o["places"]
    for place, seat in enumerate(obs.places):
        out[pl + ((seat - me) % n) * n + place] = 1.0
    pa = o["played_any"]
    for seat in range(n):
        if obs.played_any[seat]:
            out[pa + (seat - me) % n] = 1.0
    out[o["can_pass"]] = 1.0 if obs.can_pass else 0.0
    out[o["phase"] + _PHASES[obs.phase]] = 1.0
    if eng.has_levels(game):
        assert obs.level is not None and obs.team_levels is not None
        out[o["level"] + obs.level - 2] = 1.0
        tl = o["team_levels"]
        out[tl + obs.team_levels[me % 2] - 2] = 1.0
        out[tl + 13 + obs.team_levels[1 - me % 2] - 2] = 1.0
        tcards, tpaid, tgot = o["tribute_cards"], o["tribute_paid"], o["tribute_received"]
        for giver, receiver, card in obs.tributes:
            out[tcards + card.code] += 0.5
            out[tpaid + (giver - me) % n] = 1.0
            out[tgot + (receiver - me) % n] = 1.0
        out[o["tribute_cancelled"]] = 1.0 if obs.tribute_cancelled else 0.0
        mr = o["my_returns"]
        for _giver, _receiver, card in obs.my_returns:
            out[mr + card.code] += 0.5
        out[o["return_due"]] = 1.0 if any(r == me for r, _p in obs.pending_returns) else 0.0
    else:
        out[o["opening"]] = 1.0 if obs.opening else 0.0
        bb = o["bomb_bonuses"]
        for seat in obs.extra.get("bomb_bonuses", ()):
            out[bb + (int(seat) - me) % n] += 0.25
    return out


def _to_move(obs: eng.Observation) -> int | None:
    if obs.phase == eng.PHASE_TRIBUTE:
        return min(r for r, _p in obs.pending_returns) if obs.pending_returns else None
    return obs.turn
