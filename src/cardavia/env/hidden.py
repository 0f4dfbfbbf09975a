"""Redraw the cards one seat cannot see (OpenSpiel's ``resample_from_infostate``).

The new state keeps everything ``seat`` knows — its own hand, every public play and pass,
hand sizes, tribute and its own returns — so ``observation(new, seat)`` equals
``observation(old, seat)``, and it conserves the deck: the other seats' hands are a random
split of exactly the cards ``seat`` has not seen, with their sizes kept. On top:

* cards whose place ``seat`` knows stay there: a tribute card received by a seat (unless
  that seat may have played or returned it since), a card ``seat`` returned, ``3h`` with
  the Run Fast leader before the opening play;
* Run Fast passes stay legal (R-3.4: a seat passes only without a reply): the deal is
  replayed through the engine's checks with the new hands and redrawn until every pass is.

Not enforced: what tribute reveals indirectly (G-3.2: a payer's tribute card was its
strongest card) and the cards of returns ``seat`` took no part in. A Guandan state keeps the
original ``dealt`` hands and tribute-phase events (use it to play on, not to replay).
A finished deal is copied unchanged (its result already shows what mattered).
"""

from __future__ import annotations

import copy
import random

import numpy as np

from cardavia.env import _engine as eng

MAX_DRAWS = 2000


def _rng(rng: random.Random | np.random.Generator | int | None) -> random.Random:
    if isinstance(rng, random.Random):
        return rng
    if isinstance(rng, np.random.Generator):
        return random.Random(int(rng.integers(2**62)))
    return random.Random(rng)


def deck_counts(game: str) -> list[int]:
    return eng.counts(eng.deck(game))


def played_by(deal: eng.TrickDeal) -> list[list[int]]:
    out = [[0] * 54 for _ in range(deal.n_seats)]
    for seat, combo in deal.plays:
        if combo is not None:
            for c in combo.cards:
                out[seat][c.code] += 1
    return out


def known_holdings(deal: eng.TrickDeal, seat: int) -> list[list[int]]:
    """Per other seat, cards ``seat`` knows it still holds (a lower bound, per code)."""
    n = deal.n_seats
    must = [[0] * 54 for _ in range(n)]
    if isinstance(deal, eng.GuandanDeal):
        for t in deal.tributes:
            must[t.receiver][t.card.code] += 1
        hidden_givers = set()
        for r in deal.returns:
            if r.giver == seat:
                must[r.receiver][r.card.code] += 1
            if seat in (r.giver, r.receiver):
                must[r.giver][r.card.code] -= 1
            else:
                hidden_givers.add(r.giver)
        for giver in hidden_givers:  # it may have given back a tribute card (2–T, not wild)
            wc = eng.wild_code(deal.level)
            for code in range(36):
                if code != wc and must[giver][code] > 0:
                    must[giver][code] -= 1
    elif eng.is_opening(deal) and deal.first_leader is not None:
        must[deal.first_leader][5] = 1  # 3h (code 5) until the opening play
    played = played_by(deal)
    for s in range(n):
        for code in range(54):
            must[s][code] = max(0, must[s][code] - played[s][code]) if s != seat else 0
    return must


def resample_deal(
    deal: eng.TrickDeal, seat: int, rng: random.Random | np.random.Generator | int | None = None
) -> eng.TrickDeal:
    """A copy of ``deal`` with the hands ``seat`` cannot see redrawn (module docstring)."""
    if not 0 <= seat < deal.n_seats:
        raise ValueError(f"seat {seat} does not exist; seats are 0 to {deal.n_seats - 1}")
    if deal.over:
        return copy.deepcopy(deal)
    r = _rng(rng)
    n = deal.n_seats
    played = played_by(deal)
    pool = deck_counts(deal.game)
    for code in range(54):
        pool[code] -= deal.cnt[seat][code] + sum(played[s][code] for s in range(n))
    must = known_holdings(deal, seat)
    for _ in range(MAX_DRAWS):
        hands = _draw(deal, seat, pool, must, r)
        new = _rebuild(deal, seat, hands, played)
        if new is not None:
            return new
    raise RuntimeError(
        f"no redraw out of {MAX_DRAWS} kept every pass of this Run Fast deal legal; the position is"
        " too constrained to sample by rejection"
    )


def _draw(
    deal: eng.TrickDeal, seat: int, pool: list[int], must: list[list[int]], r: random.Random
) -> list[list[int]]:
    n = deal.n_seats
    rest = list(pool)
    hands = [[0] * 54 for _ in range(n)]
    need = list(deal.size)
    for s in range(n):
        if s == seat:
            hands[s] = list(deal.cnt[seat])
            continue
        for code in range(54):
            k = must[s][code]
            if k:
                hands[s][code] += k
                rest[code] -= k
                need[s] -= k
    cards = [code for code in range(54) for _ in range(rest[code])]
    r.shuffle(cards)
    i = 0
    for s in range(n):
        if s == seat:
            continue
        for code in cards[i : i + need[s]]:
            hands[s][code] += 1
        i += need[s]
    return hands


def _rebuild(
    deal: eng.TrickDeal, seat: int, hands: list[list[int]], played: list[list[int]]
) -> eng.TrickDeal | None:
    if isinstance(deal, eng.GuandanDeal):
        new = copy.deepcopy(deal)
        for s in range(deal.n_seats):
            if s != seat:
                new.cnt[s] = hands[s]
        return new
    start = [
        [eng.card_from_code(code) for code in range(54) for _ in range(hands[s][code] + played[s][code])]
        for s in range(deal.n_seats)
    ]
    rebuilt = eng.deal_from_hands(deal.game, start, seed=deal.seed)
    rebuilt.deal_index = deal.deal_index
    try:
        for s, combo in deal.plays:
            eng.play(rebuilt, s, combo)
    except eng.RulesError:
        return None
    return rebuilt
