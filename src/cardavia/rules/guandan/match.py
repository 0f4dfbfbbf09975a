"""A Guandan match (G-1): team levels, the level each deal is played at, tribute between
deals, the match won at A. A :class:`~cardavia.rules.series.Series`.

>>> match = GuandanMatch(seed=7)
>>> deal = match.start_deal()
>>> str(deal.phase), deal.level, deal.deal_index
('play', 2, 0)
"""

from __future__ import annotations

from typing import Any

from cardavia.cards import Rank
from cardavia.rules.errors import RulesError
from cardavia.rules.events import DealStarted
from cardavia.rules.guandan.deal import GuandanDeal, deal_hands
from cardavia.rules.guandan.levels import DealSettlement
from cardavia.rules.guandan.levels import settle_deal as settle_deal  # the old home of settle_deal
from cardavia.rules.guandan.tribute import plan_tribute
from cardavia.rules.series import SeriesBase


class GuandanMatch(SeriesBase[GuandanDeal]):
    """A level-based match (G-1): team levels, deal levels, tribute between deals.

    Deals are numbered and shuffled as :class:`~cardavia.rules.series.SeriesBase` says.
    After a match win the next :meth:`start_deal` begins a new match; its deals go on being
    numbered (a restart by a player, G-1.7, numbers from 0 again).
    """

    def __init__(self, seed: int = 0, *, keep_finished: bool = True) -> None:
        super().__init__(seed, keep_finished=keep_finished)
        self.levels: list[int] = [2, 2]
        self.deal_level = 2
        self.previous_places: tuple[int, ...] | None = None
        self.match_winner: int | None = None

    def _new_match_after_win(self) -> None:
        if self.match_winner is not None:
            self._reset_levels()
            self.last = None

    def start_deal(self, seed: int | None = None) -> GuandanDeal:
        """Deal the next deal of the match (a new match after a match win)."""
        shuffle = self._shuffle(seed)
        self._new_match_after_win()
        hands, first_leader = deal_hands(shuffle)
        levels = (self.levels[0], self.levels[1])
        if self.previous_places is None:
            deal = GuandanDeal.start(
                hands, self.deal_level, seed=shuffle, deal_index=self.deal_count,
                team_levels=levels, leader=first_leader,
            )
        else:
            deal = GuandanDeal.start(
                hands, self.deal_level, seed=shuffle, deal_index=self.deal_count,
                team_levels=levels, previous_places=self.previous_places,
            )
        return self._dealt(deal)

    def fold(self, start: DealStarted) -> GuandanDeal:
        """Rebuild: begin the logged deal ``start`` (its tribute plan from the last places)."""
        self._new_match_after_win()
        deal = GuandanDeal(start)
        if start.leader is None and self.previous_places is not None:
            deal.plan = plan_tribute(self.previous_places, start.hands, deal.level)
        return self._dealt(deal)

    def finish_deal(self) -> DealSettlement:
        """Record the finished current deal and move the levels (G-1.3 – G-1.6)."""
        deal = self.deal
        if deal is None or not deal.over:
            raise RulesError("there is no finished deal to settle")
        s = deal.settle(deal.places)
        self.levels = list(s.levels)
        self.deal_level = s.next_level
        self.previous_places = tuple(deal.places)
        self.match_winner = s.match_winner
        self._settled(deal)
        return s

    def _reset_levels(self) -> None:
        self.levels = [2, 2]
        self.deal_level = 2
        self.previous_places = None
        self.match_winner = None

    def _reset_scores(self) -> None:
        """G-1.7 (:meth:`restart`): both teams back to 2."""
        self._reset_levels()

    def to_json(self) -> dict[str, Any]:
        """Levels, the current deal's level, the match winner and the last settlement."""
        last: dict[str, Any] | None = None
        if self.last is not None:
            deal = self.last
            result = deal.result or {}
            last = {
                "deal": deal.deal_index,
                "places": list(deal.places),
                "winner_team": result.get("winner_team"),
                "advance": result.get("advance"),
                "levels": [Rank(x).symbol for x in result.get("levels", [])],
                "next_level": Rank(result["next_level"]).symbol if "next_level" in result else None,
                "match_winner": result.get("match_winner"),
            }
        level = self.deal.level if self.deal is not None else self.deal_level
        return {
            "levels": [Rank(x).symbol for x in self.levels],
            "deal_level": Rank(level).symbol,
            "match_winner": self.match_winner,
            "last_settlement": last,
        }
