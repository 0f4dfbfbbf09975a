"""Long self-play legality check: every decision of every agent against the full legal move list.

    .venv/bin/python bench/ai_selfplay_legal.py --deals 2000 --seed 1
    .venv/bin/python bench/ai_selfplay_legal.py --deals 200 --game runfast --samples 4

Guandan deals are played as matches (deal after deal, tribute and return included), Run
Fast deals one by one. The table mixes ``expert`` (``--samples`` sampled deals per
decision, so its search — candidates, endgame solver, the gate — runs and picks
alternatives), ``expert_v1``, ``basic`` and ``basic_loose``. Each play must be in
``all_moves`` of the seat's hand (the same check as ``tests/ai/test_selfplay_legal.py``),
a pass only where allowed (Guandan: never when leading, G-4.1; Run Fast: only with no
reply, R-3.4), every decision must carry a reason, and every return card must be one of
the options. Prints the counts and exits 1 at the first illegal decision.
"""

from __future__ import annotations

import argparse
import sys
import time

from cardavia.ai.base import Agent, Decision
from cardavia.ai.basic import BasicAgent
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.runner import runfast_deal, step
from cardavia.ai.v1.agent import ExpertV1Agent
from cardavia.cards import counts
from cardavia.rules.guandan.match import GuandanMatch
from cardavia.rules.guandan.moves import all_moves as gd_all_moves
from cardavia.rules.observation import Observation
from cardavia.rules.runfast.deal import RunFastDeal
from cardavia.rules.runfast.moves import all_moves as rf_all_moves
from cardavia.rules.runfast.moves import patterns as rf_patterns


class Checker:
    def __init__(self) -> None:
        self.moves = 0
        self.searched = 0

    def __call__(self, seat: int, obs: Observation, decision: Decision, seconds: float) -> None:
        self.moves += 1
        if not decision.reason:
            raise AssertionError(f"a decision without a reason: {decision}")
        if decision.reason_key.startswith("search_prefers"):
            self.searched += 1
        cnt = counts(obs.hand)
        combo = decision.combo
        if obs.game == RunFastDeal.game:
            if combo is None:
                if rf_patterns(cnt, obs.top, obs.opening):
                    raise AssertionError(f"a pass with a reply (R-3.4): {obs}")
                return
            keys = {(tuple(sorted(c.code for c in m.cards)), m.type) for m in rf_all_moves(cnt, obs.top, obs.opening)}
            if (tuple(sorted(c.code for c in combo.cards)), combo.type) not in keys:
                raise AssertionError(f"illegal Run Fast play {combo} for {obs}")
            return
        assert obs.level is not None
        if combo is None:
            if not obs.can_pass:
                raise AssertionError(f"a leader passed (G-4.1): {obs}")
            return
        gkeys = {
            (tuple(sorted(c.code for c in m.cards)), m.type, m.rank) for m in gd_all_moves(cnt, obs.level, obs.top)
        }
        if (tuple(sorted(c.code for c in combo.cards)), combo.type, combo.rank) not in gkeys:
            raise AssertionError(f"illegal Guandan play {combo} for {obs}")


def table(n: int, seed: int, samples: int) -> list[Agent]:
    kinds: list[Agent] = [
        ExpertAgent(seed * 8, budget_ms=1e6, hard_cap_ms=1e6, max_samples=samples),
        BasicAgent(seed * 8 + 1),
        ExpertV1Agent(seed * 8 + 2, budget_ms=1e6, hard_cap_ms=1e6, max_samples=samples),
        BasicAgent(seed * 8 + 3, noise=0.25, blocking=False, name="basic_loose"),
    ]
    if n == 3:
        return [kinds[0], kinds[1], kinds[3]]
    return kinds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--samples", type=int, default=4, help="expert's sampled deals per decision")
    parser.add_argument("--game", choices=["guandan", "runfast", "both"], default="both")
    args = parser.parse_args()
    for game in ("guandan", "runfast") if args.game == "both" else (args.game,):
        t0 = time.perf_counter()
        checker = Checker()
        returns = 0
        if game == "guandan":
            agents = table(4, args.seed, args.samples)
            match = GuandanMatch(seed=args.seed, keep_finished=False)
            for _ in range(args.deals):
                deal = match.start_deal()
                while not deal.over:
                    if deal.phase == "tribute":
                        seat = deal.to_act()[0]
                        obs = deal.observation(seat)
                        if agents[seat].choose_return(obs).card not in obs.return_options:
                            raise AssertionError(f"a return card not among the options: {obs}")
                        returns += 1
                    step(deal, agents, checker)
                match.finish_deal()  # a won match starts a new one at the next deal
        else:
            for i in range(args.deals):
                play_out_agents = table(3, args.seed + i, args.samples)
                rf_deal = runfast_deal(args.seed * 100_000 + i)
                while not rf_deal.over:
                    step(rf_deal, play_out_agents, checker)
        print(
            f"{game}: {args.deals} deals, {checker.moves} decisions all legal"
            f" ({checker.searched} chosen by search over the basic move, {returns} tribute returns),"
            f" {time.perf_counter() - t0:.0f} s",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
