"""How much a Guandan pass says about the passer's hand: real hands against sampled ones.

    .venv/bin/python bench/ai_pass_reading.py --deals 30 --seed 0

Self-play deals (``--agents``, default basic on all four seats) are played out; at every
``--every``-th decision of seat 0 its observation is read as the expert reads it: each
other seat's passes on an opponent's single, pair or triple, split by ``basic``'s danger
rule at the time of the pass (:func:`cardavia.ai.guandan.search.split_passes`). For every
such pass the script counts how often the passer's **real** hand, and a **sampled** hand
(the expert's shaped sampler, no evidence applied), would "contradict" it by two tests:

* *group*: the hand holds any single, pair or triple above the play (the test every pass
  was read by before, :data:`~cardavia.ai.guandan.search.PASS_EVIDENCE`);
* *unit*: the hand's plan holds a play of that kind above it, cheap enough for ``basic`` to
  answer out of danger (:data:`~cardavia.ai.guandan.search.LOOSE_PASS_EVIDENCE`).

A test reads the pass well when real hands contradict it far less often than samples do.
"""

from __future__ import annotations

import argparse
import random
from collections import Counter

from cardavia.ai import make_agent
from cardavia.ai.guandan import search
from cardavia.ai.guandan.basic import level_of
from cardavia.ai.guandan.shape import deal_shaped
from cardavia.ai.legal import hand_counts
from cardavia.ai.runner import guandan_deal, take_turn
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.observation import observation
from cardavia.rules.trick import PHASE_TRIBUTE


def count(deals: int, seed: int, agent: str, every: int) -> Counter[str]:
    """The pass counts and the contradictions of real and sampled hands, by test."""
    found: Counter[str] = Counter()
    for d in range(deals):
        deal = guandan_deal(seed + d)
        agents = [make_agent(agent, 100 * d + s) for s in range(4)]
        turn = 0
        while not deal.over:
            seat = deal.to_act()[0]
            if seat == 0 and deal.phase != PHASE_TRIBUTE:
                turn += 1
                if turn % every == 0:
                    read(deal, found, random.Random(1000 * d + turn))
            take_turn(deal, seat, agents[seat])
    return found


def read(deal: GuandanDeal, found: Counter[str], rng: random.Random) -> None:
    obs = observation(deal, 0)
    level = level_of(obs)
    danger, loose = search.split_passes(obs)
    tracked = search.track(obs)
    sample = deal_shaped(0, obs.hand_sizes, tracked.unseen, tracked.known, rng, level)
    for kind, passes in (("danger", danger), ("loose", loose)):
        for s, tops in passes.items():
            real = hand_counts(observation(deal, s))
            found[f"{kind} passes"] += len(tops)
            for name, hand in (("real", real), ("sampled", sample[s])):
                found[f"{kind} {name} group"] += search._plain_replies(hand, level, tops)
                units = search.plan_units(hand, level, {}, s)
                found[f"{kind} {name} unit"] += search.unit_replies(units, level, tops)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--deals", type=int, default=30)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--agents", default="basic")
    ap.add_argument("--every", type=int, default=3, help="read every n-th decision of seat 0")
    args = ap.parse_args()
    found = count(args.deals, args.seed, args.agents, args.every)
    print(f"{args.deals} deals, {args.agents} on all seats, seed {args.seed}")
    print(f"{'passes':<8} {'n':>6}  {'test':<6} {'real hands':>11} {'sampled':>9}")
    for kind in ("danger", "loose"):
        n = found[f"{kind} passes"]
        for test in ("group", "unit"):
            real, sampled = found[f"{kind} real {test}"], found[f"{kind} sampled {test}"]
            print(f"{kind:<8} {n:>6}  {test:<6} {_share(real, n):>11} {_share(sampled, n):>9}")


def _share(k: int, n: int) -> str:
    return f"{100 * k / n:.1f} %" if n else "—"


if __name__ == "__main__":
    main()
