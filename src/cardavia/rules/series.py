"""A series of deals: a Guandan match (levels, tribute between deals) or a Run Fast session
(running totals). Both follow one protocol, so a table, self-play or a tournament drives
either without knowing which game it is.

A series is event-sourced like its deals: live play calls :meth:`Series.start_deal` and
:meth:`Series.finish_deal`; a rebuild from a stored log calls :meth:`Series.fold` with each
logged ``DealStarted`` (the deal's cards are in the event) and ``finish_deal`` after each
``DealEnded``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from cardavia.rules.events import DealStarted
from cardavia.rules.trick import TrickDeal

D_co = TypeVar("D_co", bound=TrickDeal, covariant=True)


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
