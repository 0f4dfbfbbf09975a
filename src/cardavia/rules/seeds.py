"""The one derivation of shuffle seeds from a match's (or session's) seed.

Tables, ``cardavia selfplay`` and tournaments all deal deal ``index`` of a series with seed
``S`` from :func:`deal_seed`, so a finished web game is reproduced by ``cardavia selfplay
--seed S``. The seed is hashed: the seeds published in finished deals' records give away
nothing about later deals (a linear formula would).

>>> deal_seed(7, 0) != deal_seed(7, 1), 0 <= deal_seed(7, 0) < 2**63
(True, True)
>>> deal_seed(7, 0) == deal_seed(7, 0, round=0) != deal_seed(7, 0, round=1)
True
"""

from __future__ import annotations

import hashlib


def deal_seed(series_seed: int, index: int, *, round: int = 0) -> int:
    """The shuffle seed of deal ``index`` of a series; ``round`` counts restarts (G-1.7), so
    a restarted match deals fresh cards although its deals are numbered from 0 again."""
    key = f"cardavia-deal:{series_seed}:{index}" if round == 0 else f"cardavia-deal:{series_seed}:r{round}:{index}"
    digest = hashlib.sha256(key.encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def decision_seed(series_seed: int, deal_index: int, plays: int, seat: int, tribute: bool) -> int:
    """A seed for one AI decision, a function of the game position only (deal, plays so far,
    seat, phase): a rebuilt table plays on alike, whatever order independent actions (two
    return cards) arrived in."""
    key = ((deal_index * 1_009 + plays) * 8 + seat) * 2 + (1 if tribute else 0)
    return (series_seed * 1_000_003 + key * 7_919) % (2**63)
