"""Legal moves from an observation, for agents (abstract patterns, then one concrete play)."""

from __future__ import annotations

from typing import Any

from cardavia.observation import Observation
from cardavia.rules.combo import Combo
from cardavia.rules.guandan import moves as gd_moves


def hand_counts(obs: Observation) -> list[int]:
    cnt = [0] * 54
    for c in obs.hand:
        cnt[c.code] += 1
    return cnt


def abstract_moves(obs: Observation, cnt: list[int] | None = None) -> list[Any]:
    """The abstract moves (patterns) the observing seat may play now; a pass is not included."""
    cnt = hand_counts(obs) if cnt is None else cnt
    if obs.game == "guandan":
        assert obs.level is not None
        return gd_moves.patterns(cnt, obs.level, obs.top)
    from cardavia.rules.runfast import moves as rf_moves

    return rf_moves.patterns(cnt, obs.top, obs.opening)


def to_combo(obs: Observation, pattern: Any, cnt: list[int] | None = None) -> Combo:
    """One concrete card choice for a pattern from :func:`abstract_moves`."""
    cnt = hand_counts(obs) if cnt is None else cnt
    if obs.game == "guandan":
        assert obs.level is not None
        return gd_moves.concretize(pattern, cnt, obs.level)
    from cardavia.rules.runfast import moves as rf_moves

    return rf_moves.concretize(pattern, cnt, obs.opening)
