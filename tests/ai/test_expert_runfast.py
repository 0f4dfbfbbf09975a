"""The Run Fast expert's shaped samples: the shorter hidden hand keeps combinations, counts,
the unseen cards and the pass constraints hold."""

from __future__ import annotations

import random

from cardavia.ai.runfast import search as rs
from cardavia.ai.runfast.plan import best_plan


def _pool(copies: dict[int, int]) -> list[int]:
    rc = [0] * 15
    for r, n in copies.items():
        rc[r] = n
    return rc


def _pair_rate(shape: float) -> float:
    rng = random.Random(4)
    pairs = 0
    for _ in range(600):
        pool = _pool({r: 3 for r in range(3, 9)})  # 18 cards, three of each rank 3–8
        hands = rs.sample_hands(0, [10, 2, 16], pool, {}, rng, shape=shape)
        assert [hands[1][r] + hands[2][r] for r in range(15)] == pool
        pairs += best_plan(hands[1]).plays == 1
    return pairs / 600


def test_a_short_hidden_hand_keeps_its_pair() -> None:
    random_rate, shaped_rate = _pair_rate(0.0), _pair_rate(1.0)
    assert random_rate < 0.2  # 2 random cards of 18 (six ranks of 3): a pair ≈ 12 %
    assert shaped_rate > random_rate + 0.15  # self-play: a pair 30 % of the time


def test_shaped_samples_keep_the_unseen_cards_and_the_passes() -> None:
    from cardavia.ai.runfast.search import fake_cnt
    from cardavia.rules.combo import ComboType
    from cardavia.rules.runfast.moves import patterns

    pool = _pool({**{r: 2 for r in range(3, 10)}, 3: 3, 4: 3, 10: 1, 11: 1, 12: 1, 13: 1, 14: 1})
    assert sum(pool) == 21
    # seat 1 passed on a single 9: it holds nothing above 9 (hard constraint, R-3.4)
    top = next(p for p in patterns(fake_cnt([0] * 9 + [1] + [0] * 5)) if p.type is ComboType.SINGLE)
    rng = random.Random(9)
    for _ in range(200):
        hands = rs.sample_hands(0, [10, 5, 16], pool, {1: [top]}, rng)  # type: ignore[dict-item]
        assert [hands[1][r] + hands[2][r] for r in range(15)] == pool
        assert sum(hands[1]) == 5
        assert all(hands[1][r] == 0 for r in range(10, 15)) and hands[1][2] == 0
