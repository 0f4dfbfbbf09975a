"""What the Run Fast exact endgame costs: nodes and time per solve, by cards in play.

    .venv/bin/python bench/ai_endgame_nodes.py --deals 60 --seed 500 --mode policy
    .venv/bin/python bench/ai_endgame_nodes.py --deals 60 --seed 500 --mode paranoid --max-cards 24

``basic`` plays whole deals on all three seats; at every decision with a choice and at most
``--max-cards`` cards in the three hands, the true deal (perfect information) is solved for
every legal first move of the seat to act (:func:`cardavia.ai.runfast.endgame.solve_each`,
one shared transposition table): ``policy`` = the seat's best reply to the rollout policy
(what the expert uses), ``paranoid`` = both others minimise its score. A solve stops at
``--cap`` nodes (counted as "over the cap"). Printed per bucket of 2 cards in play:
positions, nodes p50 / p90, milliseconds p50 / p90 (the expert solves only its ≤ 6
candidates, with a budget of :data:`cardavia.ai.runfast.endgame.NODE_BUDGET` nodes).
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict

from cardavia.ai.basic import BasicAgent
from cardavia.ai.runfast import endgame
from cardavia.ai.runfast.search import policy_move
from cardavia.ai.runner import runfast_deal, take_turn
from cardavia.ai.search import trailing_passes
from cardavia.rules.observation import observation
from cardavia.rules.runfast.moves import rank_counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=60)
    parser.add_argument("--seed", type=int, default=500)
    parser.add_argument("--mode", choices=["policy", "paranoid"], default="policy")
    parser.add_argument("--max-cards", type=int, default=30)
    parser.add_argument("--cap", type=int, default=200_000)
    args = parser.parse_args()
    policy = policy_move if args.mode == "policy" else None
    rows: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for d in range(args.deals):
        deal = runfast_deal(args.seed + d)
        agents = [BasicAgent(s) for s in range(3)]
        while not deal.over:
            seat = deal.to_act()[0]
            obs = observation(deal, seat)
            firsts = list(deal.move_patterns(seat))
            in_play = sum(obs.hand_sizes)
            if not obs.opening and len(firsts) > 1 and in_play <= args.max_cards:
                t0 = time.perf_counter()
                used: list[int] = []
                got = endgame.solve_each(
                    [rank_counts(deal.cnt[s]) for s in range(3)], turn=seat, top=obs.top,
                    top_seat=obs.top_seat, passes=trailing_passes(obs),
                    played_any=list(obs.played_any), standing=deal.standing_bomb, me=seat,
                    firsts=firsts, budget=args.cap, policy=policy, nodes_used=used,
                )
                nodes = args.cap + 1 if None in got else used[0]
                rows[in_play // 2 * 2].append((nodes, time.perf_counter() - t0))
            take_turn(deal, seat, agents[seat])
    print(f"Run Fast exact endgame, mode {args.mode}, {args.deals} deals from seed {args.seed}")
    print("cards in play | positions | nodes p50 | nodes p90 | ms p50 | ms p90")
    for k in sorted(rows):
        nodes = sorted(n for n, _ in rows[k])
        secs = sorted(t for _, t in rows[k])

        def at(xs: list[float] | list[int], q: float) -> float:
            return float(xs[min(len(xs) - 1, int(q * len(xs)))])

        def shown(n: float) -> str:
            return "over the cap" if n > args.cap else f"{n:.0f}"

        n50, n90 = at(nodes, 0.5), at(nodes, 0.9)
        ms50, ms90 = at(secs, 0.5) * 1e3, at(secs, 0.9) * 1e3
        print(f"{k}–{k + 1} | {len(nodes)} | {shown(n50)} | {shown(n90)} | {ms50:.1f} | {ms90:.1f}")


if __name__ == "__main__":
    main()
