"""The Guandan expert's issue-15 fixes: hand-shaped samples, short-opponent leads, the
highest reply as a block, whole bombs."""

from __future__ import annotations

import math
import random
from collections import defaultdict

import pytest

from cardavia.ai import make_agent
from cardavia.ai.guandan import search as gd_search
from cardavia.ai.guandan.plan import best_plan
from cardavia.ai.guandan.shape import deal_shaped
from cardavia.ai.runner import guandan_deal, take_turn
from cardavia.cards import counts, parse_cards
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.guandan.moves import patterns, rank_counts


def _shapes(deals: int) -> dict[str, dict[int, list[tuple[bool, bool]]]]:
    """(one play, holds a bomb) of real short hands in basic self-play, and of the shaped
    and the random sampler's hands for the same seats from the observer's view."""
    rng = random.Random(5)
    out: dict[str, dict[int, list[tuple[bool, bool]]]] = {
        k: defaultdict(list) for k in ("real", "shaped", "random")
    }

    def shape(cnt: list[int], level: int) -> tuple[bool, bool]:
        rc, w = rank_counts(cnt, level)
        plan = best_plan(rc, w, level)
        return plan.plays == 1, any(u.is_bomb for u in plan.units)

    for d in range(deals):
        seen: set[tuple[int, int]] = set()  # each real hand once (seat, count)
        deal = guandan_deal(7000 + d)
        agents = [make_agent("basic", s) for s in range(4)]
        while not deal.over:
            seat = deal.to_act()[0]
            obs = deal.observation(seat)
            assert obs.level is not None
            tracked = gd_search.track(obs)
            for s in range(4):
                n = obs.hand_sizes[s]
                if s == seat or not 1 < n <= 12 or (s, n) in seen:
                    continue
                seen.add((s, n))
                out["real"][n].append(shape(counts(deal.observation(s).hand), obs.level))
                for key, strength in (("shaped", 1.0), ("random", 0.0)):
                    h = deal_shaped(seat, obs.hand_sizes, tracked.unseen, tracked.known, rng, obs.level, strength)
                    assert sum(h[s]) == n
                    out[key][n].append(shape(h[s], obs.level))
            take_turn(deal, seat, agents[seat])
    return out


def _rate(rows: dict[int, list[tuple[bool, bool]]], sizes: range, j: int) -> float:
    flat = [r[j] for n in sizes for r in rows[n]]
    return sum(flat) / len(flat)


def test_sampled_short_hands_keep_pairs_and_bombs_at_the_self_play_rate() -> None:
    shapes = _shapes(40)
    real, shaped, rand = shapes["real"], shapes["shaped"], shapes["random"]
    assert len(real[2]) > 50
    # an opponent on 2 cards: a pair about half the time (self-play), and so in the samples
    assert abs(_rate(shaped, range(2, 3), 0) - _rate(real, range(2, 3), 0)) < 0.15
    assert _rate(rand, range(2, 3), 0) < _rate(real, range(2, 3), 0) - 0.2  # random cards: far fewer
    # 4–12 cards: bombs are kept
    assert abs(_rate(shaped, range(4, 13), 1) - _rate(real, range(4, 13), 1)) < 0.15
    assert _rate(rand, range(4, 13), 1) < _rate(real, range(4, 13), 1) - 0.25


def test_shaped_deal_keeps_counts_known_cards_and_the_unseen_multiset() -> None:
    unseen = [0] * 54
    pool = parse_cards("3s 3d 3c 3h 5s 5d 7c 8c 9c Tc Jc Qs Ks As BJ RJ 4d 4c 6h 6d")
    for c in pool:
        unseen[c.code] += 1
    known_code = parse_cards("RJ")[0].code
    rng = random.Random(3)
    for _ in range(200):
        hands = deal_shaped(0, [5, 4, 2, 14], unseen, {3: [known_code]}, rng, 2)
        assert [sum(hands[s]) for s in (1, 2, 3)] == [4, 2, 14]
        assert hands[3][known_code] >= 1
        total = [hands[1][c] + hands[2][c] + hands[3][c] for c in range(54)]
        assert total == unseen


def _lead_into_a_short_opponent(opponent: str) -> GuandanDeal:
    """Seat 0 to lead; seat 1 (an opponent) holds ``opponent``."""
    hands = [
        parse_cards("3s 4d 4c 6s 6d 6c 8c 9c 9d Jd Qs Ks"),
        parse_cards(opponent),
        parse_cards("5s 5d 7s 7d 8s 8d Ts Td"),
        parse_cards("2s 3c 5c 6h 7c 9s Tc Jc Qc Kc"),
    ]
    return GuandanDeal.start(hands, 2, leader=0)


def test_no_small_single_or_pair_led_into_a_two_card_opponent() -> None:
    from cardavia.ai.expert import ExpertAgent

    deal = _lead_into_a_short_opponent("Ah Ad")
    for seed in range(6):
        d = ExpertAgent(seed, budget_ms=1e6, hard_cap_ms=1e6, max_samples=24).act(deal.observation(0))
        assert d.combo is not None and d.combo.size > 2, d.reason


def test_best_bomb_does_not_split_a_longer_bomb() -> None:
    # six queens and four 5s: the bomb candidate is the whole 4×5 bomb, never 4 of 6 queens
    cnt = counts(parse_cards("Qs Qd Qc Qh Qs Qd 5s 5d 5c 5h 8c 9d"))
    rc, w = rank_counts(cnt, 2)
    top = patterns(counts(parse_cards("Ks Kd Kc")), 2)[0]
    for p in patterns(counts(parse_cards("Ks Kd Kc")), 2):
        if p.size == 3:
            top = p
    moves = patterns(cnt, 2, top)
    bomb = gd_search._best_bomb(moves, rc, w, 2)
    assert bomb is not None and bomb.tier > 0
    assert dict(bomb.slots).get(12, 0) in (0, 6)


def test_endgame_solver_finds_the_forced_win() -> None:
    from cardavia.ai.guandan.endgame import solve, solve_each

    # seat 0 leads: the pair of aces holds the trick, then the 4 goes out; the partner's
    # pair of 9s beats the opponents' 5 and 6 after splitting (2 levels). Leading the 4
    # first lets an opponent go out.
    hands = [counts(parse_cards(h)) for h in ("As Ah 4s", "5s", "9s 9d", "6s")]
    moves = patterns(hands[0], 2)
    values = dict(zip(
        (m.describe() for m in moves),
        solve_each(hands, 2, turn=0, top=None, top_seat=None, passes=0, places=[], me=0, firsts=moves),
        strict=True,
    ))
    assert values == {"single 4": -1.5, "single A": 2.0, "pair A": 2.0}
    # the opponents' view of the same deal is the negation
    assert solve(hands, 2, turn=0, top=None, top_seat=None, passes=0, places=[], me=1) == -2.0
    # a position too big for the node budget gives up (the search then rolls out)
    big = [counts(parse_cards(h)) for h in (
        "3s 4s 5s 6s 7d 9s 9d Js", "3d 4d 5d 6d 8s Ts Td Qs", "3c 4c 5c 7s 8d Tc Jd Qd", "3h 4h 6c 7c 8c 9c Jc Qc",
    )]
    assert solve(big, 2, turn=0, top=None, top_seat=None, passes=0, places=[], me=0, budget=50) is None


def test_no_low_full_house_led_into_a_five_card_opponent() -> None:
    from cardavia.ai.expert import ExpertAgent
    from cardavia.rules.guandan.deal import GuandanDeal

    # seat 0's weakest planned play is the full house 4-4-4 + 3-3; the opponent on seat 1
    # holds 5 cards (its usual way out is one 5-card play)
    mine = parse_cards("4s 4d 4c 3s 3d 7s 8d Ts Jd Qs Kd")
    rc, w = rank_counts(counts(mine), 2)
    assert "full_house 4" in [u.describe() for u in best_plan(rc, w, 2).units]
    hands = [
        mine,
        parse_cards("9s 9d 9c 6s 6d"),
        parse_cards("5s 5d 7c 8c 9h Tc Td Jc Qc Kc"),
        parse_cards("2s 3c 5c 6h 7d 8s Th Jh Qh Kh"),
    ]
    deal = GuandanDeal.start(hands, 2, leader=0)
    for seed in range(4):
        d = ExpertAgent(seed, budget_ms=1e6, hard_cap_ms=1e6, max_samples=24).act(deal.observation(0))
        assert d.combo is not None and not (d.combo.size == 5 and d.combo.type.value == "full_house"), d.reason


def test_sampled_plans_are_the_plans_of_the_sampled_hands() -> None:
    # passes on low singles make most tries contradicted: whichever sample is returned,
    # the planned plays handed to the rollouts are exactly that sample's shaped hands
    from cardavia.rules.guandan.deal import GuandanDeal

    hands = [
        parse_cards("9s 3s 4s 6c 7c"),
        parse_cards("5d 6d 7d 8d 9d"),
        parse_cards("3c 4c 5c Td Jd"),
        parse_cards("Kd 8c 8h Ah As"),
    ]
    deal = GuandanDeal.start(hands, 2, leader=0)
    deal.play(0, "3s")
    deal.pass_turn(1)
    deal.pass_turn(2)
    deal.pass_turn(3)
    obs = deal.observation(0)
    tracked = gd_search.track(obs)
    rng = random.Random(2)
    for _ in range(100):
        plans: dict[int, list[object]] = {}
        sample = gd_search.sample_hands(
            0, obs.hand_sizes, tracked.unseen, tracked.known, rng, tracked.no_reply, 2, 1.0, plans  # type: ignore[arg-type]
        )
        for s, units in plans.items():
            rc, w = rank_counts(sample[s], 2)
            got = [0] * 17
            for u in units:
                for r, n in u.slots:  # type: ignore[attr-defined]
                    got[r] += n
            # every natural card is in a planned play; the wilds fill the other slots
            assert sum(u.wilds for u in units) == w  # type: ignore[attr-defined]
            assert all(got[r] >= rc[r] for r in range(17)), (s, units, sample[s])
            assert sum(got) == sum(sample[s]) == obs.hand_sizes[s]


def test_guandan_search_stops_at_its_sample_cap(monkeypatch: pytest.MonkeyPatch) -> None:
    # with all the time in the world a Guandan decision still uses at most SAMPLE_CAP
    # sampled deals (more let the rollouts' bias through the gate: docs/ai.md, twelfth round)
    from cardavia.ai.expert import ExpertAgent

    deal = _lead_into_a_short_opponent("Ah Ad 7h 8h")  # four cards: the lead is searched
    expert = ExpertAgent(3, budget_ms=1e6, hard_cap_ms=1e6)
    expert.act(deal.observation(0))
    assert expert.last_samples == gd_search.SAMPLE_CAP
    monkeypatch.setattr(gd_search, "SAMPLE_CAP", 7)
    expert.act(deal.observation(0))
    assert expert.last_samples == 7
    capped = ExpertAgent(3, budget_ms=1e6, hard_cap_ms=1e6, max_samples=5)
    capped.act(deal.observation(0))
    assert capped.last_samples == 5  # the smaller of the agent's and the game's limits


def test_alternative_leads_come_from_other_splits_of_the_hand() -> None:
    """The planner's alternatives (``ALT_LEADS``): plain leads that are not units of the plan,
    legal, best first by the score of the best plan holding them, none already taken."""
    cnt = counts(parse_cards("3h 3s 4h 5d 6c 7s 7d 9s 9h 9d Jc"))
    rc, w = rank_counts(cnt, 2)
    plan = best_plan(rc, w, 2)
    own = {(u.type, u.rank, u.size) for u in plan.units}
    legal = set(patterns(cnt, 2, None))
    alts = gd_search.alternative_leads(cnt, 2, plan, [], 3)
    assert len(alts) == 3
    for m in alts:
        assert m in legal and m.tier == 0
        assert (m.type, m.rank, m.size) not in own
    scores = [
        gd_search._lead_value(m) + best_plan(*_rest(rc, w, m), 2).score - 0.15 * m.wilds for m in alts
    ]
    assert scores == sorted(scores, reverse=True)
    # a lead already among the candidates is not offered again
    again = gd_search.alternative_leads(cnt, 2, plan, [alts[0]], 3)
    assert alts[0] not in again and again[:2] == alts[1:]


def _rest(rc: list[int], w: int, m: object) -> tuple[list[int], int]:
    from cardavia.ai.guandan.plan import remove_pattern
    from cardavia.rules.combo import Pattern

    assert isinstance(m, Pattern)
    return remove_pattern(rc, w, m.slots)


def _engine_best_reply(deal: GuandanDeal, me: int, level: int, policy: object, own: object) -> float:
    """``me``'s best value on the engine's own deal when the other seats play ``policy``
    (its moves concretized on their true cards) and ``me`` tries the plays ``own`` offers."""
    import copy

    from cardavia.ai.guandan.value import PLAIN, outcome, value_for
    from cardavia.rules.guandan.moves import concretize

    assert callable(policy) and callable(own)
    result = outcome(deal.places)
    if result is not None:
        return value_for(PLAIN, result, me)
    seat = deal.to_act()[0]
    hands = [counts(deal.hand(s)) for s in range(4)]
    top_seat = deal.observation(seat).top_seat
    if seat != me:
        move = policy(seat, hands, deal.top, top_seat)
        child = copy.deepcopy(deal)
        if move is None:
            child.pass_turn(seat)
        else:
            child.play_combo(seat, concretize(move, hands[seat], level))
        return _engine_best_reply(child, me, level, policy, own)
    options: list[object] = [*own(hands[me], deal.top)]
    if deal.top is not None:
        options.append(None)
    best = -math.inf
    for move in options:
        child = copy.deepcopy(deal)
        if move is None:
            child.pass_turn(me)
        else:
            from cardavia.rules.combo import Pattern

            assert isinstance(move, Pattern)
            child.play_combo(me, concretize(move, hands[me], level))
        best = max(best, _engine_best_reply(child, me, level, policy, own))
    return best


def test_policy_solve_is_the_engines_best_reply_to_the_policy() -> None:
    """The policy endgame (``POLICY_CARDS``): real deals played by ``basic`` until few cards
    are in play; the solver's value of every legal first move, with the other three seats on
    the rollout policy and every legal play of ``me`` tried, equals the same search on the
    engine's own deal (its trick ends, G-4, finishing places and values, G-6); ``me``'s later
    plays are those the expert tries (:func:`own_moves_for`)."""
    import copy

    from cardavia.ai.guandan.endgame import solve_each
    from cardavia.ai.search import trailing_passes
    from cardavia.rules.combo import Pattern
    from cardavia.rules.guandan.moves import concretize

    checked = differ = 0
    for seed in range(200):
        deal = guandan_deal(9400 + seed)
        agents = [make_agent("basic", s) for s in range(4)]
        while not deal.over and sum(deal.size) > 14:
            take_turn(deal, deal.to_act()[0], agents[deal.to_act()[0]])
        if deal.over or outcome_decided(deal):
            continue
        me = deal.to_act()[0]
        obs = deal.observation(me)
        assert obs.level is not None
        level = obs.level
        policy = gd_search.policy_for(level, me)
        own = gd_search.own_moves_for(level)
        hands = [counts(deal.hand(s)) for s in range(4)]
        firsts: list[Pattern | None] = [*patterns(hands[me], level, deal.top)]
        if deal.top is not None:
            firsts.append(None)
        got = solve_each(
            hands, level, turn=me, top=deal.top, top_seat=obs.top_seat, passes=trailing_passes(obs),
            places=list(deal.places), me=me, firsts=firsts, budget=10**7, policy=policy,
            own_moves=own,
        )
        for move, value in zip(firsts, got, strict=True):
            child = copy.deepcopy(deal)
            if move is None:
                child.pass_turn(me)
            else:
                child.play_combo(me, concretize(move, hands[me], level))
            assert value == _engine_best_reply(child, me, level, policy, own), (seed, move)
        checked += 1
        differ += len(set(got)) > 1
        if checked >= 6 and differ >= 2:
            break
    assert checked >= 6 and differ >= 2


def outcome_decided(deal: GuandanDeal) -> bool:
    from cardavia.ai.guandan.value import outcome

    return outcome(deal.places) is not None


def test_faithful_opponents_play_basics_moves_and_keep_their_cards_counted() -> None:
    # FAITHFUL_OPPONENTS: an opponent's rollout turn is basic's own move on its sampled
    # cards (the engine's basic agent makes the same play from the same hand), and the
    # cards it plays leave its count array, so a whole rollout ends with every opponent's
    # count array holding exactly its hand size
    from cardavia.ai.basic import BasicAgent
    from cardavia.ai.guandan import search as gs
    from cardavia.ai.runner import guandan_deal, take_turn
    from cardavia.ai.search import trailing_passes
    from cardavia.ai.tracking import same_turn
    from cardavia.cards import counts
    from cardavia.rules.observation import observation

    for seed in range(6):
        deal = guandan_deal(9300 + seed)
        agents = [BasicAgent(s) for s in range(4)]
        for _ in range(30):
            seat = deal.to_act()[0]
            obs = observation(deal, seat)
            assert obs.level is not None
            cnt = counts(obs.hand)
            got = gs.opponent_move(seat, cnt, obs.level, obs.hand_sizes, obs.top, obs.top_seat)
            take_turn(deal, seat, agents[seat])
            seen = observation(deal, seat).history[-1]
            assert seen[0] == seat
            assert same_turn(None if got is None else got.pattern, seen[1]), seed
            assert sum(cnt) == len(obs.hand) - (0 if got is None else got.size)
        me = deal.to_act()[0]
        obs = observation(deal, me)
        assert obs.level is not None
        hands = [counts(deal.hand(s)) for s in range(4)]
        sizes = [sum(h) for h in hands]
        units = [gs.units_of(h, obs.level) for h in hands]
        value = gs.rollout(
            units, sizes, me, obs.top, obs.top_seat, trailing_passes(obs), list(obs.places), me, False,
            hands=hands, level=obs.level,
        )
        assert -4.0 <= value <= 4.0
        for s in (me + 1) % 4, (me + 3) % 4:
            assert sum(hands[s]) == sizes[s]
