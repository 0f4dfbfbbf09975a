"""What a newcomer meets on a phone (360×740, 390×844) and a laptop (1280×720), checked
where a first walk through the site found it broken: the whole settlement readable at the
end of a deal, the tribute return's button on one line, greyed cards that hide the one
under them, the log's sentences about you. Screenshots go to tests/artifacts/ (newcomer-*)."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.browser.conftest import (
    CATALOGS,
    NO_AUTO_PASS,
    Live,
    Tables,
    click_move,
    finish_deal_over_ws,
    open_drawer,
    open_table,
    seq,
    shot,
    ui_state,
    visit_table,
    wait_after,
    wait_for_me,
    wait_ready,
)
from tests.browser.policy import choose, seat0_owes_return, simulate_to_second_deal

pytestmark = pytest.mark.browser

PHONES = [(360, 740), (390, 844)]
SIZES = [*PHONES, (1280, 720)]
FITS = (Path(__file__).parent / "fits.js").read_text("utf-8")

#: Where the settlement box stands, and whether any of it is hidden (cut off or scrolled away).
SUMMARY_BOX = """() => {
  const c = document.querySelector('#center'), f = document.querySelector('#felt').getBoundingClientRect();
  const r = c.getBoundingClientRect();
  return { hidden: c.scrollHeight - c.clientHeight, top: r.top, bottom: r.bottom, feltTop: f.top, feltBottom: f.bottom,
           sortShown: !!document.querySelector('.sort').offsetParent };
}"""


def _resize(page: Page, width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.wait_for_timeout(150)


def test_a_deal_then_its_tribute_on_phones(page: Page, live: Live) -> None:
    """Deal 1 ends with seat 0 owing a return in deal 2 (G-3): the settlement fits, the
    return button reads on one line, the greyed cards are opaque, the log says "You return"."""
    seed = next(s for s in range(40) if seat0_owes_return(simulate_to_second_deal(s)))
    created = live.create("guandan", seed=seed, difficulty="easy", partner="normal")
    finish_deal_over_ws(live, created["table_id"], created["token"])
    visit_table(page, live, (created["table_id"], created["token"]))
    assert ui_state(page) == "deal-over"
    for width, height in SIZES:
        _resize(page, width, height)
        box = page.evaluate(SUMMARY_BOX)
        assert box["hidden"] <= 1, f"{width}×{height}: {box['hidden']} px of the settlement are cut off"
        assert box["feltTop"] <= box["top"] and box["bottom"] <= box["feltBottom"] + 0.5, box
        assert not box["sortShown"], "sort buttons shown for a hand without cards"
        assert page.evaluate(FITS, ["next-deal", "summary"]) == []
        shot(page, f"newcomer-deal-over-{width}x{height}")

    before = seq(page)
    page.click('[data-testid="next-deal"]')
    wait_after(page, before)
    wait_for_me(page)
    assert ui_state(page) == "tribute"
    move = choose(live.table_at(created["table_id"], seq(page)).observation(0))
    assert move.kind == "return"
    page.locator(f'#hand button.card[data-card="{move.cards[0]}"]').first.click(position={"x": 6, "y": 10})
    button = page.locator('[data-testid="return-confirm"]')
    assert button.is_enabled()
    for width, height in SIZES:
        _resize(page, width, height)
        assert page.evaluate(FITS, ["hand", "hint", "return-confirm", "trick"]) == [], f"{width}×{height}"
        size = button.evaluate(
            "(b) => ({ over: b.scrollWidth - b.clientWidth, h: b.getBoundingClientRect().height,"
            " line: parseFloat(getComputedStyle(b).lineHeight) || 24 })")
        assert size["over"] <= 0 and size["h"] < 1.8 * size["line"] + 16, f"{width}×{height}: {size}"
        hint = page.locator('[data-testid="hint"]').evaluate("(b) => b.scrollWidth - b.clientWidth")
        assert hint <= 0, f"{width}×{height}: the Hint label is cut off"
        shot(page, f"newcomer-return-{width}x{height}")
    # a greyed card is opaque: it never shows the card under it through itself
    looks = page.eval_on_selector_all(
        "#hand button.card.ineligible",
        "(bs) => bs.map((b) => [getComputedStyle(b).opacity, getComputedStyle(b.querySelector('.paper')).fill])")
    assert looks and all(o == "1" for o, _ in looks)
    assert {f for _, f in looks} != {"rgb(255, 255, 255)"}, "greyed cards look like the others"

    before = seq(page)
    page.click('[data-testid="return-confirm"]')
    wait_after(page, before)
    open_drawer(page)
    log = page.inner_text("#log")
    en = CATALOGS["en"]
    assert en["log.returnYou"].split("{")[0] in log
    assert "You returns" not in log and "You pays" not in log


def test_the_log_speaks_to_you_in_every_language(page: Page, live: Live) -> None:
    """The return line about your own card uses the "you" sentence in each catalog."""
    seed = next(s for s in range(40) if seat0_owes_return(simulate_to_second_deal(s)))
    created = live.create("guandan", seed=seed, difficulty="easy", partner="normal")
    table = (created["table_id"], created["token"])
    finish_deal_over_ws(live, *table)
    visit_table(page, live, table)
    before = seq(page)
    page.click('[data-testid="next-deal"]')
    wait_after(page, before)
    wait_for_me(page)
    click_move(page, choose(live.table_at(created["table_id"], seq(page)).observation(0)))
    for lang, catalog in CATALOGS.items():
        visit_table(page, live, table, f"?lang={lang}")
        open_drawer(page)
        returned = page.inner_text("#log .log-return")
        assert returned.startswith(catalog["log.returnYou"].split("{")[0].strip()), (lang, returned)


TABS_ON_SCREEN = """() => {
  const tabs = document.querySelector('.tabs');
  const out = [...tabs.querySelectorAll('.tab')].filter((a) => {
    const r = a.getBoundingClientRect();
    return !r.width || r.left < -0.5 || r.right > innerWidth + 0.5 || r.bottom > innerHeight;
  }).map((a) => a.id);
  if (tabs.scrollWidth > tabs.clientWidth + 1) out.push('the tabs scroll sideways');
  return out;
}"""


@pytest.mark.parametrize("lang", list(CATALOGS))
def test_every_tab_is_on_a_phone_screen(page: Page, live: Live, tables: Tables, lang: str) -> None:
    """Table, Full rules, Learn and History can all be seen and tapped on a phone (History
    used to hide past the screen's edge), and the table still needs no scrolling."""
    for width, height in PHONES:
        _resize(page, width, height)
        page.goto(f"{live.http}/learn?lang={lang}")
        assert page.evaluate(TABS_ON_SCREEN) == [], f"{lang} at {width}px"
        visit_table(page, live, tables.playing_guandan, f"?lang={lang}")
        page.wait_for_selector("#hand button.card")
        assert page.evaluate(TABS_ON_SCREEN) == [], f"{lang} table at {width}px"
        ids = ["hand", "play", "pass", "hint", "trick", "seat-0", "seat-1", "seat-2", "seat-3"]
        page.wait_for_function(f"(ids) => ({FITS})(ids).length === 0", arg=ids, timeout=3000)
    shot(page, f"newcomer-tabs-{lang}-390")


#: The trick's plays (cards and label) inside the felt and clear of every seat box; every
#: badge of a seat on one line. [] when all is well. Measured once the trick's animations
#: are over (a bomb's 300 ms pulse scales its play by 1.12 for a moment: the layout is what
#: is checked, not a passing flourish).
TRICK_CLEAR = """async () => {
  const trick = document.querySelector('#trick');
  if (trick) await Promise.all(trick.getAnimations({ subtree: true }).map((a) => a.finished.catch(() => null)));
  const out = [], felt = document.querySelector('#felt').getBoundingClientRect();
  const seats = [...document.querySelectorAll('#seats .seat')];
  const box = (r) => [r.left, r.top, r.right, r.bottom].map(Math.round).join(',');
  const meets = (a, b) => a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1;
  for (const p of document.querySelectorAll('#trick .trick-play')) {
    const r = p.getBoundingClientRect(), who = p.querySelector('.trick-label').textContent;
    if (r.top < felt.top - 0.5 || r.bottom > felt.bottom + 0.5
        || r.left < felt.left - 0.5 || r.right > felt.right + 0.5)
      out.push(`${who}: ${box(r)} outside the felt ${box(felt)}`);
    for (const s of seats) if (meets(r, s.getBoundingClientRect())) out.push(`${who}: over seat ${s.dataset.seat}`);
  }
  for (const b of document.querySelectorAll('#seats .badge')) {
    const line = parseFloat(getComputedStyle(b).lineHeight) || 20;
    if (b.getBoundingClientRect().height > 1.6 * line) out.push(`badge "${b.textContent}" wraps`);
  }
  return out;
}"""


def _trick_clear(page: Page, where: str) -> None:
    for width, height in SIZES:
        _resize(page, width, height)
        problems = page.evaluate(TRICK_CLEAR)
        assert not problems, f"{where} at {width}×{height}: {problems}"


def test_the_trick_stays_on_the_felt_while_playing(page: Page, live: Live) -> None:
    """Two five-card straights in the trick on a 360 px phone used to push the top play
    and its label below the felt; checked after each of the first moves of a deal."""
    table_id = open_table(page, live, "guandan", seed=5, difficulty="easy", partner="normal")
    for move in range(12):
        wait_for_me(page)
        if ui_state(page) != "playing":
            break
        _trick_clear(page, f"before move {move}")
        if move == 0:
            _resize(page, 360, 740)
            shot(page, "newcomer-trick-360x740")
        click_move(page, choose(live.table_at(table_id, seq(page)).observation(0)))


def test_waiting_for_a_person_fits_the_top_seat(browser: Browser, live: Live) -> None:
    """A table with friends on a phone: while it is Ann's turn, her top seat's badges stay
    on one line and the seat box ends above the trick (it used to wrap "Waiting for Ann…")."""
    created = live.create("guandan", seats=["person", "easy", "person", "normal"], name="Ann",
                          seed=1, turn_timer=30)
    contexts = [browser.new_context(viewport={"width": 360, "height": 740}) for _ in range(2)]
    try:
        for c in contexts:
            c.add_init_script(NO_AUTO_PASS)
        ann, bea = (c.new_page() for c in contexts)
        ann.goto(f"{live.http}/")
        ann.evaluate("([k, v]) => localStorage.setItem(k, v)",
                     [f"cardavia.token.{created['table_id']}", created["token"]])
        ann.goto(f"{live.http}/table/{created['table_id']}")
        wait_ready(ann)
        bea.goto(f"{live.http}/join/{created['invites'][0]['code']}")
        bea.fill('[data-testid="join-name"]', "Bea")
        with bea.expect_navigation():
            bea.click('[data-testid="join-button"]')
        wait_ready(bea)
        bea.wait_for_function(
            "() => { const o = window.cardavia.state.observation; return o.phase === 'play' && o.turn === 0"
            " && document.querySelector('[data-testid=\"turn-0\"]'); }")
        assert bea.locator('[data-testid="seat-0"]').evaluate("(s) => s.classList.contains('pos-top')")
        _trick_clear(bea, "Bea waits for Ann")
        # the count, the turn cue and the timer side by side: one line under the fan
        _resize(bea, 360, 740)
        tops = bea.eval_on_selector_all(
            '[data-testid="seat-0"] .seat-status > :not(.fan)',
            "(es) => es.filter((e) => e.offsetParent).map((e) => Math.round(e.getBoundingClientRect().top))")
        assert len(tops) >= 2 and max(tops) - min(tops) <= 6, f"Ann's seat wraps its status: {tops}"
        _resize(bea, 360, 740)
        shot(bea, "newcomer-waiting-for-ann-360x740")
        # the words are still there for a screen reader, and in the banner
        assert "Ann" in bea.inner_text('[data-testid="turn-0"]') + bea.inner_text("#turn-banner")
    finally:
        for c in contexts:
            c.close()


@pytest.mark.parametrize("lang", ["hu", "fi", "nl", "th"])
def test_play_pass_hint_labels_are_never_cut(page: Page, live: Live, tables: Tables, lang: str) -> None:
    """The long words of some languages ("Kijátszás") used to be clipped in the Play
    button on a phone; no button of the row is clipped instead, no seat name is cut off
    ("Left op…") and the trick with its labels stays on the felt."""
    for width, height in PHONES:
        _resize(page, width, height)
        visit_table(page, live, tables.playing_guandan, f"?lang={lang}")
        page.wait_for_selector("#hand button.card")
        for testid in ("play", "pass", "hint", "new-game", "resign"):
            over = page.locator(f'[data-testid="{testid}"]').evaluate("(b) => b.scrollWidth - b.clientWidth")
            assert over <= 0, f"{lang} at {width}px: the {testid} label is cut by {over} px"
        # seats named by where they sit take their short names ("Bal", not "Bal oldali ell…")
        cut = page.evaluate(
            "() => [...document.querySelectorAll('#seats .seat-name')]"
            ".filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.innerText)")
        assert cut == [], f"{lang} at {width}px: seat names cut: {cut}"
        problems = page.evaluate(TRICK_CLEAR)
        assert not problems, f"{lang} at {width}px: {problems}"
        shot(page, f"newcomer-actions-{lang}-{width}")
