"""Hypothesis fuzzing: random methods, paths and JSON bodies against the HTTP API (in
process, through httpx's ASGI transport) never produce a 5xx; random frames on a seat's
socket (live server) are always answered and never break it."""

from __future__ import annotations

import asyncio
import json
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardavia.server.app import create_app

from .conftest import LiveServer
from .ws_client import must_act

JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20),
    lambda children: st.lists(children, max_size=5)
    | st.dictionaries(st.text(max_size=10), children, max_size=5),
    max_leaves=20,
)

NEAR_VALID = st.fixed_dictionaries(
    {},
    optional={
        "game": st.sampled_from(["guandan", "runfast", "poker", "", "GUANDAN"]) | JSON,
        "difficulty": st.sampled_from(["easy", "normal", "hard", "expert", "godlike"]) | JSON,
        "partner": st.sampled_from(["easy", "expert", None]) | JSON,
        "seed": st.integers(min_value=-(2**70), max_value=2**70) | JSON,
    },
)

SEGMENT = st.text(
    alphabet=st.characters(blacklist_categories=["Cs"], blacklist_characters="/?#"),
    min_size=0,
    max_size=30,
)


def _paths(table_id: str) -> st.SearchStrategy[str]:
    fixed = st.sampled_from(
        [
            "/api/tables",
            f"/api/tables/{table_id}",
            f"/api/tables/{table_id}/record",
            "/api/health",
            "/api/tables/",
            "/api",
            "/openapi.json",
        ]
    )
    seg = SEGMENT.map(lambda s: quote(s, safe=""))
    random_table = seg.map(lambda s: f"/api/tables/{s}")
    random_record = seg.map(lambda s: f"/api/tables/{s}/record")
    anything = st.lists(seg.filter(bool), max_size=4).map(lambda parts: "/" + "/".join(parts))
    return fixed | random_table | random_record | anything


def test_http_api_never_fails(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'fuzz.sqlite3'}", pacing=0, allow_seeds=True)
    loop = asyncio.new_event_loop()
    stack = AsyncExitStack()
    try:
        loop.run_until_complete(stack.enter_async_context(app.router.lifespan_context(app)))
        client = httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://127.0.0.1")
        stack.push_async_callback(client.aclose)

        def request(method: str, path: str, **kwargs: Any) -> httpx.Response:
            return loop.run_until_complete(client.request(method, path, **kwargs))

        created = request("POST", "/api/tables", json={"game": "runfast", "seed": 1}).json()
        table_id = created["table_id"]

        @settings(
            max_examples=300,
            deadline=None,
            suppress_health_check=[HealthCheck.too_slow],
        )
        @given(
            method=st.sampled_from(["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]),
            path=_paths(table_id),
            body=NEAR_VALID | JSON,
            raw=st.booleans(),
        )
        def run(method: str, path: str, body: Any, raw: bool) -> None:
            if raw:
                content = json.dumps(body)[:-1] if body is not None else "{"
                response = request(
                    method, path, content=content, headers={"content-type": "application/json"}
                )
            else:
                response = request(method, path, json=body)
            assert response.status_code < 500, (method, path, body, response.text[:200])
            if path == "/api/tables" and method == "POST" and response.status_code == 200:
                answer = response.json()
                # docs/protocol.md: a solo table answers no invite links and no watch link
                assert set(answer) == {"table_id", "seat", "token", "game", "invites", "watch"}
                assert answer["invites"] == [] and answer["watch"] is None

        run()
        summary = request("GET", f"/api/tables/{table_id}").json()
        assert summary["game"] == "runfast"
    finally:
        loop.run_until_complete(stack.aclose())
        loop.close()


FRAMES = st.fixed_dictionaries(
    {"type": st.sampled_from(["play", "pass", "return", "next_deal", "seat"])},  # (hint: 150 ms)
    optional={
        "cards": JSON | st.lists(st.sampled_from(["7h", "RJ", "2h", "Ts", "10s", "x"]), max_size=5),
        "card": JSON,
        "interpretation": JSON,
        "seat": JSON,
    },
) | JSON


def test_ws_frames_fuzz(server: LiveServer) -> None:
    """Each random frame is answered (an error, a hint or the state it caused)."""
    created = server.create("guandan", difficulty="easy", partner="easy", seed=2)
    table_id, token = created["table_id"], created["token"]
    seats = [server.connect(table_id, token)]
    seats[0].recv_until(lambda m: m["type"] == "state" and must_act(m["observation"]))

    @settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(frame=FRAMES)
    def run(frame: Any) -> None:
        seat = seats[-1]
        seat.send(json.dumps(frame))
        reply = seat.recv(timeout=10)
        assert reply["type"] in ("error", "state", "hint")
        if reply["type"] == "error":
            assert reply["code"] in ("bad_message", "illegal", "not_your_turn", "not_allowed",
                                     "ambiguous", "rate_limited")
            if reply["code"] == "rate_limited":  # a fresh connection has a fresh allowance
                seat.close()  # (a seat may hold only a few connections at once)
                seats.append(server.connect(table_id, token))
                seats[-1].recv()
        # drain whatever the AI did after an accepted move
        while True:
            try:
                seats[-1].recv(timeout=0.02)
            except TimeoutError:
                break

    run()
    assert httpx.get(f"{server.http}/api/health").json() == {"ok": True}
    for seat in seats:
        seat.close()
