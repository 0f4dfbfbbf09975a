"""How often the Run Fast rollout policy makes ``basic``'s move (what the search's rollouts
assume of the other seats), on the positions of ``basic`` self-play.

    .venv/bin/python bench/ai_policy_agreement.py --deals 300 --seed 10000

At every decision of a ``basic`` self-play deal with more than one legal move (the opening
play apart), the rollout policy (:func:`cardavia.ai.runfast.search.policy_move`, planning
the hand afresh) is asked for its move on the same rank counts, and — as a check — so is
the faithful rollouts' ``faithful_move``. Prints the agreement with ``basic`` for leads and
follows, and the reasons of ``basic``'s moves the policy does not make.
"""

from __future__ import annotations

import argparse
import collections
import random

from cardavia.ai.legal import hand_counts
from cardavia.ai.runfast import basic, search
from cardavia.ai.runner import runfast_deal
from cardavia.rules.combo import Pattern
from cardavia.rules.observation import observation
from cardavia.rules.runfast.moves import concretize, rank_counts


def same(a: Pattern | None, b: Pattern | None) -> bool:
    """Whether two moves (None = pass) are the same play on rank counts."""
    if a is None or b is None:
        return a is None and b is None
    return a.tier == b.tier and sorted(a.slots) == sorted(b.slots)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--seed", type=int, default=10_000, help="the first deal's seed")
    args = parser.parse_args()
    agree: collections.Counter[tuple[str, bool]] = collections.Counter()
    faithful: collections.Counter[bool] = collections.Counter()
    missed: collections.Counter[str] = collections.Counter()
    rng = random.Random(1)
    for index in range(args.deals):
        deal = runfast_deal(args.seed + index)
        while not deal.over:
            seat = deal.to_act()[0]
            obs = observation(deal, seat)
            cnt = hand_counts(obs)
            move, why = basic.decide_as(obs, cnt, rng, basic.RfConfig())
            if not obs.opening and len(basic.legal(obs, cnt)) > 1:
                rcs = [rank_counts(deal.cnt[s]) for s in range(3)]
                kind = "lead" if obs.top is None else "follow"
                hit = same(search.policy_move(seat, rcs, obs.top), move)
                agree[(kind, hit)] += 1
                faithful[same(search.faithful_move(seat, rcs, obs.top), move)] += 1
                if not hit:
                    missed[f"{kind}: {why.key}"] += 1
            if move is None:
                deal.pass_turn(seat)
            else:
                deal.play_combo(seat, concretize(move, cnt, obs.opening))
    for kind in ("lead", "follow"):
        hits, misses = agree[(kind, True)], agree[(kind, False)]
        total = hits + misses
        print(f"{kind:6} {hits:6d} of {total:6d} as basic ({hits / max(1, total):.1%})")
    print(f"faithful_move (faithful rollouts) as basic: {faithful[True]} of {sum(faithful.values())}")
    for reason, n in missed.most_common(8):
        print(f"  not made: {reason:32} {n}")


if __name__ == "__main__":
    main()
