"""Write the corpus of recorded deals (``*.jsonl``) and its ``expected.json``.

``python -m tests.corpus.make_corpus`` (from the repository root) plays seeded self-play (random agents, which play
every kind of combination, bombs included) and keeps:

- three Guandan matches from their first deal (a record with tribute needs the deal before
  it): seed 2, deals 0–14, and seed 3, deals 0–13 — tribute, double tribute, anti-tribute,
  returns, wild straight flushes and full houses, a four-joker bomb, 6+-card bombs over
  straight flushes, teams at A, matches won at A and a new match after one; and seed 6,
  deals 0–2, for an anti-tribute by a single payer;
- Run Fast deals picked from seeded sessions to show the heavenly bomb, the ace bomb,
  standing-bomb bonuses (also one beaten by a bigger bomb), a led bomb, the never-played
  doubling and the 2s penalty; plus one hand-made deal (``HAND_MADE``) for what 15,000
  random deals never showed: a bomb reply as the last cards and an unplayed bomb in hand.

``expected.json`` is written by :mod:`referee` — a reading of the rules independent of the
engine — not copied from the engine's output; ``test_corpus.py`` asserts that the engine's
replay agrees with it. The records were written by commit a5d250e; after a change of the
engine's seed derivation a rerun writes other deals, so keep the stored files (they are the
fixture) unless the corpus itself is meant to change.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.corpus import referee
from tests.corpus._api import selfplay_records

HERE = Path(__file__).resolve().parent
GUANDAN_MATCHES = {"guandan_seed2.jsonl": (2, 15), "guandan_seed3.jsonl": (3, 14), "guandan_seed6.jsonl": (6, 3)}
RUNFAST_FILE = "runfast.jsonl"
RUNFAST_WANTED = [
    "heavenly_bomb", "heavenly_bomb", "ace_bomb", "ace_bomb", "bomb_bonus", "bomb_bonus",
    "bomb_over_bomb", "never_played", "never_played", "holds_2s", "led_bomb",
]

#: Situations 15,000 random deals never showed (a loser keeping a bomb; a bomb reply as the
#: last cards), written by hand with the settlement worked out from R-5 (see ``HAND_NOTE``).
HAND_MADE: list[dict[str, Any]] = [
    {
        "game": "runfast", "seed": 0, "deal": 0,
        "hands": [["3h", "9s", "9d"], ["4s", "4h", "4c", "4d"], ["7s", "7h", "7c", "7d", "2s", "Kd"]],
        "leader": 0,
        "actions": [
            {"seat": 0, "cards": ["3h"]},
            {"seat": 1, "cards": ["4s", "4h", "4c", "4d"]},
        ],
    },
]
HAND_EXPECT = [{"winner": 1, "scores": [-12, 54, -42], "bomb_bonuses": [1], "never_played": [2]}]
HAND_NOTE = (
    "hand-made: 0 leads 3h (R-2.3), 1 bombs 4444 over it as its last cards and wins (R-1.1);"
    " seat 0 pays 2 (2 cards); seat 2 never played: 6 cards ×2 = 12 (R-5.1) + 10 for 2s (R-5.2)"
    " + 10 for the unplayed 7777 (R-5.3) = 32; bonus 20 to seat 1, 10 from each (R-5.4, settled"
    " with the deal): [-2-10, 2+32+20, -32-10] = [-12, 54, -42]"
)

RULES = {
    "tribute": (
        "single tribute last → 1st, the strongest non-wild card (G-3.1, G-3.2), one return (G-3.5),"
        " the payer leads (G-3.6)"
    ),
    "double_tribute": (
        "double tribute after a 1st+2nd finish, higher card to 1st place (G-3.1, G-3.3), two returns"
        " (G-3.5), leader G-3.6"
    ),
    "anti_tribute": "anti-tribute: the payer(s) hold both red jokers, nothing moves, 1st place leads (G-3.4)",
    "anti_tribute_double": "both payers together hold the red jokers (G-3.4)",
    "wild_straight_flush": "a straight flush completed by a wild heart (G-5.4)",
    "wild_full_house": "a full house read with a wild heart (G-5.4, G-5.6)",
    "joker_bomb": "the four-joker bomb (G-5.1, G-5.5)",
    "big_bomb_over_straight_flush": "a 6+-card bomb beats a straight flush (G-5.5)",
    "match_won_at_A": "a team at A wins a deal played at A with the partner not last: match won (G-1.6)",
    "stuck_at_A": "a team at A finishes 1st and 4th in a deal at A: stays at A (G-1.6)",
    "at_A_won_below_A": "a team already at A wins a deal not played at A: no match win (G-1.6)",
    "capped_at_A": "the advance is capped at A (G-1.4)",
    "advance_1": "partner 4th: +1 (G-1.3)",
    "advance_2": "partner 3rd: +2 (G-1.3)",
    "advance_3": "partner 2nd: +3 (G-1.3)",
    "heavenly_bomb": "the heavenly bomb: four 3s as the opening play, no bonus (R-4.4, R-5.4)",
    "ace_bomb": "the three aces, the highest ordinary bomb (R-4.3)",
    "bomb_bonus": "a bomb reply standing to the trick's end earns 20 (R-5.4)",
    "bomb_over_bomb": "a bomb beaten by a bigger bomb in the same trick earns nothing (R-5.4 decision)",
    "bomb_goes_out": "a bomb as the last cards: the bonus is settled with the deal (R-5.4)",
    "never_played": "an opponent who never played pays double for cards (R-5.1)",
    "holds_2s": "holding 2s costs 10 (R-5.2)",
    "unplayed_bomb": "an unplayed bomb in hand costs 10 (R-5.3)",
    "led_bomb": "a led bomb earns no bonus (R-5.4)",
    "pass": "passes only when no reply exists (R-3.4, checked by the replay)",
}


def note(tags: list[str], extra: str) -> str:
    return extra + "; " + "; ".join(RULES[t] for t in tags if t in RULES)


def guandan() -> dict[str, list[dict[str, Any]]]:
    out: dict[str, list[dict[str, Any]]] = {}
    for name, (seed, deals) in GUANDAN_MATCHES.items():
        records = list(selfplay_records("guandan", deals, seed, ["random"]))
        (HERE / name).write_text("".join(json.dumps(r) + "\n" for r in records), encoding="utf-8")
        expected = []
        for r, e in zip(records, referee.guandan_match(records), strict=True):
            head = (f"deal {r['deal']} at {e['level']}, teams {e['levels_before']} → {e['levels_after']},"
                    f" places {e['places']}")
            expected.append({"deal": r["deal"], "note": note(e["tags"], head), **e})
        out[name] = expected
    return out


def runfast() -> dict[str, list[dict[str, Any]]]:
    wanted = list(RUNFAST_WANTED)
    chosen: list[dict[str, Any]] = []
    plain = 0
    for seed in range(1500):
        for r in selfplay_records("runfast", 10, seed, ["random"]):
            tags = referee.runfast_deal(r)["tags"]
            hit = next((t for t in wanted if t in tags), None)
            if hit is not None:
                wanted.remove(hit)
                chosen.append(r)
            elif plain < 1 and tags == ["pass"] and seed > 0:
                plain += 1
                chosen.append(r)
        if not wanted and plain:
            break
    if wanted:
        raise SystemExit(f"no Run Fast deal found for {wanted}")
    hand_made = [dict(r) for r in HAND_MADE]
    for r, want in zip(hand_made, HAND_EXPECT, strict=True):
        got = referee.runfast_deal(r)
        if {k: got[k] for k in want} != want:
            raise SystemExit(f"the referee reads the hand-made deal as {got}, not {want}")
        r.update({k: want[k] for k in ("winner", "scores", "bomb_bonuses")})
    chosen.extend(hand_made)
    (HERE / RUNFAST_FILE).write_text("".join(json.dumps(r) + "\n" for r in chosen), encoding="utf-8")
    expected = []
    for r in chosen:
        e = referee.runfast_deal(r)
        head = f"seed {r['seed']}, winner {e['winner']}, scores {e['scores']}, bonuses {e['bomb_bonuses']}"
        if r in hand_made:
            head = HAND_NOTE
        expected.append({"deal": r["deal"], "seed": r["seed"], "note": note(e["tags"], head), **e})
    return {RUNFAST_FILE: expected}


def main() -> int:
    expected = {**guandan(), **runfast()}
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    for name, deals in expected.items():
        print(name, len(deals), "deals")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
