"""Helpers of the tables-with-friends tests: create a table with people, join by link,
play every person seat from its own thread, check a spectator's frames."""

from __future__ import annotations

import threading
from typing import Any

import httpx

from cardavia.table import Table, TableConfig

from .conftest import LiveServer, Seat
from .ws_client import deal_over, drive, iter_cards


def create_friends(live: LiveServer, game: str, seats: list[str], **body: Any) -> dict[str, Any]:
    response = httpx.post(
        f"{live.http}/api/tables",
        json={"game": game, "seats": seats, "name": body.pop("name", "Host"), **body},
        timeout=30,
    )
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def join(live: LiveServer, code: str, name: str) -> httpx.Response:
    return httpx.post(f"{live.http}/api/join/{code}", json={"name": name}, timeout=30)


def join_ok(live: LiveServer, code: str, name: str) -> dict[str, Any]:
    response = join(live, code, name)
    assert response.status_code == 200, response.text
    data: dict[str, Any] = response.json()
    return data


def room_frame(seat: Seat, predicate: Any = None, timeout: float = 20) -> dict[str, Any]:
    return seat.recv_until(
        lambda m: m["type"] == "room" and (predicate is None or predicate(m)), timeout
    )


def play_together(seats: dict[int, Seat], seed: int, until: Any = deal_over, timeout: float = 120) -> None:
    """Every person seat plays its own moves (each in its own thread) until ``until``."""
    errors: list[BaseException] = []

    def run(me: int, conn: Seat) -> None:
        try:
            drive(conn, me, seed, until=until, timeout=timeout)
        except BaseException as err:  # handed to the test
            errors.append(err)

    threads = [threading.Thread(target=run, args=(me, conn)) for me, conn in seats.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout + 10)
    assert not errors, errors
    assert not any(t.is_alive() for t in threads), "a seat did not finish"


def public_cards(events: list[dict[str, Any]]) -> set[str]:
    """Every card the public has seen in a log: plays and tribute cards."""
    seen: set[str] = set()
    for event in events:
        if event["event"] == "played":
            seen.update(event["cards"])
        elif event["event"] == "tribute_paid":
            seen.add(event["card"])
    return seen


def check_spectator(config: TableConfig, events: list[dict[str, Any]], messages: list[dict[str, Any]]) -> int:
    """No spectator frame holds a card the public has not seen by then; no hand at all."""
    table = Table(config)
    public_at: list[set[str]] = [set()]
    for event in events:
        table.fold(event)
        public_at.append(public_at[-1] | public_cards([event]))
    checked = 0
    last = 0
    for message in messages:
        if message["type"] == "state":
            last = message["seq"]
            obs = message["observation"]
            assert obs["seat"] is None and obs["hand"] == [] and obs["return_options"] == []
            assert obs["my_returns"] == [] and obs["has_reply"] is None
            event = message["event"]
            if event is not None and event["event"] == "deal_started":
                assert all(h is None for h in event["hands"]) and event["seed"] is None
            if event is not None and event["event"] == "returned":
                assert event["card"] is None
        window: set[str] = set()
        for n in range(last, min(last + 8, len(public_at) - 1) + 1):
            window |= public_at[n]
        foreign = set(iter_cards(message)) - window
        assert not foreign, f"a spectator was sent hidden cards: {sorted(foreign)}"
        checked += 1
    return checked
