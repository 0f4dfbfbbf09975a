"""A table's AI seats: the request an AI turn makes (picklable, so the choice can be
worked out in another process) and the functions that turn it into a decision or a hint."""

from __future__ import annotations

import logging
from dataclasses import dataclass

from cardavia.ai.base import Agent, Decision, ReturnDecision
from cardavia.ai.difficulty import agent_for
from cardavia.cards import card_strings
from cardavia.rules.observation import Observation
from cardavia.rules.trick import PHASE_TRIBUTE
from cardavia.table.actions import Hint

log = logging.getLogger("cardavia.table")


@dataclass(frozen=True, slots=True)
class AiRequest:
    """An AI seat's turn as :meth:`Table.ai_request` describes it (it pickles)."""

    seat: int
    difficulty: str
    seed: int
    observation: Observation
    #: the table's seq when it was asked (:meth:`Table.apply_ai` refuses a stale one)
    seq: int


def decide(difficulty: str, seed: int, obs: Observation) -> Decision | ReturnDecision:
    """What the agent of ``difficulty`` seeded with ``seed`` chooses from ``obs`` alone (a
    return card in the tribute phase). A module-level function of picklable arguments: it
    runs in an AI worker process as well as here."""
    agent: Agent = agent_for(difficulty, seed)
    if obs.phase == PHASE_TRIBUTE:
        return agent.choose_return(obs)
    return agent.act(obs)


def decide_safely(difficulty: str, seed: int, obs: Observation) -> Decision | ReturnDecision | None:
    """:func:`decide`, or None when the agent fails (logged): the caller plays a random
    legal move instead."""
    try:
        return decide(difficulty, seed, obs)
    except Exception:
        log.exception("the %s agent failed at seat %s; playing a random move", difficulty, obs.seat)
        return None


def hint_of(decision: Decision | ReturnDecision) -> Hint:
    """The hint that shows ``decision``."""
    if isinstance(decision, ReturnDecision):
        why = decision
        return Hint((str(decision.card),), None, False, why.reason, why.reason_key, dict(why.reason_args))
    combo = decision.combo
    if combo is None:
        return Hint(None, None, True, decision.reason, decision.reason_key, dict(decision.reason_args))
    return Hint(
        tuple(card_strings(combo.cards)), combo.to_json(), False, decision.reason,
        decision.reason_key, dict(decision.reason_args),
    )
