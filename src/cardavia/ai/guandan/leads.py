"""The leads in a Guandan deal's public history, for inference from plays.

What a seat chose to lead says something about the hand it led from: players lead their
weakest planned play, so a sampled hand whose own weakest play would have been of another
kind is less likely (:func:`cardavia.ai.guandan.search.sample_hands` weighs it). This module
only reads the history: which plays opened a trick, each seat's hand size at that moment,
and the cards the seat has played since (a hand only shrinks, so the hand it led from is
its hand now plus those cards).

Tricks are followed as the rules run them (G-4.1, G-4.2): a trick ends when every other
seat still in the deal has passed on the latest play; when the player of that play has
gone out, the trick ends once all remaining seats passed, and the partner leads (G-4.3).

>>> from cardavia.rules.guandan.combos import classify
>>> four, ace = classify("4s")[0], classify("As")[0]
>>> seen = trick_leads([(0, four), (1, ace), (2, None), (3, None), (0, None), (1, four)], 4, [27] * 4)
>>> [(lead.seat, lead.index, lead.sizes) for lead in seen]
[(0, 0, (27, 27, 27, 27)), (1, 5, (26, 26, 27, 27))]
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.rules.combo import Combo
from cardavia.rules.observation import HistoryEntry


@dataclass(frozen=True, slots=True)
class Lead:
    """A play that opened a trick: who, what, where in the history, the hand sizes then."""

    seat: int
    combo: Combo
    index: int
    sizes: tuple[int, ...]


def trick_leads(history: Sequence[HistoryEntry], seats: int, start_sizes: Sequence[int]) -> list[Lead]:
    """Every lead of ``history`` (a deal's plays and passes, in order), from the hand sizes
    at the start of play."""
    sizes = list(start_sizes)
    leads: list[Lead] = []
    top_seat: int | None = None
    passes = 0
    for index, (seat, combo) in enumerate(history):
        if combo is not None:
            if top_seat is None:
                leads.append(Lead(seat, combo, index, tuple(sizes)))
            sizes[seat] -= combo.size
            top_seat, passes = seat, 0
            continue
        if top_seat is None:
            continue  # a pass cannot open a trick; ignore a malformed history
        passes += 1
        active = sum(1 for n in sizes if n > 0)
        if sizes[top_seat] > 0:
            if passes >= active - 1:
                top_seat, passes = None, 0
        elif passes >= active:
            top_seat, passes = None, 0
    return leads


def start_sizes(hand_sizes: Sequence[int], history: Sequence[HistoryEntry]) -> list[int]:
    """The hand sizes when play began: the sizes now plus every card played since."""
    sizes = list(hand_sizes)
    for seat, combo in history:
        if combo is not None:
            sizes[seat] += combo.size
    return sizes


def played_since(history: Sequence[HistoryEntry], seat: int, index: int) -> list[int]:
    """The card codes ``seat`` played from ``history[index]`` on (that play included)."""
    codes: list[int] = []
    for s, combo in history[index:]:
        if s == seat and combo is not None:
            codes.extend(c.code for c in combo.cards)
    return codes


def last_leads(
    history: Sequence[HistoryEntry], hand_sizes: Sequence[int], me: int, max_cards: int
) -> dict[int, tuple[Lead, list[int]]]:
    """Each other seat's latest plain lead made from at most ``max_cards`` cards (and not
    its last cards), with the codes it has played since: seat → (lead, codes)."""
    seats = len(hand_sizes)
    found: dict[int, tuple[Lead, list[int]]] = {}
    for lead in reversed(trick_leads(history, seats, start_sizes(hand_sizes, history))):
        s = lead.seat
        if s == me or s in found or lead.combo.tier or not 0 < lead.combo.size < lead.sizes[s]:
            continue
        if lead.sizes[s] <= max_cards:
            found[s] = (lead, played_since(history, s, lead.index))
    return found


@dataclass(frozen=True, slots=True)
class Action:
    """A seat's turn in the history: its play (None: a pass), the play it answered and whose
    (None: it led), where in the history, and the hand sizes then."""

    seat: int
    combo: Combo | None
    top: Combo | None
    top_seat: int | None
    index: int
    sizes: tuple[int, ...]


def trick_actions(history: Sequence[HistoryEntry], seats: int, start: Sequence[int]) -> list[Action]:
    """Every turn of ``history`` with what the table showed then (tricks as in
    :func:`trick_leads`)."""
    sizes = list(start)
    out: list[Action] = []
    top: Combo | None = None
    top_seat: int | None = None
    passes = 0
    for index, (seat, combo) in enumerate(history):
        out.append(Action(seat, combo, top, top_seat, index, tuple(sizes)))
        if combo is not None:
            sizes[seat] -= combo.size
            top, top_seat, passes = combo, seat, 0
            continue
        if top_seat is None:
            continue
        passes += 1
        active = sum(1 for n in sizes if n > 0)
        if (sizes[top_seat] > 0 and passes >= active - 1) or passes >= active:
            top, top_seat, passes = None, None, 0
    return out


def recent_actions(
    history: Sequence[HistoryEntry], hand_sizes: Sequence[int], me: int, per_seat: int, max_cards: int
) -> dict[int, list[tuple[Action, list[int]]]]:
    """Each other seat still in the deal: its latest ``per_seat`` turns taken with at most
    ``max_cards`` cards (newest first; passes on the partner's play apart: they say little),
    each with the card codes the seat has played from that turn on."""
    found: dict[int, list[tuple[Action, list[int]]]] = {}
    for act in reversed(trick_actions(history, len(hand_sizes), start_sizes(hand_sizes, history))):
        s = act.seat
        if s == me or hand_sizes[s] == 0 or len(found.get(s, ())) >= per_seat:
            continue
        if act.sizes[s] > max_cards or (act.combo is None and act.top_seat == (s + 2) % 4):
            continue
        found.setdefault(s, []).append((act, played_since(history, s, act.index)))
    return found


__all__ = [
    "Action",
    "Lead",
    "last_leads",
    "played_since",
    "recent_actions",
    "start_sizes",
    "trick_actions",
    "trick_leads",
]
