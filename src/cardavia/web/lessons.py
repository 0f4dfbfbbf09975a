"""Guided first deals (``/learn``): a hand-picked deal per game on the real engine.

A lesson is a fixed deal and a script of every action in it. The AI seats' actions are
played as written (the engine validates each, as it validates any action); at each of
your turns the script says what to look for, which moves it takes (:class:`Turn`), and why
the others are not what this deal needs. A move the rules refuse is refused with the
rules' reason; a legal move that is not the lesson's is explained and can be retried.

The lesson keeps no state on the server: the page sends the moves it made so far and the
one it tries now (:func:`attempt`), the deal is rebuilt from the script and those moves.

>>> state = attempt(find_lesson("runfast"), [], None)
>>> state["step"], state["observation"]["hand_sizes"], state["tip"]["key"]
(0, [16, 16, 16], 'learn.runfast.t0.tip')
>>> attempt(find_lesson("runfast"), [], {"pass": True})["result"]["kind"]
'illegal'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardavia.cards import Card, CardError, card_strings, parse_cards
from cardavia.rules.errors import RulesError
from cardavia.rules.guandan.deal import GuandanDeal
from cardavia.rules.observation import history_entry_json, observation
from cardavia.rules.runfast.deal import RunFastDeal
from cardavia.rules.trick import TrickDeal

LEARNER = 0


@dataclass(frozen=True, slots=True)
class Turn:
    """One of your turns: the moves it takes (card lists; ``()`` is a pass; ranks and
    wild cards matter, suits do not), or ``rest``: any play that empties your hand."""

    accept: tuple[tuple[str, ...], ...] = ()
    rest: bool = False


#: An AI action: its seat and cards ("" for a pass); or one of your turns.
Action = tuple[int, str] | Turn


@dataclass(frozen=True, slots=True)
class Lesson:
    game: str
    hands: tuple[str, ...]  # seat 0 first, cards separated by spaces
    script: tuple[Action, ...]
    level: int | None = None

    @property
    def turns(self) -> int:
        return sum(1 for a in self.script if isinstance(a, Turn))

    def deal(self) -> TrickDeal:
        hands = [parse_cards(h.split()) for h in self.hands]
        if self.level is not None:
            return GuandanDeal.start(hands, self.level, leader=LEARNER, team_levels=(self.level, self.level))
        return RunFastDeal.start(hands)


def _t(*accept: str, rest: bool = False) -> Turn:
    return Turn(tuple(tuple(a.split()) for a in accept), rest)


P = ""  # a pass

RUNFAST = Lesson(
    RunFastDeal.game,
    (
        "3h 4s 5c 6d 7s 9s 9h Ts Tc Jd Jh Ks Kh Kc Kd As",
        "8s 9c Th Js Qs 3s 3c 4h 4c 5s 6s 7h 8h Qh Ac 2s",
        "3d 4d 5h 5d 6h 6c 7c 7d 8c 8d 9d Td Jc Qc Qd Ad",
    ),
    (
        _t("3h 4s 5c 6d 7s"),  # t0: the opening must include 3h: a straight sheds five
        (1, "8s 9c Th Js Qs"),
        (2, P),
        _t("Ks Kh Kc Kd"),  # t1: must beat: the bomb is the only reply (+20 if it stands)
        (1, P),
        (2, P),
        _t("9s 9h Ts Tc Jd Jh"),  # t2: the longest play nobody can beat
        (1, P),
        (2, P),
        _t(rest=True),  # t3: go out
    ),
)

GUANDAN = Lesson(
    GuandanDeal.game,
    (
        "3c 4d 5s 6c 7d Ts Jh Qc Kd As Ah Ac 7s 7h 7c 2h 8s 8h 8c 9s 9h 9c Js Jc Jd 5h 5c",
        "3s 3h 3d 4s 4s 4h 4c 4c 4d 5d 6s 6h 6h 6c 6d 6d 7s 8s 8d 9d Th Th Tc Jd Qs Ks Kc",
        "2s 2s 2h 2c 2c 2d 2d 3s 3h 4h 5c 7c 8c 9h Td Js Qh Kh As Ah Ac Ad Ad BJ BJ RJ RJ",
        "3c 3d 5s 5h 5d 6s 7h 7d 8h 8d 9s 9c 9d Ts Tc Td Jh Jc Qs Qh Qc Qd Qd Ks Kh Kc Kd",
    ),
    (
        _t("3c 4d 5s 6c 7d"),  # t0: lead low and long: a straight
        (1, "5d 6h 7s 8d 9d"),
        (2, "8c 9h Td Js Qh"),
        (3, P),
        _t(""),  # t1: your partner is winning: pass
        (1, P),
        (2, "3s 3h"),
        (3, "9s 9d"),
        _t("Ah Ac"),  # t2: beat the opponent with your loose pair
        (1, P),
        (2, P),
        (3, P),
        _t("Ts Jh Qc Kd As"),  # t3: your highest straight
        (1, "6s 6h 6c 6d"),
        (2, P),
        (3, P),
        _t("7s 7h 7c 2h"),  # t4: a wild heart makes three sevens a bomb that beats the sixes
        (1, P),
        (2, P),
        (3, P),
        _t("8s 8h 8c 9s 9h 9c", "Js Jc Jd 5h 5c"),  # t5: the long plays first
        (1, P),
        (2, P),
        (3, P),
        _t(rest=True),  # t6: go out
        # you are out first: the others play on (the partner goes out second, G-6.1)
        (1, "4s 4s 4c 4c"),
        (2, P),
        (3, P),
        (1, "3s 3d 3h 4d 4h"),
        (2, "As Ac Ad 4h 2h"),
        (3, P),
        (1, P),
        (2, "5c"),
        (3, "7d"),
        (1, "8s"),
        (2, "Kh"),
        (3, P),
        (1, P),
        (2, "7c"),
        (3, "8d"),
        (1, P),
        (2, P),
        (3, "5s 5d 5h 3c 3d"),
        (1, P),
        (2, P),
        (3, "6s 7h 8h 9c Ts"),
        (1, P),
        (2, P),
        (3, "Tc Td"),
        (1, P),
        (2, "Ad Ah"),
        (3, P),
        (1, P),
        (2, "BJ BJ RJ RJ"),
        (3, P),
        (1, P),
        (2, "2s 2s 2c 2c 2d 2d"),
        (3, P),
        (1, P),
        (3, "Jc Jh"),
        (1, P),
        (3, "Qs Qc Qd Qd Qh"),
        (1, P),
        (3, "Ks Kc Kd Kh"),
    ),
    level=2,
)

LESSONS: dict[str, Lesson] = {RUNFAST.game: RUNFAST, GUANDAN.game: GUANDAN}


class LessonError(ValueError):
    """The moves sent do not follow the lesson (a page out of date or a forged request)."""


def find_lesson(game: str) -> Lesson:
    try:
        return LESSONS[game]
    except KeyError:
        raise LessonError(f"there is no lesson for {game!r}") from None


def _shape(cards: Sequence[Card], level: int | None) -> Counter[str]:
    """What a move is made of, for comparing it with the lesson's: the ranks, the wild
    hearts apart (suits do not matter)."""
    shape: Counter[str] = Counter()
    for c in cards:
        wild = (
            level is not None and not c.is_joker and c.suit is not None
            and c.suit.value == "h" and int(c.rank) == level
        )
        shape["wild" if wild else c.rank.symbol] += 1
    return shape


def _matches(turn: Turn, cards: Sequence[Card], deal: TrickDeal, level: int | None) -> bool:
    if turn.rest:
        return bool(cards) and len(cards) == len(deal.hand(LEARNER))
    shape = _shape(cards, level)
    return any(_shape(parse_cards(list(a)), level) == shape for a in turn.accept if a) or (
        not cards and any(not a for a in turn.accept)
    )


def _apply(deal: TrickDeal, seat: int, cards: Sequence[Card]) -> None:
    if not cards:
        deal.pass_turn(seat)
        return
    readings = deal.legal_readings(seat, cards)
    if not readings:
        raise RulesError(f"seat {seat} cannot play {' '.join(card_strings(cards))} now")
    deal.play_combo(seat, readings[0])


def attempt(lesson: Lesson, moves: Sequence[Sequence[str]], trying: dict[str, Any] | None) -> dict[str, Any]:
    """The lesson after your ``moves`` (the accepted ones, in order) and, if given, the
    move you try now (``{"cards": [...]}`` or ``{"pass": true}``)."""
    deal = lesson.deal()
    level = lesson.level
    done = 0  # learner turns taken
    queue = [list(m) for m in moves]
    last_turn_at = 0  # where in the history your last accepted move ended
    index = 0
    script = lesson.script
    result: dict[str, Any] | None = None
    try:
        while index < len(script) and not deal.over:
            action = script[index]
            if isinstance(action, Turn):
                if queue:
                    cards = parse_cards(queue.pop(0))
                    if not _matches(action, cards, deal, level):
                        raise LessonError("a move sent is not the lesson's")
                    _apply(deal, LEARNER, cards)
                elif trying is not None:
                    result = _try(deal, action, trying, level)
                    trying = None
                    if not result["ok"]:
                        break
                else:
                    break
                done += 1
                last_turn_at = len(deal.plays)
            else:
                seat, text = action
                _apply(deal, seat, parse_cards(text.split()) if text else [])
            index += 1
    except (RulesError, CardError) as err:
        raise LessonError(f"the lesson cannot go on: {err}") from None
    if queue:
        raise LessonError("more moves were sent than the lesson has turns")
    return {
        "game": lesson.game,
        "step": done,
        "steps": lesson.turns,
        "done": deal.over,
        "observation": observation(deal, LEARNER).to_json(),
        "since": [history_entry_json(s, c) for s, c in deal.plays[last_turn_at:]],
        "tip": None if deal.over else {"key": f"learn.{lesson.game}.t{done}.tip"},
        "result": result,
        "hands": [card_strings(deal.hand(s)) for s in range(deal.n_seats)] if deal.over else None,
    }


def _try(deal: TrickDeal, turn: Turn, trying: dict[str, Any], level: int | None) -> dict[str, Any]:
    """Judge the move you try: refused by the rules, not the lesson's, or taken."""
    step_key = f"learn.{deal.game}.t"
    wants_pass = trying.get("pass") is True
    raw = trying.get("cards") or []
    if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
        raise LessonError("'cards' must be a list of card names")
    cards = [] if wants_pass else parse_cards(raw)
    if not wants_pass and not cards:
        raise LessonError("send 'cards' or 'pass'")
    try:
        if wants_pass:
            if deal.top is None:
                return _verdict("illegal", "learn.illegal.leadPass", "you lead: you cannot pass")
            why = deal.check_pass(LEARNER)
            if why is not None:
                return _verdict("illegal", "learn.illegal.mustBeat", why)
        elif not deal.legal_readings(LEARNER, cards):
            deal.choose_reading(LEARNER, cards, None)  # raises the rules' reason
            return _verdict("illegal", "learn.illegal.rules", "not a legal play now")
    except RulesError as err:
        return _verdict("illegal", "learn.illegal.rules", str(err))
    number = _turn_number(deal, turn)
    if not _matches(turn, cards, deal, level):
        return _verdict("wrong", f"{step_key}{number}.wrong")
    _apply(deal, LEARNER, cards)
    return {**_verdict("taken", f"{step_key}{number}.why"), "ok": True, "cards": card_strings(cards)}


def _verdict(kind: str, explain: str, message: str = "") -> dict[str, Any]:
    """``kind``: ``illegal`` (the rules refuse it: ``message`` is their English sentence),
    ``wrong`` (legal, not the lesson's) or ``taken``; ``explain`` a catalog key."""
    return {"ok": False, "kind": kind, "explain": explain, "message": message}


def _turn_number(deal: TrickDeal, turn: Turn) -> int:
    lesson = LESSONS[deal.game]
    turns = [a for a in lesson.script if isinstance(a, Turn)]
    return next(i for i, t in enumerate(turns) if t is turn)


__all__ = ["GUANDAN", "LESSONS", "RUNFAST", "Lesson", "LessonError", "Turn", "attempt", "find_lesson"]
