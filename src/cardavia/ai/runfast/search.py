"""Run Fast determinized Monte-Carlo search (the ``expert`` agent's engine).

* **Sampling**: the unseen cards are split between the two other seats on rank counts
  (suits do not matter after the opening). Every pass is a hard constraint (R-3.4: a pass
  proves the passer held no reply to that play, and hands only shrink): samples where a
  seat could have replied to a play it passed on are rejected; ranks a seat provably lacks
  (any single above a passed single, any bomb) go to the other seat first.
* **Rollouts**: seats play from their planner units (:mod:`cardavia.ai.runfast.plan`) under the
  real must-beat rule; when no unit fits but a reply exists, the seat must break its plan
  (lowest reply, then re-plan). Bombs count as replies (+20 when left standing).
* **Exact endgame**: with ≤ 24 cards left in the three hands, each candidate is valued on
  the sampled deal by the searcher's best reply to the rollout policy, solved exactly
  (:mod:`cardavia.ai.runfast.endgame`), instead of a rollout; every legal move may then be
  a candidate (up to the search's ``max_candidates``).
* **Value**: the seat's settlement score (R-5), computed exactly from the simulated end.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.ai.reasons import Reason, because, combo_arg
from cardavia.ai.rollout import last_plays_lead, lead_weakest
from cardavia.ai.search import (
    CAP_MARGIN,
    SIGNIFICANCE,
    OutOfTime,
    Search,
    add_new,
    add_smallest_bomb,
    check_clock,
    trailing_passes,
)
from cardavia.ai.tracking import Tracked, unseen_cards
from cardavia.cards import counts, runfast_deck
from cardavia.observation import Observation
from cardavia.rules.combo import Combo, ComboType, Pattern
from cardavia.rules.runfast.moves import patterns, rank_counts

from . import basic
from .belief import Belief, update
from .chain import SwapChain
from .endgame import ENDGAME_CARDS, solve_each
from .evidence import Play, recent_plays
from .joint import solve_joint
from .locate import odds
from .plan import Plan, Unit, best_plan, power_of, remove_pattern
from .reading import basic_move, fake_cnt, has_reply, misses

SEATS = 3


#: Rollouts play the planner's units (compared by value: equal units are interchangeable).
SimUnit = Unit

#: the significance gate (standard errors by which a candidate must beat basic's move)
GATE = SIGNIFICANCE


def sim_units(plan: Plan) -> list[SimUnit]:
    return list(plan.units)


def _violations(rc: Sequence[int], tops: Sequence[Combo]) -> int:
    return sum(1 for t in tops if has_reply(rc, t))


def sample_hands(
    me: int,
    sizes: Sequence[int],
    unseen_rc: Sequence[int],
    no_reply: dict[int, list[Combo]],
    rng: random.Random,
    tries: int | None = None,
    shape: float = 1.0,
    plays: dict[int, list[Play]] | None = None,
    lean: tuple[int, Sequence[float]] | None = None,
) -> dict[int, list[int]]:
    """Rank counts for the two other seats, consistent with the passes when possible; the
    shorter hand shaped like a real one (:func:`_shape`; ``shape`` scales it, 0 = random).

    ``plays`` (seat → its latest plays, :func:`cardavia.ai.runfast.evidence.recent_plays`)
    weighs a sample that meets the passes: each play ``basic`` would not have made from the
    sampled hand keeps it with probability :data:`PLAY_EVIDENCE` only. ``tries`` deals are
    drawn at most (None: :data:`SAMPLE_TRIES`)."""
    if tries is None:
        tries = SAMPLE_TRIES
    others = [s for s in range(SEATS) if s != me]
    base_pool: list[int] = []
    for r in range(2, 15):
        base_pool.extend([r] * max(0, unseen_rc[r]))
    # ranks a seat provably lacks: above the lowest single it passed on
    cap: dict[int, int] = {}
    for s in others:
        singles = [t.power for t in no_reply.get(s, []) if t.type == ComboType.SINGLE and not t.tier]
        if singles:
            cap[s] = min(singles)
    best: dict[int, list[int]] | None = None
    best_bad: tuple[int, int] = (1 << 30, 0)
    for _ in range(tries):
        pool = list(base_pool)
        rng.shuffle(pool)
        hands = {s: [0] * 15 for s in others}
        room = {s: sizes[s] for s in others}
        rest: list[int] = []
        for r in pool:
            allowed = [s for s in others if room[s] > 0 and power_of(r) <= cap.get(s, 99)]
            if len(allowed) == 1:
                hands[allowed[0]][r] += 1
                room[allowed[0]] -= 1
            else:
                rest.append(r)
        if lean is not None:
            _lean_split(rest, hands, room, lean, rng)
        for r in rest:
            free = [s for s in others if room[s] > 0]
            if not free:
                break
            s = free[0] if len(free) == 1 else rng.choice(free)
            hands[s][r] += 1
            room[s] -= 1
        if shape > 0:
            _shape(hands, others, sizes, cap, rng, shape)
        bad = sum(_violations(hands[s], no_reply.get(s, [])) for s in others)
        passed = -1  # plays read and made again before the sample was turned down
        if bad == 0 and plays and PLAY_EVIDENCE < 1.0:
            passed = _plays_kept(hands, plays, rng)
        if bad == 0 and passed < 0:
            return hands
        if (bad, -passed) < best_bad:
            best, best_bad = hands, (bad, -passed)
    assert best is not None
    return best


def _lean_split(
    rest: list[int], hands: dict[int, list[int]], room: dict[int, int],
    lean: tuple[int, Sequence[float]], rng: random.Random,
) -> None:
    """Give seat ``a`` its room's worth of ``rest`` by the odds (Efraimidis–Spirakis keys
    ``log(U) / w``, the largest win), the other seat the rest; ``rest`` is emptied."""
    a, w = lean
    keyed = sorted(rest, key=lambda r: math.log(1.0 - rng.random()) / w[r], reverse=True)
    take = min(room[a], len(keyed))
    for r in keyed[:take]:
        hands[a][r] += 1
    room[a] -= take
    b = next(s for s in hands if s != a)
    give = min(room[b], len(keyed) - take)
    for r in keyed[take : take + give]:
        hands[b][r] += 1
    room[b] -= give
    rest.clear()


#: particles of the belief carried between decisions (:mod:`cardavia.ai.runfast.belief`;
#: 0: every decision samples afresh)
PARTICLES = 0


#: how much the learned card-location model counts (0: off; 1: as fitted; its log-odds
#: are scaled by this)
LOCATE = 0.0


def _lean(obs: Observation) -> tuple[int, list[float]] | None:
    """The learned odds for this decision (:mod:`cardavia.ai.runfast.locate`), or None."""
    if LOCATE <= 0:
        return None
    a, w = odds(obs.history, obs.hand_sizes, obs.seat)
    return a, [x**LOCATE for x in w]


#: how much less likely a sampled hand is for each of a seat's latest plays that ``basic``,
#: holding it, would not have made (inference from plays); 1.0 = plays ignored. On since
#: issue 15's fifteenth round: with :data:`SAMPLE_CAP` the search has the time the reading
#: costs (about 3× the CPU a board). Against two ``basic`` at 150 ms, paired on the same
#: boards: +0.23 ± 0.22 a deal (boards 0–799) and +0.39 ± 0.23 (boards 800–1 599)
PLAY_EVIDENCE = 0.1
#: the latest plays read per other seat
PLAYS_READ = 4
#: plays made from more cards than this are not read (long hands say less, and planning
#: them for every sampled hand costs the search its samples)
PLAY_MAX_CARDS = 16
#: sampled deals drawn for one sample before the least-contradicted one is taken (with the
#: plays read, about a third of samples use them all; issue 15, sixteenth round: 64 tries
#: play the same, +0.04 ± 0.15 a deal paired on 800 boards)
SAMPLE_TRIES = 24


#: the swap chain (:mod:`cardavia.ai.runfast.chain`): proposals spent at most bringing a
#: chain's first sampled split to agree with every play read; 0 = off (every sample drawn
#: afresh). Issue 15, twenty-first round (docs/ai.md, "Strength"): 4 chains of 1 000
#: proposals +0.60 ± 0.37 a deal on 40 fixed samples (400 boards), but −0.59 ± 0.40 at the
#: clock, where the reading took the rollouts' time. Twenty-second round, kept: with the
#: planner's memo by rank suffix a read costs about a quarter, and 8 chains at the 150 ms
#: clock gain +0.38 ± 0.36, +0.40 ± 0.32, +0.07 ± 0.36 and +0.39 ± 0.37 a deal, paired,
#: on boards 7 600–9 199 in four sets of 400 (4, 10 or 16 chains, 16 swaps apart, another
#: ``CHAIN_EPS``: no better)
CHAIN_BURN = 1000
#: proposals between two samples drawn from a chain
CHAIN_THIN = 8
#: chains a decision runs (each from its own fresh sample; the samples taken in turn: with
#: 40 samples, 8 chains made them five draws of each, less alike than 4 chains' ten; the
#: twenty-third round's 80 samples are ten draws of each — 16 chains of five: +0.08 ± 0.32)
CHAIN_COUNT = 8
#: a proposal adding ``d`` violations is accepted with probability ``CHAIN_EPS ** d``
CHAIN_EPS = 0.1
#: the latest plays of each other seat the chain reads
CHAIN_PLAYS = 99


def _plays_read(obs: Observation) -> dict[int, list[Play]]:
    """The other seats' latest plays made from at most :data:`PLAY_MAX_CARDS` cards."""
    found = recent_plays(obs.history, obs.hand_sizes, obs.seat, PLAYS_READ)
    short = {s: [p for p in ps if p.sizes[s] <= PLAY_MAX_CARDS] for s, ps in found.items()}
    return {s: ps for s, ps in short.items() if ps}


def _plays_kept(hands: dict[int, list[int]], plays: dict[int, list[Play]], rng: random.Random) -> int:
    """Weigh a sampled deal by the plays read, the newest (smallest hands) first: each play
    ``basic`` would not have made keeps the deal with probability :data:`PLAY_EVIDENCE`.
    -1 when the deal is kept, else how many plays were read before it was turned down (the
    same law as keeping it with ``PLAY_EVIDENCE ** misses``, without reading every play)."""
    order = sorted(
        ((p.sizes[s], s, p) for s, ps in plays.items() if s in hands for p in ps),
        key=lambda t: t[0],
    )
    for k, (_, s, p) in enumerate(order):
        if misses(s, hands[s], (p,)) and rng.random() >= PLAY_EVIDENCE:
            return k
    return -1


#: a hand of at most this many cards is shaped (sampled hands keep combinations)
SHAPED_MAX = 12
#: extra cards a shaped hand is chosen from (calibrated on basic self-play hand shapes:
#: on 2 cards a pair 30 % of the time, random cards 11 %; planned plays by card count)
OVERDRAW = 3
#: how much a kept play's size counts against its value (players keep multi-card plays)
SIZE_BONUS = 0.4


def _shape(
    hands: dict[int, list[int]], others: Sequence[int], sizes: Sequence[int],
    cap: dict[int, int], rng: random.Random, strength: float,
) -> None:
    """Reshape the shorter hidden hand: it is chosen from its cards plus a few of the other
    seat's (those it may hold), keeping whole planned plays, the strongest first — players
    shed their weakest plays and keep combinations. The other seat gets the rest."""
    s, o = sorted(others, key=lambda x: sizes[x])
    n = sizes[s]
    extra = round(OVERDRAW * strength)
    if n > SHAPED_MAX or n < 2 or extra <= 0:
        return
    movable = [r for r in range(2, 15) for _ in range(hands[o][r]) if power_of(r) <= cap.get(s, 99)]
    drawn = list(hands[s])
    for r in rng.sample(movable, min(extra, len(movable))):
        drawn[r] += 1
        hands[o][r] -= 1
    kept = [0] * 15
    room = n
    left = list(drawn)
    for u in sorted(best_plan(list(drawn)).units, key=lambda u: -(u.value + SIZE_BONUS * (u.size - 1))):
        if u.size > room:
            continue
        for r, c in u.pattern.slots:
            kept[r] += c
            left[r] -= c
        room -= u.size
        if room == 0:
            break
    if room:
        rest = [r for r in range(2, 15) for _ in range(left[r])]
        for r in rng.sample(rest, room):
            kept[r] += 1
            left[r] -= 1
    hands[s] = kept
    for r in range(2, 15):
        hands[o][r] += left[r]


def settle_scores(
    winner: int, rcs: Sequence[Sequence[int]], played_any: Sequence[bool], bonuses: Sequence[int]
) -> list[int]:
    """R-5 on rank counts: cards (doubled if never played), the 2s, unplayed bombs, bonuses."""
    scores = [0] * SEATS
    for s in range(SEATS):
        if s == winner:
            continue
        rc = rcs[s]
        cards = sum(rc[2:15])
        owed = cards * (2 if not played_any[s] else 1)
        owed += 10 if rc[2] else 0
        owed += 10 * (sum(1 for r in range(3, 14) if rc[r] == 4) + (1 if rc[14] == 3 else 0))
        scores[s] -= owed
        scores[winner] += owed
    for b in bonuses:
        for s in range(SEATS):
            if s != b:
                scores[s] -= 10
        scores[b] += 20
    return scores


@dataclass(frozen=True, slots=True)
class LeadRule:
    """How a rollout seat leads: ``size_weight`` per card prefers longer plays
    (:func:`cardavia.ai.rollout.lead_weakest`); of its last two plays the strong one goes
    first when it is worth at least ``holds`` (:func:`cardavia.ai.rollout.last_plays_lead`)."""

    size_weight: float
    holds: float


def lead_rule(cfg: basic.RfConfig) -> LeadRule:
    """The rollout lead rule of a ``basic`` configuration (its lead knobs)."""
    return LeadRule(cfg.lead_size_bonus, cfg.keep_lead_value)


#: the rollout's lead rule for the other seats (``basic``'s defaults) and for the searcher
#: itself: its own later leads are made by the tuned default move (eighth round: +0.24 a
#: deal [+0.10, +0.37] over 2 340 boards on equal samples)
OTHERS_LEAD = lead_rule(basic.RfConfig())
MY_LEAD = lead_rule(basic.EXPERT_CONFIG)


def _lead(seat: int, us: list[SimUnit], sizes: Sequence[int], rule: LeadRule = OTHERS_LEAD) -> SimUnit:
    last = last_plays_lead(us, rule.holds)
    if last is not None:
        return last
    plain = [u for u in us if not u.is_bomb] or us
    opp_min = min(sizes[s] for s in range(SEATS) if s != seat)
    return lead_weakest(plain, opp_min, rule.size_weight)


def _bomb_time(seat: int, rcs: Sequence[Sequence[int]], us: Sequence[SimUnit]) -> bool:
    """When ``basic`` replies with a bomb although a plain reply fits: an opponent is close
    to going out, or the deal is late for this hand (R-5.3/R-5.4)."""
    opp_min = min(sum(rcs[s][2:15]) for s in range(SEATS) if s != seat)
    return opp_min <= 3 or sum(rcs[seat][2:15]) <= 8 or len(us) <= 3


def policy_choice(
    seat: int, us: Sequence[SimUnit], rcs: Sequence[Sequence[int]], top: Pattern | Combo | None,
    rule: LeadRule = OTHERS_LEAD,
) -> tuple[SimUnit | None, Pattern | None, bool]:
    """The rollout policy's move for ``seat`` holding the planned plays ``us``: (the unit
    played or None, the play or None for a pass, whether the hand must be planned again).

    Leading: the weakest unit (:func:`_lead`). Following: the lowest unit that beats ``top``
    (a bomb instead when it is time, :func:`_bomb_time`); when no unit fits but a reply
    exists, the seat must beat (R-3.4) with its lowest reply and plan again.
    """
    if top is None:
        u = _lead(seat, list(us), [sum(r[2:15]) for r in rcs], rule)
        return u, u.pattern, False
    fits = [u for u in us if u.pattern.beats(top)]
    if fits:
        plain = [u for u in fits if not u.is_bomb]
        if len(plain) < len(fits) and _bomb_time(seat, rcs, us):
            plain = []  # basic: a standing reply bomb wins 20 — late or in danger
        pick = min(plain or fits, key=lambda u: (u.pattern.tier, u.pattern.power))
        return pick, pick.pattern, False
    found = patterns(fake_cnt(rcs[seat]), top)
    if found:  # must beat: break the plan
        return None, min(found, key=lambda p: (p.tier, p.power)), True
    return None, None, False


#: the rollouts' other seats play ``basic``'s own move (its defaults, planning afresh every
#: turn) instead of the planned-unit policy: the policy follows as ``basic`` does on 87 % of
#: the follows of ``basic`` self-play (its lowest fitting unit, where ``basic`` picks the
#: reply that costs its plan least); 0 = off. Eighteenth round (docs/ai.md, "Strength"):
#: +0.24 ± 0.20 a deal on 40 fixed samples (800 boards), −0.01 ± 0.21 at the 150 ms clock
#: (800 more), where its planner calls cost samples: not kept
FAITHFUL_OTHERS = 0
#: the rollouts' searching seat plays its own default move (``basic`` with
#: :data:`START`, planning afresh every turn) instead of the planned-unit policy; 0 = off
#: (eighteenth round: −0.04 ± 0.24 a deal, 40 fixed samples)
FAITHFUL_SELF = 0
#: the other seats of the exact endgame make ``basic``'s own move (the rollouts keep the
#: planned-unit policy): the endgame's value is the searcher's best reply to the other
#: seats' model, and a best reply finds every place the model is wrong; 0 = off
#: (twenty-third round: +0.03 ± 0.06 a deal paired at the clock over 1 600 boards, for
#: 12 % more CPU: not kept)
FAITHFUL_ENDGAME = 0


def faithful_move(
    seat: int, rcs: Sequence[Sequence[int]], top: Pattern | Combo | None, cfg: basic.RfConfig | None = None
) -> Pattern | None:
    """``basic``'s move (configured by ``cfg``, None: its defaults; None = pass) for
    ``seat`` in a simulated deal of rank counts ``rcs``."""
    return basic_move(seat, rcs[seat], [sum(r[2:15]) for r in rcs], top, cfg)


def policy_move(seat: int, rcs: Sequence[Sequence[int]], top: Pattern | Combo | None) -> Pattern | None:
    """The rollout policy's play (None = pass) for ``seat``, planning its hand afresh (as
    ``basic`` does every turn): the other seats of the exact endgame in policy mode
    (``basic``'s own move with :data:`FAITHFUL_OTHERS` or :data:`FAITHFUL_ENDGAME`)."""
    if FAITHFUL_OTHERS or FAITHFUL_ENDGAME:
        return faithful_move(seat, rcs, top)
    return policy_choice(seat, units_of(list(rcs[seat])), rcs, top, OTHERS_LEAD)[1]


#: the searcher's next turn in the rollouts follows one of this many plans — its policy play,
#: the weakest other lead / the highest plain reply, the cheapest bomb
#: (:func:`next_choices`) — the same plan on every sampled deal; each candidate is valued
#: by its best plan on average (an open-loop second move); 0 or 1 = off. Eighteenth round:
#: 3 plans −0.07 ± 0.14 a deal (40 fixed samples); the best plan on each sampled deal
#: instead (closed loop, removed) −0.33 ± 0.23: it fits the sampled hands, not the real ones
NEXT_PLANS = 0


#: the searcher's next turn in the rollouts follows one of this many plans (as
#: :data:`NEXT_PLANS`), chosen per information set: the sampled deals on which the other
#: seats make the same moves before that turn share a choice, the plan with the best mean
#: there — chosen on the other half of those deals (cross-fitted, :func:`crossfit_next`),
#: so a plan is not credited for fitting the very deals it is valued on; 0 or 1 = off
#: (issue 15, nineteenth round: 3 plans −0.10 ± 0.22 a deal, 40 fixed samples, 400 boards;
#: a probe of 6 deals found about 7 information sets per candidate, most of one sample)
NEXT_INFOSETS = 0

#: an information set's plan must beat the policy's plan by this much (points a deal) on
#: the other half's deals to be chosen
NEXT_MARGIN = 0.0

Key = tuple[tuple[int, Pattern | None], ...]


def crossfit_next(
    rows: Sequence[Sequence[float]], keys: Sequence[Sequence[Key]], plans: int, margin: float = 0.0
) -> list[list[float]]:
    """One value a candidate per sampled deal, the searcher's next plan chosen per
    information set by cross-fitting.

    ``rows[s][i * plans + k]`` is candidate ``i`` with next plan ``k`` on deal ``s``;
    ``keys[s][i]`` what the searcher saw before its next turn after candidate ``i`` on deal
    ``s``. Deal ``s`` takes the plan that did best (by more than ``margin`` over plan 0)
    on the deals of the same key and the other parity; plan 0 when there are none.

    >>> crossfit_next([[1.0, 5.0], [2.0, 6.0], [1.0, 5.0], [2.0, 6.0]], [[()]] * 4, 2)
    [[5.0], [6.0], [5.0], [6.0]]
    >>> crossfit_next([[1.0, 5.0], [2.0, 0.0], [1.0, 5.0], [2.0, 0.0]], [[()]] * 4, 2)
    [[1.0], [0.0], [1.0], [0.0]]
    >>> crossfit_next([[1.0, 5.0], [2.0, 0.0]], [[((1, None),)], [()]], 2)
    [[1.0], [2.0]]
    """
    n = len(rows)
    width = len(rows[0]) // plans if n else 0
    out = [[0.0] * width for _ in range(n)]
    for i in range(width):
        groups: dict[tuple[Key, int], list[int]] = {}
        for s in range(n):
            groups.setdefault((keys[s][i], s % 2), []).append(s)
        for (key, half), members in groups.items():
            other = groups.get((key, 1 - half), [])
            pick = 0
            if other:
                means = [sum(rows[t][i * plans + k] for t in other) / len(other) for k in range(plans)]
                best = max(range(plans), key=lambda k: means[k])
                if means[best] > means[0] + margin:
                    pick = best
            for s in members:
                out[s][i] = rows[s][i * plans + pick]
    return out


def next_choices(
    us: Sequence[SimUnit], rcs: Sequence[Sequence[int]], top: Pattern | Combo | None, me: int, most: int
) -> list[SimUnit]:
    """The searcher's planned plays worth comparing at its next rollout turn (the policy's
    first; empty when the policy would pass or break its plan)."""
    pick, _, replan = policy_choice(me, us, rcs, top, MY_LEAD)
    if pick is None or replan:
        return []
    out = [pick]
    if top is None:
        plain = sorted(
            (u for u in us if not u.is_bomb and u != pick), key=lambda u: u.value - MY_LEAD.size_weight * u.size
        )
        extra = plain[:1] + plain[-1:]
    else:
        fits = [u for u in us if u.pattern.beats(top) and u != pick]
        plain = [u for u in fits if not u.is_bomb]
        bombs = [u for u in fits if u.is_bomb]
        extra = [max(plain, key=lambda u: u.pattern.power)] if plain else []
        extra += [min(bombs, key=lambda u: (u.pattern.tier, u.pattern.power))] if bombs else []
    for u in extra:
        if u not in out:
            out.append(u)
    return out[:most]


def rollout(
    units: list[list[SimUnit]],
    rcs: list[list[int]],
    turn: int,
    top: Pattern | Combo | None,
    top_seat: int | None,
    passes: int,
    played_any: list[bool],
    bonuses: list[int],
    standing: int | None,
    me: int,
    first: Pattern | bool | None,
    deadline: float = math.inf,
    next_pick: int = 0,
    seen: list[tuple[int, Pattern | None]] | None = None,
) -> float:
    """Play the deal out on rank counts; return ``me``'s settlement score.

    ``first`` is the move of ``turn`` (a pattern, None for a pass, False: the policy).
    ``me``'s next policy turn plays choice ``next_pick`` of :func:`next_choices` (0, or
    one it does not have: the policy's play). ``seen`` (when given) receives the other
    seats' moves (seat, play or None) up to ``me``'s next turn: what ``me`` will have
    observed when it plays again.
    Raises :class:`~cardavia.ai.search.OutOfTime` once the clock passes ``deadline``.
    """
    forced: Pattern | bool | None = first
    watching = seen is not None
    for step in range(400):
        if not step & 31:
            check_clock(deadline)
        seat = turn
        if watching and seat == me and step > 0:
            watching = False
        us = units[seat]
        rc = rcs[seat]
        play: Pattern | None = None
        replan = False
        if seat == me and forced is False and next_pick > 0:
            choices = next_choices(us, rcs, top, me, next_pick + 1)
            if len(choices) > next_pick:
                forced = choices[next_pick].pattern
                us.remove(choices[next_pick])
            next_pick = 0
        if forced is not False:
            play = forced if isinstance(forced, Pattern) else None
            forced = False
        elif seat != me and FAITHFUL_OTHERS:
            play = faithful_move(seat, rcs, top)  # plans afresh each turn: no units kept
        elif seat == me and FAITHFUL_SELF:
            play = faithful_move(seat, rcs, top, START)
        else:
            unit, play, replan = policy_choice(seat, us, rcs, top, MY_LEAD if seat == me else OTHERS_LEAD)
            if unit is not None:
                us.remove(unit)
        if watching and seat != me and seen is not None:
            seen.append((seat, play))
        if play is None:
            passes += 1
            if passes >= SEATS - 1:
                if standing is not None:
                    bonuses.append(standing)
                    standing = None
                assert top_seat is not None
                turn, top, top_seat, passes = top_seat, None, None, 0
            else:
                turn = (seat + 1) % SEATS
            continue
        if play.tier in (1, 2) and top is not None:
            standing = seat
        for r, n in play.slots:
            rc[r] -= n
        played_any[seat] = True
        if replan:
            units[seat] = sim_units(best_plan(rc))
        top, top_seat, passes = play, seat, 0
        if sum(rc[2:15]) == 0:
            if standing is not None:
                bonuses.append(standing)
            return float(settle_scores(seat, rcs, played_any, bonuses)[me])
        turn = (seat + 1) % SEATS
    return 0.0


def unbeatable(move: Pattern, unseen_rc: Sequence[int]) -> bool:
    """Whether no combination of the unseen cards (both other hands pooled) beats ``move``."""
    return not has_reply(unseen_rc, move)


def units_of(rc: list[int]) -> list[SimUnit]:
    return sim_units(best_plan(rc))


def units_after(rc: list[int], move: Pattern) -> list[SimUnit]:
    return sim_units(best_plan(remove_pattern(rc, move)))


# ---- card tracking: every pass is a hard "no reply"

_DECK = counts(runfast_deck())


def track(obs: Observation) -> Tracked:
    """The unseen cards and, per seat, the plays it passed on (it held no reply to them)."""
    unseen, _ = unseen_cards(obs, _DECK)
    return Tracked(unseen, {}, _passes(obs), list(obs.played_any))


def _passes(obs: Observation) -> dict[int, list[Combo]]:
    """Seat → the plays it passed on (a trick ends after a full round of passes)."""
    no_reply: dict[int, list[Combo]] = {}
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
    return no_reply


# ---- the expert's move


#: the policy whose move is the search's default (``basic`` tuned, :data:`basic.EXPERT_CONFIG`)
START = basic.EXPERT_CONFIG
#: sampled deals a decision uses at most, whatever its budget (issue 15, thirteenth round:
#: against two ``basic`` at 150 ms, 40 samples +3.52 / +3.79 a deal on two board sets, the
#: uncapped clock's median 162 samples +3.50 / +3.52; 20 samples +3.20): the same play for
#: about 30 % of the CPU. Twenty-third round: with the swap chain the samples are five
#: draws from each of 8 chains, alike within a chain, and 80 samples (ten a chain) gain
#: +0.24 ± 0.15 a deal over 40, paired at the 150 ms clock on 1 600 fresh boards (9 200–
#: 10 799; 86 % of searches reach the 80, median 57 ms a search); a fifth set, after the
#: choice (10 800–11 199): +0.26 ± 0.30
SAMPLE_CAP = 80
#: the search's candidates at most (0: the agent's ``max_candidates``, 6 for ``expert``)
CANDIDATES = 0
#: the weakest planned leads, and the follows that keep the best plan, tried as candidates
#: (twenty-third round: 9 candidates of 6 tried, −0.09 ± 0.20 and −0.19 ± 0.21 a deal paired
#: at the clock on two sets of 400 boards: more candidates, more overrides on noise)
TRIED = 4
#: with at most this many cards in play the exact endgame is solved over all the sampled
#: deals at once, one plan for the deals the searcher cannot tell apart
#: (:mod:`cardavia.ai.runfast.joint`: no strategy fusion), after the deals' own solves,
#: in the time left before the hard cap; 0 = off. Twenty-fourth round (docs/ai.md,
#: "Strength"): 24 cards, +0.07 ± 0.09 a deal over 1 600 boards at the 150 ms clock
#: (+0.08 ± 0.11 over 1 200 with the memo keyed as now), for about 10 % more CPU: not kept
JOINT_CARDS = 0


def decide(obs: Observation, cnt: list[int], search: Search, t0: float) -> tuple[Pattern | None, Reason]:
    """The expert's Run Fast move (None = pass) and its reason; the search started at ``t0``."""
    me = obs.seat
    default, reason = basic.decide_as(obs, cnt, search.rng, START)
    moves = patterns(cnt, obs.top, obs.opening)
    if not moves or len(moves) == 1:
        return default, reason
    size = sum(cnt)
    if default is not None and default.size == size:
        return default, reason
    tracked = track(obs)
    plays = _plays_read(obs) if PLAY_EVIDENCE < 1.0 else None
    lean = _lean(obs)
    unseen_rc = rank_counts(tracked.unseen)
    rc = rank_counts(cnt)
    plan = best_plan(rc)
    if obs.top is None and not obs.opening and len(plan.units) <= 4:
        safe = [u for u in plan.units if unbeatable(u.pattern, unseen_rc)]
        if safe and len(plan.units) - len(safe) <= 1:
            u = max(safe, key=lambda u: (u.size, u.value))
            return u.pattern, because(
                "endgame_unbeatable", f"endgame: {u.describe()} cannot be beaten; the rest follows",
                combo=combo_arg(u.pattern),
            )
    candidates: list[Pattern | None] = [default]
    opp_min = min(obs.hand_sizes[s] for s in range(SEATS) if s != me)
    if obs.top is None and not obs.opening:
        leads = sorted(
            (u for u in plan.units if not u.is_bomb), key=lambda u: u.value - 0.15 * u.size
        )
        if opp_min <= 2:  # an opponent close to going out: nothing it can follow
            leads = [u for u in leads if u.size > opp_min] or leads[-1:]
        add_new(candidates, [u.pattern for u in leads[:TRIED] + leads[-1:]])
    else:
        ranked = sorted(
            moves,
            key=lambda m: -(best_plan([a - b for a, b in zip(rc, _slots_rc(m), strict=True)]).score),
        )
        plain = [m for m in moves if m.tier == 0]
        if plain and obs.top_seat is not None and opp_min <= 3:
            add_new(candidates, [max(plain, key=lambda m: m.power)])  # the block that holds
        add_smallest_bomb(candidates, moves)
        add_new(candidates, ranked[:TRIED])
    solved = sum(obs.hand_sizes) <= ENDGAME_CARDS
    if solved:  # solved exactly: every legal move may compete
        add_new(candidates, moves)
    candidates = candidates[: CANDIDATES or search.max_candidates]
    if len(candidates) == 1:
        return default, reason
    mine = [units_of(rc) if c is None else units_after(rc, c) for c in candidates]
    passes = trailing_passes(obs)
    standing: int | None = None  # the reply bomb standing on this trick
    for i, (seat, combo) in enumerate(obs.trick):
        if i > 0 and combo is not None and combo.tier in (1, 2):
            standing = seat
    bonuses = list(obs.extra.get("bomb_bonuses", []))
    sizes = list(obs.hand_sizes)

    settled = sum(20.0 if b == me else -10.0 for b in bonuses)  # bonuses already earned

    chain: list[SwapChain] = []  # made at the first samples, inside the search's clock
    turn = [0]
    read = (
        {s: ps for s, ps in recent_plays(obs.history, sizes, me, CHAIN_PLAYS).items() if s != me}
        if CHAIN_BURN > 0 else {}
    )

    def afresh() -> dict[int, list[int]]:
        return sample_hands(me, sizes, unseen_rc, tracked.no_reply, search.rng, plays=plays, lean=lean)

    def fresh() -> dict[int, list[int]]:
        if CHAIN_BURN <= 0:
            return afresh()
        turn[0] += 1
        if len(chain) >= CHAIN_COUNT:
            return chain[turn[0] % len(chain)].draw(CHAIN_THIN, search.stop_at)
        made = SwapChain(afresh(), tracked.no_reply, read, search.rng, CHAIN_EPS)
        chain.append(made)
        made.settle(CHAIN_BURN, search.stop_at)
        return made.draw(0)

    pool: list[dict[int, list[int]]] = []
    if PARTICLES > 0:  # the belief carried from the last decision, read up to now
        carried = search.belief if isinstance(search.belief, Belief) else None
        search.belief = update(carried, me, obs.history, sizes, PARTICLES, fresh, search.rng, tracked.no_reply)
        pool = search.belief.particles
    drawn = [0]
    joint = solved and sum(obs.hand_sizes) <= JOINT_CARDS
    deals: list[list[list[int]]] = []  # the sampled deals, for the joint solve

    def one_sample() -> list[float]:
        if pool:
            hands = {s: list(h) for s, h in pool[drawn[0] % len(pool)].items()}
            drawn[0] += 1
        else:
            hands = fresh()
        others = {s: units_of(h) for s, h in hands.items()}
        exact: list[float | None] = [None] * len(candidates)
        if solved:  # the searcher's best reply to the rollout policy, exact on this deal
            full = [rc if s == me else hands[s] for s in range(SEATS)]
            exact = solve_each(
                full, turn=me, top=obs.top, top_seat=obs.top_seat, passes=passes,
                played_any=tracked.played_any, standing=standing, me=me, firsts=candidates,
                deadline=search.stop_at, policy=policy_move,
            )
        values: list[float] = []
        key: list[Key] = []
        seen: list[tuple[int, Pattern | None]] = []
        for c, my_units, v in zip(candidates, mine, exact, strict=True):
            if v is not None:
                values.extend([settled + v] * plans)  # plans == 1 when solved
                continue
            for pick in range(plans):
                check_clock(search.stop_at)
                rcs = [list(rc) if s == me else list(hands[s]) for s in range(SEATS)]
                units = [list(my_units) if s == me else list(others[s]) for s in range(SEATS)]
                values.append(
                    rollout(
                        units, rcs, me, obs.top, obs.top_seat, passes,
                        list(tracked.played_any), list(bonuses), standing, me, c, search.stop_at, pick,
                        seen if pick == 0 and infosets else None,
                    )
                )
            if infosets:
                key.append(tuple(seen))
                seen.clear()
        if infosets:
            keys.append(key)
        if joint:  # a sample abandoned inside has no deal here; one past the cap is the last
            deals.append([rc if s == me else hands[s] for s in range(SEATS)])
        return values

    def one_plan(rows: list[list[float]]) -> list[list[float]]:
        return joint_rows(
            rows, deals, candidates, settled, me=me, top=obs.top, top_seat=obs.top_seat, passes=passes,
            played_any=tracked.played_any, standing=standing, deadline=t0 + search.hard_cap - CAP_MARGIN,
        )

    # an open-loop second move (NEXT_PLANS): each candidate once per plan of the searcher's
    # next turn, the same plan on every sampled deal; the gate compares the best of them
    plans = 1 if solved else max(1, NEXT_PLANS, NEXT_INFOSETS)
    infosets = plans > 1 and NEXT_INFOSETS > 1
    keys: list[list[Key]] = []
    if infosets:  # the next plan chosen per information set, cross-fitted
        return search.run(
            candidates, default, one_sample, t0, reason, GATE, SAMPLE_CAP,
            reduce=lambda rows: crossfit_next(rows, keys[: len(rows)], plans, NEXT_MARGIN),
        )
    if plans == 1:
        return search.run(
            candidates, default, one_sample, t0, reason, GATE, SAMPLE_CAP, reduce=one_plan if joint else None
        )
    paired = [c for c in candidates for _ in range(plans)]
    move, why = search.run(paired, default, one_sample, t0, reason, GATE, SAMPLE_CAP)
    return (default, reason) if move == default else (move, why)


def _rolled_out(
    me: int, rcs: list[list[int]], turn: int, top: Pattern | Combo | None, top_seat: int | None, passes: int,
    played: tuple[bool, ...], standing: int | None,
) -> float:
    """``me``'s rollout value of a sampled deal from a position of the joint endgame,
    bonuses from here on (the rollout policy for every seat)."""
    units = [units_of(list(r)) for r in rcs]
    return rollout(
        units, [list(r) for r in rcs], turn, top, top_seat, passes, list(played), [], standing, me, False
    )


def joint_rows(
    rows: list[list[float]], deals: Sequence[Sequence[Sequence[int]]], candidates: Sequence[Pattern | None],
    settled: float, *, me: int, top: Pattern | Combo | None, top_seat: int | None, passes: int,
    played_any: Sequence[bool], standing: int | None, deadline: float,
) -> list[list[float]]:
    """The search's rows (one a sampled deal, one value a candidate) valued again by the
    joint endgame (:mod:`cardavia.ai.runfast.joint`): each candidate on each deal under one
    plan for the deals the searcher cannot tell apart. ``deals`` are the rows' sampled
    deals in order, perhaps with one more (a sample that ended past the cap); ``settled``
    the bonuses already earned. The rows unchanged when the joint solve runs out of nodes
    or of time."""
    try:
        got = solve_joint(
            deals[: len(rows)], turn=me, top=top, top_seat=top_seat, passes=passes, played_any=played_any,
            standing=standing, me=me, firsts=candidates, policy=policy_move, deadline=deadline,
            alone=_rolled_out,
        )
    except OutOfTime:
        return rows
    if got is None:
        return rows
    return [[settled + got[k][i] for k in range(len(candidates))] for i in range(len(rows))]


def _slots_rc(m: Pattern) -> list[int]:
    out = [0] * 15
    for r, n in m.slots:
        out[r] += n
    return out


__all__ = [
    "SimUnit",
    "decide",
    "fake_cnt",
    "has_reply",
    "joint_rows",
    "rollout",
    "sample_hands",
    "settle_scores",
    "track",
    "unbeatable",
    "units_after",
    "units_of",
]
