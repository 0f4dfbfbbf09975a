"""Guandan determinized Monte-Carlo search (the ``expert`` agent's engine).

* **Candidates**: to lead, the planner's weakest plays and its strongest non-bomb one —
  never a play an opponent on 1–2 cards can follow with as many cards, nor a low 5-card
  play into an opponent on 5 (their usual ways out), unless nothing unseen beats it; to
  follow an opponent, the pass, the highest plain reply (the block that holds, when the
  opponent holds ≤ 6), the bomb that costs the plan least (a whole bomb, never four cards
  split off a longer one) and the cheapest replies; over the partner, pass or basic's move.
* **Sampling**: the unseen cards (two packs − own hand − everything played) are dealt to
  the other seats with their exact counts; cards a seat surely holds (a tribute it received
  and has not played, a return card this seat gave it) are placed first; short hands are
  shaped like real ones (:mod:`cardavia.ai.guandan.shape`: planned plays survive). Passes are
  only soft evidence in Guandan (players hold back on purpose): a pass on an opponent's plain
  group makes hands holding a reply less likely (:func:`sample_hands`), never impossible.
* **Rollouts**: every seat plays from its planner units (:mod:`cardavia.ai.guandan.plan`) with
  basic's main rules on units (weakest unit to lead; low for a partner on 1–2 cards; nothing
  an opponent on ≤ 3 can follow; lowest fitting unit to follow an opponent, a pair or triple
  split to block one on ≤ 6 cards; pass on the partner; bombs against a short opponent, to
  go out, or when an opponent is close). The whole deal is simulated on card counts until
  the result for the team is known.
* **Exact endgame**: with ≤ 10 cards left in play, each candidate is valued on the sampled
  deal by an exact solve (:mod:`cardavia.ai.guandan.endgame`) instead of a rollout.
* **Value**: ``±(1 + 0.5 × levels)`` for the team of the first finisher (deal win plus the
  level gain, G-1.3), in the match's terms (:mod:`cardavia.ai.guandan.value`): gains stop
  at A, and at A a finish that wins the match (G-1.6) is worth more than any deal.
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from cardavia.ai.reasons import Reason, because, combo_arg
from cardavia.ai.rollout import last_plays_lead, lead_weakest
from cardavia.ai.search import SIGNIFICANCE, Search, add_new, check_clock, trailing_passes
from cardavia.ai.tracking import Tracked, same_turn, still_held, unseen_cards
from cardavia.cards import counts, guandan_deck
from cardavia.observation import Observation
from cardavia.rules.combo import Combo, ComboType, Pattern
from cardavia.rules.guandan.combos import BJ, group_power
from cardavia.rules.guandan.moves import concretize, patterns, rank_counts

from . import basic, faithful
from .basic import level_of
from .endgame import ENDGAME_CARDS, NODE_BUDGET, Moves, Policy, after_pass, next_active, solve_each
from .leads import Action, Lead, last_leads, recent_actions
from .locate import weights_by_code
from .plan import UNIT_COST, Plan, Unit, best_plan, group_value, remove_pattern, sequence_value
from .shape import deal_shaped
from .value import PLAIN, Values, outcome, outcome_values, value_for

#: lead candidates: this many of the weakest planned plays and of the strongest
LEAD_WEAKEST = 3
LEAD_STRONGEST = 1
#: the significance gate for leads (standard errors, :meth:`cardavia.ai.search.Search.run`)
LEAD_SIGNIFICANCE = 0.5


@dataclass(frozen=True, slots=True, eq=False)
class SimUnit:
    """A planned play in a rollout (compared by identity: each is one physical play)."""

    pattern: Pattern
    value: float
    is_bomb: bool

    @property
    def size(self) -> int:
        return self.pattern.size


def _beats(p: Pattern, top: Pattern | Combo) -> bool:
    """:meth:`Pattern.beats` inlined for the rollout's hot loop (same rule, G-4.4/G-5.5)."""
    if p.tier:
        return not top.tier or p.tier > top.tier or (p.tier == top.tier and p.power > top.power)
    return not top.tier and p.type is top.type and p.size == top.size and p.power > top.power


def sim_units(plan: Plan, level: int) -> list[SimUnit]:
    return [SimUnit(u.pattern(level), u.value, u.is_bomb) for u in plan.units]


def sim_units_of(units: Sequence[Unit], level: int) -> list[SimUnit]:
    return [SimUnit(u.pattern(level), u.value, u.is_bomb) for u in units]


def units_of(cnt: Sequence[int], level: int) -> list[SimUnit]:
    rc, w = rank_counts(cnt, level)
    return sim_units(best_plan(rc, w, level), level)


def units_after(cnt: Sequence[int], level: int, move: Pattern) -> list[SimUnit]:
    rc, w = rank_counts(cnt, level)
    rc2, w2 = remove_pattern(rc, w, move.slots)
    return sim_units(best_plan(rc2, w2, level), level)


#: How much less likely a pass on an opponent's single/pair/triple is when the passer holds
#: a plain reply (Guandan players hold back on purpose: soft evidence, not proof).
PASS_EVIDENCE = 0.3
#: How much less likely a sampled hand is when the rollout policy, holding it (plus the cards
#: played since), would have led another kind of play than the seat's latest lead did
#: (inference from plays: players lead their weakest planned play). 1.0 = leads ignored.
LEAD_EVIDENCE = 1.0
#: leads made from more cards than this are not read (long hands say little; planning them
#: on every sample costs time)
LEAD_MAX_CARDS = 15
#: deals tried per sample before the least contradicted one is taken (eighth round: 2 instead
#: of 8 plays as well on equal samples, +1.4 points [−1.7, +4.4], and takes a third less time)
SAMPLE_TRIES = 2

_GROUP_SIZE = {ComboType.SINGLE: 1, ComboType.PAIR: 2, ComboType.TRIPLE: 3}


def sample_hands(
    me: int,
    sizes: Sequence[int],
    unseen: Sequence[int],
    known: dict[int, list[int]],
    rng: random.Random,
    passed_on: dict[int, list[Combo]] | None = None,
    level: int = 2,
    shape: float = 1.0,
    plans: dict[int, list[Unit]] | None = None,
    leads: dict[int, tuple[Lead, list[int]]] | None = None,
    turns: dict[int, list[tuple[Action, list[int]]]] | None = None,
    lean: dict[int, list[float]] | None = None,
    loose: dict[int, list[Combo]] | None = None,
) -> dict[int, list[int]]:
    """Count arrays for the other seats, consistent with counts and known cards, short
    hands shaped like real ones (:func:`cardavia.ai.guandan.shape.deal_shaped`; ``shape``
    scales the shaping, 0 = random cards).

    ``passed_on`` (seat → plays it passed on, :func:`track`) weighs the deal:
    each pass the sampled hand could have answered with a plain reply keeps the sample
    with probability :data:`PASS_EVIDENCE` only (rejection sampling, a few tries, then the
    least contradicted sample). ``leads`` (seat → its latest lead and the codes played
    since, :func:`cardavia.ai.guandan.leads.last_leads`) weighs it the same way: a hand from
    which the rollout policy would have led another kind of play keeps the sample with
    probability :data:`LEAD_EVIDENCE`. ``turns`` (seat → its latest turns and the codes played
    since, :func:`cardavia.ai.guandan.leads.recent_actions`): each turn ``basic``, holding the
    sampled hand plus those codes, would not have taken keeps the deal with probability
    :data:`PLAY_EVIDENCE` (:func:`_turns_kept`). ``plans`` (optional) receives the planned plays of
    the shaped hands of the sample returned (:func:`cardavia.ai.guandan.shape.deal_shaped`).
    ``lean`` (seat → weight per code, :func:`cardavia.ai.guandan.locate.weights_by_code`)
    draws the hands by the learned card-location model. ``loose`` (seat → the plays it passed
    on out of danger, :func:`split_passes`): each one the hand's plan could have answered
    cheaply (:func:`unit_replies`) keeps the deal with probability
    :data:`LOOSE_PASS_EVIDENCE`; ``passed_on`` then holds only the passes made in danger.
    """
    best: dict[int, list[int]] | None = None
    best_plans: dict[int, list[Unit]] = {}
    best_weight = -1.0
    for _ in range(SAMPLE_TRIES if passed_on or leads or turns or loose else 1):
        tried: dict[int, list[Unit]] = {}
        hands = deal_shaped(me, sizes, unseen, known, rng, level, shape, tried, lean)
        if not passed_on and not leads and not turns and not loose:
            best, best_plans = hands, tried
            break
        bad = sum(_plain_replies(hands[s], level, passed_on.get(s, ())) for s in hands) if passed_on else 0
        missed = sum(_other_lead(hands[s], level, *leads[s]) for s in leads if s in hands) if leads else 0
        weight = PASS_EVIDENCE**bad * LEAD_EVIDENCE**missed
        if loose:
            weight *= LOOSE_PASS_EVIDENCE ** sum(
                unit_replies(plan_units(hands[s], level, tried, s), level, tops)
                for s, tops in loose.items() if s in hands
            )
        if weight >= 1.0 or rng.random() < weight:
            read = _turns_kept(hands, turns, level, rng) if turns else -1
            if read < 0:
                best, best_plans = hands, tried
                break
            weight *= PLAY_EVIDENCE * (read + 1) / (read + 2)  # turned down after ``read``
        if weight > best_weight:
            best, best_weight, best_plans = hands, weight, tried
    assert best is not None
    if plans is not None:  # the planned plays of the sample returned, not of the last try
        plans.clear()
        plans.update(best_plans)
    return best


#: how much the learned card-location model counts (0: off; 1: as fitted; its log-odds
#: are scaled by this)
LOCATE = 0.0


def _lean(obs: Observation, level: int) -> dict[int, list[float]] | None:
    """The learned weights for this decision (:mod:`cardavia.ai.guandan.locate`), or None."""
    if LOCATE <= 0:
        return None
    return weights_by_code(obs.history, obs.hand_sizes, obs.seat, level, strength=LOCATE)


#: How much less likely a sampled hand is for each of the seat's latest turns (plays and
#: passes) that ``basic``, holding it plus the cards played since, would not have taken
#: (inference from plays; 1.0 = turns ignored)
PLAY_EVIDENCE = 1.0
#: the latest turns read per other seat, and the most cards a hand held at a turn read
PLAYS_READ = 3
PLAY_MAX_CARDS = 12
#: whether the partner's turns are read too (the partner is not ``basic``: it plays the
#: tuned configuration and, as an expert, searches)
PLAYS_OF_PARTNER = True
_BASIC = basic.GdConfig()


def _turns_kept(
    hands: dict[int, list[int]], turns: dict[int, list[tuple[Action, list[int]]]], level: int,
    rng: random.Random,
) -> int:
    """Weigh a sampled deal by the turns read, from the smallest hands up: each turn
    ``basic`` would not have taken keeps the deal with probability :data:`PLAY_EVIDENCE`.
    -1 when the deal is kept, else how many turns were read before it was turned down (the
    same law as keeping it with ``PLAY_EVIDENCE ** misses``, without reading every turn)."""
    order = sorted(
        ((act.sizes[s], s, act, since) for s, ts in turns.items() if s in hands for act, since in ts),
        key=lambda t: t[0],
    )
    for k, (_, s, act, since) in enumerate(order):
        if not _same_turn(hands[s], level, act, since) and rng.random() >= PLAY_EVIDENCE:
            return k
    return -1


def _same_turn(cnt: Sequence[int], level: int, act: Action, since: Sequence[int]) -> bool:
    """Whether ``basic``, holding ``cnt`` plus the codes played ``since``, takes ``act``'s turn."""
    hand = list(cnt)
    for code in since:
        hand[code] += 1
    view = basic.GdView(act.seat, hand, level, act.sizes, act.top, act.top_seat)
    return same_turn(basic.choose(view, _BASIC, _RNG)[0], act.combo)


_RNG = random.Random(0)  # basic draws only for loose moves, and _BASIC has none


def _other_lead(cnt: Sequence[int], level: int, lead: Lead, since: Sequence[int]) -> bool:
    """Whether the rollout policy, holding ``cnt`` plus the cards played ``since`` the lead,
    would have led a play of another type or size than ``lead`` (the seat's real lead)."""
    hand = list(cnt)
    for code in since:
        hand[code] += 1
    units = units_of(hand, level)
    if not units:
        return False
    play = _lead(lead.seat, units, lead.sizes)
    return play.pattern.type is not lead.combo.type or play.size != lead.combo.size


def _plain_replies(cnt: Sequence[int], level: int, tops: Sequence[Combo]) -> int:
    """How many of ``tops`` (singles, pairs, triples) this hand could beat with a plain group."""
    if not tops:
        return 0
    rc, w = rank_counts(cnt, level)
    found = 0
    for top in tops:
        need = _GROUP_SIZE[top.type]
        for r in range(2, 17):
            c = rc[r]
            avail = c + w if r == level else c if r >= BJ else (c + w if c else 0)
            if avail >= need and group_power(r, level) > top.power:
                found += 1
                break
    return found


#: How much less likely a pass on an opponent's single/pair/triple made out of danger (no
#: opponent of the passer close to going out, by ``basic``'s danger rule) is when the passer's
#: plan holds a unit that beats it cheaply (``basic`` would have played it); 1.0 = every pass
#: is read as :data:`PASS_EVIDENCE` on any plain group instead
LOOSE_PASS_EVIDENCE = 1.0


def plan_units(cnt: Sequence[int], level: int, plans: dict[int, list[Unit]], seat: int) -> list[Unit]:
    """The planned plays of a sampled hand (planned once: kept in ``plans`` for the rollouts)."""
    found = plans.get(seat)
    if found is None:
        rc, w = rank_counts(cnt, level)
        found = plans[seat] = list(best_plan(rc, w, level).units)
    return found


def unit_replies(units: Sequence[Unit], level: int, tops: Sequence[Combo]) -> int:
    """How many of ``tops`` a planned play of the same kind beats at a cost ``basic`` accepts
    out of danger (a unit's value plus 0.02 a power step ≤ 1 + 0.35: basic's reply rule)."""
    found = 0
    for top in tops:
        for u in units:
            if u.is_bomb or u.size != top.size:
                continue
            p = u.pattern(level)
            if p.type is top.type and p.power > top.power and u.value + 0.02 * p.power <= _BASIC_REPLY:
                found += 1
                break
    return found


_BASIC_REPLY = 1.0 - basic.GdConfig().follow_threshold


def _lead(seat: int, us: list[SimUnit], sizes: Sequence[int]) -> SimUnit:
    last = last_plays_lead(us)
    if last is not None:
        return last
    plain = [u for u in us if not u.is_bomb] or us
    mate = sizes[(seat + 2) % 4]
    o1, o2 = sizes[(seat + 1) % 4], sizes[(seat + 3) % 4]
    opp_min = min(x for x in (o1, o2, 99) if x > 0)
    if 0 < mate <= 2 and opp_min > 2:  # basic: lead low for a partner close to going out
        small = [u for u in plain if u.size == mate]
        if small:
            return min(small, key=lambda u: u.value)
    if opp_min <= 3:  # basic: nothing an opponent close to going out can follow
        safe = [u for u in plain if u.size > opp_min]
        if safe:
            return min(safe, key=lambda u: u.value - 0.15 * u.size)
        return max(plain, key=lambda u: u.value)
    return lead_weakest(plain, opp_min, 0.12)


_SPLIT = {ComboType.PAIR: (ComboType.SINGLE,), ComboType.TRIPLE: (ComboType.SINGLE, ComboType.PAIR)}
_SPLIT_VALUE = {ComboType.SINGLE: 10, ComboType.PAIR: 9}  # group_value offsets (plan.py)


def _split_reply(us: list[SimUnit], top: Pattern | Combo) -> SimUnit | None:
    """Break the lowest natural pair/triple that can answer a single or pair (basic blocks
    at a cost): the answer is returned, ``us`` keeps the rest of the group."""
    if top.tier or top.type not in (ComboType.SINGLE, ComboType.PAIR):
        return None
    best: SimUnit | None = None
    for u in us:
        p = u.pattern
        if p.wilds or top.type not in _SPLIT.get(p.type, ()) or p.power <= top.power:
            continue
        if best is None or p.power < best.pattern.power:
            best = u
    if best is None:
        return None
    p = best.pattern
    n = top.size
    rest_n = p.size - n
    rest_type = ComboType.SINGLE if rest_n == 1 else ComboType.PAIR
    rest = SimUnit(
        Pattern(rest_type, p.rank, rest_n, 0, p.power, ((p.rank, rest_n),), -1, 0),
        (p.power - _SPLIT_VALUE[rest_type]) / 6.0, False,
    )
    us[us.index(best)] = rest
    return SimUnit(Pattern(top.type, p.rank, n, 0, p.power, ((p.rank, n),), -1, 0), 0.0, False)


#: how strongly the sampled hands are shaped (× the calibrated overdraw, :mod:`.shape`)
SHAPE_STRENGTH = 1.0
#: nodes one exact endgame solve may visit (then the candidate is rolled out)
ENDGAME_BUDGET = NODE_BUDGET

#: rollouts follow an opponent with the cheapest plain reply worth at most this (plan units)
ROLLOUT_FOLLOW_VALUE = 1.0
#: the same for the searcher's own team (its later plays: the tuned default move follows
#: more readily than the opponents' ``basic``)
TEAM_FOLLOW_VALUE = ROLLOUT_FOLLOW_VALUE
#: rollouts break a pair or triple to answer an opponent's single or pair when that opponent
#: holds at most this many cards
SPLIT_BELOW = 6
#: rollouts bomb an opponent's play when the hand holds at most this many units, the bomb
#: included (the lead the bomb wins brings the rest home)
BOMB_HOME = 2
#: sampled deals a decision uses at most, whatever its budget: beyond this the gate lets
#: through overrides that follow the rollouts' bias (issue 15, twelfth round: against
#: ``basic`` 67.6 % at 30 fixed samples, 71.5 % at 60, 67.5 % at 150 ms ≈ 225 samples)
SAMPLE_CAP = 60
#: the first turns of a rollout (the candidate included) are played by ``basic`` itself on
#: the sampled cards (:mod:`cardavia.ai.guandan.faithful`), the rest by the unit rollouts;
#: 0 = unit rollouts only
FAITHFUL_TURNS = 0
#: with at most this many cards in play, the whole rollout is played by ``basic`` itself
#: (a short deal plans cheaply); 0 = never (issue 15: 40 against ``basic`` on 60 fixed
#: samples, +1.3 ± 1.6 points on boards 800-1199, -0.4 ± 1.4 on 1200-1599: not kept)
FAITHFUL_CARDS = 0

#: leads from the hand's other decompositions (issue 15, seventeenth round): besides the
#: plan's own units, up to this many plain leads outside the plan join the candidates, those
#: whose best plan scores highest (the planner's alternatives, :func:`alternative_leads`);
#: 0 = the plan's units only
#: (2 against ``basic`` on 60 fixed samples, boards 1600-1807: +0.0 ± 1.8 points, not kept)
ALT_LEADS = 0
#: alternative leads are looked for only in hands of at most this many cards (each costs a
#: plan of the rest)
ALT_MAX_CARDS = 16


def _lead_value(m: Pattern) -> float:
    """A plain play's unit value on the planner's scale, less the cost of one play."""
    if m.type in (ComboType.SINGLE, ComboType.PAIR, ComboType.TRIPLE, ComboType.FULL_HOUSE):
        return group_value(m.type, m.power, m.size) - UNIT_COST
    return sequence_value(m.type, m.rank) - UNIT_COST


def alternative_leads(
    cnt: Sequence[int], level: int, plan: Plan, taken: Sequence[Pattern | None], k: int
) -> list[Pattern]:
    """Up to ``k`` plain leads that are not units of ``plan`` nor in ``taken``, best first by
    the score of the best plan that holds them (the lead's value plus the plan of the rest,
    less a play): plays of the hand's next best ways to split.

    >>> from cardavia.cards import parse_cards, counts
    >>> cnt = counts(parse_cards("3h 3s 4h 5d 6c 7s 7d"))
    >>> rc, w = rank_counts(cnt, 2)
    >>> alts = alternative_leads(cnt, 2, best_plan(rc, w, 2), [], 2)
    >>> len(alts) <= 2 and all(p.tier == 0 for p in alts)
    True
    """
    if k <= 0:
        return []
    rc, w = rank_counts(cnt, level)
    own = {(u.type, u.rank, u.size) for u in plan.units}
    seen = {(p.type, p.rank, p.size) for p in taken if p is not None} | own
    best: dict[tuple[ComboType, int, int], tuple[float, Pattern]] = {}
    for m in patterns(cnt, level, None):
        key = (m.type, m.rank, m.size)
        if m.tier != 0 or key in seen:
            continue
        rest, rest_w = remove_pattern(rc, w, m.slots)
        score = best_plan(rest, rest_w, level).score + _lead_value(m) - 0.15 * m.wilds
        if key not in best or score > best[key][0]:
            best[key] = (score, m)
    ranked = sorted(best.values(), key=lambda t: -t[0])
    return [m for _, m in ranked[:k]]


#: issue 15, seventeenth round: with more than ``ENDGAME_CARDS`` and at most this many cards
#: in play, a candidate is valued on each sampled deal by the searcher's exact best reply to
#: the rollout policy (the three other seats play it, planning their hands afresh each turn;
#: only the searcher's plays branch: its planned plays, its cheapest replies and its
#: cheapest bomb), as the Run Fast endgame does; 0 = rollouts only (24 and 40 against
#: ``basic`` on 60 fixed samples: the same deal winner on every board, levels +0.03 a deal;
#: 40 costs 4x the time a board: not kept)
POLICY_CARDS = 0
#: nodes one policy solve of a sampled deal may visit (then its candidates are rolled out)
POLICY_BUDGET = 2000


def policy_for(level: int, me: int) -> Policy:
    """The rollout policy as a move function on count arrays (:data:`.endgame.Policy`):
    each seat plans its hand afresh and leads or follows as :func:`rollout` does."""

    def move(
        seat: int, hands: Sequence[Sequence[int]], top: Pattern | Combo | None, top_seat: int | None
    ) -> Pattern | None:
        us = units_of(hands[seat], level)
        sizes = [sum(h) for h in hands]
        if top is None:
            return _lead(seat, us, sizes).pattern if us else None
        assert top_seat is not None
        follow = TEAM_FOLLOW_VALUE if (seat - me) % 2 == 0 else ROLLOUT_FOLLOW_VALUE
        u = _follow(seat, us, sizes, top, top_seat, follow)
        return None if u is None else u.pattern

    return move


def own_moves_for(level: int) -> Moves:
    """The searcher's plays at its later turns of a policy solve: to lead, its planned plays;
    to follow, the planned plays that beat the top, the two cheapest plain replies and the
    bomb that costs the plan least."""

    def moves(hand: Sequence[int], top: Pattern | Combo | None) -> list[Pattern]:
        rc, w = rank_counts(hand, level)
        units = [u.pattern(level) for u in best_plan(rc, w, level).units]
        if top is None:
            out = units
        else:
            legal = patterns(hand, level, top)
            out = [p for p in units if _beats(p, top)]
            out += basic.shortlist([m for m in legal if m.tier == 0], rc, keep=2)
            bomb = _best_bomb(legal, rc, w, level)
            if bomb is not None:
                out.append(bomb)
        seen: set[tuple[object, ...]] = set()
        unique: list[Pattern] = []
        for p in out:
            key = (p.type, p.rank, p.size, p.tier, p.slots)
            if key not in seen:
                seen.add(key)
                unique.append(p)
        return unique

    return moves


def _follow(
    seat: int, us: list[SimUnit], sizes: Sequence[int], top: Pattern | Combo, top_seat: int,
    follow_value: float = ROLLOUT_FOLLOW_VALUE,
) -> SimUnit | None:
    if top_seat == (seat + 2) % 4:  # the partner's play stands, unless this goes out
        return us[0] if len(us) == 1 and _beats(us[0].pattern, top) else None
    fits = [u for u in us if _beats(u.pattern, top)]
    short = sizes[top_seat] <= 6
    split = sizes[top_seat] <= SPLIT_BELOW
    if not fits:
        return _split_reply(us, top) if split else None
    if len(us) == 1:
        return fits[0]
    plain = [u for u in fits if not u.is_bomb]
    if plain:
        u = min(plain, key=lambda u: u.pattern.power)
        if u.value <= follow_value or short or len(us) <= 3:
            return u
    bombs = [u for u in fits if u.is_bomb]
    if bombs:
        o1, o2 = sizes[(seat + 1) % 4], sizes[(seat + 3) % 4]
        opp_min = min(x for x in (o1, o2, 99) if x > 0)
        if short or len(us) <= BOMB_HOME or (opp_min <= 3 and top.size >= 2):
            return min(bombs, key=lambda u: (u.pattern.tier, u.pattern.power))
    if split:
        return _split_reply(us, top)
    return None


#: with at most this many cards in play, the opponents' turns of the unit rollouts are
#: ``basic``'s own moves on their sampled cards (its defaults, planning afresh every turn;
#: the searcher's team keeps its units): against ``basic`` the opponent model is exact.
#: 0 = never (issue 15, eighteenth round, after Run Fast's ``FAITHFUL_OTHERS``: 40 against
#: ``basic`` on 60 fixed samples +0.6 ± 0.9 points over 800 boards, 1.5× the time: not kept)
FAITHFUL_OPPONENTS = 0


def opponent_move(
    seat: int, cnt: list[int], level: int, sizes: Sequence[int], top: Pattern | Combo | None,
    top_seat: int | None,
) -> SimUnit | None:
    """``basic``'s move (its defaults) for ``seat`` holding ``cnt``, as a rollout play (None
    = pass); the cards it plays are taken from ``cnt`` (:func:`faithful.basic_play`)."""
    move = faithful.basic_play(seat, cnt, level, sizes, top, top_seat)
    return None if move is None else SimUnit(move, 0.0, move.tier > 0)


def rollout(
    units: list[list[SimUnit]],
    sizes: list[int],
    turn: int,
    top: Pattern | Combo | None,
    top_seat: int | None,
    passes: int,
    places: list[int],
    me: int,
    first: SimUnit | bool | None,
    deadline: float = math.inf,
    values: Values = PLAIN,
    hands: Sequence[list[int]] | None = None,
    level: int = 0,
) -> float:
    """Play the deal out from this state; ``first`` is the move of ``turn`` (False: policy).

    ``units``, ``sizes`` and ``places`` are modified. Returns the value for ``me``'s team
    (``values``: what each finish is worth in the match, :mod:`cardavia.ai.guandan.value`).
    With ``hands`` (count arrays, modified; the level ``level``) the opponents make
    ``basic``'s own moves (:func:`opponent_move`).
    Raises :class:`~cardavia.ai.search.OutOfTime` once the clock passes ``deadline``.
    """
    steps = 0
    forced: SimUnit | bool | None = first
    while steps < 600:
        steps += 1
        if not steps & 31:
            check_clock(deadline)
        seat = turn
        us = units[seat]
        play: SimUnit | None
        was_forced = forced is not False
        if was_forced:
            play = forced if isinstance(forced, SimUnit) else None
            forced = False
        elif hands is not None and (seat - me) % 2 == 1:
            play = opponent_move(seat, hands[seat], level, sizes, top, top_seat)
        elif top is None:
            play = _lead(seat, us, sizes) if us else None
        else:
            assert top_seat is not None
            follow = TEAM_FOLLOW_VALUE if (seat - me) % 2 == 0 else ROLLOUT_FOLLOW_VALUE
            play = _follow(seat, us, sizes, top, top_seat, follow)
        if play is None:
            if top is None:  # a leader with no units cannot happen; guard anyway
                break
            assert top_seat is not None
            passes += 1
            turn, ended = after_pass(sizes, seat, top_seat, passes)
            if ended:
                top, top_seat, passes = None, None, 0
            continue
        if not was_forced and play in us:
            us.remove(play)
        sizes[seat] -= play.size
        top, top_seat, passes = play.pattern, seat, 0
        if sizes[seat] <= 0:
            sizes[seat] = 0
            places.append(seat)
            result = outcome(places)
            if result is not None:
                return value_for(values, result, me)
        turn = next_active(sizes, seat)
    # undecided (guard): judge by cards left per team
    mine = sizes[me] + sizes[(me + 2) % 4]
    theirs = sizes[(me + 1) % 4] + sizes[(me + 3) % 4]
    return 0.5 if mine < theirs else -0.5


def unbeatable(move: Pattern, unseen: Sequence[int], level: int) -> bool:
    """Whether no combination of the unseen cards (all other hands pooled) beats ``move``."""
    return not patterns(unseen, level, move)


# ---- card tracking: tribute cards known held, passes as soft evidence

_DECK = counts(guandan_deck())

#: Guandan plays whose passes are read as soft evidence (the groups a hand often holds).
_SOFT_TYPES = frozenset({ComboType.SINGLE, ComboType.PAIR, ComboType.TRIPLE})


def track(obs: Observation) -> Tracked:
    """The unseen cards, the tribute cards a seat surely holds, and the passes on plain
    groups (soft evidence, weighed by :func:`sample_hands`)."""
    unseen, played = unseen_cards(obs, _DECK)
    # tribute cards a seat received (and my returns to a payer) are in that hand,
    # unless that seat has since played a card of the same code
    gifts: list[tuple[int, int]] = [(r, c.code) for g, r, c in obs.tributes if r != obs.seat]
    gifts += [(r, c.code) for g, r, c in obs.my_returns if g == obs.seat and r != obs.seat]
    known = still_held(gifts, played, unseen)
    return Tracked(unseen, known, _soft_passes(obs), list(obs.played_any))


def _soft_passes(obs: Observation) -> dict[int, list[Combo]]:
    """Seat → the opponents' non-bomb singles, pairs and triples it passed on.

    A pass always answers the latest play (a trick never starts with a pass), and a hand
    only shrinks, so "no plain reply then" also holds for the hand now.
    """
    passes: dict[int, list[Combo]] = {}
    for seat, top, _ in _opponent_passes(obs):
        passes.setdefault(seat, []).append(top)
    return passes


def split_passes(obs: Observation) -> tuple[dict[int, list[Combo]], dict[int, list[Combo]]]:
    """:func:`_soft_passes` split by ``basic``'s danger rule at the time of each pass:
    ``(danger, loose)``. In danger (the play's seat on ≤ 6 cards, or any opponent of the
    passer on ≤ 4) ``basic`` answers with any plain group; out of danger ("loose") only with
    a cheap planned play (``bench/ai_pass_reading.py`` measures both readings)."""
    danger: dict[int, list[Combo]] = {}
    loose: dict[int, list[Combo]] = {}
    for seat, top, close in _opponent_passes(obs):
        (danger if close else loose).setdefault(seat, []).append(top)
    return danger, loose


_DANGER = basic.GdConfig()  # basic's danger rule (the opponents' defaults)


def _opponent_passes(obs: Observation) -> Iterator[tuple[int, Combo, bool]]:
    """(the passer, the play it passed on, whether ``basic``'s danger rule held then) for
    each other seat's pass on an opponent's non-bomb single, pair or triple, in order."""
    sizes = list(obs.hand_sizes)  # rebuilt to the deal's start, then replayed
    for seat, combo in obs.history:
        if combo is not None:
            sizes[seat] += combo.size
    top: Combo | None = None
    top_seat = -1
    for seat, combo in obs.history:
        if combo is not None:
            top, top_seat = combo, seat
            sizes[seat] -= combo.size
            continue
        if top is None or top.tier or top.type not in _SOFT_TYPES or not (seat - top_seat) % 2 or seat == obs.seat:
            continue  # only an opponent's plain group (partners pass on purpose)
        opp = [sizes[o] for o in ((seat + 1) % 4, (seat + 3) % 4) if sizes[o] > 0]
        close = sizes[top_seat] <= _DANGER.danger_cards or (bool(opp) and min(opp) <= _DANGER.danger_any)
        yield seat, top, close


# ---- the expert's move


def _risky_lead(p: Pattern, opp_sizes: Sequence[int], unseen: Sequence[int], level: int) -> bool:
    """A lead that is an opponent's likely way out: as many cards as an opponent on 1–2 holds
    (or fewer), or a low 5-card play into an opponent on 5 — unless nothing unseen beats it."""
    if p.tier:
        return False
    short = any(p.size <= n <= 2 for n in opp_sizes) or (
        p.size == 5 and 5 in opp_sizes and p.power <= 11
    )
    return short and not unbeatable(p, unseen, level)


def _best_bomb(moves: Sequence[Pattern], rc: list[int], w: int, level: int) -> Pattern | None:
    """The bomb that costs the hand's plan least (a whole planned bomb rather than four
    cards split off a longer one; the cheaper of equals)."""
    bombs = [m for m in moves if m.tier > 0]
    if not bombs:
        return None

    def after(m: Pattern) -> tuple[float, int, int]:
        rc2, w2 = remove_pattern(rc, w, m.slots)
        return (best_plan(rc2, w2, level).score, -m.tier, -m.power)

    return max(bombs, key=after)



#: the search runs only while at most this many cards are in play (108: always); above it
#: the default move stands (the rollouts are least faithful over a whole deal)
SEARCH_MAX_CARDS = 108

#: the policy whose move is the search's default (``basic`` tuned, :data:`basic.EXPERT_CONFIG`)
START = basic.EXPERT_CONFIG

#: hold a straight flush aside as a bomb (:func:`basic.flush_to_keep`): the default
#: move, the candidates and the searcher's rollout units come from the rest of the hand, the
#: flush is one more bomb unit; 0 = off. Twentieth round (docs/ai.md, "Strength")
KEEP_FLUSHES = 1


def kept_flush(cnt: Sequence[int], level: int) -> tuple[Pattern, list[int]] | None:
    """The straight flush the expert holds aside (with the rest of the hand), if any."""
    return basic.flush_to_keep(cnt, level) if KEEP_FLUSHES else None


def expert_combo(obs: Observation, pattern: Pattern, cnt: list[int]) -> Combo:
    """The expert's cards for ``pattern``: from the rest of the hand when a straight flush
    is held aside and the rest can make it, so a plain play never spends the flush's cards."""
    level = level_of(obs)
    kept = kept_flush(cnt, level)
    if kept is not None and pattern != kept[0]:
        rest = kept[1]
        rc, w = rank_counts(rest, level)
        if remove_pattern(rc, w, pattern.slots)[1] >= 0:
            return concretize(pattern, rest, level)
    return concretize(pattern, cnt, level)


def decide(obs: Observation, cnt: list[int], search: Search, t0: float) -> tuple[Pattern | None, Reason]:
    """The expert's Guandan move (None = pass) and its reason; the search started at ``t0``."""
    level = level_of(obs)
    me = obs.seat
    kept = kept_flush(cnt, level)
    hand = cnt  # what the candidates and the searcher's rollout units are made from
    flush: Pattern | None = None
    if kept is None:
        default, reason = basic.decide_as(obs, cnt, search.rng, START)
    else:
        view = basic.GdView(me, cnt, level, obs.hand_sizes, obs.top, obs.top_seat)
        default, reason, _ = basic.choose_keeping(view, START, search.rng, kept)
        flush, hand = kept
    size = sum(cnt)
    if default is not None and default.size == size:
        return default, reason
    moves = patterns(cnt, level, obs.top)
    if not moves:
        return None, reason
    if flush is not None:
        moves = patterns(hand, level, obs.top) + ([flush] if flush.beats(obs.top) else [])
    tracked = track(obs)
    led = last_leads(obs.history, obs.hand_sizes, me, LEAD_MAX_CARDS) if LEAD_EVIDENCE < 1.0 else {}
    turns = (
        recent_actions(obs.history, obs.hand_sizes, me, PLAYS_READ, PLAY_MAX_CARDS)
        if PLAY_EVIDENCE < 1.0 else {}
    )
    if not PLAYS_OF_PARTNER:
        turns = {s: t for s, t in turns.items() if (s - me) % 2}
    rc, w = rank_counts(hand, level)
    plan = best_plan(rc, w, level)
    # exact endgame: all planned plays but one cannot be beaten by any unseen cards
    if obs.top is None and size <= 12 and len(plan.units) <= 4:
        units = [u for u in plan.units]
        safe = [u for u in units if unbeatable(u.pattern(level), tracked.unseen, level)]
        if safe and len(units) - len(safe) <= 1:
            u = max(safe, key=lambda u: u.size)
            p = u.pattern(level)
            return p, because(
                "endgame_unbeatable", f"endgame: {u.describe()} cannot be beaten; the rest follows",
                combo=combo_arg(p),
            )
    opp_sizes = [obs.hand_sizes[o] for o in ((me + 1) % 4, (me + 3) % 4) if obs.hand_sizes[o] > 0]
    candidates: list[Pattern | None] = []
    if obs.top is None:
        leads = sorted(
            (u for u in plan.units if not u.is_bomb), key=lambda u: u.value - 0.12 * u.size
        )
        strong = leads[max(LEAD_WEAKEST, len(leads) - LEAD_STRONGEST):]
        options = [u.pattern(level) for u in leads[:LEAD_WEAKEST] + strong[::-1]]
        fine = [p for p in options if not _risky_lead(p, opp_sizes, tracked.unseen, level)]
        if default is not None and _risky_lead(default, opp_sizes, tracked.unseen, level) and fine:
            # the opponent's likely way out: lead something else (short-opponent rules)
            default = fine[0]
            reason = because(
                "lead_opponent_close",
                f"lead {default.describe()}: an opponent holds only {min(opp_sizes)}",
                combo=combo_arg(default), n=str(min(opp_sizes)),
            )
        candidates.append(default)
        add_new(candidates, fine or options)
        if ALT_LEADS > 0 and search.max_candidates > 1 and size <= ALT_MAX_CARDS:
            alts = alternative_leads(hand, level, plan, candidates, ALT_LEADS)
            add_new(candidates, [p for p in alts if not _risky_lead(p, opp_sizes, tracked.unseen, level)])
    elif obs.top_seat == (me + 2) % 4:
        # never overtake the partner's winning play by search: pass or the basic move
        candidates = [default, None]
    else:
        candidates = [default, None]
        plain = [m for m in moves if m.tier == 0]
        if plain and obs.top_seat is not None and obs.hand_sizes[obs.top_seat] <= 6:
            # the block that holds: the highest plain reply
            add_new(candidates, [max(plain, key=lambda m: (m.power, -m.wilds))])
        bomb = _best_bomb([m for m in moves if m != flush], rc, w, level)
        if bomb is None and flush is not None and flush in moves:
            bomb = flush
        if bomb is not None:
            add_new(candidates, [bomb])
        add_new(candidates, basic.shortlist(plain, rc, keep=3))
    candidates = [c for i, c in enumerate(candidates) if c not in candidates[:i]]
    extra = ALT_LEADS if obs.top is None and search.max_candidates > 1 else 0
    candidates = candidates[: search.max_candidates + extra]
    if len(candidates) == 1 or sum(obs.hand_sizes) > SEARCH_MAX_CARDS:
        return default, reason
    mine: list[list[SimUnit]] = []
    held = [] if flush is None else [SimUnit(flush, basic.FLUSH_VALUE, True)]
    for c in candidates:
        if c is None:
            mine.append([*sim_units(plan, level), *held])
        elif c == flush:
            mine.append(sim_units(plan, level))
        elif held and remove_pattern(rc, w, c.slots)[1] >= 0:
            mine.append([*units_after(hand, level, c), *held])
        else:  # the whole hand's move (a bomb that spends the flush's cards)
            mine.append(units_after(cnt, level, c))
    sizes = list(obs.hand_sizes)
    passes = trailing_passes(obs)
    endgame_size = sum(sizes)  # cards left in play (exact solve below ENDGAME_CARDS)
    stakes = outcome_values(obs.team_levels, level)  # the match's terms (G-1.4, G-1.6)
    lean = _lean(obs, level)
    passed, loose = split_passes(obs) if LOOSE_PASS_EVIDENCE < 1.0 else (tracked.no_reply, {})
    faithful_turns = FAITHFUL_TURNS if endgame_size > FAITHFUL_CARDS else 1000
    faithful_opponents = endgame_size <= FAITHFUL_OPPONENTS
    policy = policy_for(level, me) if POLICY_CARDS > ENDGAME_CARDS else None
    own_moves = own_moves_for(level) if policy is not None else None

    def one_sample() -> list[float]:
        plans: dict[int, list[Unit]] = {}
        hands = sample_hands(
            me, sizes, tracked.unseen, tracked.known, search.rng, passed, level, SHAPE_STRENGTH,
            plans, led, turns, lean, loose,
        )
        others = {
            s: sim_units_of(plans[s], level) if s in plans else units_of(h, level)
            for s, h in hands.items()
        }
        exact: list[float | None] = [None] * len(candidates)
        full = [cnt if s == me else hands[s] for s in range(4)]
        if endgame_size <= ENDGAME_CARDS:
            exact = solve_each(
                full, level, turn=me, top=obs.top, top_seat=obs.top_seat, passes=passes,
                places=obs.places, me=me, firsts=candidates, budget=ENDGAME_BUDGET,
                deadline=search.stop_at, values=stakes,
            )
        elif policy is not None and endgame_size <= POLICY_CARDS:
            exact = solve_each(
                full, level, turn=me, top=obs.top, top_seat=obs.top_seat, passes=passes,
                places=obs.places, me=me, firsts=candidates, budget=POLICY_BUDGET,
                deadline=search.stop_at, values=stakes, policy=policy, own_moves=own_moves,
            )
        values: list[float] = []
        for c, my_units, v in zip(candidates, mine, exact, strict=True):
            if v is not None:
                values.append(v)
                continue
            check_clock(search.stop_at)
            if faithful_turns > 0:
                got = faithful.play_out(
                    full, level, turn=me, top=obs.top, top_seat=obs.top_seat, passes=passes,
                    places=obs.places, me=me, first=c, deadline=search.stop_at, values=stakes,
                    turns=faithful_turns,
                )
                if not isinstance(got, faithful.State):
                    values.append(got)
                    continue
                values.append(rollout(
                    [units_of(h, level) for h in got.hands], got.sizes, got.turn, got.top,
                    got.top_seat, got.passes, got.places, me, False, search.stop_at, stakes,
                ))
                continue
            units = [list(my_units) if s == me else list(others[s]) for s in range(4)]
            first: SimUnit | None = None if c is None else SimUnit(c, 0.0, c.tier > 0)
            values.append(
                rollout(
                    units, list(sizes), me, obs.top, obs.top_seat, passes,
                    list(obs.places), me, first, search.stop_at, stakes,
                    [list(h) for h in full] if faithful_opponents else None, level,
                )
            )
        return values

    gate = LEAD_SIGNIFICANCE if obs.top is None else SIGNIFICANCE
    return search.run(candidates, default, one_sample, t0, reason, gate, SAMPLE_CAP)


__all__ = [
    "KEEP_FLUSHES",
    "SimUnit",
    "decide",
    "expert_combo",
    "kept_flush",
    "own_moves_for",
    "plan_units",
    "policy_for",
    "rollout",
    "sample_hands",
    "sim_units",
    "split_passes",
    "track",
    "unbeatable",
    "unit_replies",
    "units_after",
    "units_of",
]
