"""Browser fixtures: the real play server (a child process, pacing 0), Debian's Chromium
driven by Playwright, and helpers that play through the page like a person would.

Every page a test opens is watched: a console error, an uncaught exception, a missing
catalog key or a request to any host but the test server fails the test.
"""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, Position, sync_playwright

from cardavia.table import Table, TableConfig
from tests.browser.policy import Move, choose

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
LANGS = ("en", "nl", "hi", "hu", "th", "fi", "zh")
CATALOGS = {
    lang: json.loads((ROOT / "src/cardavia/web/i18n" / f"{lang}.json").read_text("utf-8"))
    for lang in LANGS
}


# ---------------------------------------------------------------------------- the server


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@dataclass
class Live:
    """The running play server and its database (the truth the tests compare with)."""

    port: int
    db_url: str
    _configs: dict[str, TableConfig] = field(default_factory=dict)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def create(self, game: str, **body: Any) -> dict[str, Any]:
        response = httpx.post(f"{self.http}/api/tables", json={"game": game, **body}, timeout=30)
        response.raise_for_status()
        data: dict[str, Any] = response.json()
        return data

    def events(self, table_id: str) -> list[dict[str, Any]]:
        engine = sa.create_engine(self.db_url)
        try:
            with engine.connect() as conn:
                rows = conn.execute(
                    sa.text("SELECT body FROM events WHERE table_id = :t ORDER BY seq"),
                    {"t": table_id},
                ).all()
                config = conn.execute(
                    sa.text("SELECT config FROM tables WHERE id = :t"), {"t": table_id}
                ).one()
        finally:
            engine.dispose()
        self._configs[table_id] = TableConfig.from_json(json.loads(config[0]))
        return [json.loads(r[0]) for r in rows]

    def table_at(self, table_id: str, seq: int | None = None) -> Table:
        """The table as it stood after log entry ``seq`` (the whole log if None)."""
        events = self.events(table_id)
        if seq is not None:
            events = events[:seq]
        return Table.rebuild(self._configs[table_id], events)

    def config(self, table_id: str) -> TableConfig:
        if table_id not in self._configs:
            self.events(table_id)
        return self._configs[table_id]


@pytest.fixture(scope="session")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Live]:
    """``cardavia.server.cli_serve`` on a free loopback port, pacing 0, a fresh SQLite file."""
    port = _free_port()
    db_url = f"sqlite:///{tmp_path_factory.mktemp('browser-db') / 'cardavia.sqlite3'}"
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "cardavia.server.cli_serve", "--port", str(port),
         "--db", db_url, "--pacing", "0", "--allow-seeds"],
        cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError("the play server did not start")
            time.sleep(0.05)
        yield Live(port, db_url)
    finally:
        proc.kill()
        proc.wait(timeout=10)


# ---------------------------------------------------------------------------- the browser


@pytest.fixture(scope="package")
def playwright() -> Iterator[Playwright]:
    # package scope: the sync API runs an event loop in this thread while it lives, so it
    # must stop before other packages' tests (tests/server) run their own loops.
    if not Path(CHROMIUM).exists():
        pytest.fail("Debian's Chromium is not installed: run ./scripts/browser-deps (apt-get install chromium)")
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="package")
def browser(playwright: Playwright) -> Iterator[Browser]:
    b = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    yield b
    b.close()


@dataclass
class Watch:
    """What a page did that a test must not tolerate."""

    problems: list[str] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)  # WebSocket frames the page received


def watch(page: Page, live: Live, w: Watch) -> None:
    def on_console(msg: Any) -> None:
        if msg.type == "error" or (msg.type == "warning" and "cardavia" in msg.text):
            w.problems.append(f"console {msg.type}: {msg.text}")

    def on_request(request: Any) -> None:
        url = request.url
        if not (url.startswith(live.http) or url.startswith(f"ws://127.0.0.1:{live.port}")
                or url.startswith("data:") or url.startswith("about:")):
            w.problems.append(f"request left the machine: {url}")

    def on_ws(ws: Any) -> None:
        ws.on("framereceived", lambda payload: w.frames.append(
            payload if isinstance(payload, str) else payload.decode("utf-8")))

    page.on("console", on_console)
    page.on("pageerror", lambda err: w.problems.append(f"page error: {err}"))
    page.on("request", on_request)
    page.on("websocket", on_ws)


#: Tests play the person's seat themselves: auto-pass starts off unless a test turns it on
#: (the page's own default, on in Run Fast, is tested with a context without this script).
NO_AUTO_PASS = """for (const g of ['runfast', 'guandan']) {
  const k = 'cardavia.autoPass.' + g;
  try { if (localStorage.getItem(k) === null) localStorage.setItem(k, '0'); } catch (e) {}
}"""


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    ctx = browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.add_init_script(NO_AUTO_PASS)
    yield ctx
    ctx.close()


def open_gear(page: Page) -> None:
    """Open the settings behind the gear button (if they are not open yet)."""
    if page.locator("#settings").is_hidden():
        page.click('[data-testid="gear"]')
    page.locator("#settings").wait_for(state="visible")


def open_drawer(page: Page) -> None:
    """Open the side sheet with the log, the levels and the replay."""
    if page.locator("#side").is_hidden():
        page.click('[data-testid="drawer-toggle"]')
    page.locator("#side").wait_for(state="visible")


@pytest.fixture
def watched(live: Live) -> Watch:
    return Watch()


@pytest.fixture
def page(context: BrowserContext, live: Live, watched: Watch) -> Iterator[Page]:
    p = context.new_page()
    watch(p, live, watched)
    p.set_default_timeout(20_000)
    yield p
    assert not watched.problems, "\n".join(watched.problems)


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


# ---------------------------------------------------------------------------- table helpers


def open_table(page: Page, live: Live, game: str, **body: Any) -> str:
    """Create a table through the API, keep its token like the lobby does, open it."""
    created = live.create(game, **body)
    table_id: str = created["table_id"]
    page.goto(f"{live.http}/")
    page.evaluate(
        "([k, v]) => localStorage.setItem(k, v)", [f"cardavia.token.{table_id}", created["token"]]
    )
    page.goto(f"{live.http}/table/{table_id}")
    wait_ready(page)
    return table_id


def wait_ready(page: Page) -> None:
    page.wait_for_function(
        "() => { const r = document.querySelector('#table'); "
        "return r && r.dataset.state !== 'loading' && window.cardavia && window.cardavia.state }"
    )


def ui_state(page: Page) -> str:
    state: str = page.evaluate("() => document.querySelector('#table').dataset.state")
    return state


def seq(page: Page) -> int:
    value: int = page.evaluate("() => window.cardavia.state.seq")
    return value


WAIT_FOR_ME = """() => {
  const r = document.querySelector('#table'); const s = window.cardavia.state;
  if (!s) return false;
  const o = s.observation;
  // "deal over" only when the observation says so too: right after Next deal the page may
  // still show the old summary while the new deal's tribute is under way
  return (['deal-over', 'match-over'].includes(r.dataset.state) && o.phase === 'over')
    || (o.phase === 'play' && o.turn === o.seat) || (o.return_options || []).length > 0;
}"""


def wait_for_me(page: Page) -> None:
    """Until the person must act or the deal is over (the AI plays at pacing 0)."""
    page.wait_for_function(WAIT_FOR_ME, timeout=60_000)


def wait_after(page: Page, before: int) -> None:
    """Until the table moved past log entry ``before``; a shown error fails the test."""
    page.wait_for_function(
        "(n) => window.cardavia.state.seq > n || document.querySelector('#error').textContent",
        arg=before,
    )
    error = page.evaluate("() => document.querySelector('#error').textContent")
    assert not error, f"the page showed an error: {error}"


#: Where a person clicks a card of the fan: its visible top-left corner (the next card
#: covers the rest of it).
CORNER: Position = {"x": 6, "y": 10}


def _unselected(page: Page, card: str) -> Any:
    locator = page.locator(f'#hand button.card[data-card="{card}"][aria-pressed="false"]')
    if not locator.count():
        state = page.evaluate("() => window.cardavia.state")
        raise AssertionError(f"no free {card} in the hand: {json.dumps(state)[:3000]}")
    return locator.first


def click_move(page: Page, move: Move) -> None:
    """Do ``move`` with the mouse: click the cards, then Play / Pass / confirm the return."""
    before = seq(page)
    if move.kind == "pass":
        page.click('[data-testid="pass"]')
    elif move.kind == "return":
        _unselected(page, move.cards[0]).click(position=CORNER)
        page.click('[data-testid="return-confirm"]')
    else:
        for card in move.cards:
            _unselected(page, card).click(position=CORNER)
        page.click('[data-testid="play"]')
        choose_interpretation(page, move)
    wait_after(page, before)


def choose_interpretation(page: Page, move: Move, keyboard: bool = False) -> None:
    """When the chooser asks (G-5.6), pick the reading the policy meant."""
    options = page.locator('[data-testid="interpretation-option"]')
    if not page.locator("#chooser:not([hidden])").count():
        return
    wanted = f'[data-testid="interpretation-option"][data-type="{move.type}"][data-rank="{move.rank or ""}"]'
    if keyboard:
        for _ in range(options.count() + 1):
            if page.evaluate(
                "(sel) => document.activeElement && document.activeElement.matches(sel)", wanted
            ):
                break
            page.keyboard.press("Tab")
        page.keyboard.press("Enter")
    else:
        page.click(wanted)


def focus_hand(page: Page) -> None:
    """Tab until the keyboard focus is on a card of the hand."""
    for _ in range(40):
        if page.evaluate("() => !!document.activeElement.closest('#hand')"):
            return
        page.keyboard.press("Tab")
    raise AssertionError("Tab never reached the hand")


def key_move(page: Page, move: Move) -> None:
    """Do ``move`` with the keyboard only: arrows + Space on the hand, P / X, Enter."""
    before = seq(page)
    if move.kind == "pass":
        focus_hand(page)
        page.keyboard.press("x")
        wait_after(page, before)
        return
    focus_hand(page)
    for card in move.cards:
        target = page.evaluate(
            "(c) => { const b = [...document.querySelectorAll('#hand button.card')]"
            ".find(x => x.dataset.card === c && x.getAttribute('aria-pressed') === 'false');"
            " return Number(b.dataset.index); }",
            card,
        )
        current = page.evaluate("() => Number(document.activeElement.dataset.index)")
        key = "ArrowRight" if target > current else "ArrowLeft"
        for _ in range(abs(target - current)):
            page.keyboard.press(key)
        page.keyboard.press("Space")
    page.keyboard.press("p")
    if move.kind == "play":
        choose_interpretation(page, move, keyboard=True)
    wait_after(page, before)


def play_until_over(page: Page, live: Live, table_id: str, *, keyboard: bool = False,
                    max_moves: int = 400) -> int:
    """Play the person's seat until the deal is over; the policy reads the true state from
    the server's database. Returns the number of moves made."""
    for moves in range(max_moves):
        wait_for_me(page)
        if ui_state(page) in ("deal-over", "match-over"):
            return moves
        table = live.table_at(table_id, seq(page))
        move = choose(table.observation(0))
        (key_move if keyboard else click_move)(page, move)
    raise AssertionError("the deal did not end")


# ---------------------------------------------------------------------------- S-5 audit

CARD_RE = re.compile(r"^(?:[2-9TJQKA][shcd]|BJ|RJ)$")
#: Observation fields that hold public cards (plays, tribute) or this seat's own returns.
PUBLIC_FIELDS = frozenset({"top", "trick", "history", "tributes", "my_returns"})


def _cards_in(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value] if CARD_RE.match(value) else []
    if isinstance(value, dict):
        return [c for v in value.values() for c in _cards_in(v)]
    if isinstance(value, list):
        return [c for v in value for c in _cards_in(v)]
    return []


def audit_frames(frames: list[str], live: Live, table_id: str, seat: int = 0) -> int:
    """Check every state frame against the true table: the seat's hand is exactly its true
    hand, and no card outside the public fields is one the seat does not hold (S-5).

    One action can log several events (a new deal and its tribute); the server sends a
    frame per event, each with the state after the whole action, so a frame with sequence
    number ``n`` shows the table at ``n`` or a few entries later. Returns how many state
    frames were checked."""
    events = live.events(table_id)
    table = Table(live.config(table_id))
    own_at: list[list[str]] = [[]]  # own_at[n]: the seat's true hand after entry n
    for event in events:
        table.fold(event)
        own_at.append(sorted(str(c) for c in table.hands()[seat]))
    checked = 0
    for raw in frames:
        msg = json.loads(raw)
        if msg.get("type") != "state" or msg.get("table_id") != table_id:
            continue
        n = msg["seq"]
        obs = msg["observation"]
        hand = sorted(obs["hand"])
        assert hand in own_at[n : n + 8], f"seq {n}: the hand is not the seat's true hand"
        private = [c for k, v in obs.items() if k not in PUBLIC_FIELDS for c in _cards_in(v)]
        private += _cards_in(msg.get("match"))
        stray = set(private) - set(hand)
        assert not stray, f"seq {n}: cards of another seat were sent: {sorted(stray)}"
        event = msg.get("event") or {}
        if event.get("event") == "deal_started":
            hands = event["hands"]
            assert all(h is None for i, h in enumerate(hands) if i != seat), f"seq {n}: hands"
        elif event.get("event") == "returned" and seat not in (event["from"], event["to"]):
            assert event["card"] is None
        checked += 1
    return checked


# ---------------------------------------------------------------------------- fixtures of state


def finish_deal_over_ws(live: Live, table_id: str, token: str) -> None:
    """Play the person's seat to the end of the deal over a plain WebSocket (no browser)."""
    from websockets.sync.client import connect

    acted_at = -1  # the seq this helper last acted on: a repeated frame must not act twice
    with connect(f"ws://127.0.0.1:{live.port}/ws/tables/{table_id}?token={token}") as ws:
        while True:
            msg = json.loads(ws.recv(timeout=60))
            if msg["type"] == "error":
                raise AssertionError(msg)
            if msg["type"] != "state":
                continue
            obs = msg["observation"]
            if obs["phase"] == "over":
                return
            if not ((obs["phase"] == "play" and obs["turn"] == 0) or obs["return_options"]):
                continue
            table = live.table_at(table_id)
            if msg["seq"] <= acted_at or table.seq != msg["seq"] or not table.person_to_act():
                continue  # an older or repeated frame: wait for the state after our action
            acted_at = msg["seq"]
            move = choose(table.observation(0))
            if move.kind == "pass":
                ws.send(json.dumps({"type": "pass"}))
            elif move.kind == "return":
                ws.send(json.dumps({"type": "return", "card": move.cards[0]}))
            else:
                ws.send(json.dumps({"type": "play", "cards": list(move.cards),
                                    "interpretation": {"type": move.type, "rank": move.rank}}))


@dataclass
class Tables:
    """Tables in a known state, shared by the language and look tests."""

    finished_runfast: tuple[str, str]
    playing_guandan: tuple[str, str]


@pytest.fixture(scope="session")
def tables(live: Live) -> Tables:
    rf = live.create("runfast", seed=7, difficulty="easy")
    finish_deal_over_ws(live, rf["table_id"], rf["token"])
    gd = live.create("guandan", seed=5, difficulty="easy", partner="normal")
    return Tables((rf["table_id"], rf["token"]), (gd["table_id"], gd["token"]))


def visit_table(page: Page, live: Live, table: tuple[str, str], query: str = "") -> None:
    table_id, token = table
    if not page.url.startswith(live.http):
        page.goto(f"{live.http}/")
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"cardavia.token.{table_id}", token])
    page.goto(f"{live.http}/table/{table_id}{query}")
    wait_ready(page)
