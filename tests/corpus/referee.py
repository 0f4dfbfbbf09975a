"""An independent referee for the corpus: the outcome of a recorded deal computed from the
rules text (docs/rules.md, rule IDs below) with plain Python on the record's strings.

It imports nothing from ``cardavia``: it is a second reading of the rules, used to write
and to re-check ``expected.json``. It does not judge whether each play is a legal
combination (that is the engine's replay); it derives what the rules make of the plays:
who finished where, the levels, the tribute and return, the Run Fast settlement, and which
situations a deal shows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

ORDER = "23456789TJQKA"
ACE = "A"


def rank_of(card: str) -> str:
    return card if card in ("BJ", "RJ") else card[0]


def level_index(level: str) -> int:
    return ORDER.index(level)


def strength(card: str, level: str) -> int:
    """G-4.4 single-card order: RJ > BJ > level rank > A > K > … > 2."""
    if card == "RJ":
        return 100
    if card == "BJ":
        return 99
    if rank_of(card) == level:
        return 98
    return ORDER.index(rank_of(card))


def take(hand: list[str], cards: Sequence[str], seat: int, what: str) -> None:
    for c in cards:
        if c not in hand:
            raise AssertionError(f"seat {seat} {what} {c}, which it does not hold")
        hand.remove(c)


# ---------------------------------------------------------------------------- Guandan


def partner(seat: int) -> int:
    return (seat + 2) % 4


def tribute_card(hand: Sequence[str], level: str) -> str:
    """G-3.2: the strongest card, the level-rank hearts excluded; ties by suit s, h, c, d."""
    wild = level + "h"
    pool = [c for c in hand if c != wild]
    def key(c: str) -> tuple[int, int]:
        suit = 0 if c in ("BJ", "RJ") else "shcd".index(c[1])
        return strength(c, level), -suit

    return max(pool, key=key)


def return_eligible(hand: Sequence[str], level: str) -> set[str]:
    """G-3.5: a non-wild card of face rank 2–T; if none, the lowest-strength cards."""
    wild = level + "h"
    low = {c for c in hand if c != wild and c not in ("BJ", "RJ") and ORDER.index(rank_of(c)) <= ORDER.index("T")}
    if low:
        return low
    pool = [c for c in hand if c != wild] or list(hand)
    weakest = min(strength(c, level) for c in pool)
    return {c for c in pool if strength(c, level) == weakest}


def guandan_tribute(prev_places: Sequence[int], hands: Sequence[Sequence[str]], level: str) -> dict[str, Any]:
    """G-3.1 – G-3.4 and the leader of G-3.6 (before the returns)."""
    first, second, last = prev_places[0], prev_places[1], prev_places[3]
    double = second == partner(first)
    payers = [(first + 1) % 4, (first + 3) % 4] if double else [last]
    red = sum(hands[p].count("RJ") for p in payers)
    if red >= 2:  # G-3.4
        return {"double": double, "cancelled": True, "tributes": [], "leader": first}
    cards = {p: tribute_card(hands[p], level) for p in payers}
    if double:
        a, b = payers  # a: the first payer after 1st place in turn order (G-3.3)
        to_first, to_second = (b, a) if strength(cards[b], level) > strength(cards[a], level) else (a, b)
        tributes = [
            {"from": to_first, "to": first, "card": cards[to_first]},
            {"from": to_second, "to": second, "card": cards[to_second]},
        ]
        leader = to_first  # G-3.6: who received the return from 1st place
    else:
        tributes = [{"from": last, "to": first, "card": cards[last]}]
        leader = last
    return {"double": double, "cancelled": False, "tributes": tributes, "leader": leader}


def guandan_levels(levels: Sequence[str], deal_level: str, places: Sequence[int]) -> dict[str, Any]:
    """G-1.3, G-1.4, G-1.6: advance by the partner's place, capped at A; the match win at A."""
    first = places[0]
    team = first % 2
    advance = {1: 3, 2: 2, 3: 1}[places.index(partner(first))]
    new = list(levels)
    winner = None
    if levels[team] == ACE and deal_level == ACE and advance >= 2:
        winner = team
    else:
        new[team] = ORDER[min(level_index(ACE), level_index(levels[team]) + advance)]
    return {"winner_team": team, "advance": advance, "levels_after": new, "match_winner": winner}


def guandan_deal(record: dict[str, Any], prev: dict[str, Any] | None) -> dict[str, Any]:
    """What the rules make of one Guandan record; ``prev`` is the referee's view of the
    previous deal of the same match (None for a match's first deal)."""
    level = record["level"]
    hands = [list(h) for h in record["hands"]]
    out: dict[str, Any] = {"level": level}
    if prev is None or prev["match_winner"] is not None:
        levels_before = ["2", "2"]  # G-1.4, G-1.7: a match starts at 2 for both teams
        assert level == "2", "a match's first deal is played at 2 (G-1.5)"
        assert record.get("tribute") is None, "no tribute in a match's first deal (G-3)"
        leader = int(record["leader"])  # G-2.3: random; taken from the record
    else:
        levels_before = prev["levels_after"]
        # G-1.5: played at the (promoted) level of the previous deal's winning team
        assert level == levels_before[prev["winner_team"]], "G-1.5"
        t = guandan_tribute(prev["places"], hands, level)
        rec_t = record["tribute"]
        out["tribute"] = {"cancelled": t["cancelled"], "double": t["double"], "tributes": t["tributes"]}
        for tr in t["tributes"]:
            take(hands[tr["from"]], [tr["card"]], tr["from"], "pays")
            hands[tr["to"]].append(tr["card"])
        returned = []
        if not t["cancelled"]:
            for tr in t["tributes"]:  # each recipient returns one card to its payer (G-3.5)
                r = next(x for x in rec_t["returned"] if x["from"] == tr["to"])
                assert r["to"] == tr["from"]
                assert r["card"] in return_eligible(hands[tr["to"]], level), f"G-3.5: {r['card']}"
                take(hands[tr["to"]], [r["card"]], tr["to"], "returns")
                hands[tr["from"]].append(r["card"])
                returned.append({"from": tr["to"], "to": tr["from"], "card": r["card"]})
        out["tribute"]["returned"] = returned
        leader = t["leader"]
    out["levels_before"] = levels_before
    out["leader"] = leader
    # the plays: cards leave the hands; places in the order hands empty (G-1.3, G-6.1)
    places: list[int] = []
    tags: set[str] = set()
    wild = level + "h"
    last_play: tuple[int, dict[str, Any], int] | None = None  # seat, action, passes since
    for i, a in enumerate(record["actions"]):
        assert len(places) < 3, f"action {i} after the deal ended (G-6.1)"
        seat = int(a["seat"])
        assert seat not in places, f"action {i}: seat {seat} has finished (G-4.3)"
        if a.get("pass"):
            if last_play is not None:
                last_play = (last_play[0], last_play[1], last_play[2] + 1)
            continue
        cards = list(a["cards"])
        take(hands[seat], cards, seat, "plays")
        ctype = a["combo"]["type"]
        ranks = {rank_of(c) for c in cards if c != wild}
        if sorted(cards) == ["BJ", "BJ", "RJ", "RJ"]:
            tags.add("joker_bomb")
        if ctype == "straight_flush" and wild in cards and a["combo"]["as"] != cards:
            tags.add("wild_straight_flush")
        if ctype == "full_house" and wild in cards and a["combo"]["as"] != cards:
            tags.add("wild_full_house")
        if ctype == "bomb" and len(cards) >= 6 and len(ranks) == 1 and last_play is not None:
            s0, a0, passes = last_play
            if a0["combo"]["type"] == "straight_flush" and s0 != seat and passes <= 1 and hands[s0]:
                tags.add("big_bomb_over_straight_flush")  # G-5.5
        last_play = (seat, a, 0)
        if not hands[seat]:
            places.append(seat)
    assert len(places) == 3, "the deal ends when the third player finishes (G-6.1)"
    places.append(next(s for s in range(4) if s not in places))
    out["places"] = places
    out.update(guandan_levels(levels_before, level, places))
    if out["match_winner"] is not None:
        tags.add("match_won_at_A")
    elif levels_before[out["winner_team"]] == ACE and level == ACE:
        tags.add("stuck_at_A")  # G-1.6: 1st and 4th at A
    elif levels_before[out["winner_team"]] == ACE:
        tags.add("at_A_won_below_A")  # G-1.6: the deal was not played at A
    elif level_index(levels_before[out["winner_team"]]) + out["advance"] > level_index(ACE):
        tags.add("capped_at_A")  # G-1.4
    if "tribute" in out:
        t = out["tribute"]
        tags.add("anti_tribute" if t["cancelled"] else ("double_tribute" if t["double"] else "tribute"))
        if t["cancelled"] and t["double"]:
            tags.add("anti_tribute_double")
    tags.add(f"advance_{out['advance']}")
    out["tags"] = sorted(tags)
    return out


def guandan_match(records: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    outs: list[dict[str, Any]] = []
    prev: dict[str, Any] | None = None
    for r in records:
        prev = guandan_deal(r, prev)
        outs.append(prev)
    return outs


# ---------------------------------------------------------------------------- Run Fast


def is_rf_bomb(cards: Sequence[str]) -> bool:
    """R-4.3: four of a rank, or the three aces."""
    return (len(cards) == 4 and len({rank_of(c) for c in cards}) == 1) or sorted(cards) == ["Ac", "Ad", "As"]


def unplayed_bombs(hand: Sequence[str]) -> int:
    """R-5.3: each rank held four times, and the three aces if all held."""
    per = Counter(rank_of(c) for c in hand)
    return sum(1 for n in per.values() if n == 4) + (1 if {"As", "Ac", "Ad"} <= set(hand) else 0)


def runfast_deal(record: dict[str, Any]) -> dict[str, Any]:
    hands = [list(h) for h in record["hands"]]
    leader = next(s for s in range(3) if "3h" in hands[s])
    actions = record["actions"]
    assert int(actions[0]["seat"]) == leader and "3h" in actions[0]["cards"], "R-2.3"
    tags: set[str] = set()
    played = [False] * 3
    bonuses: list[int] = []
    standing: int | None = None
    trick_open = False  # a play is on the table
    passes = 0
    winner: int | None = None
    for i, a in enumerate(actions):
        assert winner is None, f"action {i} after the deal ended (R-1.1)"
        seat = int(a["seat"])
        if a.get("pass"):
            assert trick_open, "the leader cannot pass (R-3.4)"
            passes += 1
            tags.add("pass")
            if passes == 2:  # both opponents passed, the trick ends
                if standing is not None:
                    bonuses.append(standing)  # the bomb stood to the trick's end
                standing = None
                trick_open = False
                passes = 0
            continue
        cards = list(a["cards"])
        take(hands[seat], cards, seat, "plays")
        if i == 0 and sorted(cards) == ["3c", "3d", "3h", "3s"]:
            tags.add("heavenly_bomb")  # led, no bonus
        elif is_rf_bomb(cards):
            if len(cards) == 3:
                tags.add("ace_bomb")
            if trick_open:  # a reply over another player's cards
                if standing is not None:
                    tags.add("bomb_over_bomb")
                standing = seat
                tags.add("bomb_reply")
            else:
                tags.add("led_bomb")
        played[seat] = True
        trick_open = True
        passes = 0
        if not hands[seat]:
            winner = seat
            if standing is not None:
                bonuses.append(standing)  # settled with the deal
                if standing == seat and is_rf_bomb(cards):
                    tags.add("bomb_goes_out")
    assert winner is not None, "the deal ends when a player goes out (R-1.1)"
    never = [s for s in range(3) if not played[s]]
    scores = [0, 0, 0]
    lines = []
    for s in range(3):
        if s == winner:
            continue
        cards_pts = len(hands[s]) * (2 if s in never else 1)
        two = 10 if "2s" in hands[s] else 0
        bombs = 10 * unplayed_bombs(hands[s])
        pays = cards_pts + two + bombs
        scores[s] -= pays
        scores[winner] += pays
        lines.append({"seat": s, "cards_left": len(hands[s]), "pays": pays})
        if two:
            tags.add("holds_2s")
        if bombs:
            tags.add("unplayed_bomb")
    for b in bonuses:  # 20 to the bomber, 10 from each opponent
        for s in range(3):
            scores[s] += 20 if s == b else -10
    if never:
        tags.add("never_played")
    if bonuses:
        tags.add("bomb_bonus")
    assert sum(scores) == 0
    return {"winner": winner, "scores": scores, "bomb_bonuses": bonuses, "never_played": never,
            "lines": lines, "tags": sorted(tags)}
