"""The ``basic`` Guandan policy: hand planner + expert rules, no search.

Rules (each decision returns a reason for the UI's hint/explain):

* go out when one legal play empties the hand;
* leading: play the weakest unit of the best plan (a partner close to going out gets a low
  single/pair; an opponent close to going out gets no singles/pairs it could beat);
* following an opponent: the reply that costs the plan least (playing a planned unit gains
  a play), if the cost is acceptable; bombs only with purpose (the opponent is close to
  going out, or the bomb takes the lead for a hand that then goes out in ≤ 2 plays);
* following the partner: pass — never overtake a partner's winning play with big cards or
  bombs (only a cheap low dump while the partner holds many cards, or going out);
* tribute return (G-3.5): the eligible card whose loss costs the plan least;
* wilds are valued by the planner (kept for combinations, spent last by ``concretize``).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.ai.reasons import Reason, because, combo_arg
from cardavia.cards import Card
from cardavia.observation import Observation
from cardavia.rules.combo import Combo, ComboType, Pattern
from cardavia.rules.guandan.moves import concretize, patterns, rank_counts

from .plan import UNIT_COST, Plan, best_plan, remove_pattern

_BOMB_TYPES = (ComboType.BOMB, ComboType.STRAIGHT_FLUSH, ComboType.JOKER_BOMB)


@dataclass(frozen=True, slots=True)
class GdConfig:
    """Knobs of the basic Guandan policy (difficulty levels are configurations)."""

    noise: float = 0.0  # chance of a random legal move
    blocking: bool = True  # react to opponents close to going out
    partner_help: bool = True  # lead low for a partner close to going out
    follow_threshold: float = -0.35  # least plan gain at which an ordinary reply is made
    lead_size_bonus: float = 0.12  # a lead's value less this per card: longer plays go first
    lead_close: int = 3  # lead nothing an opponent holding this many cards or fewer can follow
    safe_size_bonus: float = 0.15  # the lead's size bonus then
    keep_lead_value: float = 0.8  # two plays left: lead the stronger first from this value
    shed_top_power: int = 10  # over the partner: shed only on plays up to this power …
    shed_partner_cards: int = 8  # … while the partner holds at least this many cards …
    shed_gain: float = 0.9  # … a low play (power ≤ shed_power) that gains this much plan
    shed_power: int = 11
    danger_cards: int = 6  # an opponent on this many cards or fewer is to be blocked …
    danger_any: int = 4  # … and so is any trick while an opponent holds this many
    danger_slack: float = 1.2  # how much more plan cost a blocking reply may have
    bomb_cards: int = 6  # bomb an opponent's play when it holds this many cards or fewer
    bomb_close: int = 3  # bomb a play of 2+ cards while an opponent holds this many
    bomb_home_plays: int = 2  # bomb when the lead then brings the hand home in this many plays


#: the configuration the ``expert`` starts from (its default move): ``basic``'s knobs tuned
#: in duplicate self-play against ``basic`` itself (docs/ai.md, "Strength", seventh round);
#: the ``basic`` agent (the ``normal`` level and the yardstick of the tournaments) keeps
#: the defaults
EXPERT_CONFIG = GdConfig(follow_threshold=-0.75)


@dataclass(slots=True)
class GdView:
    """What the policy needs from an observation (or from a simulated state)."""

    seat: int
    cnt: list[int]
    level: int
    sizes: Sequence[int]
    top: Combo | Pattern | None
    top_seat: int | None


def plan_of(cnt: Sequence[int], level: int) -> tuple[list[int], int, Plan]:
    rc, w = rank_counts(cnt, level)
    return rc, w, best_plan(rc, w, level)


def opponents(seat: int) -> tuple[int, int]:
    return (seat + 1) % 4, (seat + 3) % 4


def choose(view: GdView, cfg: GdConfig, rng: random.Random) -> tuple[Pattern | None, Reason]:
    """The basic move for ``view`` as an abstract pattern (None = pass) and its reason."""
    cnt, level = view.cnt, view.level
    size = sum(cnt)
    moves = patterns(cnt, level, view.top)
    if not moves:
        return None, because("nothing_beats_pass", "no combination beats the table; pass")
    out = [m for m in moves if m.size == size]
    if out:
        best = min(out, key=lambda m: (m.tier, m.power))
        return best, because("go_out", f"go out with {best.describe()}", combo=combo_arg(best))
    if cfg.noise and rng.random() < cfg.noise:
        options: list[Pattern | None] = [*moves]
        if view.top is not None:
            options.append(None)
        pick = rng.choice(options)
        if pick is None:
            return None, because("loose_pass", "pass")
        return pick, because("loose_move", f"a loose move, {pick.describe()}", combo=combo_arg(pick))
    if view.top is None:
        return _lead(view, cfg, moves)
    return _follow(view, cfg, moves)


def _lead(view: GdView, cfg: GdConfig, moves: list[Pattern]) -> tuple[Pattern, Reason]:
    level = view.level
    _rc, _w, plan = plan_of(view.cnt, level)
    units = [u for u in plan.units if not (u.wilds and u.wilds == u.size)] or list(plan.units)
    partner = (view.seat + 2) % 4
    opp_sizes = [view.sizes[o] for o in opponents(view.seat) if view.sizes[o] > 0]
    opp_min = min(opp_sizes) if opp_sizes else 99
    mate = view.sizes[partner]
    # two plays left: lead the stronger one first when it is likely to hold the trick
    if len(units) == 2:
        strong = max(units, key=lambda u: u.value)
        weak = min(units, key=lambda u: u.value)
        if strong.value >= cfg.keep_lead_value or strong.is_bomb:
            p = strong.pattern(level)
            return p, because(
                "lead_keep_lead", f"lead {strong.describe()} to keep the lead, then go out",
                combo=combo_arg(p),
            )
        p = weak.pattern(level)
        return p, because("lead_two_left", f"lead {weak.describe()}; two plays left", combo=combo_arg(p))
    plain = [u for u in units if not u.is_bomb] or units
    if cfg.partner_help and 0 < mate <= 2 and opp_min > 2:
        small = [u for u in plain if u.size == mate]
        if small:
            u = min(small, key=lambda u: u.value)
            p = u.pattern(level)
            return p, because(
                "lead_low_for_partner", f"lead low {u.describe()} for the partner ({mate} cards left)",
                combo=combo_arg(p), n=str(mate),
            )
        if mate == 1:
            single = _lowest_single(moves)
            if single is not None:
                return single, because(
                    "lead_single_for_partner", "lead a low single for the partner (1 card left)",
                    combo=combo_arg(single),
                )
    if cfg.blocking and opp_min <= cfg.lead_close:
        safe = [u for u in plain if u.size > opp_min]
        if safe:
            u = min(safe, key=lambda u: u.value - cfg.safe_size_bonus * u.size)
            p = u.pattern(level)
            return p, because(
                "lead_opponent_close", f"lead {u.describe()}: an opponent holds only {opp_min}",
                combo=combo_arg(p), n=str(opp_min),
            )
        # otherwise lead the strongest of the small units
        u = max(plain, key=lambda u: u.value)
        p = u.pattern(level)
        return p, because(
            "lead_high_opponent_close", f"lead high {u.describe()}: an opponent holds only {opp_min}",
            combo=combo_arg(p), n=str(opp_min),
        )
    u = min(plain, key=lambda u: u.value - cfg.lead_size_bonus * u.size)
    p = u.pattern(level)
    return p, because("lead_weakest", f"lead the weakest planned play, {u.describe()}", combo=combo_arg(p))


def _lowest_single(moves: list[Pattern]) -> Pattern | None:
    singles = [m for m in moves if m.type == ComboType.SINGLE and not m.wilds]
    return min(singles, key=lambda m: m.power) if singles else None


def _follow(view: GdView, cfg: GdConfig, moves: list[Pattern]) -> tuple[Pattern | None, Reason]:
    level, seat = view.level, view.seat
    top = view.top
    assert top is not None and view.top_seat is not None
    rc, w, plan = plan_of(view.cnt, level)
    base = plan.score
    partner = (seat + 2) % 4
    by_partner = view.top_seat == partner
    top_size = view.sizes[view.top_seat]
    opp_sizes = [view.sizes[o] for o in opponents(seat) if view.sizes[o] > 0]
    opp_min = min(opp_sizes) if opp_sizes else 99
    plain = [m for m in moves if m.type not in _BOMB_TYPES]
    bombs = [m for m in moves if m.type in _BOMB_TYPES]

    def gain(m: Pattern) -> tuple[float, Plan]:
        rc2, w2 = remove_pattern(rc, w, m.slots)
        after = best_plan(rc2, w2, level)
        return after.score - base, after

    if by_partner:
        if top.tier or top.power > cfg.shed_top_power or top_size < cfg.shed_partner_cards or not plain:
            return None, because("partner_winning_pass", "the partner is winning this trick; pass")
        cheap = [(gain(m)[0], m) for m in plain if m.power <= cfg.shed_power]
        cheap = [(g, m) for g, m in cheap if g >= cfg.shed_gain]
        if cheap:
            g, m = max(cheap, key=lambda x: (x[0], -x[1].power))
            return m, because(
                "shed_low_over_partner", f"shed low {m.describe()} over the partner's small play",
                combo=combo_arg(m),
            )
        return None, because("partner_winning_pass", "the partner is winning this trick; pass")

    danger = cfg.blocking and (top_size <= cfg.danger_cards or opp_min <= cfg.danger_any)
    threshold = cfg.follow_threshold - (cfg.danger_slack if danger else 0.0)
    best: tuple[float, Pattern] | None = None
    for m in shortlist(plain, rc):
        g, _ = gain(m)
        g -= 0.02 * m.power  # among equals, the lower reply
        if best is None or g > best[0]:
            best = (g, m)
    if best is not None and best[0] >= threshold:
        m = best[1]
        if danger:
            return m, because(
                "block_opponent", f"block the opponent ({top_size} cards) with {m.describe()}",
                combo=combo_arg(m), n=str(top_size),
            )
        return m, because("reply_fits_plan", f"reply {m.describe()} (fits the plan)", combo=combo_arg(m))
    if bombs:
        bomb = min(bombs, key=lambda m: (m.tier, m.power))
        g, after = gain(bomb)
        bc = combo_arg(bomb)
        if cfg.blocking and top_size <= cfg.bomb_cards:
            return bomb, because(
                "bomb_opponent_holds", f"bomb with {bomb.describe()}: the opponent holds only {top_size}",
                combo=bc, n=str(top_size),
            )
        if after.plays <= 1:
            return bomb, because(
                "bomb_lead_go_out", f"bomb with {bomb.describe()} to take the lead and go out", combo=bc
            )
        if cfg.blocking and opp_min <= cfg.bomb_close and top.size >= 2:
            return bomb, because(
                "bomb_opponent_close", f"bomb with {bomb.describe()}: an opponent is close to going out",
                combo=bc,
            )
        if after.plays <= cfg.bomb_home_plays and any(
            u.value >= cfg.keep_lead_value or u.is_bomb for u in after.units
        ):
            return bomb, because(
                "bomb_lead_home", f"bomb with {bomb.describe()}: the lead brings the hand home", combo=bc
            )
    if best is None:
        return None, because("keep_bombs_pass", "only bombs beat this; keep them; pass")
    return None, because("keep_plan_pass", "replying would break the hand's plan; pass")


#: the plan-score worth of a straight flush held as a bomb (G-5.5: above a five-card bomb,
#: below a six-card one; :func:`plan.group_value` gives those 1.9 and 2.2)
FLUSH_VALUE = 2.0
#: a flush held aside may use at most this many of the level's hearts as wilds (G-5.4);
#: 0 = natural flushes only. Twentieth round (docs/ai.md, "Strength"): 1 wins +4.5 ± 2.1
#: points more than natural flushes only (the expert vs ``basic``, 400 boards, equal samples)
FLUSH_WILDS = 1


def flush_to_keep(cnt: Sequence[int], level: int) -> tuple[Pattern, list[int]] | None:
    """The straight flush (natural, or with at most :data:`FLUSH_WILDS` wilds) worth holding
    aside as a bomb, and the hand without its cards; None when the hand has none or the plan
    of the rest loses more than it is worth.

    The planner works on ranks and never plans a straight flush: without this, its cards
    leave as plain plays (``basic`` self-play holds a natural one in 26 % of hands at the
    deal and plays one in 9 % of deals).

    >>> from cardavia.cards import counts, parse_cards
    >>> hand = counts(parse_cards("5s 6s 7s 8s 9s 3d 3c Kd"))
    >>> flush, rest = flush_to_keep(hand, 2) or (None, [])
    >>> flush.describe(), sum(rest)
    ('straight_flush 9', 3)
    """
    rc, w = rank_counts(cnt, level)
    base = best_plan(rc, w, level).score
    best: tuple[float, Pattern, list[int]] | None = None
    for p in patterns(cnt, level, None):
        if p.type != ComboType.STRAIGHT_FLUSH or p.wilds > FLUSH_WILDS:
            continue
        rest = list(cnt)
        for card in concretize(p, cnt, level).cards:
            rest[card.code] -= 1
        if not any(rest):
            continue
        rc2, w2 = rank_counts(rest, level)
        score = best_plan(rc2, w2, level).score + FLUSH_VALUE - UNIT_COST
        if score >= base and (best is None or score > best[0]):
            best = (score, p, rest)
    return None if best is None else (best[1], best[2])


def choose_keeping(
    view: GdView, cfg: GdConfig, rng: random.Random, kept: tuple[Pattern, list[int]]
) -> tuple[Pattern | None, Reason, list[int]]:
    """:func:`choose` with the straight flush ``kept`` (from :func:`flush_to_keep`) held
    aside: the move is chosen on the rest of the hand, and the flush is the bomb when the
    whole hand's move would bomb. Returns the move, its reason and the cards to make it
    from (the rest of the hand, or the whole hand for the flush or a way out)."""
    flush, rest = kept
    whole, why_whole = choose(view, cfg, rng)
    if whole is not None and whole.size == sum(view.cnt):
        return whole, why_whole, view.cnt
    part = GdView(view.seat, rest, view.level, view.sizes, view.top, view.top_seat)
    move, why = choose(part, cfg, rng)
    if move is None and view.top is not None and whole is not None and whole.tier > 0:
        if flush.beats(view.top):
            return flush, because(
                why_whole.key, f"bomb with the straight flush {flush.describe()} kept for it",
                **{**why_whole.args, "combo": combo_arg(flush)},
            ), view.cnt
        return whole, why_whole, view.cnt
    return move, why, rest


def break_cost(m: Pattern, rc: Sequence[int]) -> float:
    """A cheap guess of how much a move breaks the hand (wilds spent, groups split)."""
    cost = 0.8 * m.wilds
    for r, n in m.slots:
        if r == 0:
            continue
        have = rc[r]
        if have >= 4:
            cost += 2.0
        elif have > n:
            cost += 0.5
    return cost + 0.02 * m.power


def shortlist(moves: Sequence[Pattern], rc: Sequence[int], keep: int = 10) -> list[Pattern]:
    """The ``keep`` moves that look cheapest (the planner then scores only these)."""
    if len(moves) <= keep:
        return list(moves)
    return sorted(moves, key=lambda m: break_cost(m, rc))[:keep]


def choose_return(options: Sequence[Card], cnt: Sequence[int], level: int) -> tuple[Card, Reason]:
    """The eligible return card (G-3.5) whose loss costs the plan least."""
    best: tuple[float, int, Card] | None = None
    for c in sorted(set(options), key=lambda c: c.code):
        work = list(cnt)
        work[c.code] -= 1
        rc, w = rank_counts(work, level)
        score = best_plan(rc, w, level).score
        key = (score, -c.code)
        if best is None or key > best[:2]:
            best = (score, -c.code, c)
    assert best is not None
    return best[2], because(
        "return_least_missed", f"return {best[2]}: the card the hand misses least", card=str(best[2])
    )


# ---- what the agents call (through :data:`cardavia.ai.games.GAMES`)


def level_of(obs: Observation) -> int:
    """The level being played (every Guandan observation has one)."""
    assert obs.level is not None
    return obs.level


def legal(obs: Observation, cnt: list[int]) -> list[Pattern]:
    """The abstract moves the observing seat may play now (a pass is not included)."""
    return patterns(cnt, level_of(obs), obs.top)


def combo(obs: Observation, pattern: Pattern, cnt: list[int]) -> Combo:
    """One concrete card choice for ``pattern`` (wilds spent last)."""
    return concretize(pattern, cnt, level_of(obs))


def decide(
    obs: Observation, cnt: list[int], rng: random.Random, noise: float = 0.0, blocking: bool = True
) -> tuple[Pattern | None, Reason]:
    """The basic move for ``obs`` (None = pass) and its reason; ``blocking`` also turns the
    partner help on."""
    return decide_as(obs, cnt, rng, GdConfig(noise=noise, blocking=blocking, partner_help=blocking))


def decide_as(obs: Observation, cnt: list[int], rng: random.Random, cfg: GdConfig) -> tuple[Pattern | None, Reason]:
    """The move of the policy configured by ``cfg`` for ``obs`` (None = pass) and its reason."""
    view = GdView(obs.seat, cnt, level_of(obs), obs.hand_sizes, obs.top, obs.top_seat)
    return choose(view, cfg, rng)


def give_back(obs: Observation, cnt: list[int]) -> tuple[Card, Reason]:
    """The tribute return (G-3.5) among ``obs.return_options``."""
    return choose_return(obs.return_options, cnt, level_of(obs))


__all__ = [
    "EXPERT_CONFIG",
    "FLUSH_VALUE",
    "UNIT_COST",
    "GdConfig",
    "GdView",
    "choose",
    "choose_keeping",
    "choose_return",
    "combo",
    "decide",
    "decide_as",
    "flush_to_keep",
    "give_back",
    "legal",
    "level_of",
    "opponents",
    "plan_of",
]
