"""How often the Guandan expert's search overrides ``basic``, and whether that pays.

    taskset -c 1 .venv/bin/python bench/ai_overrides.py --deals 20 --seed 7 --think-ms 50

The expert plays seats 0 and 2, ``basic`` seats 1 and 3. At every searched decision the
search's best candidate by mean (``argmax``) is compared with the basic move; when they
differ, both are **checked on the real deal**: the deal is copied twice, one copy gets the
basic move, the other the argmax, and ``basic`` finishes both on all four seats (the true
hands: no sampling). ``truth`` = value(argmax) − value(basic) for the expert's team
(``±(1 + 0.5 × levels)``, the search's scale). Rows are bucketed by the search's z-score
of the argmax (mean paired advantage / standard error): the gate overrides when
``mean − 0.05 − SIGNIFICANCE × s.e. > 0``. A well-calibrated gate overrides where the
mean truth is positive.
"""

from __future__ import annotations

import argparse
import copy
import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from cardavia.ai import search as search_mod
from cardavia.ai.base import Decision
from cardavia.ai.basic import BasicAgent
from cardavia.ai.expert import ExpertAgent
from cardavia.ai.guandan import basic as gd_basic
from cardavia.ai.guandan import search as gd_search
from cardavia.ai.legal import hand_counts
from cardavia.ai.runner import guandan_deal, play_out, take_turn
from cardavia.cards import counts
from cardavia.rules.combo import Pattern
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.observation import observation


@dataclass
class Row:
    z: float
    mean: float
    samples: int
    candidates: int
    overridden: bool
    truth: float
    kind: str = ""


def kind_of(move: Pattern | None) -> str:
    if move is None:
        return "pass"
    return "bomb" if move.tier else move.type.value


def change_of(obs_top: object, default: Pattern | None, alt: Pattern | None) -> str:
    """What the search's alternative changes: lead/follow, basic's kind → the alternative's."""
    where = "lead" if obs_top is None else "follow"
    return f"{where}: {kind_of(default)} -> {kind_of(alt)}"


def team_value(deal: GuandanDeal, seat: int) -> float:
    first = deal.places[0]
    adv = int(deal.result["advance"]) if deal.result else 0
    v = 1.0 + 0.5 * adv
    return v if first % 2 == seat % 2 else -v


def truth_of(deal: GuandanDeal, seat: int, a: Pattern | None, b: Pattern | None) -> float:
    """value(a) − value(b) for ``seat``'s team, ``basic`` finishing the real deal."""
    values = []
    for move in (a, b):
        d = copy.deepcopy(deal)
        obs = observation(d, seat)
        cnt = hand_counts(obs)
        combo = None if move is None else gd_basic.combo(obs, move, cnt)
        d.pass_turn(seat) if combo is None else d.play_combo(seat, combo)
        play_out(d, [BasicAgent(s) for s in range(4)])
        values.append(team_value(d, seat))
    return values[0] - values[1]


def capture(agent: ExpertAgent, sink: dict[str, Any]) -> None:
    """Wrap the agent's ``Search.run`` to record its candidates and sample rows."""
    run = agent.search.run

    def wrapped(candidates: list[Any], default: Any, one_sample: Callable[[], list[float]],
                t0: float, why: Any) -> Any:
        rows: list[list[float]] = []

        def recording() -> list[float]:
            v = one_sample()
            rows.append(v)
            return v

        move, reason = run(candidates, default, recording, t0, why)
        sink.update(candidates=candidates, default=default, rows=rows, move=move)
        return move, reason

    setattr(agent.search, "run", wrapped)  # noqa: B010 (mypy: no assigning to a method)


def analyse(sink: dict[str, Any]) -> tuple[Pattern | None, float, float, int] | None:
    rows: list[list[float]] = sink["rows"]
    n = len(rows)
    if n < 4:
        return None
    cands = sink["candidates"]
    d = cands.index(sink["default"])
    best, best_z, best_m = None, -1e9, 0.0
    for i in range(len(cands)):
        if i == d:
            continue
        diffs = [r[i] - r[d] for r in rows]
        m = sum(diffs) / n
        sd = math.sqrt(sum((x - m) ** 2 for x in diffs) / (n - 1)) or 1e-9
        z = m / (sd / math.sqrt(n))
        if best is None or m > best_m:
            best, best_z, best_m = i, z, m
    assert best is not None
    return cands[best], best_z, best_m, n


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=20)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--think-ms", type=float, default=50.0)
    parser.add_argument(
        "--cheat", action="store_true",
        help="sample the true hidden hands (isolates the rollout policy from the sampling)",
    )
    args = parser.parse_args()
    true_hands: dict[int, list[int]] = {}
    if args.cheat:
        def the_truth(me: int, *_: Any, **__: Any) -> dict[int, list[int]]:
            return {s: list(h) for s, h in true_hands.items() if s != me}

        gd_search.sample_hands = the_truth
    rows: list[Row] = []
    decisions = 0
    for k in range(args.deals):
        deal = guandan_deal(args.seed * 1000 + k)
        sinks = [dict[str, Any]() for _ in range(4)]
        agents: list[Any] = []
        for s in range(4):
            if s % 2 == 0:
                a = ExpertAgent(k * 8 + s, budget_ms=args.think_ms, hard_cap_ms=2 * args.think_ms)
                capture(a, sinks[s])
                agents.append(a)
            else:
                agents.append(BasicAgent(k * 8 + s))
        while not deal.over:
            seat = deal.to_act()[0]
            if seat % 2 or not deal.is_playing:
                take_turn(deal, seat, agents[seat])
                continue
            sinks[seat].clear()
            true_hands.clear()
            true_hands.update({s: counts(deal.hand(s)) for s in range(4)})
            before = copy.deepcopy(deal)
            decision: Decision = agents[seat].act(observation(deal, seat))
            decisions += 1
            if sinks[seat].get("rows") is not None:
                got = analyse(sinks[seat])
                if got is not None:
                    alt, z, m, n = got
                    over = sinks[seat]["move"] is not sinks[seat]["default"]
                    t = truth_of(before, seat, alt, sinks[seat]["default"])
                    kind = change_of(deal.top, sinks[seat]["default"], alt)
                    rows.append(Row(z, m, n, len(sinks[seat]["candidates"]), over, t, kind))
            deal.pass_turn(seat) if decision.combo is None else deal.play_combo(seat, decision.combo)
        print(f"deal {k}: {len(rows)} searched rows so far", flush=True)
    report(rows, decisions)


def report(rows: list[Row], decisions: int) -> None:
    print(f"expert decisions {decisions}, searched with >= 4 samples {len(rows)}")
    if rows:
        print(f"samples per search: mean {sum(r.samples for r in rows) / len(rows):.1f}")
    over = [r for r in rows if r.overridden]
    print(f"overrides {len(over)}; mean truth of overrides "
          f"{(sum(r.truth for r in over) / len(over)) if over else 0:+.3f}")
    kinds: dict[str, list[Row]] = {}
    for r in over:
        kinds.setdefault(r.kind if r.kind.startswith("follow") else "lead", []).append(r)
    for k, b in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        strong = [r for r in b if r.z >= 1.5]
        print(f"  override {k:<28}{len(b):>5}  truth {sum(r.truth for r in b) / len(b):+.3f}"
              f"   (z>=1.5: {len(strong)}, {sum(r.truth for r in strong) / max(1, len(strong)):+.3f})")
    print(f"{'z bucket':<12}{'rows':>6}{'mean adv':>10}{'truth':>9}{'+':>5}{'-':>5}")
    edges = [-1e9, 0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 1e9]
    for lo, hi in itertools.pairwise(edges):
        b = [r for r in rows if lo <= r.z < hi]
        if not b:
            continue
        print(f"[{lo:>4.1f},{hi:>4.1f}) {len(b):>6}{sum(r.mean for r in b) / len(b):>10.3f}"
              f"{sum(r.truth for r in b) / len(b):>+9.3f}{sum(r.truth > 0 for r in b):>5}"
              f"{sum(r.truth < 0 for r in b):>5}")


_ = search_mod

if __name__ == "__main__":
    main()
