"""The words of a table with friends: a spectator sits on no side, so nothing they see
says "you", "your team", "partner" or "opponents" (seats, score line, levels, tribute bar,
end-of-deal settlement, log) in any language; at a table with several people, another
person's turn says whom the table waits for (or that the bot plays for them), never
"Thinking…" as for an AI."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.conftest import CATALOGS, LANGS, NO_AUTO_PASS, Live, finish_deal_over_ws, wait_ready
from tests.browser.test_i18n import english_left

pytestmark = pytest.mark.browser

#: The catalog strings that speak from a seat's side (seat 0's for a spectator, before).
SIDED_KEYS = (
    "seat.guandan.0", "seat.guandan.1", "seat.guandan.2", "seat.guandan.3",
    "scores.usTeam", "scores.themTeam", "summary.weWin.one", "summary.weWin.other",
    "summary.theyWin.one", "summary.theyWin.other", "summary.levels", "summary.matchWon",
    "summary.matchLost", "log.tributeYou", "log.returnYou", "tribute.pendingYou",
    "seat.yourTurn", "turn.yoursLead", "turn.yoursFollow",
)
#: What a spectator is shown instead: their pieces ("level", "wins") are not sided.
NEUTRAL_KEYS = ("team.of", "summary.teamWins.one", "summary.teamWins.other", "summary.teamLevels",
                "summary.teamWinsMatch", "people.seatN", "log.tribute", "log.return", "tribute.pending")
#: Where the table shows who is who: seats, score line, levels, tribute bar, summary, log.
REGIONS = ("#seats", "#my-seat", "#scoreboard", "#scores-body", "#tribute-bar", "#center", "#log",
           "#turn-banner")
REGION_TEXT = """(sel) => sel.map((s) => {
  const el = document.querySelector(s);
  if (!el) return '';
  const labels = [...el.querySelectorAll('[aria-label],[title]')]
    .flatMap((e) => [e.getAttribute('aria-label'), e.getAttribute('title')]).filter(Boolean);
  return [el.textContent, ...labels].join('\\n');
}).join('\\n')"""


def sided_fragments(lang: str) -> set[str]:
    """The pieces of the sided strings of ``lang`` (placeholders cut out)."""
    out: set[str] = set()
    neutral = "\n".join(CATALOGS[lang][k] for k in NEUTRAL_KEYS)
    for key in SIDED_KEYS:
        for piece in re.split(r"\{\w+\}", CATALOGS[lang][key]):
            piece = piece.strip(" :·—→()%,.!?：，。！…")
            if piece and piece not in neutral:
                out.add(piece)
    return out


def sided_words(page: Page, lang: str) -> list[str]:
    text: str = page.evaluate(REGION_TEXT, list(REGIONS))
    found = []
    for piece in sided_fragments(lang):
        latin = re.search(r"[A-Za-zÀ-ɏ]", piece) is not None
        pattern = rf"(?<!\w){re.escape(piece)}(?!\w)" if latin else re.escape(piece)
        if re.search(pattern, text):
            found.append(piece)
    return sorted(found)


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made
    for ctx in made:
        ctx.close()


def _page(browser: Browser, made: list[BrowserContext]) -> Page:
    ctx = browser.new_context(viewport={"width": 1366, "height": 657})
    ctx.add_init_script(NO_AUTO_PASS)
    made.append(ctx)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    return page


def _look_in_every_language(page: Page, live: Live, table_id: str, where: str) -> None:
    for lang in LANGS:
        page.goto(f"{live.http}/table/{table_id}?lang={lang}")
        wait_ready(page)
        page.wait_for_function("() => document.querySelector('#table').dataset.viewer === 'spectator'")
        assert page.locator('[data-testid="summary"], #tribute-bar:not([hidden])').count(), where
        left = sided_words(page, lang)
        assert not left, f"the spectator's {where} in {lang} speaks from a side: {left}"
        text = page.evaluate(REGION_TEXT, list(REGIONS)).replace("Ann", " ")  # a name is no English
        assert english_left(text, lang) == [], (where, lang)


def test_a_spectator_sees_no_side(browser: Browser, live: Live, contexts: list[BrowserContext]) -> None:
    created = live.create("guandan", seats=["person", "easy", "easy", "easy"], name="Ann", seed=3,
                          spectators="public", difficulty="easy")
    table_id = created["table_id"]
    finish_deal_over_ws(live, table_id, created["token"])
    spectator = _page(browser, contexts)
    spectator.goto(f"{live.http}/watch/{created['watch']}")
    spectator.wait_for_url(f"**/table/{table_id}")
    wait_ready(spectator)
    # the end-of-deal settlement: the teams by their seats' names
    spectator.wait_for_selector('[data-testid="summary"]')
    summary = spectator.inner_text('[data-testid="summary"]')
    assert "Ann" in summary and "Seat 3" in summary, summary
    _look_in_every_language(spectator, live, table_id, "finished deal")
    # the next deal: the tribute (and returns) on the bar, the first trick under way
    from websockets.sync.client import connect

    with connect(f"ws://127.0.0.1:{live.port}/ws/tables/{table_id}?token={created['token']}") as ws:
        ws.send(json.dumps({"type": "next_deal"}))
        while True:
            msg = json.loads(ws.recv(timeout=30))
            if msg["type"] == "state" and msg["observation"]["deal_index"] == 1 and (
                msg["observation"]["return_options"] or msg["observation"]["turn"] == 0
            ):
                break
    spectator.goto(f"{live.http}/table/{table_id}?lang=en")
    wait_ready(spectator)
    spectator.wait_for_selector("#tribute-bar:not([hidden])")
    scoreboard = spectator.inner_text("#scoreboard")
    assert "Ann & Seat 3" in scoreboard and "Seat 2 & Seat 4" in scoreboard, scoreboard
    _look_in_every_language(spectator, live, table_id, "next deal's tribute")


BADGES = """() => {
  window.__badges = [];
  const seen = () => {
    for (const b of document.querySelectorAll('.turn-badge')) {
      const seat = b.closest('[data-seat]').dataset.seat;
      const last = window.__badges[window.__badges.length - 1];
      if (!last || last.seat !== seat || last.text !== b.textContent) {
        window.__badges.push({ seat, text: b.textContent, html: b.innerHTML });
      }
    }
  };
  new MutationObserver(seen).observe(document.querySelector('#table'), { childList: true, subtree: true });
  seen();
}"""


def test_another_persons_turn_says_whom_the_table_waits_for(
    browser: Browser, live: Live, contexts: list[BrowserContext]
) -> None:
    from tests.browser.test_friends import host_page, join_by_link, play_people

    mate_name = "Bé<i>a</i>"  # a name is text, never markup
    created = live.create("guandan", seats=["person", "easy", "person", "easy"], name="Ann", seed=1,
                          grace_seconds=1)
    table_id = created["table_id"]
    host_ctx = browser.new_context(viewport={"width": 1366, "height": 657})
    host_ctx.add_init_script(NO_AUTO_PASS)
    contexts.append(host_ctx)
    host, _ = host_page(host_ctx, live, created)
    host.evaluate(BADGES)
    mate = _page(browser, contexts)
    join_by_link(mate, live, f"{live.http}{created['invites'][0]['url']}", mate_name)
    host.wait_for_function("() => document.querySelector('#table').dataset.waiting === 'false'")
    pages = {0: host, 2: mate}
    play_people(live, table_id, pages, lambda: None,
                until=lambda t: t.seats_to_act() == [2] and len(t.deal.plays) >= 2)
    waiting = f"Waiting for {mate_name}…"
    host.wait_for_function("(w) => { const b = document.querySelector('[data-testid=turn-2]');"
                           " return b && b.textContent === w; }", arg=waiting)
    assert host.inner_html('[data-testid="turn-2"]') == waiting.replace("<", "&lt;").replace(">", "&gt;")
    assert mate.inner_text('[data-testid="turn-2"]') == "Your turn"
    # the mate goes away: after the grace period the bot holds the seat, and says so
    mate.context.close()
    contexts.remove(mate.context)

    def stand_in_played(_: object) -> bool:
        return any(e.get("by") == "stand_in" for e in live.events(table_id))

    play_people(live, table_id, {0: host}, lambda: None,
                until=lambda t: stand_in_played(t) or t.deal.over)
    assert stand_in_played(None), "the stand-in never played"
    host.wait_for_function("(n) => window.cardavia.state.seq >= n", arg=len(live.events(table_id)))
    badges = host.evaluate("() => window.__badges")
    by_seat = {(b["seat"], b["text"]) for b in badges}
    assert ("2", f"The bot plays for {mate_name}…") in by_seat, badges
    assert ("2", waiting) in by_seat
    assert ("1", "Thinking…") in by_seat or ("3", "Thinking…") in by_seat, badges  # the AI seats think
    assert all(b["text"] != "Thinking…" for b in badges if b["seat"] in ("0", "2")), badges


def test_a_solo_table_still_thinks(browser: Browser, live: Live, contexts: list[BrowserContext]) -> None:
    from tests.browser.conftest import open_table

    page = _page(browser, contexts)
    open_table(page, live, "runfast", seed=4, difficulty="easy")
    page.evaluate(BADGES)
    from tests.browser.conftest import click_move, wait_for_me
    from tests.browser.policy import choose

    for _ in range(3):
        wait_for_me(page)
        table_id = page.evaluate("() => window.cardavia.tableId")
        table = live.table_at(table_id)
        if table.deal.over:
            break
        click_move(page, choose(table.observation(0)))
    badges = page.evaluate("() => window.__badges")
    assert any(b["text"] == "Thinking…" for b in badges if b["seat"] != "0"), badges
    assert all(b["text"] in ("Thinking…", "Your turn") for b in badges), badges


def test_when_the_creator_leaves_the_next_person_is_host(
    browser: Browser, live: Live, contexts: list[BrowserContext]
) -> None:
    from tests.browser.test_friends import host_page, join_by_link

    created = live.create("runfast", seats=["person", "person", "person"], name="Kai", seed=4)
    host_ctx = browser.new_context(viewport={"width": 1366, "height": 657})
    contexts.append(host_ctx)
    host, _ = host_page(host_ctx, live, created)
    mate = _page(browser, contexts)
    join_by_link(mate, live, f"{live.http}{created['invites'][0]['url']}", "Lea")
    mate.wait_for_selector('[data-testid="host-0"]')
    assert mate.locator('[data-testid="start-now"]').count() == 0
    assert "Host" in host.inner_text('[data-testid="people-seat-0"]')
    host.click('[data-testid="resign"]')
    host.click('[data-testid="resign-confirm"]')
    host.wait_for_selector('[data-testid="left-note"]:not([hidden])')
    # Lea (seat 1) is the host now: her page says so and offers what the creator may do
    mate.wait_for_selector('[data-testid="host-1"]')
    assert mate.locator('[data-testid="host-0"]').count() == 0
    mate.wait_for_selector('[data-testid="start-now"]')
    assert mate.locator('[data-testid="new-link-2"]').is_visible()
    mate.click('[data-testid="start-now"]')
    mate.wait_for_function("() => document.querySelector('#table').dataset.waiting === 'false'")
    assert mate.locator('[data-testid="new-game"]').is_visible()  # restart is hers too
    mate.click('[data-testid="resign"]')
    assert mate.locator('[data-testid="close-table"]').is_visible()
