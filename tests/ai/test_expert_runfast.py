"""The Run Fast expert's shaped samples: the shorter hidden hand keeps combinations, counts,
the unseen cards and the pass constraints hold."""

from __future__ import annotations

import random

import pytest

from cardavia.ai.runfast import search as rs
from cardavia.ai.runfast.plan import best_plan
from cardavia.rules.combo import Pattern


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
        hands = rs.sample_hands(0, [10, 5, 16], pool, {1: [top]}, rng)  # type: ignore[list-item]  # a Pattern for a Combo
        assert [hands[1][r] + hands[2][r] for r in range(15)] == pool
        assert sum(hands[1]) == 5
        assert all(hands[1][r] == 0 for r in range(10, 15)) and hands[1][2] == 0


# ---- the exact endgame (issue 15): the solver agrees with the rules engine


def _engine_value(deal: object, me: int, policy: object = None) -> float:
    """Minimax played on the real engine (every legal move, no pruning): ``me`` maximises
    its settlement score, the two others minimise it — or, with a ``policy``, play it."""
    import copy

    from cardavia.rules.runfast.deal import RunFastDeal
    from cardavia.rules.runfast.moves import concretize, rank_counts

    assert isinstance(deal, RunFastDeal)
    if deal.over:
        assert deal.result is not None
        return float(deal.result["scores"][me])
    seat = deal.to_act()[0]
    options: list[object] = list(deal.move_patterns(seat)) or [None]
    if policy is not None and seat != me:
        assert callable(policy)
        options = [policy(seat, [rank_counts(deal.cnt[s]) for s in range(3)], deal.top)]
    values = []
    for move in options:
        child = copy.deepcopy(deal)
        if move is None:
            child.pass_turn(seat)
        else:
            child.play_combo(seat, concretize(move, child.cnt[seat]))  # type: ignore[arg-type]
        values.append(_engine_value(child, me, policy))
    return max(values) if seat == me else min(values)


@pytest.mark.parametrize("opponents", ["paranoid", "policy"])
def test_endgame_solver_matches_the_engine_on_real_endgames(opponents: str) -> None:
    """Real deals played by ``basic`` until few cards are left: the solver's value of every
    legal first move equals a plain minimax over the engine's own moves and settlement
    (must beat, R-3.4; the cards, the 2s, unplayed bombs, R-5.1–R-5.3; standing reply
    bombs, R-5.4 — bonuses already earned included); the other seats minimise (paranoid)
    or play the rollout policy (a best reply to it)."""
    import copy

    from cardavia.ai.basic import BasicAgent
    from cardavia.ai.runfast.endgame import solve_each
    from cardavia.ai.runfast.search import policy_move
    from cardavia.ai.runner import runfast_deal, take_turn
    from cardavia.rules.observation import observation
    from cardavia.rules.runfast.moves import concretize, rank_counts

    policy = policy_move if opponents == "policy" else None
    checked = 0
    bonus_seen = 0
    for seed in range(400):
        deal = runfast_deal(seed)
        agents = [BasicAgent(s) for s in range(3)]
        while not deal.over and sum(deal.size) > (9 if policy is None else 13):
            take_turn(deal, deal.to_act()[0], agents[deal.to_act()[0]])
        if deal.over:
            continue
        me = deal.to_act()[0]
        obs = observation(deal, me)
        firsts: list[Pattern | None] = [*deal.move_patterns(me)] or [None]
        standing = deal.standing_bomb
        settled = sum(20.0 if b == me else -10.0 for b in deal.bomb_bonuses)
        bonus_seen += bool(deal.bomb_bonuses) or standing is not None
        passes = 0
        for _, combo in reversed(obs.trick):
            if combo is not None:
                break
            passes += 1
        got = solve_each(
            [rank_counts(deal.cnt[s]) for s in range(3)], turn=me, top=deal.top,
            top_seat=obs.top_seat, passes=passes, played_any=list(deal.played_any),
            standing=standing, me=me, firsts=firsts, budget=10**7, policy=policy,
        )
        for move, value in zip(firsts, got, strict=True):
            child = copy.deepcopy(deal)
            if move is None:
                child.pass_turn(me)
            else:
                child.play_combo(me, concretize(move, child.cnt[me]))
            assert value is not None
            assert settled + value == _engine_value(child, me, policy), (seed, move)
        checked += 1
        if checked >= 12 and bonus_seen >= 2:
            break
    assert checked >= 12 and bonus_seen >= 2


def test_endgame_solver_gives_up_beyond_its_budget() -> None:
    from cardavia.ai.runfast.endgame import solve_each
    from cardavia.rules.runfast.moves import SINGLE

    full = [[0, 0, 0] + [1] * 12, [0, 0, 0] + [1] * 12, [0, 0, 0] + [1] * 12]
    got = solve_each(
        full, turn=0, top=None, top_seat=None, passes=0, played_any=[True] * 3,
        standing=None, me=0, firsts=[SINGLE[3], SINGLE[4]], budget=50,
    )
    assert got == [None, None]


def test_endgame_budget_is_read_at_each_call(monkeypatch: pytest.MonkeyPatch) -> None:
    # the node budget is a run-time knob (bench/ai_paired.py --set runfast.endgame.NODE_BUDGET):
    # the default is the module's value when solve_each is called, not when it was defined
    from cardavia.ai.runfast import endgame
    from cardavia.rules.runfast.moves import SINGLE

    full = [[0, 0, 0] + [1] * 12, [0, 0, 0] + [1] * 12, [0, 0, 0] + [1] * 12]

    def solve() -> list[float | None]:
        return endgame.solve_each(
            full, turn=0, top=None, top_seat=None, passes=0, played_any=[True] * 3,
            standing=None, me=0, firsts=[SINGLE[3]], policy=rs.policy_move,
        )

    monkeypatch.setattr(endgame, "NODE_BUDGET", 5)
    assert solve() == [None]
    monkeypatch.setattr(endgame, "NODE_BUDGET", 10**7)
    assert solve()[0] is not None


def test_runfast_search_stops_at_its_sample_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # with all the time in the world a Run Fast decision uses at most SAMPLE_CAP sampled
    # deals (beyond it the search plays no better: docs/ai.md, thirteenth round)
    from cardavia.ai.expert import ExpertAgent
    from cardavia.ai.runner import play_out, runfast_deal

    def most_samples() -> int:
        agents = [ExpertAgent(s, budget_ms=1e6, hard_cap_ms=1e6) for s in range(3)]
        searched: list[int] = []
        play_out(runfast_deal(5), agents, lambda seat, obs, d, sec: searched.append(agents[seat].last_samples))
        return max(searched)

    assert most_samples() == rs.SAMPLE_CAP
    monkeypatch.setattr(rs, "SAMPLE_CAP", 7)
    assert most_samples() == 7


@pytest.mark.parametrize("seed", range(6))
def test_a_faithful_rollout_is_the_engines_deal_by_basic(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    # FAITHFUL_OTHERS / FAITHFUL_SELF: the rollout's seats make basic's own moves on rank
    # counts; with the searcher on basic's defaults too, a rollout from just after the
    # opening play is the engine's deal by three basic agents, settlement included
    from cardavia.ai.basic import BasicAgent
    from cardavia.ai.runfast import basic
    from cardavia.ai.runner import play_out, runfast_deal, take_turn
    from cardavia.rules.runfast.moves import rank_counts

    monkeypatch.setattr(rs, "FAITHFUL_OTHERS", 1)
    monkeypatch.setattr(rs, "FAITHFUL_SELF", 1)
    monkeypatch.setattr(rs, "START", basic.RfConfig())
    deal = runfast_deal(7300 + seed)
    agents = [BasicAgent(s) for s in range(3)]
    opener = deal.to_act()[0]
    take_turn(deal, opener, agents[opener])
    rcs = [rank_counts(deal.cnt[s]) for s in range(3)]
    turn, top, played = deal.to_act()[0], deal.top, list(deal.played_any)
    scores = play_out(deal, agents).settlement(deal.final_places())["scores"]
    for me in range(3):
        got = rs.rollout(
            [[] for _ in range(3)], [list(r) for r in rcs], turn, top, opener, 0, list(played), [], None,
            me, False,
        )
        assert got == scores[me], (seed, me)


def _rollout_from_start(seed: int, next_pick: int | None) -> float:
    """A rollout of Run Fast deal ``seed`` from its first lead by the leader (its next plan
    ``next_pick``; None: the default argument)."""
    from cardavia.ai.runner import runfast_deal
    from cardavia.rules.runfast.moves import rank_counts

    deal = runfast_deal(seed)
    rcs = [rank_counts(deal.cnt[s]) for s in range(3)]
    units = [rs.units_of(list(r)) for r in rcs]
    me = deal.to_act()[0]
    if next_pick is None:
        return rs.rollout(units, rcs, me, None, None, 0, [False] * 3, [], None, me, False)
    return rs.rollout(units, rcs, me, None, None, 0, [False] * 3, [], None, me, False, next_pick=next_pick)


def test_a_rollout_plays_the_searchers_chosen_next_plan() -> None:
    # NEXT_PLANS: the searcher's next rollout turn plays the plan it is told (0: the
    # policy's own play, so the rollout is the plain one); the other plans change the
    # outcome of some deals
    from cardavia.ai.runner import runfast_deal
    from cardavia.rules.runfast.moves import rank_counts

    changed = 0
    for seed in range(40):
        deal = runfast_deal(seed)
        rcs = [rank_counts(deal.cnt[s]) for s in range(3)]
        units = [rs.units_of(list(r)) for r in rcs]
        me = deal.to_act()[0]
        choices = rs.next_choices(units[me], rcs, None, me, 3)
        assert choices and choices[0] == rs.policy_choice(me, units[me], rcs, None, rs.MY_LEAD)[0]
        assert len(set(choices)) == len(choices)
        plain = _rollout_from_start(seed, None)
        assert _rollout_from_start(seed, 0) == plain
        changed += any(_rollout_from_start(seed, p) != plain for p in range(1, len(choices)))
    assert changed >= 5


def test_an_expert_with_next_plans_plays_whole_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    # NEXT_PLANS and FAITHFUL_OTHERS on: the search still plays whole deals through the
    # engine (every move checked by the rules), with searched decisions among them
    from cardavia.ai.expert import ExpertAgent
    from cardavia.ai.runner import play_out, runfast_deal

    monkeypatch.setattr(rs, "NEXT_PLANS", 3)
    monkeypatch.setattr(rs, "FAITHFUL_OTHERS", 1)
    agents = [ExpertAgent(s, max_samples=8) for s in range(3)]
    searched: list[int] = []
    for seed in range(2):
        deal = play_out(
            runfast_deal(7400 + seed), agents, lambda seat, obs, d, sec: searched.append(agents[seat].last_samples)
        )
        assert deal.over
    assert max(searched) == 8


def _rollout_after(
    rcs: list[list[int]], me: int, first: Pattern, pick: int, seen: list[tuple[int, Pattern | None]] | None
) -> float:
    """A rollout from the searcher's lead ``first`` (its next plan ``pick``)."""
    units = [rs.units_after(list(r), first) if s == me else rs.units_of(list(r)) for s, r in enumerate(rcs)]
    return rs.rollout(
        units, [list(r) for r in rcs], me, None, None, 0, [False] * 3, [], None, me, first, next_pick=pick, seen=seen
    )


def test_a_rollout_reports_what_the_searcher_sees_before_its_next_turn() -> None:
    # NEXT_INFOSETS: ``seen`` holds the other seats' moves between the searcher's first
    # move and its next turn, in seat order; it does not depend on the next plan (the
    # searcher cannot see its own later choice before making it), and watching does not
    # change the rollout's value
    from cardavia.ai.runner import runfast_deal
    from cardavia.rules.runfast.moves import rank_counts

    lengths: set[int] = set()
    for seed in range(30):
        deal = runfast_deal(seed)
        rcs = [rank_counts(deal.cnt[s]) for s in range(3)]
        me = deal.to_act()[0]
        first = rs.policy_choice(me, rs.units_of(list(rcs[me])), rcs, None, rs.MY_LEAD)[1]
        assert first is not None
        views: list[list[tuple[int, Pattern | None]]] = []
        for pick in range(3):
            seen: list[tuple[int, Pattern | None]] = []
            value = _rollout_after(rcs, me, first, pick, seen)
            assert value == _rollout_after(rcs, me, first, pick, None)
            views.append(seen)
        assert views[0] == views[1] == views[2], seed
        seats = [s for s, _ in views[0]]
        assert me not in seats
        assert seats == [(me + 1 + i) % 3 for i in range(len(seats))]  # each in turn, until me
        lengths.add(len(seats))
    assert lengths == {2}  # from a lead, both others move once before the searcher again


def test_an_expert_with_information_set_plans_plays_whole_deals(monkeypatch: pytest.MonkeyPatch) -> None:
    # NEXT_INFOSETS on: the cross-fitted choice of the next plan reduces the sampled rows
    # to one value a candidate; whole deals play through the engine
    from cardavia.ai.expert import ExpertAgent
    from cardavia.ai.runner import play_out, runfast_deal

    monkeypatch.setattr(rs, "NEXT_INFOSETS", 3)
    agents = [ExpertAgent(s, max_samples=8) for s in range(3)]
    searched: list[int] = []
    for seed in range(2):
        deal = play_out(
            runfast_deal(7500 + seed), agents, lambda seat, obs, d, sec: searched.append(agents[seat].last_samples)
        )
        assert deal.over
    assert max(searched) == 8


def test_faithful_endgame_gives_the_endgame_basics_own_moves(monkeypatch: pytest.MonkeyPatch) -> None:
    # FAITHFUL_ENDGAME: the exact endgame's other seats (policy_move) make basic's own move;
    # off, they follow the planned-unit policy, which differs from basic on some positions
    from cardavia.ai.runner import runfast_deal
    from cardavia.rules.runfast.moves import patterns_of_ranks, rank_counts

    differ = 0
    for seed in range(4):
        deal = runfast_deal(7400 + seed)
        rcs = [rank_counts(deal.cnt[s]) for s in range(3)]
        tops = [None, *[p for p in patterns_of_ranks(rcs[0]) if p.tier == 0][:12]]
        for top in tops:
            for seat in (1, 2):
                basic_move = rs.faithful_move(seat, rcs, top)
                monkeypatch.setattr(rs, "FAITHFUL_ENDGAME", 1)
                assert rs.policy_move(seat, rcs, top) == basic_move
                monkeypatch.setattr(rs, "FAITHFUL_ENDGAME", 0)
                unit_move = rs.policy_move(seat, rcs, top)
                assert unit_move == rs.policy_choice(seat, rs.units_of(list(rcs[seat])), rcs, top)[1]
                differ += unit_move != basic_move
    assert differ > 0  # the knob changes the endgame's model on these positions
