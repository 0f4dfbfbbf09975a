"""Every agent decision carries a language-independent reason: a catalog key and neutral args.

The key names ``reasons.<key>`` in every web catalog; the args fill exactly that string's
placeholders; combos are combo objects (type, rank, size) of the move played (or the
alternative, ``alt``), cards are card text, everything else a string.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from cardavia.ai.base import Agent, Decision, ReturnDecision
from cardavia.ai.runner import play_out, runfast_deal, step
from cardavia.cards import parse_cards
from cardavia.observation import Observation
from cardavia.rules.guandan.match import GuandanMatch

from .seats import seat_agents

I18N = Path(__file__).resolve().parents[2] / "src" / "cardavia" / "web" / "i18n"
LANGS = ("en", "nl", "hi", "hu", "th", "fi", "zh")
CATALOGS = {lang: json.loads((I18N / f"{lang}.json").read_text("utf-8")) for lang in LANGS}
COMBO_KEYS = {"type", "rank", "size"}


def _check(key: str, args: dict[str, Any], english: str, played: dict[str, Any] | None) -> None:
    assert english, "the English reason stays"
    assert key, f"no reason key for {english!r}"
    for lang in LANGS:
        text = CATALOGS[lang].get(f"reasons.{key}")
        assert text, f"reasons.{key} missing in {lang}.json"
        wanted = set(re.findall(r"\{(\w+)\}", text))
        assert wanted <= set(args), f"{lang} reasons.{key} needs {wanted - set(args)}; args {args}"
    for name, value in args.items():
        if isinstance(value, dict):
            assert set(value) == COMBO_KEYS, (key, name, value)
            assert isinstance(value["type"], str) and isinstance(value["size"], int)
            assert value["rank"] is None or isinstance(value["rank"], str)
            if name == "combo" and played is not None:
                assert value == {k: played[k] for k in COMBO_KEYS}, (key, value, played)
        else:
            assert isinstance(value, str), (key, name, value)
            if name == "card":
                assert len(parse_cards(value)) == 1
    json.dumps(args)  # JSON-safe as sent in the hint frame


class Recorder:
    """Wraps agents: checks every play/pass and return-card reason, counts the keys."""

    def __init__(self) -> None:
        self.keys: Counter[str] = Counter()

    def __call__(self, seat: int, obs: Observation, decision: Decision, seconds: float) -> None:
        played = None if decision.combo is None else decision.combo.to_json()
        _check(decision.reason_key, decision.reason_args, decision.reason, played)
        self.keys[decision.reason_key] += 1

    def wrap(self, agent: Agent) -> Agent:
        recorder = self

        class Wrapped:
            name = agent.name

            def act(self, obs: Observation) -> Decision:
                return agent.act(obs)

            def choose_return(self, obs: Observation) -> ReturnDecision:
                ret = agent.choose_return(obs)
                _check(ret.reason_key, ret.reason_args, ret.reason, None)
                assert ret.reason_args.get("card", str(ret.card)) == str(ret.card)
                recorder.keys[ret.reason_key] += 1
                return ret

        return Wrapped()


@pytest.mark.parametrize("kind", ["random", "basic", "loose", "expert"])
def test_guandan_reasons_are_keyed(kind: str) -> None:
    rec = Recorder()
    match = GuandanMatch(seed=21)
    agents = [rec.wrap(a) for a in seat_agents(kind, 4, seed=3, expert_ms=6)]
    for _ in range(2 if kind == "expert" else 3):
        deal = match.start_deal()
        while not deal.over:
            step(deal, agents, rec)
        match.finish_deal()
    assert sum(rec.keys.values()) > 50
    if kind == "basic":
        assert len(rec.keys) >= 5, rec.keys


@pytest.mark.parametrize("kind", ["random", "basic", "loose", "expert"])
def test_runfast_reasons_are_keyed(kind: str) -> None:
    rec = Recorder()
    for seed in range(4):
        play_out(runfast_deal(200 + seed), [rec.wrap(a) for a in seat_agents(kind, 3, seed, expert_ms=6)], rec)
    assert sum(rec.keys.values()) > 40
    if kind == "basic":
        assert len(rec.keys) >= 4, rec.keys


def test_every_reason_key_is_in_every_catalog() -> None:
    en = {k for k in CATALOGS["en"] if k.startswith("reasons.")}
    assert len(en) >= 30
    for lang in LANGS:
        keys = {k for k in CATALOGS[lang] if k.startswith("reasons.")}
        assert keys == en, (lang, keys ^ en)
        for key in en:
            assert set(re.findall(r"\{(\w+)\}", CATALOGS[lang][key])) == set(
                re.findall(r"\{(\w+)\}", CATALOGS["en"][key])
            ), (lang, key)
