"""A Run Fast session: deal after deal with a running total per seat (R-5.6). A
:class:`~cardavia.rules.series.Series`.

>>> session = RunFastSession(seed=1)
>>> deal = session.start_deal()
>>> session.totals, session.deal_count
([0, 0, 0], 1)
"""

from __future__ import annotations

from typing import Any

from cardavia.rules.errors import RulesError
from cardavia.rules.events import DealStarted
from cardavia.rules.runfast.deal import N_SEATS, RunFastDeal, deal_hands
from cardavia.rules.runfast.settlement import payment, unplayed_bombs
from cardavia.rules.series import SeriesBase


class RunFastSession(SeriesBase[RunFastDeal]):
    """Deal after deal with a running total per seat (R-5.6).

    Deals are numbered and shuffled as :class:`~cardavia.rules.series.SeriesBase` says.
    """

    def __init__(self, seed: int = 0, *, keep_finished: bool = True) -> None:
        super().__init__(seed, keep_finished=keep_finished)
        self.totals: list[int] = [0] * N_SEATS

    def start_deal(self, seed: int | None = None) -> RunFastDeal:
        """Deal the next deal (``seed`` overrides the derived one)."""
        shuffle = self._shuffle(seed)
        if self.deal is not None and self.deal is not self.last:
            raise RulesError("settle the finished deal with finish_deal() before the next one")
        hands, _ = deal_hands(shuffle)
        return self._dealt(RunFastDeal.start(hands, seed=shuffle, deal_index=self.deal_count))

    def fold(self, start: DealStarted) -> RunFastDeal:
        """Rebuild: begin the logged deal ``start``."""
        return self._dealt(RunFastDeal(start))

    def finish_deal(self) -> list[int]:
        """Add the finished current deal's scores to the running totals; return the scores."""
        deal = self.deal
        if deal is None or not deal.over or deal.result is None:
            raise RulesError("there is no finished deal to settle")
        if deal is self.last:
            raise RulesError("this deal is already settled into the totals")
        scores = [int(x) for x in deal.result["scores"]]
        self.totals = [t + s for t, s in zip(self.totals, scores, strict=True)]
        self._settled(deal)
        return scores

    def _reset_scores(self) -> None:
        """A new session (:meth:`restart`): totals back to 0."""
        self.totals = [0] * N_SEATS

    def to_json(self) -> dict[str, Any]:
        """The running totals and the last settlement, with each loser's payment explained."""
        last: dict[str, Any] | None = None
        if self.last is not None:
            deal = self.last
            result = deal.result or {}
            last = {
                "deal": deal.deal_index,
                "winner": result.get("winner"),
                "scores": list(result.get("scores", [])),
                "bomb_bonuses": list(result.get("bomb_bonuses", [])),
                "never_played": list(result.get("never_played", [])),
                "lines": settlement_lines(deal),
            }
        return {"totals": list(self.totals), "last_settlement": last}


def settlement_lines(deal: RunFastDeal) -> list[dict[str, Any]]:
    """Per losing seat, what it paid and why (R-5.1 – R-5.3): the cards it still held are
    public once the deal is over."""
    result = deal.result or {}
    winner = result.get("winner")
    never = set(result.get("never_played", []))
    lines: list[dict[str, Any]] = []
    for seat in range(deal.n_seats):
        if seat == winner:
            continue
        hand = deal.hand(seat)
        lines.append(
            {
                "seat": seat,
                "cards_left": len(hand),
                "never_played": seat in never,
                "holds_2s": any(str(c) == "2s" for c in hand),
                "unplayed_bombs": unplayed_bombs(hand),
                "pays": payment(hand, seat in never),
            }
        )
    return lines
