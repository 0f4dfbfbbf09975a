"""A series of deals: a Guandan match (levels, tribute between deals) or a Run Fast session
(running totals). Both follow one protocol, so a table, self-play or a tournament drives
either without knowing which game it is.

A series is event-sourced like its deals: live play calls :meth:`Series.start_deal` and
:meth:`Series.finish_deal`; a rebuild from a stored log calls :meth:`Series.fold` with each
logged ``DealStarted`` (the deal's cards are in the event) and ``finish_deal`` after each
``DealEnded``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, Generic, Protocol, TypeVar

from cardavia.rules.errors import RulesError
from cardavia.rules.events import DealStarted
from cardavia.rules.seeds import deal_seed
from cardavia.rules.trick import TrickDeal

D_co = TypeVar("D_co", bound=TrickDeal, covariant=True)
D = TypeVar("D", bound=TrickDeal)


class Series(Protocol[D_co]):
    """What every game's match or session offers."""

    seed: int
    deal_count: int

    @property
    def deal(self) -> D_co | None:
        """The current deal (the last one dealt), if any."""
        ...

    @property
    def finished(self) -> Sequence[D_co]:
        """The finished deals since the (re)start (only the last with ``keep_finished=False``)."""
        ...

    @property
    def last(self) -> D_co | None:
        """The last settled deal since the (re)start."""
        ...

    def start_deal(self, seed: int | None = None) -> D_co:
        """Deal the next deal (its shuffle seed from :func:`cardavia.rules.seeds.deal_seed`
        unless ``seed`` is given)."""
        ...

    def finish_deal(self) -> Any:
        """Settle the finished current deal into the series (levels or totals)."""
        ...

    def restart(self) -> None:
        """Discard the current deal and reset the series (G-1.7; a new Run Fast session)."""
        ...

    def fold(self, start: DealStarted) -> D_co:
        """Rebuild: begin the deal that the logged ``start`` opens (tribute included)."""
        ...

    def to_json(self) -> dict[str, Any]:
        """The series' public state for a table frame (levels or totals, last settlement)."""
        ...


class SeriesBase(ABC, Generic[D]):
    """The bookkeeping both series share: deal numbering and shuffle seeds, the finished
    deals, restarts. A game's series adds its scores (levels, totals) through
    :meth:`_reset_scores`, and deals with :meth:`_shuffle` and :meth:`_settled`.

    Deal ``i`` of a series with seed ``S`` is dealt from :func:`~cardavia.rules.seeds.deal_seed`
    (``S``, ``i``, restarts so far). ``keep_finished=False`` keeps only the last finished
    deal in :attr:`finished` (a server whose log is stored elsewhere: memory stays flat).
    """

    def __init__(self, seed: int = 0, *, keep_finished: bool = True) -> None:
        self.seed = seed
        self.keep_finished = keep_finished
        self.deal_count = 0
        self.restarts = 0
        self.deal: D | None = None
        self.finished: list[D] = []
        self.last: D | None = None

    @staticmethod
    def deal_seed(series_seed: int, index: int) -> int:
        """The shuffle seed of deal ``index`` (see :mod:`cardavia.rules.seeds`)."""
        return deal_seed(series_seed, index)

    def _shuffle(self, seed: int | None) -> int:
        """The next deal's shuffle seed (``seed`` if given); refused while a deal is on."""
        if self.deal is not None and not self.deal.over:
            raise RulesError("the current deal is not over yet")
        return deal_seed(self.seed, self.deal_count, round=self.restarts) if seed is None else seed

    def _dealt(self, deal: D) -> D:
        """``deal`` is the current deal, the next one is numbered after it."""
        self.deal = deal
        self.deal_count = deal.deal_index + 1
        return deal

    def _settled(self, deal: D) -> None:
        """``deal`` is finished and settled into the series."""
        if not self.keep_finished:
            self.finished.clear()
        self.finished.append(deal)
        self.last = deal

    @abstractmethod
    def _reset_scores(self) -> None:
        """Back to the scores of a new series (levels 2, totals 0)."""

    def restart(self) -> None:
        """A new series: scores reset, the current deal discarded, deals numbered from 0."""
        self._reset_scores()
        self.deal = None
        self.deal_count = 0
        self.restarts += 1
        self.finished.clear()
        self.last = None
