"""Engine speed figures (``cardavia bench`` and ``bench/engine.py``): they print numbers.

* random self-play decisions per second on one core, with legal-move generation (the
  abstract patterns of design.md §4) at every decision, for each game;
* the median time to generate all legal moves of a fresh 27-card Guandan hand leading,
  with and without two wilds — abstract patterns and the full concrete list.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

from cardavia.cards import Card, guandan_deck
from cardavia.rules.guandan.deal import GuandanMatch
from cardavia.rules.runfast.deal import RunFastSession


def selfplay_rate(game: str, seconds: float, seed: int = 1) -> tuple[float, int]:
    """Random self-play for about ``seconds``: (decisions per second, deals played)."""
    from cardavia.ai import make_agent
    from cardavia.selfplay import step

    n = 4 if game == "guandan" else 3
    agents = [make_agent("random", seed + s) for s in range(n)]
    series: GuandanMatch | RunFastSession = GuandanMatch(seed) if game == "guandan" else RunFastSession(seed)
    decisions = 0
    deals = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        deal = series.start_deal()
        while not deal.over:
            step(deal, agents)
            decisions += 1
        series.finish_deal()
        deals += 1
    return decisions / (time.perf_counter() - start), deals


def _fresh_hand(rng: random.Random, level: int, wilds: int) -> list[Card]:
    deck = guandan_deck()
    wild = [c for c in deck if c.code == (level - 2) * 4 + 1]
    rest = [c for c in deck if c.code != (level - 2) * 4 + 1]
    rng.shuffle(rest)
    return wild[:wilds] + rest[: 27 - wilds]


def legal_timings(samples: int, wilds: int, seed: int = 7) -> tuple[float, float, float, float]:
    """Median ms for abstract and concrete generation, and mean move counts (abstract, concrete)."""
    from cardavia.rules.guandan.moves import all_moves, counts, patterns

    rng = random.Random(seed)
    abstract_ms: list[float] = []
    concrete_ms: list[float] = []
    n_abs: list[int] = []
    n_con: list[int] = []
    for _ in range(samples):
        level = rng.randrange(2, 15)
        cnt = counts(_fresh_hand(rng, level, wilds))
        t0 = time.perf_counter()
        pats = patterns(cnt, level, None)
        t1 = time.perf_counter()
        moves = all_moves(cnt, level, None)
        t2 = time.perf_counter()
        abstract_ms.append((t1 - t0) * 1000)
        concrete_ms.append((t2 - t1) * 1000)
        n_abs.append(len(pats))
        n_con.append(len(moves))
    return (
        statistics.median(abstract_ms),
        statistics.median(concrete_ms),
        statistics.mean(n_abs),
        statistics.mean(n_con),
    )


def main(argv: Sequence[str] = ()) -> int:
    p = argparse.ArgumentParser(prog="cardavia bench", description="Engine speed figures.")
    p.add_argument("--seconds", type=float, default=5.0, help="self-play time per game")
    p.add_argument("--samples", type=int, default=200, help="hands for the legal-move timing")
    p.add_argument("--game", choices=["guandan", "runfast", "both"], default="both")
    ns = p.parse_args(list(argv))
    games = ["guandan", "runfast"] if ns.game == "both" else [ns.game]
    for game in games:
        rate, deals = selfplay_rate(game, ns.seconds)
        print(f"{game}: random self-play {rate:,.0f} decisions/s on one core ({deals} deals)")
    for wilds in (0, 2):
        abs_ms, con_ms, n_abs, n_con = legal_timings(ns.samples, wilds)
        print(
            f"guandan: fresh 27-card hand leading, {wilds} wilds: all legal moves median "
            f"{abs_ms:.3f} ms abstract ({n_abs:.0f} moves), {con_ms:.1f} ms concrete ({n_con:.0f} moves)"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
