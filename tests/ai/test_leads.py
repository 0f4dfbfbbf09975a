"""The leads read from a Guandan history (inference from plays): checked against the deal
engine's own tricks (G-4.2, G-4.6, G-4.7) over whole self-play deals."""

from __future__ import annotations

from cardavia.ai import make_agent
from cardavia.ai.base import Decision
from cardavia.ai.guandan.leads import last_leads, start_sizes, trick_leads
from cardavia.ai.runner import guandan_deal, play_out
from cardavia.observation import Observation


def _observations(seed: int) -> list[Observation]:
    seen: list[Observation] = []

    def on(seat: int, obs: Observation, decision: Decision, seconds: float) -> None:
        seen.append(obs)

    play_out(guandan_deal(seed), [make_agent("basic", seed * 4 + s) for s in range(4)], on)
    return seen


def test_leads_match_the_engines_tricks() -> None:
    checked = 0
    for seed in range(6):
        sizes_at: dict[int, tuple[int, ...]] = {}
        for obs in _observations(seed):
            history = list(obs.history)
            sizes_at[len(history)] = obs.hand_sizes
            leads = trick_leads(history, 4, start_sizes(obs.hand_sizes, history))
            assert start_sizes(obs.hand_sizes, history) == [27, 27, 27, 27]
            if obs.trick:  # the current trick opened with the latest lead
                assert leads[-1].index == len(history) - len(obs.trick)
                assert leads[-1].seat == obs.trick[0][0]
                checked += 1
            else:  # a new trick: every play so far sits in a trick some lead opened
                assert not history or leads
            for lead in leads:
                if lead.index in sizes_at:
                    assert lead.sizes == sizes_at[lead.index]
    assert checked > 100


def test_last_leads_only_reads_short_hands_and_plain_leads() -> None:
    for seed in range(3):
        for obs in _observations(seed):
            for seat, (lead, since) in last_leads(obs.history, obs.hand_sizes, obs.seat, 15).items():
                assert seat != obs.seat and lead.seat == seat
                assert lead.sizes[seat] <= 15 and lead.combo.tier == 0
                assert lead.combo.size < lead.sizes[seat]
                # the cards played since the lead, the lead's own among them
                assert len(since) == lead.sizes[seat] - obs.hand_sizes[seat]
