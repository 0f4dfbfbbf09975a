"""The ``basic`` Run Fast policy: hand planner + expert rules, no search.

* go out when one legal play empties the hand;
* must beat (R-3.4): a follower with any reply must play — the legal set has no pass then;
  the reply chosen is the one that costs the plan least;
* bombs with purpose: a bomb replied over another player's cards and left standing wins 20
  (R-5.4), an unplayed bomb costs 10 (R-5.3) — so a bomb is the reply whenever the ordinary
  replies would break the hand, an opponent is close to going out, or the deal is late;
* leading: the weakest planned play; when an opponent holds 1–2 cards, plays it cannot
  follow (bigger groups) or the strongest single; the ``2s`` (worth 10 if held) goes early
  when it can win the lead.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from cardavia.ai.reasons import Reason, because, combo_arg
from cardavia.cards import Card
from cardavia.observation import Observation
from cardavia.rules.combo import Combo, Pattern
from cardavia.rules.runfast.moves import concretize, patterns, rank_counts

from .plan import Plan, best_plan, remove_pattern

BOMB_REPLY_BONUS = 1.2  # plan-score units: a standing reply bomb is worth 20 points


@dataclass(frozen=True, slots=True)
class RfConfig:
    """Knobs of the basic Run Fast policy (difficulty levels are configurations)."""

    noise: float = 0.0  # chance of a random legal move
    blocking: bool = True  # react to opponents close to going out
    lead_size_bonus: float = 0.15  # a lead's value less this per card: longer plays go first
    keep_lead_value: float = 0.8  # two plays left: lead the stronger first from this value
    lead_close: int = 2  # lead nothing an opponent holding this many cards or fewer can follow
    danger_cards: int = 3  # bomb at once while an opponent holds this many cards or fewer
    late_cards: int = 8  # the deal is late (bomb) when the hand holds this many cards …
    late_units: int = 3  # … or its plan this many plays or fewer
    bomb_bonus: float = BOMB_REPLY_BONUS  # plan-score worth of a standing reply bomb


#: the configuration the ``expert`` starts from (its default move): ``basic``'s knobs tuned
#: in duplicate self-play against ``basic`` itself (docs/ai.md, "Strength", seventh round);
#: the ``basic`` agent keeps the defaults
EXPERT_CONFIG = RfConfig(lead_size_bonus=0.6, keep_lead_value=0.3, bomb_bonus=0.6)


@dataclass(slots=True)
class RfView:
    seat: int
    cnt: list[int]
    sizes: Sequence[int]
    top: Combo | Pattern | None
    top_seat: int | None
    opening: bool


def view_of(obs: Observation, cnt: list[int]) -> RfView:
    return RfView(obs.seat, cnt, obs.hand_sizes, obs.top, obs.top_seat, obs.opening)


def choose(view: RfView, cfg: RfConfig, rng: random.Random) -> tuple[Pattern | None, Reason]:
    """The basic move (None = pass, only when no reply exists) and its reason."""
    moves = patterns(view.cnt, view.top, view.opening)
    if not moves:
        return None, because("nothing_beats_pass", "nothing beats the table; pass (R-3.4)")
    size = sum(view.cnt)
    out = [m for m in moves if m.size == size]
    if out:
        return out[0], because("go_out", f"go out with {out[0].describe()}", combo=combo_arg(out[0]))
    if len(moves) == 1:
        m = moves[0]
        if view.top is None:
            return m, because("only_play", f"the only legal play, {m.describe()}", combo=combo_arg(m))
        return m, because(
            "must_beat_only_reply", f"must beat (R-3.4): the only reply, {m.describe()}",
            combo=combo_arg(m),
        )
    if cfg.noise and rng.random() < cfg.noise:
        m = rng.choice(moves)
        return m, because("loose_move", f"a loose move, {m.describe()}", combo=combo_arg(m))
    rc = rank_counts(view.cnt)
    plan = best_plan(rc)
    opp = [view.sizes[s] for s in range(3) if s != view.seat]
    opp_min = min(opp)
    if view.top is None:
        return _lead(view, cfg, moves, rc, plan, opp_min)
    return _follow(view, cfg, moves, rc, plan, opp_min)


def _gain(rc: list[int], base: Plan, m: Pattern) -> float:
    return best_plan(remove_pattern(rc, m)).score - base.score


def _lead(
    view: RfView, cfg: RfConfig, moves: list[Pattern], rc: list[int], plan: Plan, opp_min: int
) -> tuple[Pattern, Reason]:
    bonus = cfg.lead_size_bonus
    if view.opening:
        best = max(moves, key=lambda m: (_gain(rc, plan, m), m.size))
        return best, because(
            "open_with_card", f"open with {best.describe()} (must include 3h)",
            combo=combo_arg(best), card="3h",
        )
    units = list(plan.units)
    if len(units) == 2:
        strong = max(units, key=lambda u: u.value)
        weak = min(units, key=lambda u: u.value)
        if strong.value >= cfg.keep_lead_value or strong.is_bomb:
            return strong.pattern, because(
                "lead_keep_lead", f"lead {strong.describe()} to keep the lead, then go out",
                combo=combo_arg(strong.pattern),
            )
        return weak.pattern, because(
            "lead_two_left", f"lead {weak.describe()}; two plays left", combo=combo_arg(weak.pattern)
        )
    plain = [u for u in units if not u.is_bomb] or units
    if cfg.blocking and opp_min <= cfg.lead_close:
        safe = [u for u in plain if u.size > opp_min]
        if safe:
            u = min(safe, key=lambda u: u.value - bonus * u.size)
            return u.pattern, because(
                "lead_opponent_close", f"lead {u.describe()}: an opponent holds only {opp_min}",
                combo=combo_arg(u.pattern), n=str(opp_min),
            )
        u = max(plain, key=lambda u: u.value)
        return u.pattern, because(
            "lead_high_opponent_close", f"lead the high {u.describe()}: an opponent holds only {opp_min}",
            combo=combo_arg(u.pattern), n=str(opp_min),
        )
    u = min(plain, key=lambda u: u.value - bonus * u.size)
    return u.pattern, because(
        "lead_weakest", f"lead the weakest planned play, {u.describe()}", combo=combo_arg(u.pattern)
    )


def _follow(
    view: RfView, cfg: RfConfig, moves: list[Pattern], rc: list[int], plan: Plan, opp_min: int
) -> tuple[Pattern, Reason]:
    plain = [m for m in moves if m.tier == 0]
    bombs = [m for m in moves if m.tier > 0]
    danger = cfg.blocking and opp_min <= cfg.danger_cards
    best: tuple[float, Pattern] | None = None
    for m in plain:
        g = _gain(rc, plan, m) - 0.02 * m.power
        if best is None or g > best[0]:
            best = (g, m)
    if bombs:
        bomb = min(bombs, key=lambda m: (m.tier, m.power))
        bg = _gain(rc, plan, bomb) + cfg.bomb_bonus
        late = sum(view.cnt) <= cfg.late_cards or len(plan.units) <= cfg.late_units
        if best is None:
            return bomb, because(
                "must_beat_bomb", f"must beat (R-3.4): bomb with {bomb.describe()} (a standing bomb wins 20)",
                combo=combo_arg(bomb),
            )
        if danger:
            return bomb, because(
                "bomb_opponent_close", f"bomb with {bomb.describe()}: an opponent is close to going out",
                combo=combo_arg(bomb),
            )
        if late or bg > best[0]:
            return bomb, because(
                "bomb_standing_wins", f"bomb with {bomb.describe()}: a standing reply bomb wins 20",
                combo=combo_arg(bomb),
            )
    assert best is not None
    m = best[1]
    return m, because(
        "must_beat_reply", f"must beat (R-3.4): reply {m.describe()}, the cheapest for the plan",
        combo=combo_arg(m),
    )


# ---- what the agents call (through :data:`cardavia.ai.games.GAMES`)


def legal(obs: Observation, cnt: list[int]) -> list[Pattern]:
    """The abstract moves the observing seat may play now (a pass is not included)."""
    return patterns(cnt, obs.top, obs.opening)


def combo(obs: Observation, pattern: Pattern, cnt: list[int]) -> Combo:
    """One concrete card choice for ``pattern`` (the opening play includes 3h)."""
    return concretize(pattern, cnt, obs.opening)


def decide(
    obs: Observation, cnt: list[int], rng: random.Random, noise: float = 0.0, blocking: bool = True
) -> tuple[Pattern | None, Reason]:
    """The basic move for ``obs`` (None = pass, only when no reply exists) and its reason."""
    return decide_as(obs, cnt, rng, RfConfig(noise=noise, blocking=blocking))


def decide_as(obs: Observation, cnt: list[int], rng: random.Random, cfg: RfConfig) -> tuple[Pattern | None, Reason]:
    """The move of the policy configured by ``cfg`` for ``obs`` and its reason."""
    return choose(view_of(obs, cnt), cfg, rng)


def give_back(obs: Observation, cnt: list[int]) -> tuple[Card, Reason]:
    """Run Fast has no tribute, so no card is ever given back."""
    raise ValueError("Run Fast has no tribute: there is no card to return")


__all__ = [
    "BOMB_REPLY_BONUS",
    "EXPERT_CONFIG",
    "RfConfig",
    "RfView",
    "choose",
    "combo",
    "decide",
    "decide_as",
    "give_back",
    "legal",
    "view_of",
]
