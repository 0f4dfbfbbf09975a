"""Cost of deal reviews (prints numbers; not a test).

    .venv/bin/python bench/review.py                  # 8 Guandan deals, 6 playing tables
    .venv/bin/python bench/review.py --deals 4 --tables 4 --seconds 20

1. **CPU per reviewed deal** (in this process): Guandan deals played by ``normal`` agents,
   each reviewed for seat 0 with :func:`cardavia.server.review.compute_review` (what the
   review process runs). Reference measured in the same run: the CPU the ``expert`` agent
   spends deciding the same seat's moves at its default budget (one "hint" per decision).
2. **Play latency of other tables while reviews run**: a server (``cli_serve``, pacing 0,
   fresh SQLite file) with ``--tables`` tables played by scripted WebSocket seats with a
   think time; for ``--seconds`` without reviews, then as long again while finished deals
   of other tables are reviewed one after the other. Reported per phase: the response time
   to a person's action (sent → the frame of its event) and the gaps between consecutive AI
   frames of a table (how long each AI move took to arrive), p50 / p90 / p99 / max, and
   the ratio with reviews / without.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server"))

if TYPE_CHECKING:  # the same module, as mypy knows it (from the repository's root)
    from tests.server.ws_client import choose, must_act
else:
    from ws_client import choose, must_act

from cardavia.ai.base import Decision  # noqa: E402
from cardavia.ai.difficulty import agent_for  # noqa: E402
from cardavia.ai.runner import decide  # noqa: E402
from cardavia.rules.observation import observation  # noqa: E402
from cardavia.server.review import compute_review  # noqa: E402
from cardavia.table import Pass, Play, Table, TableConfig  # noqa: E402


def cpu_per_deal(deals: int) -> None:
    review_cpu: list[float] = []
    hint_cpu: list[float] = []
    decisions = 0
    for seed in range(deals):
        config = TableConfig.preset("guandan", 1000 + seed, "normal", "normal")
        table = Table.create(config)
        mine = agent_for("normal", seed)
        expert = agent_for("expert", seed)
        hints = 0.0
        while not table.deal.over:
            table.run_ai()
            if table.deal.over:
                break
            deal = table.deal
            t0 = time.process_time()
            expert.act(observation(deal, 0))
            hints += time.process_time() - t0
            d = decide(mine, deal, 0)
            assert isinstance(d, Decision)  # a match's first deal has no tribute: only plays
            if d.combo is None:
                table.apply_action(0, Pass())
            else:
                combo = d.combo
                rank = None if combo.rank is None else combo.rank.symbol
                table.apply_action(0, Play(tuple(str(c) for c in combo.cards), combo.type.value, rank))
        events = [e.event for e in table.log]
        t0 = time.process_time()
        review = compute_review(config.to_json(), events, 0, 0)
        review_cpu.append(time.process_time() - t0)
        hint_cpu.append(hints)
        decisions += len(review["decisions"])
    mean = statistics.mean(review_cpu)
    print(f"review CPU per Guandan deal: mean {mean:.2f} s, max {max(review_cpu):.2f} s "
          f"({decisions / deals:.1f} decisions of seat 0 a deal, {1000 * sum(review_cpu) / decisions:.0f} ms each)")
    ref = statistics.mean(hint_cpu)
    print(f"reference, the expert's own decisions of that seat (default budget): {ref:.2f} s a deal; "
          f"review / reference = {mean / ref:.2f}")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def line(name: str, values: list[float]) -> str:
    ms = [1000 * v for v in values]
    return (f"{name}: n={len(ms)} p50 {pct(ms, .5):.1f} p90 {pct(ms, .9):.1f} p99 {pct(ms, .99):.1f} "
            f"max {max(ms, default=float('nan')):.1f} ms")


async def seat(base: str, game: str, think: float, stop: float, acts: list[float], gaps: list[float]) -> None:
    async with httpx.AsyncClient() as http:
        body = {"game": game, "difficulty": "normal", "partner": "normal"}
        created = (await http.post(f"{base}/api/tables", json=body)).json()
    ws_url = base.replace("http", "ws") + f"/ws/tables/{created['table_id']}?token={created['token']}"
    async with connect(ws_url, max_size=2**22) as ws:
        sent_at: float | None = None
        last_ai: float | None = None
        rng = random.Random(created["table_id"])
        while time.monotonic() < stop:
            msg = json.loads(await asyncio.wait_for(ws.recv(), 60))
            if msg["type"] != "state":
                sent_at = None
                continue
            now = time.monotonic()
            event = msg["event"] or {}
            if event.get("seat") == 0 and sent_at is not None:
                acts.append(now - sent_at)
                sent_at = None
            elif event.get("event") in ("played", "passed") and event.get("seat") != 0:
                if last_ai is not None:
                    gaps.append(now - last_ai)
                last_ai = now
            obs = msg["observation"]
            if obs["phase"] == "over":
                await ws.send(json.dumps({"type": "next_deal"}))
                last_ai = None
                continue
            if must_act(obs) and sent_at is None:
                last_ai = None
                await asyncio.sleep(think * rng.uniform(0.5, 1.5))
                move = choose(obs, 1)
                if move["type"] == "return":
                    message = {"type": "return", "card": move["card"]}
                elif move["type"] == "pass":
                    message = {"type": "pass"}
                else:
                    message = {"type": "play", "cards": move["cards"], "interpretation": move.get("interpretation")}
                sent_at = time.monotonic()
                await ws.send(json.dumps(message))


async def finished_tables(base: str, n: int) -> list[tuple[str, str]]:
    """Guandan tables with one finished deal each (played by the scripted seat at once)."""
    out = []
    async with httpx.AsyncClient() as http:
        for i in range(n):
            body = {"game": "guandan", "difficulty": "random", "partner": "random", "seed": 500 + i}
            created = (await http.post(f"{base}/api/tables", json=body)).json()
            ws_url = base.replace("http", "ws") + f"/ws/tables/{created['table_id']}?token={created['token']}"
            async with connect(ws_url, max_size=2**22) as ws:
                acted = -1
                while True:
                    msg = json.loads(await ws.recv())
                    if msg["type"] != "state":
                        continue
                    obs = msg["observation"]
                    if obs["phase"] == "over":
                        break
                    if must_act(obs) and msg["seq"] > acted:
                        acted = msg["seq"]
                        move = choose(obs, 1)
                        if move["type"] == "return":
                            await ws.send(json.dumps({"type": "return", "card": move["card"]}))
                        elif move["type"] == "pass":
                            await ws.send(json.dumps({"type": "pass"}))
                        else:
                            play = {"type": "play", "cards": move["cards"],
                                    "interpretation": move.get("interpretation")}
                            await ws.send(json.dumps(play))
            out.append((created["table_id"], created["token"]))
    return out


async def reviewer(base: str, tables: list[tuple[str, str]], stop: float, done: list[float]) -> None:
    async with httpx.AsyncClient(timeout=300) as http:
        for table_id, token in tables:
            if time.monotonic() >= stop:
                return
            t0 = time.monotonic()
            auth = {"Authorization": f"Bearer {token}"}
            r = await http.get(f"{base}/api/tables/{table_id}/deals/0/review", headers=auth)
            r.raise_for_status()
            done.append(time.monotonic() - t0)


async def latency(tables: int, seconds: float, think: float) -> None:
    port = 8000 + random.randrange(1000, 9000)
    db = Path(tempfile.mkdtemp()) / "bench.sqlite3"
    proc = subprocess.Popen([sys.executable, "-m", "cardavia.server.cli_serve", "--port", str(port),
                             "--db", f"sqlite:///{db}", "--pacing", "0"], cwd=ROOT,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(200):
            try:
                if httpx.get(f"{base}/api/health", timeout=1).status_code == 200:
                    break
            except httpx.HTTPError:
                await asyncio.sleep(0.1)
        to_review = await finished_tables(base, 12)
        for phase in ("without reviews", "with reviews"):
            acts: list[float] = []
            gaps: list[float] = []
            reviewed: list[float] = []
            stop = time.monotonic() + seconds
            jobs = [seat(base, "guandan" if i % 2 else "runfast", think, stop, acts, gaps) for i in range(tables)]
            if phase == "with reviews":
                jobs.append(reviewer(base, to_review, stop, reviewed))
            await asyncio.gather(*jobs, return_exceptions=True)
            print(f"-- {phase} ({tables} tables, think {think} s, {seconds:.0f} s)")
            print("   " + line("person action → its frame", acts))
            print("   " + line("gap between AI frames", gaps))
            if reviewed:
                print(f"   reviews finished: {len(reviewed)}, wall {statistics.mean(reviewed):.1f} s each")
            if phase == "without reviews":
                base_p90 = (pct(acts, .9), pct(gaps, .9))
            else:
                person, ai = pct(acts, .9) / base_p90[0], pct(gaps, .9) / base_p90[1]
                print(f"   p90 ratio with/without: person {person:.2f}, AI gaps {ai:.2f}")
    finally:
        proc.kill()
        proc.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=8)
    parser.add_argument("--tables", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--think", type=float, default=0.3)
    args = parser.parse_args()
    cpu_per_deal(args.deals)
    asyncio.run(latency(args.tables, args.seconds, args.think))


if __name__ == "__main__":
    main()
