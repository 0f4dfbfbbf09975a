"""Learn and improve in the browser: the guided first deals clicked through (a wrong move
explained and retried), the cheat sheet, the "why?" of an AI play, the review of a
finished deal, the history after a reload, a downloaded record re-opened in /replay and a
tampered one refused."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from cardavia.web.lessons import LESSONS, Turn
from tests.browser.conftest import (
    CATALOGS,
    CORNER,
    Live,
    Watch,
    audit_frames,
    open_table,
    shot,
    visit_table,
    wait_for_me,
    wait_ready,
)
from tests.browser.test_i18n import check_language

pytestmark = pytest.mark.browser

#: A legal move of each lesson that is not the lesson's (turn number → cards or pass).
WRONG = {"guandan": (1, ["Ts", "Jh", "Qc", "Kd", "As"]), "runfast": (2, ["9s", "9h", "Ts", "Tc"])}


def _click_cards(page: Page, texts: list[str]) -> None:
    for text in texts:
        page.locator(f'#lesson-hand button.card[data-card="{text}"][aria-pressed="false"]').first.click(position=CORNER)


def _turn_state(page: Page) -> dict[str, Any]:
    state: dict[str, Any] = page.evaluate("() => window.cardavia.lesson.state")
    return state


def _wait_step(page: Page, step: int) -> None:
    page.wait_for_function(
        "(n) => { const l = document.querySelector('#lesson'); return l.dataset.step === String(n) "
        "&& ['turn', 'done'].includes(l.dataset.state) && !window.cardavia.lesson.busy }",
        arg=step,
    )


def play_lesson(page: Page, live: Live, game: str, lang: str) -> None:
    page.goto(f"{live.http}/learn/{game}?lang={lang}")
    check_language(page, lang, f"learn {game}")
    assert page.locator(".learn-figure .card-row").count() >= 5  # the cards are drawn
    page.click('[data-testid="lesson-start"]')
    _wait_step(page, 0)
    turns = [a for a in LESSONS[game].script if isinstance(a, Turn)]
    cat = CATALOGS[lang]
    for step, turn in enumerate(turns):
        _wait_step(page, step)
        assert page.inner_text('[data-testid="coach-tip"]') == cat[f"learn.{game}.t{step}.tip"]
        if step == 0:
            check_language(page, lang, f"guided {game} deal")
            shot(page, f"lesson-{game}-{lang}")
        wrong_at, wrong = WRONG[game]
        if step == wrong_at:
            _click_cards(page, wrong)
            page.click('[data-testid="lesson-play"]')
            verdict = page.locator('[data-testid="coach-verdict"][data-kind="wrong"]')
            verdict.wait_for()
            assert cat[f"learn.{game}.t{step}.wrong"] in verdict.inner_text()
            assert _turn_state(page)["step"] == step  # not taken: retry
            page.click('[data-testid="lesson-clear"]')
        cards = _turn_state(page)["observation"]["hand"] if turn.rest else list(turn.accept[0])
        if cards:
            _click_cards(page, cards)
            page.click('[data-testid="lesson-play"]')
        else:
            page.click('[data-testid="lesson-pass"]')
        _wait_step(page, step + 1)
        verdict = page.locator('[data-testid="coach-verdict"]')
        assert verdict.get_attribute("data-kind") == "taken"
        assert cat[f"learn.{game}.t{step}.why"] in verdict.inner_text()
    page.wait_for_function("() => document.querySelector('#lesson').dataset.state === 'done'")
    assert page.inner_text('[data-testid="coach-tip"]') == cat[f"learn.{game}.done"]
    assert page.locator('[data-testid="summary"]').count() == 1


@pytest.mark.parametrize(("game", "lang"), [("guandan", "en"), ("runfast", "en"), ("guandan", "zh"), ("runfast", "fi")])
def test_guided_first_deal(page: Page, live: Live, game: str, lang: str) -> None:
    play_lesson(page, live, game, lang)


def test_an_illegal_lesson_move_is_refused_with_the_rules_reason(page: Page, live: Live) -> None:
    page.goto(f"{live.http}/learn/runfast")
    page.click('[data-testid="lesson-start"]')
    _wait_step(page, 0)
    _click_cards(page, ["9s"])  # the first play must include 3h
    page.click('[data-testid="lesson-play"]')
    verdict = page.locator('[data-testid="coach-verdict"][data-kind="illegal"]')
    verdict.wait_for()
    assert CATALOGS["en"]["learn.illegal.rules"] in verdict.inner_text()
    page.click('[data-testid="lesson-pass"]')  # the leader cannot pass
    page.wait_for_function("() => document.querySelector('#coach-verdict').textContent.includes('leader must play')")


def test_cheat_sheet_and_why(page: Page, live: Live) -> None:
    table_id = open_table(page, live, "guandan", seed=5, difficulty="easy", partner="normal")
    page.click('[data-testid="cheat-toggle"]')
    sheet = page.locator('[data-testid="cheat"]')
    sheet.wait_for(state="visible")
    level = page.evaluate("() => window.cardavia.state.observation.level")
    assert level in sheet.inner_text()
    assert sheet.locator('[data-testid="cheat-ladder"] li').count() == 5
    assert sheet.locator(".example").count() == 7
    assert page.locator('[data-testid="cheat-level"] .mini.wild').count() == 1
    shot(page, "cheat-sheet")
    # play until an AI seat has played in the current trick: its "why?" tells its reason
    for _ in range(30):
        wait_for_me(page)
        button = page.locator(".seat button.why-btn")
        if button.count():
            button.first.click()
            text = page.inner_text('[data-testid="why-text"]')
            assert " — " in text and "{" not in text
            return
        page.click('[data-testid="hint"]')
        page.wait_for_function("() => window.cardavia.hints > 0")
        page.click('[data-testid="play"]' if page.is_enabled('[data-testid="play"]') else '[data-testid="pass"]')
    raise AssertionError(f"no AI play with a reason at table {table_id}")


def _poor_deal(live: Live) -> tuple[str, str]:
    """A Guandan deal where seat 0 leads its strongest single and follows with its biggest
    play (a scripted poor player), finished over a plain WebSocket."""
    from websockets.sync.client import connect

    created = live.create("guandan", seed=3, difficulty="easy", partner="easy")
    table_id, token = created["table_id"], created["token"]
    acted = -1
    with connect(f"ws://127.0.0.1:{live.port}/ws/tables/{table_id}?token={token}") as ws:
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] != "state":
                assert msg["type"] != "error", msg
                continue
            obs = msg["observation"]
            if obs["phase"] == "over":
                return table_id, token
            if not (obs["phase"] == "play" and obs["turn"] == 0) or msg["seq"] <= acted:
                continue
            table = live.table_at(table_id)
            if table.seq != msg["seq"]:
                continue
            acted = msg["seq"]
            moves = table.deal.legal_moves(0)
            if table.deal.leading:
                moves = [m for m in moves if m.size == 1] or moves
            if not moves:
                ws.send(json.dumps({"type": "pass"}))
                continue
            pick = max(moves, key=lambda m: (m.tier, m.power, m.size))
            rank = None if pick.rank is None else pick.rank.symbol
            ws.send(json.dumps({"type": "play", "cards": [str(c) for c in pick.cards],
                                "interpretation": {"type": pick.type.value, "rank": rank}}))


def test_review_history_download_and_replay(page: Page, live: Live, tmp_path: Path) -> None:
    table_id, token = _poor_deal(live)
    visit_table(page, live, (table_id, token))
    link = page.locator('[data-testid="review-link"]')
    link.wait_for()
    link.click()
    page.wait_for_function("() => document.querySelector('#replay-page').dataset.review === 'ready'", timeout=120_000)
    decisions = page.locator('[data-testid="review-decision"]')
    events = live.events(table_id)
    mine = [e for e in events if e["event"] in ("played", "passed") and e["seat"] == 0]
    assert decisions.count() == len(mine)
    assert page.locator('[data-testid="review-decision"][data-label="mistake"]').count() >= 1
    assert page.locator('[data-testid="moment"]').count() >= 1
    # a decision shows the table as it was then
    page.locator('[data-testid="review-decision"][data-label="mistake"] [data-testid="review-go"]').first.click()
    step = page.get_attribute('[data-testid="review-decision"][data-label="mistake"]', "data-step")
    assert page.get_attribute("#replay-page", "data-step") == step
    shot(page, "review")
    page.click('[data-testid="rp-auto"]')
    page.wait_for_function("(s) => document.querySelector('#replay-page').dataset.step !== s", arg=step)
    page.click('[data-testid="rp-auto"]')

    # the history lists the match, after a reload too
    page.goto(f"{live.http}/history")
    row = page.locator(f'[data-testid="history-row"][data-table="{table_id}"]')
    row.wait_for()
    page.reload()
    row.wait_for()
    check_language(page, "en", "history")
    shot(page, "history")
    with page.expect_download() as info:
        row.locator('[data-testid="history-download"]').click()
    record = tmp_path / "record.jsonl"
    info.value.save_as(record)
    lines = record.read_text().splitlines()
    assert len(lines) == 1 and json.loads(lines[0])["game"] == "guandan"

    page.goto(f"{live.http}/replay")
    page.set_input_files('[data-testid="replay-file"]', str(record))
    page.wait_for_function("() => document.querySelector('#replay-page').dataset.state === 'deal'")
    assert page.locator('[data-testid="rp-seat-0"] .tcard').count() == 27
    page.click('[data-testid="rp-last"]')
    assert page.locator('[data-testid="rp-seat-0"] .tcard').count() == 0

    tampered = json.loads(lines[0])
    tampered["actions"][0]["cards"] = tampered["hands"][1][:1]  # seat 0 plays seat 1's card
    bad = tmp_path / "tampered.jsonl"
    bad.write_text(json.dumps(tampered) + "\n")
    page.set_input_files('[data-testid="replay-file"]', str(bad))
    page.wait_for_function("() => document.querySelector('#replay-page').dataset.state === 'refused'")
    error = page.inner_text('[data-testid="replay-error"]')
    assert error.startswith(CATALOGS["en"]["replay.invalid"]) and "not a valid game record" in error


@pytest.mark.parametrize("lang", ["nl", "hi", "hu", "th", "fi", "zh"])
def test_new_pages_have_no_english(page: Page, live: Live, lang: str) -> None:
    for path in ("/learn/guandan", "/learn/runfast", "/history", "/replay", "/rules/guandan"):
        page.goto(f"{live.http}{path}?lang={lang}")
        page.wait_for_load_state("networkidle")
        check_language(page, lang, path)


def test_why_survives_a_reload(page: Page, live: Live, watched: Watch) -> None:
    """After a reload the AI seats' "why?" on the current trick still answers (the reason
    comes with the connect frame), and the page shows no card it may not see."""
    from tests.browser.test_friends import allowed_at, shown

    table_id = open_table(page, live, "guandan", seed=5, difficulty="easy", partner="normal")
    before: dict[str, str] = {}
    for _ in range(30):
        wait_for_me(page)
        buttons = page.locator(".seat button.why-btn")
        if buttons.count():
            for i in range(buttons.count()):
                b = buttons.nth(i)
                b.dispatch_event("click")
                before[str(b.get_attribute("data-testid"))] = page.inner_text('[data-testid="why-text"]')
            break
        page.click('[data-testid="hint"]')
        page.wait_for_function("() => window.cardavia.hints > 0")
        page.click('[data-testid="play"]' if page.is_enabled('[data-testid="play"]') else '[data-testid="pass"]')
    assert before, f"no AI play with a reason at table {table_id}"
    page.reload()
    wait_ready(page)
    wait_for_me(page)
    after: dict[str, str] = {}
    buttons = page.locator(".seat button.why-btn")
    for i in range(buttons.count()):
        b = buttons.nth(i)
        b.dispatch_event("click")
        after[str(b.get_attribute("data-testid"))] = page.inner_text('[data-testid="why-text"]')
    assert after == before
    unknown = CATALOGS["en"]["why.unknown"]
    assert all(" — " in text and "{" not in text and unknown not in text for text in after.values())
    seq, cards = shown(page)
    assert cards <= allowed_at(live, table_id, seq, 0)
    assert audit_frames(watched.frames, live, table_id, 0) >= 1


def _second_deal_with_a_return(live: Live) -> tuple[str, str]:
    """A solo Guandan table whose second deal is over, seat 0 having returned a card."""
    from websockets.sync.client import connect

    from tests.browser.conftest import finish_deal_over_ws

    for seed in range(60, 80):
        created = live.create("guandan", seed=seed, difficulty="easy", partner="easy")
        table_id, token = created["table_id"], created["token"]
        finish_deal_over_ws(live, table_id, token)
        with connect(f"ws://127.0.0.1:{live.port}/ws/tables/{table_id}?token={token}") as ws:
            ws.send(json.dumps({"type": "next_deal"}))
            while True:
                msg = json.loads(ws.recv(timeout=30))
                if msg["type"] == "state" and msg["observation"]["deal_index"] == 1:
                    break
        if msg["observation"]["return_options"]:
            finish_deal_over_ws(live, table_id, token)
            return table_id, token
    raise AssertionError("no seed gave seat 0 a return card")


def test_the_return_card_on_the_review_timeline(page: Page, live: Live) -> None:
    table_id, token = _second_deal_with_a_return(live)
    returned = next(e for e in live.events(table_id) if e["event"] == "returned" and e["from"] == 0)
    visit_table(page, live, (table_id, token))
    page.locator('[data-testid="review-link"]').click()
    page.wait_for_function("() => document.querySelector('#replay-page').dataset.review === 'ready'", timeout=120_000)
    first = page.locator('[data-testid="review-decision"]').first
    assert first.get_attribute("data-step") == "0"
    assert "return" in first.inner_text() and returned["card"][0].replace("T", "10") in first.inner_text()
    label = first.get_attribute("data-label")
    moment = page.locator('[data-testid="moment"][data-kind="return"]')
    assert moment.count() == 1 and moment.get_attribute("data-label") == label
    assert CATALOGS["en"][f"review.label.{label}"] in str(moment.get_attribute("title"))
    shot(page, "review-return")
