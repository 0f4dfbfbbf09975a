"""A Run Fast seat's belief about the two other hands, carried from one decision to the next
(a particle filter over sampled deals).

Sampling every decision afresh can only read the latest turns (reading the whole history
for every sample costs the search its samples). A belief keeps its sampled deals instead —
the particles — and reads each turn once, when it is new: a play removes its cards from the
player's hand in every particle (a particle without them is impossible), a pass proves the
passer held no reply (R-3.4, a hard constraint), and a play that ``basic``, holding the
particle's hand, would not have made keeps the particle with probability
:data:`PLAY_EVIDENCE` only. The survivors are then drawn again (systematic resampling), and
each copy is moved a step (a card swapped between the two hands) when the swap still meets
every pass and the seats' latest plays. Every particle has thus been read against the whole
history at the cost of a few checks a turn. A new deal (the history does not extend the one
read) starts a new belief from fresh samples.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from cardavia.rules.combo import Combo
from cardavia.rules.observation import HistoryEntry

from .chain import pick_rank, swap
from .evidence import Play, play_ranks, recent_plays
from .reading import basic_makes, has_reply, misses

Hands = dict[int, list[int]]

#: how likely a particle stays for a play ``basic`` would not have made from its hand
PLAY_EVIDENCE = 0.2
#: swaps tried on each copy of a survivor (rejuvenation)
MOVES = 3
#: with fewer survivors than this share of the particles, a share of fresh samples joins
FRESH_BELOW = 0.25
FRESH_SHARE = 0.25


@dataclass(frozen=True, slots=True)
class Turn:
    """One entry of the history with the table as it was: the play answered and the sizes."""

    seat: int
    combo: Combo | None
    top: Combo | None
    sizes: tuple[int, ...]


def turns_of(history: Sequence[HistoryEntry], hand_sizes: Sequence[int], n_seats: int = 3) -> list[Turn]:
    """Every turn of the history with the play it answered and the hand sizes before it
    (R-3.5: a trick ends when both other seats pass on its latest play)."""
    sizes = list(hand_sizes)
    for seat, combo in history:
        if combo is not None:
            sizes[seat] += combo.size
    out: list[Turn] = []
    top: Combo | None = None
    passes = 0
    for seat, combo in history:
        out.append(Turn(seat, combo, top, tuple(sizes)))
        if combo is None:
            passes += 1
            if passes >= n_seats - 1:
                top, passes = None, 0
            continue
        sizes[seat] -= combo.size
        top, passes = combo, 0
    return out


@dataclass
class Belief:
    """The particles (rank counts of the two other hands now) and the history read."""

    me: int
    read: tuple[HistoryEntry, ...]
    particles: list[Hands] = field(default_factory=list)


def _keeps(hands: Hands, turn: Turn, index: int, rng: random.Random) -> bool:
    """Read one turn on one particle (its hand of the seat shrinks by the play)."""
    hand = hands[turn.seat]
    if turn.combo is None:
        return turn.top is None or not has_reply(hand, turn.top)
    rc = play_ranks(turn.combo)
    if any(hand[r] < rc[r] for r in range(15)) and not _repair(hands, turn.seat, rc, rng):
        return False
    keep = True
    read = index > 0 and PLAY_EVIDENCE < 1.0  # the opening is not read
    if read and not basic_makes(turn.seat, hand, turn.sizes, turn.top, turn.combo):
        keep = rng.random() < PLAY_EVIDENCE
    for r in range(15):
        hand[r] -= rc[r]
    return keep


def _repair(hands: Hands, seat: int, rc: Sequence[int], rng: random.Random) -> bool:
    """Bring the cards of a play the particle put in the other hand into the player's,
    giving back as many of its other cards at random (the sizes stay); False if the
    cards are in neither hand."""
    hand = hands[seat]
    other = hands[next(s for s in hands if s != seat)]
    short = [(r, rc[r] - hand[r]) for r in range(15) if hand[r] < rc[r]]
    if any(other[r] < n for r, n in short):
        return False
    for r, n in short:
        other[r] -= n
        hand[r] += n
    spare = [r for r in range(15) for _ in range(hand[r] - rc[r])]
    back = sum(n for _, n in short)
    if len(spare) < back:
        return False
    for r in rng.sample(spare, back):
        hand[r] -= 1
        other[r] += 1
    return True


def update(
    belief: Belief | None, me: int, history: Sequence[HistoryEntry], hand_sizes: Sequence[int],
    n: int, fresh: Callable[[], Hands], rng: random.Random, no_reply: dict[int, list[Combo]],
) -> Belief:
    """The belief after the turns of ``history`` not read yet (a new one from ``fresh()``
    samples when there is none or the history is another deal's)."""
    hist = tuple(history)
    if belief is None or belief.me != me or hist[: len(belief.read)] != belief.read:
        return Belief(me, hist, [fresh() for _ in range(n)])
    new = turns_of(hist, hand_sizes)[len(belief.read):]
    first = len(belief.read)
    alive: list[Hands] = []
    for hands in belief.particles:
        if all(
            _keeps(hands, t, first + k, rng)
            for k, t in enumerate(new) if t.seat != me
        ) and not any(has_reply(hands[s], t) for s in hands for t in no_reply.get(s, [])):
            alive.append(hands)
    if not alive:  # nothing explains the turns read: start again from fresh samples
        return Belief(me, hist, [fresh() for _ in range(n)])
    plays = recent_plays(hist, hand_sizes, me)
    particles: list[Hands] = []
    # a few survivors alone would make the search sure of too little: fresh samples
    # stand in for part of the belief until enough survive
    kept = n if len(alive) >= n * FRESH_BELOW else max(len(alive), round(n * (1 - FRESH_SHARE)))
    step = len(alive) / kept
    u = rng.random() * step
    taken: set[int] = set()
    for k in range(kept):  # systematic resampling (the survivors weigh the same)
        i = min(int(u + k * step), len(alive) - 1)
        copy = {s: list(h) for s, h in alive[i].items()}
        if i in taken:
            for _ in range(MOVES):
                _move(copy, rng, plays, no_reply)
        taken.add(i)
        particles.append(copy)
    particles.extend(fresh() for _ in range(n - kept))
    rng.shuffle(particles)  # copies of one survivor are not drawn one after another
    return Belief(me, hist, particles)


def _move(
    hands: Hands, rng: random.Random, plays: dict[int, list[Play]], no_reply: dict[int, list[Combo]],
) -> None:
    """Swap one card between the two hands if the swap still meets every pass and the
    seats' latest plays (a duplicate particle becomes a neighbour); else leave it."""
    a, b = sorted(hands)
    x, y = pick_rank(hands[a], rng), pick_rank(hands[b], rng)
    if x < 0 or y < 0 or x == y:
        return
    swap(hands[a], hands[b], x, y)
    ok = all(not has_reply(hands[s], t) for s in (a, b) for t in no_reply.get(s, []))
    if ok:
        ok = all(misses(s, hands[s], plays.get(s, [])) == 0 for s in (a, b))
    if not ok:
        swap(hands[a], hands[b], y, x)


__all__ = ["PLAY_EVIDENCE", "Belief", "Turn", "turns_of", "update"]
