"""Resign from the Table view: an inline confirmation (mouse or keyboard only, Escape
cancels), then the table is closed for good — on the server, in the page, after a reload —
and the page offers a new game from the lobby instead of the game's controls."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page

from tests.browser.conftest import CATALOGS, LANGS, Live, open_table, seq, shot, ui_state, visit_table
from tests.browser.test_i18n import check_language

pytestmark = pytest.mark.browser

CONTRAST_JS = (Path(__file__).parent / "contrast.js").read_text("utf-8")
EN = CATALOGS["en"]
GAME_CONTROLS = ("play", "pass", "hint", "next-deal", "return-confirm", "resign")
#: A game control is out of reach when it is hidden or disabled.
UNAVAILABLE = "(el) => el.hidden || el.disabled || el.getClientRects().length === 0"


def _focused(page: Page) -> str | None:
    value: str | None = page.evaluate("() => document.activeElement?.dataset?.testid ?? null")
    return value


def _overflow(page: Page) -> int:
    value: int = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    return value


def _wait_closed(page: Page) -> None:
    page.wait_for_function("() => document.querySelector('#table').dataset.state === 'closed'")


def _assert_open(page: Page, live: Live, table_id: str) -> None:
    """The table still plays: nothing was sent, the confirmation is gone."""
    assert ui_state(page) in ("playing", "tribute")
    assert not live.table_at(table_id).closed
    assert page.locator("#resign-box").is_hidden()
    assert page.get_attribute('[data-testid="resign"]', "aria-expanded") == "false"


def _assert_closed_view(page: Page) -> None:
    """The closed table as the page shows it: a notice, a way to a new game, no controls."""
    assert ui_state(page) == "closed"
    for testid in GAME_CONTROLS:
        control = page.locator(f'[data-testid="{testid}"]')
        assert control.evaluate(UNAVAILABLE), f"{testid} is still available"
    assert page.locator("#resign-box").is_hidden()
    note = page.locator('[data-testid="closed-note"]')
    assert note.is_visible()
    assert EN["table.closedNote"] in note.inner_text()
    assert page.inner_text("#turn-banner") == EN["table.closed"]
    new_game = page.locator('[data-testid="new-game"]')
    assert new_game.count() == 1  # the Restart button gave its hook to the lobby link
    assert new_game.is_visible() and new_game.get_attribute("href") == "/"
    assert new_game.inner_text() == EN["table.newGame"]
    assert page.evaluate("() => document.querySelector('#table').dataset.turn") == "none"
    assert page.locator(".seat .turn-badge").count() == 0


def _assert_closed_on_server(live: Live, table_id: str) -> None:
    table = live.table_at(table_id)
    assert table.closed and table.phase == "closed"
    assert table.log[-1].kind == "resigned"
    summary = httpx.get(f"{live.http}/api/tables/{table_id}", timeout=10).json()
    assert summary["phase"] == "closed"


def test_resign_by_mouse_asks_first_and_closes_for_good(page: Page, live: Live) -> None:
    """Resign → Keep playing (nothing happens) → Resign → Escape (nothing happens) →
    Resign → Yes: closed on the server and in the page, also after a reload; the lobby no
    longer offers to resume it and the page's link leads there."""
    table_id = open_table(page, live, "runfast", difficulty="easy")
    resign, box = page.locator('[data-testid="resign"]'), page.locator("#resign-box")
    assert resign.is_visible() and resign.is_enabled() and box.is_hidden()
    assert resign.inner_text() == EN["action.resign"]

    # first thoughts: cancelled with the button
    resign.click()
    assert box.is_visible()
    assert resign.get_attribute("aria-expanded") == "true"
    assert EN["resign.question"] in box.inner_text()
    assert _focused(page) == "resign-cancel"  # the harmless choice has the focus
    assert page.evaluate(CONTRAST_JS) == []
    shot(page, "table-runfast-resign-confirm-en")
    page.click('[data-testid="resign-cancel"]')
    _assert_open(page, live, table_id)
    assert _focused(page) == "resign"

    # second thoughts: cancelled with Escape
    resign.click()
    assert box.is_visible()
    page.keyboard.press("Escape")
    _assert_open(page, live, table_id)

    # resign for real
    resign.click()
    page.click('[data-testid="resign-confirm"]')
    _wait_closed(page)
    _assert_closed_view(page)
    _assert_closed_on_server(live, table_id)
    assert _focused(page) == "new-game"
    assert page.evaluate(CONTRAST_JS) == []
    shot(page, "table-runfast-closed-en")

    # the table takes nothing more: shortcuts do nothing, the server refuses (not_allowed)
    before = seq(page)
    page.keyboard.press("h")
    page.keyboard.press("x")
    page.evaluate("() => window.cardavia.send({type: 'pass'})")
    page.wait_for_function("() => document.querySelector('#error').textContent")
    assert "closed" in page.inner_text("#error")
    assert seq(page) == before and len(live.table_at(table_id).log) == before

    # a reload shows the same closed table
    page.reload()
    page.wait_for_function("() => window.cardavia && window.cardavia.state")
    _assert_closed_view(page)

    # the way to a new game: the lobby, which no longer offers to resume this table
    page.click('[data-testid="new-game"]')
    page.wait_for_url(f"{live.http}/")
    assert page.locator("#resume").is_hidden()
    assert page.locator('[data-testid="start-runfast"]').is_visible()


def test_resign_by_keyboard_only(page: Page, live: Live) -> None:
    """Tab to Resign, Enter, Escape cancels and gives the focus back; Enter, Tab to the
    confirmation, Enter closes the table; the focus lands on the new-game link. On a
    phone-sized screen, nothing overflows."""
    page.set_viewport_size({"width": 360, "height": 800})
    table_id = open_table(page, live, "guandan", difficulty="easy", partner="easy")
    for _ in range(60):
        if _focused(page) == "resign":
            break
        page.keyboard.press("Tab")
    assert _focused(page) == "resign", "Tab never reached Resign"

    page.keyboard.press("Enter")
    assert page.locator("#resign-box").is_visible()
    assert _focused(page) == "resign-cancel"
    page.keyboard.press("Escape")
    _assert_open(page, live, table_id)
    assert _focused(page) == "resign"

    # Space opens it too
    page.keyboard.press("Space")
    assert _focused(page) == "resign-cancel"
    assert _overflow(page) <= 0
    page.keyboard.press("Tab")
    assert _focused(page) == "resign-confirm"
    page.keyboard.press("Enter")
    _wait_closed(page)
    _assert_closed_view(page)
    assert _overflow(page) <= 0
    shot(page, "table-guandan-closed-360")
    _assert_closed_on_server(live, table_id)
    assert _focused(page) == "new-game"
    page.keyboard.press("Enter")
    page.wait_for_url(f"{live.http}/")


@pytest.mark.parametrize("lang", LANGS)
def test_resign_speaks_every_language(page: Page, live: Live, lang: str) -> None:
    """The confirmation and the closed table are in the page's language, no English left."""
    page.goto(f"{live.http}/?lang={lang}")
    created = live.create("runfast", difficulty="easy")
    visit_table(page, live, (created["table_id"], created["token"]))
    cat = CATALOGS[lang]
    page.click('[data-testid="resign"]')
    assert cat["resign.question"] in page.inner_text("#resign-box")
    check_language(page, lang, "resign confirmation")
    page.click('[data-testid="resign-confirm"]')
    _wait_closed(page)
    assert page.inner_text("#turn-banner") == cat["table.closed"]
    assert page.inner_text('[data-testid="new-game"]') == cat["table.newGame"]
    check_language(page, lang, "closed table")
    shot(page, f"table-runfast-closed-{lang}")
