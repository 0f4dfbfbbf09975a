"""The expert's judgement of a Guandan tribute return card (G-3.5), for the deal review.

The return is judged like a play (:func:`cardavia.ai.review.judge`), from the returning
seat's observation at that moment only: the expert's return (its return logic, the card
whose loss costs the hand's plan least) is the ``best``; when the seat returned another
card, both are compared on the *same* sampled deals (paired rollouts of the whole deal from
its first lead, the G-3.6 leader, with the returned card in the payer's hand), and ``loss``
is how much better the expert's card did on average, on the search's deal-value scale, with
the labels and thresholds of the play review (docs/ai.md). Another recipient's return in a
double tribute is unknown to the seat and left out of the samples.

Runs in the review process (server/review.py), never on the event loop or the AI worker.

>>> obs = return_position(12).observation(0)
>>> j = judge_return(obs, obs.return_options[-1], seed=1, samples=8)
>>> j.label in ("good", "inaccuracy", "mistake") and j.loss >= 0 and j.best in obs.return_options
True
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from cardavia.ai.games import game_ai
from cardavia.ai.guandan import search as gd
from cardavia.ai.reasons import Reason
from cardavia.ai.review import GOOD, SAMPLES, label_for
from cardavia.cards import Card, counts
from cardavia.observation import Observation
from cardavia.rules.guandan.deal import GuandanDeal, deal_hands


@dataclass(frozen=True, slots=True)
class ReturnJudgement:
    """The expert's view of one return card."""

    played: Card
    best: Card
    to: int  # the payer the card goes back to
    loss: float
    label: str
    reason: Reason
    samples: int


def judge_return(obs: Observation, returned: Card, *, seed: int, samples: int = SAMPLES) -> ReturnJudgement:
    """The expert's judgement of returning ``returned`` at ``obs`` (the seat owes a return)."""
    to = dict(obs.pending_returns)[obs.seat]
    cnt = counts(obs.hand)
    best, reason = game_ai(obs.game).give_back(obs, cnt)
    if best == returned:
        return ReturnJudgement(returned, best, to, 0.0, GOOD, reason, 0)
    rows = _paired_values(obs, to, cnt, [best, returned], samples, random.Random(seed))
    diffs = [row[0] - row[1] for row in rows]
    loss = round(max(0.0, sum(diffs) / len(diffs)), 3) if diffs else 0.0
    if not math.isfinite(loss):
        loss = 0.0
    return ReturnJudgement(returned, best, to, loss, label_for(obs.game, loss), reason, len(rows))


def _paired_values(
    obs: Observation, to: int, cnt: list[int], cards: list[Card], n: int, rng: random.Random
) -> list[list[float]]:
    """Per sampled deal, the value for the seat's team of the deal played out after each
    return card in ``cards`` (the same hidden hands for every card)."""
    assert obs.level is not None and obs.tributes
    level, me = obs.level, obs.seat
    leader = obs.tributes[0][0]  # G-3.6: the payer who gets the return from 1st place
    tracked = gd.track(obs)
    sizes = list(obs.hand_sizes)
    sizes[me] -= 1
    sizes[to] += 1
    rows: list[list[float]] = []
    for _ in range(n):
        hands = gd.sample_hands(me, list(obs.hand_sizes), tracked.unseen, tracked.known, rng, None, level)
        row: list[float] = []
        for card in cards:
            mine = list(cnt)
            mine[card.code] -= 1
            theirs = list(hands[to])
            theirs[card.code] += 1
            held = {**hands, me: mine, to: theirs}
            units = [gd.units_of(held[s], level) for s in range(4)]
            row.append(gd.rollout(units, list(sizes), leader, None, None, 0, [], me, False))
        rows.append(row)
    return rows


def return_position(seed: int) -> GuandanDeal:
    """A deal waiting for its return card (examples and tests): seat 3 came last in the
    previous deal and paid seat 0, who owes the return."""
    hands, _ = deal_hands(seed)
    deal = GuandanDeal.start(hands, 2, seed=seed, team_levels=(2, 2), previous_places=[0, 1, 2, 3])
    assert deal.pending_returns, "an anti-tribute: take another seed"
    return deal


__all__ = ["ReturnJudgement", "judge_return", "return_position"]
