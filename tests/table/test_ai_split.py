"""The AI's turn split in two: the choice (from the seat's observation only, in any
process) and its application on the table. Driven through the split, a table plays exactly
as through :meth:`Table.step_ai`."""

from __future__ import annotations

import dataclasses
import pickle
from typing import Any

import pytest

from cardavia.ai.base import Decision
from cardavia.table import ActionError, AiRequest, NextDeal, Resign, Table, TableConfig, decide, decide_safely, hint_of
from tests.server.ws_client import choose, must_act
from tests.table.test_table import _act


def _play(table: Table, deals: int, seed: int, step: Any) -> None:
    for index in range(deals):
        while True:
            while step(table):
                pass
            if table.deal.over:
                break
            obs = table.observation(0).to_json()
            assert must_act(obs)
            _act(table, choose(obs, seed))
        if index < deals - 1:
            table.apply_action(0, NextDeal())


def _split_step(requests: list[AiRequest]) -> Any:
    def step(table: Table) -> bool:
        request = table.ai_request()
        if request is None:
            return False
        # everything crosses a process boundary as it would to an AI worker
        shipped: AiRequest = pickle.loads(pickle.dumps(request))
        decision = pickle.loads(pickle.dumps(decide_safely(shipped.difficulty, shipped.seed, shipped.observation)))
        requests.append(request)
        return bool(table.apply_ai(request, decision))

    return step


@pytest.mark.parametrize("game", ["guandan", "runfast"])
def test_the_split_plays_exactly_like_step_ai(game: str) -> None:
    config = TableConfig.preset(game, 11, "normal", "normal")
    whole = Table.create(config)
    _play(whole, 3, 11, lambda t: bool(t.step_ai()))
    requests: list[AiRequest] = []
    split = Table.create(config)
    _play(split, 3, 11, _split_step(requests))
    assert [e.event for e in split.log] == [e.event for e in whole.log]
    kinds = {r.observation.phase for r in requests}
    assert "play" in kinds and (game == "runfast" or "tribute" in kinds), kinds


def test_a_request_holds_the_seats_observation_only() -> None:
    table = Table.create(TableConfig.preset("guandan", 5, "normal", "expert"))
    request = table.ai_request()
    assert request is not None
    assert [f.name for f in dataclasses.fields(AiRequest)] == ["seat", "difficulty", "seed", "observation", "seq"]
    assert request.observation == table.observation(request.seat)
    assert request.difficulty == table.config.seats[request.seat].difficulty
    # no other seat's card is anywhere in what is shipped
    text = repr(pickle.loads(pickle.dumps(request)))
    for seat in range(table.n_seats):
        if seat != request.seat:
            others = set(map(str, table.deal.hand(seat))) - set(map(str, table.deal.hand(request.seat)))
            assert not any(f"Card({c!r})" in text for c in others)
    assert set(request.observation.hand) == set(table.deal.hand(request.seat))


def test_a_stale_request_is_refused_and_a_failed_agent_plays_a_random_move() -> None:
    table = Table.create(TableConfig.preset("runfast", 2, "random", "random"))
    table.run_ai()
    obs = table.observation(0).to_json()
    _act(table, choose(obs, 2))
    request = table.ai_request()
    assert request is not None
    entries = table.apply_ai(request, None)  # the agent failed: a random legal move
    assert entries and entries[0].event.get("seat") == request.seat
    with pytest.raises(RuntimeError, match="stale"):
        table.apply_ai(request, decide(request.difficulty, request.seed, request.observation))


def test_an_illegal_decision_falls_back_to_a_legal_move() -> None:
    for seed in range(20):
        table = Table.create(TableConfig.preset("runfast", seed, "random", "random"))
        request = table.ai_request()
        if request is not None and request.observation.top is None:
            break
    else:
        raise AssertionError("in 20 seeds no AI seat led the first trick")
    entries = table.apply_ai(request, Decision(None))  # passing when leading is illegal
    assert [e.kind for e in entries] == ["played"]


def test_hint_is_the_strongest_agents_choice_from_the_seats_observation() -> None:
    table = Table.create(TableConfig.preset("guandan", 7, "random", "random"))
    table.run_ai()
    seed, obs = table.hint_request(0)
    assert obs == table.observation(0) and seed == table.hint_request(0)[0]
    # the deterministic planner's choice, shown as a hint (the expert's search is
    # time-boxed, so two of its runs may differ)
    decision = decide("normal", seed, obs)
    assert isinstance(decision, Decision)
    hint = hint_of(decision)
    if decision.combo is None:
        assert hint.is_pass and hint.cards is None and hint.reason_key == decision.reason_key
    else:
        assert hint.combo == decision.combo.to_json() and not hint.is_pass
        assert hint.cards is not None and set(hint.cards) <= {str(c) for c in obs.hand}
    served = table.hint(0)
    assert served.is_pass or (served.cards is not None and set(served.cards) <= {str(c) for c in obs.hand})
    table.apply_action(0, Resign())
    with pytest.raises(ActionError):
        table.hint_request(0)
