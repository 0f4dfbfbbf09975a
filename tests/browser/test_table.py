"""The card table on one screen (issue 11): every seat, the trick, the hand and Play / Pass /
Hint inside the viewport without scrolling at laptop and phone sizes, in English and Thai,
at the start of a deal and after twelve plays; the trick shows the played cards and the
seats their passes; wild cards are marked where the fan leaves them visible; auto-pass and
the AI speed persist and a forced pass happens by itself; the leftovers at the end of a
deal; the designed 404 pages."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from tests.browser.conftest import (
    Live,
    Tables,
    Watch,
    click_move,
    open_gear,
    open_table,
    seq,
    ui_state,
    visit_table,
    wait_for_me,
    wait_ready,
    watch,
)
from tests.browser.policy import choose, wild_lead_seed

pytestmark = pytest.mark.browser

VIEWPORTS = [(1280, 720), (1366, 657), (1920, 1080), (390, 844), (360, 740)]
MUST_SHOW = ["hand", "play", "pass", "hint", "trick"]

FITS = (Path(__file__).parent / "fits.js").read_text("utf-8")


def _check_viewports(page: Page, n_seats: int, where: str) -> None:
    ids = MUST_SHOW + [f"seat-{s}" for s in range(n_seats)]
    for width, height in VIEWPORTS:
        page.set_viewport_size({"width": width, "height": height})
        # the fan lays itself out again on resize (a frame or two; more on a busy machine)
        with contextlib.suppress(PlaywrightTimeout):
            page.wait_for_function(f"(ids) => ({FITS})(ids).length === 0", arg=ids, timeout=1500)
        problems = page.evaluate(FITS, ids)
        assert not problems, f"{where} at {width}×{height}: {problems}"


def _plays(page: Page) -> int:
    n: int = page.evaluate(
        "() => (window.cardavia.state.observation.history || []).filter((a) => !a.pass).length")
    return n


def _check_trick(page: Page) -> None:
    """The trick in the middle holds the current trick's plays (data-card on each card),
    its top play highlighted; each seat that passed in this trick shows a pass tag."""
    obs = page.evaluate("() => window.cardavia.state.observation")
    plays = [a for a in obs["trick"] if not a.get("pass")][-3:]
    shown = page.eval_on_selector_all('[data-testid="trick"] [data-card]', "(es) => es.map((e) => e.dataset.card)")
    assert sorted(shown) == sorted(c for a in plays for c in a["cards"])
    if obs["top"]:
        top = page.eval_on_selector_all(
            '[data-testid="trick-top"] [data-card]', "(es) => es.map((e) => e.dataset.card)")
        assert sorted(top) == sorted(plays[-1]["cards"])
    passed = {a["seat"] for a in obs["trick"] if a.get("pass")}
    for s in range(obs["n_seats"]):
        last = [a for a in obs["trick"] if a["seat"] == s]
        tag = page.locator(f'[data-testid="seat-{s}-pass"]')
        if last and last[-1].get("pass"):
            assert tag.is_visible(), f"seat {s} passed but shows no pass tag"
        elif s not in passed:
            assert tag.count() == 0


@pytest.mark.parametrize("lang", ["en", "th"])
def test_one_screen_at_every_size(page: Page, live: Live, lang: str) -> None:
    """Deal start and after twelve plays: everything the person needs is on screen, at
    five viewport sizes, with scrollY == 0; the trick and the pass tags tell the truth."""
    page.goto(f"{live.http}/?lang={lang}")
    table_id = open_table(page, live, "guandan", seed=21, difficulty="easy", partner="normal")
    assert page.evaluate("() => document.documentElement.lang") == lang
    _check_viewports(page, 4, "deal start")
    page.set_viewport_size({"width": 1366, "height": 657})
    saw_pass_tag = False
    for _ in range(200):
        wait_for_me(page)
        if ui_state(page) != "playing" or _plays(page) >= 12:
            break
        _check_trick(page)
        saw_pass_tag |= page.locator('[data-testid$="-pass"]').count() > 0
        click_move(page, choose(live.table_at(table_id, seq(page)).observation(0)))
    assert _plays(page) >= 12
    _check_trick(page)
    assert saw_pass_tag or page.locator('[data-testid$="-pass"]').count() > 0
    _check_viewports(page, 4, "after 12 plays")
    if lang == "en":
        # Run Fast's three seats fit too
        open_table(page, live, "runfast", seed=4)
        _check_viewports(page, 3, "Run Fast")


def test_wild_cards_are_marked_where_the_fan_shows_them(page: Page, live: Live) -> None:
    seed, _cards = wild_lead_seed()
    open_table(page, live, "guandan", seed=seed)
    for width, height in [(1366, 657), (360, 740)]:
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(60)
        wild = page.locator('#hand button.card[data-card="2h"]').first
        assert wild.get_attribute("data-wild") == "true"
        assert "wild" in (wild.get_attribute("aria-label") or "")
        # the badge's centre is not covered by the next card: the wild card is what is there
        covered = page.evaluate("""() => {
          const b = document.querySelector('#hand button.card[data-card="2h"]');
          const badge = b.querySelector('[data-testid="wild-badge"]').getBoundingClientRect();
          const pts = [[badge.left + 1, badge.top + 1], [badge.right - 1, badge.bottom - 1],
                       [badge.left + badge.width / 2, badge.top + badge.height / 2]];
          return pts.map(([x, y]) => document.elementFromPoint(x, y)?.closest('button.card') === b);
        }""")
        assert all(covered), f"the wild badge is covered at {width}×{height}: {covered}"


def test_speed_and_auto_pass_persist(page: Page, live: Live) -> None:
    open_table(page, live, "guandan", seed=3)
    open_gear(page)
    assert page.input_value('[data-testid="ai-speed"]') == "normal"
    assert not page.is_checked('[data-testid="auto-pass"]')  # off in Guandan (this test run's default)
    page.select_option('[data-testid="ai-speed"]', "fast")
    page.check('[data-testid="auto-pass"]')
    page.reload()
    wait_ready(page)
    open_gear(page)
    assert page.input_value('[data-testid="ai-speed"]') == "fast"
    assert page.is_checked('[data-testid="auto-pass"]')
    page.select_option('[data-testid="ai-speed"]', "instant")
    page.uncheck('[data-testid="auto-pass"]')
    page.reload()
    wait_ready(page)
    assert page.input_value('[data-testid="ai-speed"]') == "instant"
    assert not page.is_checked('[data-testid="auto-pass"]')


def test_forced_pass_happens_without_a_click(browser: Browser, live: Live) -> None:
    """Run Fast with the page's own default (auto-pass on): when nothing beats the table,
    the page shows "can't beat" and passes by itself."""
    ctx = browser.new_context(viewport={"width": 1366, "height": 657})
    page = ctx.new_page()
    w = Watch()
    watch(page, live, w)
    try:
        table_id = open_table(page, live, "runfast", seed=11, difficulty="easy")
        open_gear(page)
        assert page.is_checked('[data-testid="auto-pass"]')
        page.click('[data-testid="gear"]')
        for _ in range(300):
            wait_for_me(page)
            state = ui_state(page)
            if state == "deal-over":
                before = seq(page)
                page.click('[data-testid="next-deal"]')
                page.wait_for_function("(n) => window.cardavia.state.seq > n", arg=before)
                continue
            obs = page.evaluate("() => window.cardavia.state.observation")
            if obs["top"] and obs["has_reply"] is False:
                before = seq(page)
                page.locator('[data-testid="cant-beat"]').wait_for()
                page.wait_for_function("(n) => window.cardavia.state.seq > n", arg=before, timeout=5000)
                entry = live.table_at(table_id).log[before]
                assert entry.kind == "passed" and entry.event["seat"] == 0
                assert page.evaluate("() => window.cardavia.autoPasses") == 1
                break
            move = choose(live.table_at(table_id, seq(page)).observation(0))
            assert move.kind == "play"  # Run Fast: a follower that can beat must
            click_move(page, move)
        else:
            raise AssertionError("no forced pass came up")
        assert not w.problems, w.problems
    finally:
        ctx.close()


def test_leftovers_face_up_at_the_end_of_the_deal(page: Page, live: Live, tables: Tables) -> None:
    table_id = tables.finished_runfast[0]
    visit_table(page, live, tables.finished_runfast)
    assert ui_state(page) == "deal-over"
    truth = live.table_at(table_id).hands()
    for seat in range(3):
        box = page.locator(f'[data-testid="leftover-{seat}"]')
        box.wait_for()
        shown = box.locator(".mini").evaluate_all("(es) => es.map((e) => e.dataset.card)")
        assert sorted(shown) == sorted(str(c) for c in truth[seat]), f"seat {seat}"
    assert any(truth), "somebody holds cards at the end of a Run Fast deal"
    page.set_viewport_size({"width": 360, "height": 740})
    ids = ["seat-0", "seat-1", "seat-2", "leftover-1", "leftover-2"]
    # the table lays itself out again on resize (a frame or two; more on a busy machine:
    # a fixed 60 ms wait failed once with a search running on each core)
    with contextlib.suppress(PlaywrightTimeout):
        page.wait_for_function(f"(ids) => ({FITS})(ids).length === 0", arg=ids, timeout=1500)
    assert page.evaluate(FITS, ids) == []


def test_bad_links_get_the_designed_page(page: Page, live: Live, watched: Watch) -> None:
    for path in ("/table/doesnotexist42", "/table/%3Cscript%3E", "/table/" + "a" * 80, "/nowhere", "/rules/chess"):
        response = httpx.get(f"{live.http}{path}", headers={"Accept": "text/html"}, timeout=10)
        assert response.status_code == 404, path
        assert response.headers["content-type"].startswith("text/html"), path
        assert 'href="/"' in response.text and "CARDAVIA" in response.text
    # the API keeps answering JSON
    api = httpx.get(f"{live.http}/api/tables/doesnotexist42", timeout=10)
    assert api.status_code == 404 and "detail" in json.loads(api.text)
    answer = page.goto(f"{live.http}/table/doesnotexist42")
    assert answer is not None and answer.status == 404
    # Chromium logs the 404 of the page itself; that one is expected here
    watched.problems[:] = [p for p in watched.problems if "404" not in p]
    assert page.locator('[data-testid="missing"]').is_visible()
    assert page.locator("#table").count() == 0  # no empty, live-looking table
    page.click('[data-testid="to-lobby"]')
    page.wait_for_url(f"{live.http}/")


def test_a_restart_begins_a_new_match_from_its_first_deal(page: Page, live: Live) -> None:
    """Restart match (G-1.7) continues at "Deal 1", not at the next deal number, and the old
    match's finished deals leave the replay list."""
    from tests.browser.conftest import finish_deal_over_ws, open_drawer

    created = live.create("runfast", seed=31, difficulty="easy")
    finish_deal_over_ws(live, created["table_id"], created["token"])
    visit_table(page, live, (created["table_id"], created["token"]))
    page.click('[data-testid="next-deal"]')
    page.wait_for_function("() => window.cardavia.state.observation.deal_index === 1")
    open_drawer(page)
    page.locator('[data-testid="replay-deal"]').first.wait_for()
    assert page.locator('[data-testid="replay-deal"]').count() == 1
    page.click('[data-testid="drawer-close"]')
    before = seq(page)
    restart = page.locator('[data-testid="new-game"]')
    restart.click()
    restart.click()  # a deal is in progress: the second click confirms
    page.wait_for_function(f"() => window.cardavia.state.seq > {before} && "
                           "window.cardavia.state.observation.deal_index === 0")
    assert live.table_at(created["table_id"]).log[before].kind == "restarted"
    page.wait_for_function("() => !document.querySelector('[data-testid=\"replay-deal\"]')")
