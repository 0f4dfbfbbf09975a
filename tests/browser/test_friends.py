"""Tables with friends in the browser: four contexts at a Guandan table (two partners who
joined by invite link, a spectator, a stranger with a used link), a whole deal and the
second deal's tribute and return, each person clicking their own cards; a Run Fast deal
with three people, one of whom closes the tab and comes back. At every move every page
and every WebSocket frame it received is checked for cards it may not see."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page

from cardavia.table import Table
from tests.browser.conftest import NO_AUTO_PASS, Live, Watch, audit_frames, click_move, wait_ready, watch
from tests.browser.policy import choose

pytestmark = pytest.mark.browser

#: Seed 1 with these seats: the partners win deal 1 and both owe a return in deal 2.
GUANDAN_SEED = 1
RUNFAST_SEED = 4


@pytest.fixture
def contexts(browser: Browser) -> Iterator[list[BrowserContext]]:
    made: list[BrowserContext] = []
    yield made  # the test opens them with _context
    for ctx in made:
        ctx.close()


def _context(browser: Browser, made: list[BrowserContext]) -> BrowserContext:
    ctx = browser.new_context(viewport={"width": 1280, "height": 860})
    ctx.add_init_script(NO_AUTO_PASS)
    made.append(ctx)
    return ctx


def _page(ctx: BrowserContext, live: Live) -> tuple[Page, Watch]:
    page = ctx.new_page()
    w = Watch()
    watch(page, live, w)
    page.set_default_timeout(20_000)
    return page, w


def create(live: Live, game: str, seats: list[str], **body: Any) -> dict[str, Any]:
    return live.create(game, seats=seats, **body)


def host_page(ctx: BrowserContext, live: Live, created: dict[str, Any]) -> tuple[Page, Watch]:
    """The creator's browser, as the lobby leaves it: the token and the invite codes kept."""
    page, w = _page(ctx, live)
    table_id = created["table_id"]
    page.goto(f"{live.http}/")
    links = {str(i["seat"]): i["code"] for i in created["invites"]}
    if created.get("watch"):
        links["watch"] = created["watch"]
    page.evaluate(
        "([id, token, links]) => { localStorage.setItem('cardavia.token.' + id, token);"
        " localStorage.setItem('cardavia.invites.' + id, links); }",
        [table_id, created["token"], json.dumps(links)],
    )
    page.goto(f"{live.http}/table/{table_id}")
    wait_ready(page)
    return page, w


def join_by_link(page: Page, live: Live, url: str, name: str) -> None:
    page.goto(url)
    page.wait_for_selector('[data-testid="join-name"]')
    page.fill('[data-testid="join-name"]', name)
    with page.expect_navigation():
        page.click('[data-testid="join-button"]')
    wait_ready(page)


SHOWN = """() => ({
  seq: window.cardavia.state ? window.cardavia.state.seq : 0,
  cards: [...document.querySelectorAll('[data-card]')].map((e) => e.dataset.card),
})"""


def shown(page: Page) -> tuple[int, set[str]]:
    """The sequence number the page shows and every card in its DOM, read together."""
    got: dict[str, Any] = page.evaluate(SHOWN)
    return int(got["seq"]), set(got["cards"])


def allowed_at(live: Live, table_id: str, seq: int, seat: int | None) -> set[str]:
    """The cards ``seat`` (None: a spectator) may see on a page showing log entry ``seq``
    (or up to 8 entries later: a frame shows the state after its whole action): the public
    plays and tribute of that deal, the seat's own cards and returns, and at the end of the
    deal (players only) every hand."""
    events = live.events(table_id)
    table = Table(live.config(table_id))
    allowed: set[str] = set()
    for n, event in enumerate(events[: seq + 8], start=1):
        table.fold(event)
        if event["event"] == "deal_started":
            if n > seq:
                break  # a later deal: the page does not show it yet
            allowed = set()
        if event["event"] == "played":
            allowed.update(event["cards"])
        elif event["event"] == "tribute_paid" or (
            event["event"] == "returned" and seat in (event["from"], event["to"])
        ):
            allowed.add(event["card"])
        if seat is not None:
            allowed |= {str(c) for c in table.hands()[seat]}
            if table.deal.phase == "over":
                allowed |= {str(c) for hand in table.hands() for c in hand}
    return allowed


def check_pages(
    live: Live, table_id: str, seats: dict[int, Page], spectators: list[Page], strangers: list[Page]
) -> None:
    """Every card each page shows is one its viewer may see at the position it shows."""
    for seat, page in seats.items():
        seq, cards = shown(page)
        stray = cards - allowed_at(live, table_id, seq, seat)
        assert not stray, f"seat {seat}'s page shows cards it may not see: {sorted(stray)}"
    for page in spectators:
        seq, cards = shown(page)
        stray = cards - allowed_at(live, table_id, seq, None)
        assert not stray, f"the spectator's page shows hidden cards: {sorted(stray)}"
    for page in strangers:
        assert not shown(page)[1], "a stranger's page shows cards"


def check_frames_of_spectator(w: Watch, live: Live, table_id: str) -> int:
    from tests.server.friends_helpers import check_spectator

    messages = [json.loads(f) for f in w.frames]
    return check_spectator(live.config(table_id), live.events(table_id), messages)


def play_people(live: Live, table_id: str, pages: dict[int, Page], check: Any, until: Any, max_moves: int = 400) -> int:
    """The people click their own moves (the policy reads the truth from the database)
    until ``until(table)``; ``check()`` after every move."""
    moves = 0
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        table = live.table_at(table_id)
        if until(table):
            return moves
        due = [s for s in table.seats_to_act() if table.is_person(s) and s in pages]
        if not due:
            time.sleep(0.05)
            continue
        seat = due[0]
        page = pages[seat]
        page.wait_for_function("(n) => window.cardavia.state && window.cardavia.state.seq >= n", arg=table.seq)
        if live.table_at(table_id).seq != table.seq:
            continue
        click_move(page, choose(table.observation(seat)))
        moves += 1
        check()
        assert moves < max_moves
    raise AssertionError("the people did not get there")


def test_two_partners_a_spectator_and_a_stranger(browser: Browser, live: Live, contexts: list[BrowserContext]) -> None:
    created = create(live, "guandan", ["person", "easy", "person", "easy"], seed=GUANDAN_SEED,
                     name="Ann", spectators="public")
    table_id = created["table_id"]
    host, host_w = host_page(_context(browser, contexts), live, created)
    # the waiting room: the creator sees the partner's link; nothing moves yet
    host.wait_for_selector('[data-testid="people"]:not([hidden])')
    assert host.evaluate("() => document.querySelector('#table').dataset.waiting") == "true"
    link = host.input_value('[data-testid="link-2"]')
    assert link.endswith(created["invites"][0]["code"])
    assert "Waiting" in host.inner_text("#turn-banner")
    mate, mate_w = _page(_context(browser, contexts), live)
    join_by_link(mate, live, link, "Bea")
    host.wait_for_function("() => document.querySelector('#table').dataset.waiting === 'false'")
    assert host.locator('[data-testid="people"]').is_hidden()
    # names on every view; the partner sees herself at the bottom and Ann across
    assert "Bea" in host.inner_text('[data-testid="seat-2"]')
    assert "Ann" in mate.inner_text('[data-testid="seat-0"]')
    assert mate.evaluate("() => document.querySelector('[data-testid=seat-0]').classList.contains('pos-top')")
    spectator, spec_w = _page(_context(browser, contexts), live)
    spectator.goto(f"{live.http}/watch/{created['watch']}")
    spectator.wait_for_url(f"**/table/{table_id}")
    wait_ready(spectator)
    spectator.wait_for_selector('[data-testid="watching-note"]:not([hidden])')
    assert spectator.locator("#actions").is_hidden() and not spectator.locator("#hand button.card").count()
    stranger, stranger_w = _page(_context(browser, contexts), live)
    stranger.goto(link)  # the used link
    stranger.wait_for_selector("#join-error:not([hidden])")
    assert stranger.locator('[data-testid="join-button"]').count() == 0 or stranger.locator("#join-form").is_hidden()
    stranger.goto(f"{live.http}/table/{table_id}")
    stranger.wait_for_function("() => document.querySelector('#table').dataset.state === 'error'")

    pages = {0: host, 2: mate}

    def check() -> None:
        check_pages(live, table_id, pages, [spectator], [stranger])

    # a quick reaction reaches everybody
    mate.click('[data-testid="react-thanks"]')
    host.wait_for_selector('[data-testid="reaction-2"]')
    spectator.wait_for_selector('[data-testid="reaction-2"]')
    # deal 1, to the end
    play_people(live, table_id, pages, check, until=lambda t: t.deal.phase == "over")
    for page in (host, mate, spectator):
        page.wait_for_function("() => window.cardavia.state.observation.phase === 'over'")
    check()
    # deal 2: the partners won, each returns a card to their tribute payer
    mate.click('[data-testid="next-deal"]')
    play_people(live, table_id, pages, check,
                until=lambda t: t.deal.deal_index == 1 and t.deal.phase == "play")
    events = live.events(table_id)
    returns = [e for e in events if e["event"] == "returned"]
    assert {e["from"] for e in returns} == {0, 2} and all(e["by"] == "person" for e in returns)
    for page in (host, mate, spectator):
        page.wait_for_function("(n) => window.cardavia.state.seq >= n", arg=len(events))
    check()
    for seat, (page, w) in {0: (host, host_w), 2: (mate, mate_w)}.items():
        assert audit_frames(w.frames, live, table_id, seat) > 20
        del page
    assert check_frames_of_spectator(spec_w, live, table_id) > 20
    assert not any(json.loads(f).get("type") == "state" for f in stranger_w.frames)
    for w in (host_w, mate_w, spec_w):
        assert not w.problems, w.problems
    # the stranger's only complaint: the used link answered 410 and the table refused it
    assert all("410" in p or "4401" in p for p in stranger_w.problems), stranger_w.problems


def test_run_fast_three_people_one_leaves_and_comes_back(
    browser: Browser, live: Live, contexts: list[BrowserContext]
) -> None:
    created = create(live, "runfast", ["person", "person", "person"], seed=RUNFAST_SEED,
                     name="Kai", grace_seconds=1.5)
    table_id = created["table_id"]
    host, host_w = host_page(_context(browser, contexts), live, created)
    pages: dict[int, Page] = {0: host}
    watches = {0: host_w}
    ctx_of: dict[int, BrowserContext] = {}
    for invite, name in zip(created["invites"], ("Lea", "Mo"), strict=True):
        ctx = _context(browser, contexts)
        page, w = _page(ctx, live)
        join_by_link(page, live, f"{live.http}{invite['url']}", name)
        pages[invite["seat"]], watches[invite["seat"]] = page, w
        ctx_of[invite["seat"]] = ctx
    host.wait_for_function("() => document.querySelector('#table').dataset.waiting === 'false'")

    def check() -> None:
        check_pages(live, table_id, {s: p for s, p in pages.items() if not p.is_closed()}, [], [])

    # a few moves, then seat 1 closes the tab
    play_people(live, table_id, pages, check, until=lambda t: len(t.deal.plays) >= 4)
    pages[1].close()
    gone = {0: pages[0], 2: pages[2]}
    host.wait_for_selector('[data-testid="presence-1"]')
    # the stand-in takes seat 1's turns after the grace period (shown to everyone)
    def stand_in_played(_: Table) -> bool:
        return any(e.get("by") == "stand_in" and e.get("seat") == 1 for e in live.events(table_id))
    play_people(live, table_id, gone, check, until=lambda t: stand_in_played(t) or t.deal.over)
    assert stand_in_played(live.table_at(table_id)), "the stand-in never played"
    assert live.table_at(table_id).deal.phase == "play", "the deal ended before seat 1 came back"
    # seat 1 comes back with its token and takes over at its next turn
    back, back_w = _page(ctx_of[1], live)
    back.goto(f"{live.http}/table/{table_id}")
    wait_ready(back)
    pages[1], watches[1] = back, back_w
    host.wait_for_function("() => !document.querySelector('[data-testid=presence-1]')")
    came_back = len(live.events(table_id))
    play_people(live, table_id, pages, check, until=lambda t: t.deal.phase == "over")
    later = live.events(table_id)[came_back:]
    mine = [e["by"] for e in later if e["event"] in ("played", "passed") and e["seat"] == 1]
    assert mine and set(mine) == {"person"}, mine
    for seat, w in watches.items():
        assert audit_frames(w.frames, live, table_id, seat) > 5
        assert not w.problems, w.problems
