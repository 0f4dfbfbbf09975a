"""Hand shapes by card count: real hidden hands (self-play) against the expert's sampler.

    .venv/bin/python bench/ai_hand_shapes.py --deals 60 --seed 1
    .venv/bin/python bench/ai_hand_shapes.py --deals 60 --strength 0 1 1.5   # overdraw scaled (0: random cards)

Self-play deals (``--agents``, default basic on all four seats) are played out; at every
decision the acting seat’s observation is given to the sampler and, for every other seat
holding ≤ 20 cards (``SHAPED_MAX``), the sampled hand is compared with the real one. Per card count: how
often the hand is a single play (2 cards: a pair), holds a bomb, and its planned plays —
real hands vs the random deal (strength 0) vs the shaped sampler (:mod:`cardavia.ai.guandan.shape`).
This is the calibration of :data:`cardavia.ai.guandan.shape.OVERDRAW` and ``SIZE_BONUS``.
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict
from collections.abc import Sequence

from cardavia.ai import make_agent
from cardavia.ai.guandan.plan import best_plan
from cardavia.ai.guandan.search import track
from cardavia.ai.guandan.shape import SHAPED_MAX, deal_shaped
from cardavia.ai.runner import guandan_deal, take_turn
from cardavia.cards import counts
from cardavia.rules.guandan.moves import rank_counts
from cardavia.rules.observation import Observation

Position = tuple[Observation, int, list[int]]  # observer's view, seat, its real hand


def features(cnt: Sequence[int], level: int) -> tuple[int, int, int]:
    """(one play, holds a bomb, planned plays) of a hand."""
    rc, w = rank_counts(cnt, level)
    plan = best_plan(rc, w, level)
    return int(plan.plays == 1), int(any(u.is_bomb for u in plan.units)), plan.plays


def positions(deals: int, seed: int, agent: str) -> list[Position]:
    out: list[Position] = []
    for d in range(deals):
        deal = guandan_deal(seed * 1000 + d)
        agents = [make_agent(agent, seed * 8 + s) for s in range(4)]
        while not deal.over:
            seat = deal.to_act()[0]
            obs = deal.observation(seat)
            for s in range(4):
                n = obs.hand_sizes[s]
                if s != seat and 1 <= n <= SHAPED_MAX:
                    out.append((obs, s, counts(deal.observation(s).hand)))
            take_turn(deal, seat, agents[seat])
    return out


def table(rows: dict[int, list[tuple[int, int, int]]]) -> dict[int, tuple[float, float, float, int]]:
    out = {}
    for n, fs in sorted(rows.items()):
        k = len(fs)
        out[n] = (sum(f[0] for f in fs) / k, sum(f[1] for f in fs) / k, sum(f[2] for f in fs) / k, k)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--agents", default="basic")
    parser.add_argument("--strength", type=float, nargs="+", default=[0.0, 1.0])
    args = parser.parse_args()
    pos = positions(args.deals, args.seed, args.agents)
    real: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for obs, s, cnt in pos:
        assert obs.level is not None
        real[obs.hand_sizes[s]].append(features(cnt, obs.level))
    tables = {"real": table(real)}
    rng = random.Random(args.seed)
    for strength in args.strength:
        rows: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
        for obs, s, _ in pos:
            assert obs.level is not None
            t = track(obs)
            hands = deal_shaped(obs.seat, obs.hand_sizes, t.unseen, t.known, rng, obs.level, strength)
            rows[obs.hand_sizes[s]].append(features(hands[s], obs.level))
        tables[f"shaped×{strength:g}"] = table(rows)
    names = list(tables)
    print(f"{len(pos)} positions from {args.deals} deals of {args.agents} self-play (seed {args.seed})")
    print("cards  count | one play (2 cards: pair): " + " / ".join(names)
          + " | holds a bomb | planned plays")
    for n in sorted(real):
        cells = []
        for j in range(3):
            fmt = "{:5.2f}" if j == 2 else "{:5.1%}"
            cells.append(" / ".join(fmt.format(tables[name][n][j]) for name in names))
        print(f"{n:5d} {tables['real'][n][3]:6d} | " + " | ".join(cells))


if __name__ == "__main__":
    main()
