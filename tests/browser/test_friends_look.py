"""How tables with friends look on a laptop (1366×657) and a phone (360×740): the lobby's
seat chooser, the waiting room, a table with friends and the spectator view — nothing
runs off the screen sideways, the waiting room's controls are on screen. Screenshots go to
tests/artifacts/ (friends-*.png)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from tests.browser.conftest import NO_AUTO_PASS, Live, shot, wait_ready

pytestmark = pytest.mark.browser

SIZES = {"laptop": (1366, 657), "phone": (360, 740)}


@pytest.fixture
def ctx(browser: Browser) -> Iterator[BrowserContext]:
    c = browser.new_context(viewport={"width": 1366, "height": 657})
    c.add_init_script(NO_AUTO_PASS)
    yield c
    c.close()


def _fits(page: Page, where: str) -> None:
    width = page.evaluate("() => document.documentElement.scrollWidth - window.innerWidth")
    assert width <= 1, f"{where}: {width} px run off the screen sideways"


def _sized(page: Page, size: str) -> None:
    w, h = SIZES[size]
    page.set_viewport_size({"width": w, "height": h})
    page.wait_for_timeout(150)


def test_friends_screens(ctx: BrowserContext, browser: Browser, live: Live) -> None:
    page = ctx.new_page()
    page.goto(f"{live.http}/")
    page.click('[data-testid="friends-toggle-guandan"]')
    page.fill('[data-testid="name-guandan"]', "Ann")
    page.select_option('[data-testid="seat-guandan-2"]', "person")
    for size in SIZES:
        _sized(page, size)
        _fits(page, f"lobby ({size})")
        shot(page, f"friends-lobby-{size}")
    created = live.create("guandan", seats=["person", "easy", "person", "normal"], name="Ann",
                          seed=1, spectators="hands", turn_timer=30)
    table_id = created["table_id"]
    links = {str(i["seat"]): i["code"] for i in created["invites"]} | {"watch": created["watch"]}
    page.evaluate(
        "([id, token, links]) => { localStorage.setItem('cardavia.token.' + id, token);"
        " localStorage.setItem('cardavia.invites.' + id, links); }",
        [table_id, created["token"], json.dumps(links)],
    )
    page.goto(f"{live.http}/table/{table_id}")
    wait_ready(page)
    page.wait_for_selector('[data-testid="people"]:not([hidden])')
    for size in SIZES:
        _sized(page, size)
        _fits(page, f"waiting room ({size})")
        box = page.locator('[data-testid="start-now"]').bounding_box()
        assert box is not None and box["y"] + box["height"] <= SIZES[size][1] + 400
        shot(page, f"friends-waiting-{size}")
    mate_ctx = browser.new_context(viewport={"width": 1366, "height": 657})
    mate_ctx.add_init_script(NO_AUTO_PASS)
    try:
        mate = mate_ctx.new_page()
        mate.goto(f"{live.http}/join/{created['invites'][0]['code']}")
        for size in SIZES:
            _sized(mate, size)
            mate.wait_for_selector('[data-testid="join-name"]')
            _fits(mate, f"join page ({size})")
            shot(mate, f"friends-join-{size}")
        mate.fill('[data-testid="join-name"]', "Bea")
        with mate.expect_navigation():
            mate.click('[data-testid="join-button"]')
        wait_ready(mate)
        mate.wait_for_function("() => document.querySelector('#table').dataset.waiting === 'false'")
        mate.click('[data-testid="react-nice"]')
        mate.wait_for_selector('[data-testid="reaction-2"]')
        for size in SIZES:
            _sized(mate, size)
            _fits(mate, f"table with friends ({size})")
            shot(mate, f"friends-table-{size}")
        spectator = browser.new_context(viewport={"width": 1366, "height": 657}).new_page()
        spectator.goto(f"{live.http}/watch/{created['watch']}")
        spectator.wait_for_url(f"**/table/{table_id}")
        wait_ready(spectator)
        for size in SIZES:
            _sized(spectator, size)
            _fits(spectator, f"spectator view ({size})")
            shot(spectator, f"friends-spectator-{size}")
        spectator.context.close()
    finally:
        mate_ctx.close()
