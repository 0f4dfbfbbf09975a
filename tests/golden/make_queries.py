"""Golden outputs of the rules command line (cli.md), a guard for refactors.

``python tests/golden/make_queries.py`` writes, next to this file:

- ``batch_queries.jsonl`` — 1,000 seeded ``cardavia rules batch`` request lines: classify,
  beats, legal, tribute and settle for both games, wild hearts included, and bad requests
  (unknown cards, cards a deck lacks, too many copies, missing or wrong fields, lines that
  are not JSON objects) that must answer ``{"error": …}``;
- ``batch_outputs.jsonl`` — what ``cardavia rules batch`` answered, line for line;
- ``cli_examples.json`` — every invocation form of cli.md (and its examples) as argument
  lists run as ``cardavia …``, with the exit status and the exact stdout.

The outputs are the engine's answers when the files were written (commit a5d250e); the
test ``test_cli_golden.py`` asserts the command line still answers byte for byte the same.
Regenerate only when an output change is intended and reviewed: the queries are a pure
function of the seed (this script uses no engine code to make them).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SEED = 20240509
N_QUERIES = 1000

RANKS = "23456789TJQKA"
SUITS = "shcd"
GD_DECK = [r + s for r in RANKS for s in SUITS] * 2 + ["BJ", "RJ"] * 2
RF_DECK = [r + s for r in "3456789TJQK" for s in SUITS] + ["As", "Ac", "Ad", "2s"]
GD_TYPES = [
    "single", "pair", "triple", "full_house", "straight", "pair_run", "triple_run", "bomb",
    "straight_flush", "joker_bomb",
]
RF_TYPES = ["single", "pair", "triple", "straight", "pair_run", "bomb", "ace_bomb", "heavenly_bomb"]


def _take(rng: random.Random, pool: list[str], wanted: list[str]) -> list[str] | None:
    """Remove ``wanted`` from ``pool`` (None, pool unchanged, if it lacks one)."""
    left = list(pool)
    for card in wanted:
        if card not in left:
            return None
        left.remove(card)
    pool[:] = left
    return wanted


def _style(rng: random.Random, cards: list[str]) -> list[str] | str:
    """Vary the input spelling (cli.md: case-insensitive, ``10`` for ``T``, one string)."""
    out = []
    for c in cards:
        if rng.random() < 0.15:
            c = c.lower()
        if c.startswith("T") and rng.random() < 0.3:
            c = "10" + c[1:]
        out.append(c)
    if rng.random() < 0.2:
        return " ".join(out)
    return out


def _group(rng: random.Random, pool: list[str], rank: str, k: int, wild: str | None, wilds: int) -> list[str]:
    cards = [c for c in pool if c[0] == rank and c != wild]
    rng.shuffle(cards)
    if wild is None:
        return cards[:k]
    return cards[: max(0, k - wilds)] + [wild] * wilds


GD_KINDS = ["group", "group", "seq", "seq", "fh", "joker", "junk", "flush"]
RF_KINDS = ["group", "group", "seq", "pairs", "aces", "threes", "junk"]


def disjoint(make: Any, rng: random.Random, first: list[str], copies: int) -> list[str]:
    """Another card set from ``make`` that fits in one deck together with ``first``."""
    cards: list[str] = []
    for _ in range(30):
        cards = make()
        if all(first.count(c) + cards.count(c) <= copies for c in set(cards)):
            return cards
    return cards  # rarely: a set the deck cannot hold with ``first`` (an error answer)


def gd_combo(rng: random.Random, level: str, kind: str | None = None) -> list[str]:
    """A Guandan card set, usually a combination (with wild hearts sometimes)."""
    wild = level + "h"
    pool = list(GD_DECK)
    kind = kind or rng.choice(GD_KINDS)
    wilds = rng.choice([0, 0, 0, 1, 2])
    if kind == "group":
        rank = rng.choice(RANKS)
        k = rng.choice([1, 2, 3, 4, 4, 5, 6, 7, 8, 9, 10])
        cards = _group(rng, pool, rank, k, wild, min(wilds, k))
    elif kind in ("seq", "flush"):
        length, width = rng.choice([(5, 1), (3, 2), (2, 3)]) if kind == "seq" else (5, 1)
        order = "A" + RANKS
        start = rng.randrange(0, len(order) - length + 1)
        suit = rng.choice(SUITS)
        cards = []
        for r in order[start : start + length]:
            for _ in range(width):
                cards.append(r + (suit if kind == "flush" else rng.choice(SUITS)))
        for i in rng.sample(range(len(cards)), min(wilds, len(cards))):
            cards[i] = wild
    elif kind == "fh":
        r1, r2 = rng.sample(RANKS, 2)
        cards = _group(rng, pool, r1, 3, wild, 0) + _group(rng, pool, r2, 2, wild, 0)
        for i in rng.sample(range(5), wilds):
            cards[i] = wild
    elif kind == "joker":
        cards = rng.choice([["BJ", "BJ", "RJ", "RJ"], ["BJ", "RJ"], ["RJ", "RJ"], ["BJ"], ["BJ", "BJ", "RJ"]])
        if rng.random() < 0.3:
            cards = [*cards, rng.choice(GD_DECK)]
    else:
        cards = rng.sample(GD_DECK, rng.randint(1, 8))
    return _legal_copies(cards, 2)


def rf_combo(rng: random.Random, kind: str | None = None) -> list[str]:
    """A Run Fast card set, usually a combination."""
    kind = kind or rng.choice(RF_KINDS)
    if kind == "group":
        rank = rng.choice("3456789TJQKA2")
        cards = [c for c in RF_DECK if c[0] == rank]
        rng.shuffle(cards)
        cards = cards[: rng.randint(1, 4)]
    elif kind == "seq":
        length = rng.randint(4, 12)
        order = "3456789TJQKA2"
        start = rng.randrange(0, len(order) - length + 1)
        cards = [rng.choice([c for c in RF_DECK if c[0] == r]) for r in order[start : start + length]]
    elif kind == "pairs":
        length = rng.randint(1, 6)
        order = "3456789TJQKA"
        start = rng.randrange(0, len(order) - length + 1)
        cards = []
        for r in order[start : start + length]:
            cards += rng.sample([c for c in RF_DECK if c[0] == r], 2)
    elif kind == "aces":
        cards = rng.choice([["As", "Ac", "Ad"], ["As", "Ad"], ["As", "Ac", "Ad", "2s"]])
    elif kind == "threes":
        cards = ["3s", "3h", "3c", "3d"]
    else:
        cards = rng.sample(RF_DECK, rng.randint(1, 7))
    return _legal_copies(cards, 1)


def _legal_copies(cards: list[str], copies: int) -> list[str]:
    out: list[str] = []
    for c in cards:
        if out.count(c) < copies:
            out.append(c)
    return out or cards[:1]


def hand(rng: random.Random, deck: list[str], size: int, must: tuple[str, ...] = ()) -> list[str]:
    pool = list(deck)
    chosen = []
    for c in must:
        pool.remove(c)
        chosen.append(c)
    chosen += rng.sample(pool, size - len(chosen))
    return chosen


def level_text(rng: random.Random) -> str:
    level = rng.choice(RANKS)
    if level == "T" and rng.random() < 0.5:
        return "10"
    return level


def q_classify(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.65:
        level = level_text(rng)
        lv = "T" if level == "10" else level
        return {"op": "classify", "game": "guandan", "level": level, "cards": _style(rng, gd_combo(rng, lv))}
    req: dict[str, Any] = {"op": "classify", "game": "runfast", "cards": _style(rng, rf_combo(rng))}
    if rng.random() < 0.25:
        req["opening"] = True
    return req


def q_beats(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.6:
        level = rng.choice(RANKS)
        kind = rng.choice(GD_KINDS)
        prev = gd_combo(rng, level, kind)
        same = kind if rng.random() < 0.6 else None
        play = disjoint(lambda: gd_combo(rng, level, same), rng, prev, 2)
        req: dict[str, Any] = {"op": "beats", "game": "guandan", "level": level, "prev": prev, "play": play}
        if rng.random() < 0.2:
            req["prev_type"] = rng.choice(GD_TYPES)
        if rng.random() < 0.2:
            req["type"] = rng.choice(GD_TYPES)
        return req
    kind = rng.choice(RF_KINDS)
    prev = rf_combo(rng, kind)
    same = kind if rng.random() < 0.6 else None
    req = {"op": "beats", "game": "runfast", "prev": prev, "play": disjoint(lambda: rf_combo(rng, same), rng, prev, 1)}
    if rng.random() < 0.15:
        req["opening"] = True
    if rng.random() < 0.15:
        req["prev_type"] = rng.choice(RF_TYPES)
    if rng.random() < 0.15:
        req["type"] = rng.choice(RF_TYPES)
    return req


def q_legal(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.55:
        level = rng.choice(RANKS)
        lead = rng.random() < 0.4
        size = rng.randint(1, 9) if lead else rng.randint(3, 16)
        h = hand(rng, GD_DECK, size)
        if rng.random() < 0.3:
            h = _legal_copies(h + [level + "h"] * rng.randint(1, 2), 2)
        req: dict[str, Any] = {"op": "legal", "game": "guandan", "level": level, "hand": _style(rng, h)}
        if not lead:
            req["prev"] = disjoint(lambda: gd_combo(rng, level), rng, h, 2)
        return req
    opening = rng.random() < 0.3
    h = hand(rng, RF_DECK, rng.randint(2, 16), ("3h",) if opening else ())
    req = {"op": "legal", "game": "runfast", "hand": _style(rng, h)}
    if opening:
        req["opening"] = True
    if (not opening or rng.random() < 0.2) and rng.random() < 0.75:
        req["prev"] = rf_combo(rng)
    return req


def q_tribute(rng: random.Random) -> dict[str, Any]:
    level = level_text(rng)
    pool = list(GD_DECK)
    rng.shuffle(pool)
    if rng.random() < 0.25:  # both red jokers with the payers, often (G-3.4)
        pool.remove("RJ")
        pool.remove("RJ")
        pool = ["RJ", "RJ", *pool]
    sizes = [rng.randint(1, 9) for _ in range(4)]
    hands = []
    for s in sizes:
        hands.append(pool[:s])
        pool = pool[s:]
    order = [0, 1, 2, 3]
    rng.shuffle(order)
    if rng.random() < 0.3:
        first = rng.randrange(4)
        places: Any = [first, (first + 2) % 4]
    else:
        places = order if rng.random() < 0.7 else order[:3]
    if rng.random() < 0.5:
        places = ",".join(str(p) for p in places)
    if rng.random() < 0.5 and hands[0]:
        rng.shuffle(hands)  # the jokers land anywhere
    return {"op": "tribute", "level": level, "places": places, "hands": [_style(rng, h) for h in hands]}


def q_settle(rng: random.Random) -> dict[str, Any]:
    if rng.random() < 0.5:
        levels = [rng.choice(RANKS), rng.choice(RANKS)]
        if rng.random() < 0.3:
            levels[rng.randrange(2)] = "A"
        deal_level = rng.choice(levels) if rng.random() < 0.9 else rng.choice(RANKS)
        order = [0, 1, 2, 3]
        rng.shuffle(order)
        places: Any = order if rng.random() < 0.8 else order[:2]
        return {
            "op": "settle", "game": "guandan", "levels": ",".join(levels) if rng.random() < 0.5 else levels,
            "deal_level": deal_level, "places": places,
        }
    pool = list(RF_DECK)
    rng.shuffle(pool)
    winner = rng.randrange(3)
    hands: list[Any] = []
    for seat in range(3):
        if seat == winner:
            hands.append([] if rng.random() < 0.5 else "")
        else:
            n = rng.randint(1, 16)
            hands.append(pool[:n])
            pool = pool[n:]
    req: dict[str, Any] = {"op": "settle", "game": "runfast", "winner": winner, "hands": hands}
    losers = [s for s in range(3) if s != winner]
    if rng.random() < 0.4:
        req["never_played"] = rng.sample(losers, rng.randint(1, 2))
    if rng.random() < 0.4:
        never = req.get("never_played", [])
        seats = [s for s in range(3) if s not in never or rng.random() < 0.1]
        req["bomb_bonus"] = [rng.choice(seats) for _ in range(rng.randint(1, 3))]
    return req


BAD_LINES = [
    '{"op": "classify", "game": "guandan", "cards": ["1x"]}',
    '{"op": "classify", "game": "runfast", "cards": ["Ah"]}',
    '{"op": "classify", "game": "runfast", "cards": ["BJ"]}',
    '{"op": "classify", "game": "runfast", "cards": ["2h"]}',
    '{"op": "classify", "game": "guandan", "cards": ["7s", "7s", "7s"]}',
    '{"op": "classify", "game": "runfast", "cards": ["7s", "7s"]}',
    '{"op": "classify", "game": "guandan"}',
    '{"op": "classify", "game": "guandan", "cards": 7}',
    '{"op": "classify", "game": "guandan", "level": "1", "cards": ["2s"]}',
    '{"op": "classify", "game": "poker", "cards": ["2s"]}',
    '{"op": "shuffle", "game": "guandan"}',
    '{"game": "guandan", "cards": ["2s"]}',
    '{"op": "beats", "game": "guandan", "prev": ["3s"]}',
    '{"op": "beats", "game": "guandan", "prev": ["3s", "4d"], "play": ["5s"]}',
    '{"op": "beats", "game": "guandan", "prev": ["3s", "3d"], "prev_type": "straight", "play": ["5s", "5d"]}',
    '{"op": "beats", "game": "guandan", "prev": ["3s"], "play": ["5s"], "type": "airplane"}',
    '{"op": "legal", "game": "runfast", "opening": true, "hand": ["4s", "5s"]}',
    '{"op": "legal", "game": "guandan", "hand": ["3s"], "prev": ["RJ", "BJ"]}',
    '{"op": "legal", "game": "guandan"}',
    '{"op": "tribute", "level": "2", "places": "0,1", "hands": ["3s", "4s", "5s", "6s"]}',
    '{"op": "tribute", "level": "2", "places": "0,0,1,2", "hands": ["3s", "4s", "5s", "6s"]}',
    '{"op": "tribute", "level": "2", "places": "0,2", "hands": ["3s", "4s", "5s"]}',
    '{"op": "tribute", "level": "2", "places": "0,5", "hands": ["3s", "4s", "5s", "6s"]}',
    '{"op": "tribute", "game": "runfast", "places": "0,2", "hands": ["3s", "4s", "5s", "6s"]}',
    '{"op": "tribute", "level": "2", "places": "0,1,2,3", "hands": ["3s", "", "5s", "6s"]}',
    '{"op": "settle", "game": "guandan", "levels": "2,5", "deal_level": "9", "places": "0,1,2,3"}',
    '{"op": "settle", "game": "guandan", "levels": "2", "deal_level": "2", "places": "0,1,2,3"}',
    '{"op": "settle", "game": "guandan", "levels": "2,2", "places": "0,1,2,3"}',
    '{"op": "settle", "game": "guandan", "levels": "2,Z", "deal_level": "2", "places": "0,1,2,3"}',
    '{"op": "settle", "game": "guandan", "levels": "2,2", "deal_level": "2", "places": "0,1"}',
    '{"op": "settle", "game": "runfast", "winner": 0, "hands": [["3s"], [], ["4s"]]}',
    '{"op": "settle", "game": "runfast", "winner": 5, "hands": [[], ["3s"], ["4s"]]}',
    '{"op": "settle", "game": "runfast", "winner": 0, "hands": [[], ["3s"]]}',
    '{"op": "settle", "game": "runfast", "winner": 0, "hands": [[], ["3s"], ["4s"]], "never_played": [0]}',
    '{"op": "settle", "game": "runfast", "winner": "x", "hands": [[], ["3s"], ["4s"]]}',
    '[1, 2, 3]',
    '"classify"',
    '{oops',
    '{"op": "classify", "cards": ["2s"], }',
    'null',
]


def make_queries(seed: int = SEED, n: int = N_QUERIES) -> list[str]:
    """The request lines: a pure function of ``seed``."""
    rng = random.Random(seed)
    makers = [q_classify] * 3 + [q_beats] * 3 + [q_legal] * 2 + [q_tribute] + [q_settle]
    lines: list[str] = []
    bad = iter(BAD_LINES)
    for i in range(n):
        if i % 25 == 7:
            line = next(bad, None)
            if line is not None:
                lines.append(line)
                continue
        lines.append(json.dumps(rng.choice(makers)(rng)))
    return lines


#: Every invocation form of cli.md, with the examples the text names.
CLI_EXAMPLES: list[list[str]] = [
    ["rules", "classify", "--game", "guandan", "5s", "6d", "7c", "8h", "9s"],
    ["rules", "classify", "--game", "guandan", "--level", "7", "5h", "6h", "7h", "8h", "9h"],
    ["rules", "classify", "--game", "guandan", "--level", "9", "As 2d 3c 4s 5s"],
    ["rules", "classify", "--game", "guandan", "--level", "9", "As Ad 2s 2d 3c 3s"],
    ["rules", "classify", "--game", "guandan", "--level", "9", "As Ad Ac 2s 2d 2c"],
    ["rules", "classify", "--game", "guandan", "Ts Js Qs Ks As"],
    ["rules", "classify", "--game", "guandan", "Qs Ks As 2s 3s"],
    ["rules", "classify", "--game", "guandan", "BJ BJ RJ RJ"],
    ["rules", "classify", "--game", "guandan", "BJ RJ"],
    ["rules", "classify", "--game", "guandan", "RJ RJ 9s 9d 9c"],
    ["rules", "classify", "--game", "guandan", "--level", "7", "7h 7h"],
    ["rules", "classify", "--game", "guandan", "--level", "7", "7h 7h", "7s", "7d", "7c"],
    ["rules", "classify", "--game", "guandan", "--level", "2", "8s", "8c", "8d", "2h", "2h"],
    ["rules", "classify", "--game", "guandan", "--level", "5", "5h", "6h", "7h", "8h", "5h"],
    ["rules", "classify", "--game", "guandan", "--level", "10", "10s js qs ks as"],
    ["rules", "classify", "--game", "guandan", "3s 3d 4s 4d 5s 5d"],
    ["rules", "classify", "--game", "guandan", "7s 7d 7c 8s 8d 8c"],
    ["rules", "classify", "--game", "guandan", "--level", "3", "9s 9s 9d 9d 9c 9c 9h 9h 3h 3h"],
    ["rules", "classify", "--game", "runfast", "3s 4d 5c 6h 7s"],
    ["rules", "classify", "--game", "runfast", "Ts Jd Qc Kh As"],
    ["rules", "classify", "--game", "runfast", "As 2s 3d 4c 5h"],
    ["rules", "classify", "--game", "runfast", "Ks Kd As Ad"],
    ["rules", "classify", "--game", "runfast", "As Ac Ad"],
    ["rules", "classify", "--game", "runfast", "3s 3h 3c 3d"],
    ["rules", "classify", "--game", "runfast", "--opening", "3s 3h 3c 3d"],
    ["rules", "classify", "--game", "runfast", "7s 7d 7c 5s"],
    ["rules", "beats", "--game", "guandan", "--prev", "8s 8c 8d 2h 2h", "--play", "9s 9c 9d 9h"],
    ["rules", "beats", "--game", "guandan", "--prev", "8s 8c 8d 2h 2h", "--prev-type", "full_house",
     "--play", "9s 9c 9d 9h"],
    ["rules", "beats", "--game", "guandan", "--prev", "5s 6s 7s 8s 9s", "--play", "4s 4d 4c 4h 4s 4d"],
    ["rules", "beats", "--game", "guandan", "--prev", "4s 4d 4c 4h 4s", "--play", "5s 6s 7s 8s 9s"],
    ["rules", "beats", "--game", "guandan", "--prev", "As As Ad Ad Ac Ac Ah Ah 2h 2h",
     "--play", "BJ BJ RJ RJ"],
    ["rules", "beats", "--game", "guandan", "--level", "5", "--prev", "3s", "--play", "5d"],
    ["rules", "beats", "--game", "guandan", "--prev", "3s", "--play", "4s 4d"],
    ["rules", "beats", "--game", "guandan", "--level", "7", "--prev", "5c 6c 7c 8c 9c",
     "--play", "6h 7h 8h 9h 7h", "--type", "straight_flush"],
    ["rules", "beats", "--game", "runfast", "--prev", "KS KD", "--play", "AS AD"],
    ["rules", "beats", "--game", "runfast", "--prev", "Ks Kd Kc Kh", "--play", "As Ac Ad"],
    ["rules", "beats", "--game", "runfast", "--opening", "--prev", "3s 3h 3c 3d", "--play", "As Ac Ad"],
    ["rules", "beats", "--game", "runfast", "--prev", "3s 3h 3c 3d", "--play", "4s 4h 4c 4d"],
    ["rules", "beats", "--game", "runfast", "--prev", "3s 4s 5s 6s 7s", "--play", "4d 5d 6d 7d 8d 9d"],
    ["rules", "legal", "--game", "guandan", "--level", "7", "--hand", "7h 7h 5s 5d BJ"],
    ["rules", "legal", "--game", "guandan", "--hand", "3s 3d 9c", "--prev", "4s 4d"],
    ["rules", "legal", "--game", "guandan", "--level", "2", "--hand", "8s 8c 8d 2h 2h 9s",
     "--prev", "7s 7c 7d 3s 3d"],
    ["rules", "legal", "--game", "runfast", "--opening", "--hand", "3h 3s 4d 5c 6s 7h Kd"],
    ["rules", "legal", "--game", "runfast", "--hand", "5s 9d", "--prev", "Ks"],
    ["rules", "legal", "--game", "runfast", "--hand", "5s 5d 5c 5h 9d", "--prev", "2s"],
    ["rules", "tribute", "--level", "2", "--places", "0,2", "--hands", "3s 4s", "RJ 5d", "As 6c", "Kd 9s"],
    ["rules", "tribute", "--level", "2", "--places", "0,2", "--hands", "3s 4s", "RJ 5d", "As 6c", "RJ 9s"],
    ["rules", "tribute", "--level", "5", "--places", "1,0,3,2", "--hands", "3s 4s Qd", "9d 8c",
     "5h Ks Kd", "6s 7s"],
    ["rules", "tribute", "--level", "5", "--places", "1,0,3,2", "--hands", "3s 4s", "9d 8c", "RJ RJ", "6s"],
    ["rules", "tribute", "--level", "A", "--places", "3,1", "--hands", "Ks Kd", "Jd Jc", "Kc Kh", "As Ad"],
    ["rules", "settle", "--game", "guandan", "--levels", "2,2", "--deal-level", "2", "--places", "0,2,1,3"],
    ["rules", "settle", "--game", "guandan", "--levels", "5,2", "--deal-level", "5", "--places", "1,3"],
    ["rules", "settle", "--game", "guandan", "--levels", "K,9", "--deal-level", "K", "--places", "0,1,3,2"],
    ["rules", "settle", "--game", "guandan", "--levels", "A,9", "--deal-level", "A", "--places", "2,1,0,3"],
    ["rules", "settle", "--game", "guandan", "--levels", "A,9", "--deal-level", "A", "--places", "2,1,3,0"],
    ["rules", "settle", "--game", "guandan", "--levels", "A,9", "--deal-level", "9", "--places", "0,2"],
    ["rules", "settle", "--game", "runfast", "--winner", "0", "--hands", "", "5s 6d", "2s 9c 9d"],
    ["rules", "settle", "--game", "runfast", "--winner", "1", "--hands", "Ks", "", "4s 4h 4c 4d",
     "--never-played", "2", "--bomb-bonus", "1"],
    ["rules", "settle", "--game", "runfast", "--winner", "2", "--hands", "As Ac Ad 5s", "3s 3d", "",
     "--bomb-bonus", "2", "--bomb-bonus", "2"],
    # bad input: exit status 2 and one clear sentence
    ["rules", "classify", "--game", "guandan", "1x"],
    ["rules", "classify", "--game", "runfast", "Ah"],
    ["rules", "classify", "--game", "guandan", "7s", "7s", "7s"],
    ["rules", "classify", "--game", "guandan"],
    ["rules", "classify", "--game", "chess", "2s"],
    ["rules", "classify", "--level", "1", "2s"],
    ["rules", "beats", "--game", "guandan", "--prev", "3s 4d", "--play", "5s"],
    ["rules", "beats", "--game", "guandan", "--play", "5s"],
    ["rules", "legal", "--game", "runfast", "--opening", "--hand", "4s 5s"],
    ["rules", "tribute", "--level", "2", "--places", "0,1", "--hands", "3s", "4s", "5s", "6s"],
    ["rules", "tribute", "--level", "2", "--places", "0,2", "--hands", "3s", "4s", "5s"],
    ["rules", "settle", "--game", "guandan", "--levels", "2,5", "--deal-level", "9", "--places", "0,1,2,3"],
    ["rules", "settle", "--game", "runfast", "--winner", "0", "--hands", "3s", "", "4s"],
    ["rules", "frobnicate"],
    ["rules"],
]


def run_cli(argv: list[str], stdin: str | None = None) -> tuple[int, str]:
    """``cardavia ARGV`` in a fresh process: exit status and stdout."""
    proc = subprocess.run(
        [sys.executable, "-m", "cardavia", *argv],
        input=stdin, capture_output=True, text=True, encoding="utf-8", check=False,
    )
    return proc.returncode, proc.stdout


def main() -> int:
    queries = make_queries()
    (HERE / "batch_queries.jsonl").write_text("\n".join(queries) + "\n", encoding="utf-8")
    code, out = run_cli(["rules", "batch"], "\n".join(queries) + "\n")
    if code != 0 or len(out.splitlines()) != len(queries):
        raise SystemExit(f"rules batch failed: exit {code}, {len(out.splitlines())} lines")
    (HERE / "batch_outputs.jsonl").write_text(out, encoding="utf-8")
    examples = []
    for argv in CLI_EXAMPLES:
        code, out = run_cli(argv)
        examples.append({"argv": argv, "exit": code, "stdout": out})
    (HERE / "cli_examples.json").write_text(
        json.dumps(examples, indent=1, ensure_ascii=False) + "\n", encoding="utf-8"
    )
    errors = sum(1 for line in (HERE / "batch_outputs.jsonl").read_text().splitlines() if '"error"' in line[:10])
    print(f"{len(queries)} queries ({errors} errors), {len(examples)} CLI examples written to {HERE}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
