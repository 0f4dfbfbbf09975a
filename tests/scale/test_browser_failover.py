"""A real browser through a plain load balancer in front of two server processes
(PostgreSQL + Redis): ``kill -9`` of the process that owns the table and holds the page's
WebSocket — the page reconnects by itself, lands on the other process, and the person
plays the deal to its end with nothing lost."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, sync_playwright

from tests.browser.conftest import (
    CHROMIUM,
    CHROMIUM_ARGS,
    NO_AUTO_PASS,
    Live,
    Watch,
    audit_frames,
    click_move,
    open_table,
    play_until_over,
    seq,
    wait_for_me,
    watch,
)
from tests.browser.policy import choose
from tests.scale.proxy import Proxy
from tests.scale.test_cluster import _replay


@pytest.fixture
def chromium_page() -> Iterator[tuple[Page, Watch]]:
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's Chromium is not installed (apt-get install chromium)")
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1366, "height": 657})
        context.add_init_script(NO_AUTO_PASS)
        page = context.new_page()
        page.set_default_timeout(20_000)
        yield page, Watch()
        context.close()
        browser.close()


def _status(page: Page) -> str:
    status: str = page.evaluate("() => document.querySelector('#conn').dataset.status || ''")
    return status


def test_the_page_reconnects_through_the_balancer_after_kill_9_of_its_owner(
    nodes: Any, pg_url: str, chromium_page: tuple[Page, Watch], tmp_path: Path,
) -> None:
    a, b = nodes(pacing=0.2), nodes(pacing=0.2)
    proxy = Proxy([a.port, b.port])  # the first live process takes each new connection
    page, watched = chromium_page
    live = Live(proxy.port, pg_url)
    watch(page, live, watched)
    try:
        table_id = open_table(page, live, "guandan", seed=5, difficulty="random", partner="random")
        assert set(proxy.routed) == {a.port}, "before the kill everything goes to the owner"
        for _ in range(3):
            wait_for_me(page)
            click_move(page, choose(live.table_at(table_id, seq(page)).observation(0)))
        wait_for_me(page)
        at_kill = seq(page)
        a.kill()
        killed = time.monotonic()
        page.wait_for_function("() => document.querySelector('#conn').dataset.status !== 'open'",
                               timeout=5_000)
        page.wait_for_function("() => document.querySelector('#conn').dataset.status === 'open'",
                               timeout=10_000)
        assert proxy.routed[-1] == b.port, proxy.routed
        # the person's move after the kill is taken by the other process
        assert seq(page) >= at_kill
        click_move(page, choose(live.table_at(table_id, seq(page)).observation(0)))
        recovered = time.monotonic() - killed
        print(f"the page played again {recovered:.2f} s after the kill")
        # the lease expires within 3 s of the kill (test_cluster checks the table moves on in
        # < 5 s); the page adds its reconnect back-off and the person's click: 3.7 s measured
        assert recovered < 6, f"the page played again {recovered:.1f} s after the kill"
        play_until_over(page, live, table_id)
        assert _status(page) == "open"
        assert page.evaluate("() => document.querySelector('#error').textContent") == ""
        assert audit_frames(watched.frames, live, table_id) > 0
        stored = live.table_at(table_id)
        assert stored.deal.over and stored.seq == seq(page)
    finally:
        proxy.close()
    assert _replay(b, table_id, tmp_path)["deals"] == 1
    assert not watched.problems, "\n".join(watched.problems)
