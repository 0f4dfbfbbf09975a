"""``resample_hidden``: the seat's view is unchanged, every card is conserved (Hypothesis)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from cardavia.env import _engine as eng
from cardavia.env import guandan_v0, runfast_v0
from cardavia.env.hidden import deck_counts, known_holdings, played_by, resample_deal

from .helpers import positions, random_step


def _check(deal: eng.TrickDeal, seat: int, draw_seed: int) -> eng.TrickDeal:
    new = resample_deal(deal, seat, draw_seed)
    assert eng.observation(new, seat) == eng.observation(deal, seat)
    assert new.cnt[seat] == deal.cnt[seat]
    assert new.size == deal.size
    assert [sum(row) for row in new.cnt] == deal.size
    # conserved: hands + played = the deck, card by card
    played = played_by(new)
    held = [sum(new.cnt[s][code] + played[s][code] for s in range(new.n_seats)) for code in range(54)]
    assert held == deck_counts(deal.game)
    for s, row in enumerate(known_holdings(deal, seat)):
        assert all(new.cnt[s][code] >= k for code, k in enumerate(row))
    # the new state plays on: the seat to move has the same legal actions in its own view
    return new


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["guandan", "runfast"]), st.integers(0, 10**6), st.integers(0, 150), st.integers(0, 3))
def test_resample_keeps_the_view_and_the_cards(game: str, seed: int, steps: int, seat: int) -> None:
    seat %= eng.N_SEATS[game]
    rng = random.Random(seed)
    deal = eng.new_deal(game, seed)
    for _ in range(steps):
        if deal.over:
            break
        random_step(deal, rng)
    new = _check(deal, seat, seed)
    if not deal.over:
        assert eng.to_move(new) == eng.to_move(deal)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(0, 3))
def test_resample_in_tribute_deals(seed: int, seat: int) -> None:
    found = 0
    for deal in positions("guandan", 700, seed):
        if deal.deal_index > 0 and (deal.phase == eng.PHASE_TRIBUTE or len(deal.plays) % 17 == 3):
            _check(deal, seat, seed + found)
            found += 1
            if found >= 3:
                break
    assert found, "the positions reach deals after the first (with tribute)"


def test_resample_actually_changes_hidden_hands_and_runfast_passes_stay_legal() -> None:
    deal = eng.new_deal("runfast", 4)
    rng = random.Random(4)
    while len(deal.plays) < 12:
        random_step(deal, rng)
    changed = 0
    for k in range(10):
        new = resample_deal(deal, 0, k)
        changed += new.cnt[1] != deal.cnt[1]
        # replaying the public history on the new hands is accepted by the engine
        rebuilt = eng.deal_from_hands("runfast", [new.hand(s) + _played(new, s) for s in range(3)])
        for s, combo in deal.plays:
            eng.play(rebuilt, s, combo)
    assert changed >= 8


def _played(deal: eng.TrickDeal, seat: int) -> list[eng.Card]:
    return [c for s, combo in deal.plays if s == seat and combo is not None for c in combo.cards]


def test_env_resample_hidden_returns_an_env_with_the_same_observation() -> None:
    for module in (guandan_v0, runfast_v0):
        env = module.env()
        env.reset(seed=2)
        for _ in range(7):
            env.step(env.legal_actions()[-1])
        agent = env.agent_selection
        other = env.resample_hidden(agent, random.Random(1))
        assert other.infos[agent]["observation"] == env.infos[agent]["observation"]
        assert (other.observe(agent)["observation"] == env.observe(agent)["observation"]).all()
        assert other.legal_actions() == env.legal_actions()
