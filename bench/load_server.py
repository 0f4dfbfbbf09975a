"""Load benchmark of the play server (prints numbers; not a test).

    .venv/bin/python bench/load_server.py                    # 200 tables, both games
    .venv/bin/python bench/load_server.py --think 1.0        # people take ~1 s a move
    .venv/bin/python bench/load_server.py --tables 50 --deals 2 --game guandan
    .venv/bin/python bench/load_server.py --think 1.0 --difficulties normal --partner expert
    .venv/bin/python bench/load_server.py --think 1.0 --partner expert --ai-workers 0   # the AI thread
    .venv/bin/python bench/load_server.py --servers 2 --db postgresql+psycopg://…/bench \
        --redis redis://127.0.0.1:6379/0 --think 1.0 --partner expert      # two processes

Starts ``cardavia.server.cli_serve`` as a child process on 127.0.0.1 with a fresh SQLite
file and pacing 0 (``--pacing``) — or ``--servers N`` of them on ``--db`` (PostgreSQL) and
``--redis``, each table created on one process and its seat's WebSocket opened on any
(``--route``) — then opens N tables at once, each played by a scripted
WebSocket seat (the same engine-driven policy as tests/server) against AI seats of random
difficulty. The clients run in this process, on the same machine as the server.

The scripted clients decode frames with orjson when it is installed (``pip install -e
'.[bench]'``; plain ``json`` otherwise) and run on uvloop: their own CPU time is inside
every response they measure, so a lighter client measures the server more truly.

Two modes:
- ``--think 0`` (the default), closed loop: each scripted person answers the moment it may
  act, so the server is saturated — every table always has work queued and the response
  time measures the queue as much as the server's cost per event;
- ``--think S``: each person waits a random 0.5×–1.5× S before each action (a fast human),
  the load a server of N tables actually sees.

Reported:
- response time to a person's action: from sending it to receiving the ``state`` frame of
  that action's own event (the AI's next moves are not included), p50 / p90 / p99 / max;
- server memory per table: (peak RSS − RSS before the tables) / tables;
- AI move latency: from the frame before an AI seat's move to the frame of that move, less
  the pacing (what the AI's search and its queue add), p50 / p99 / max;
- errors: refused frames other than the expected ``ambiguous`` round trips, and failures;
- CPU used by each server process with its AI worker processes (in all, and per person
  action: with its AI moves and frames, a cost that depends little on the load) and by
  these clients; how late this process's own event loop ran (client lag: it is part of
  every response time measured here);
- the machine's load average and the CPU the other processes used meanwhile: the clients
  share the machine with the server (and whatever else runs), so read every number next to
  these.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "server"))

if TYPE_CHECKING:  # the same module, as mypy knows it (from the repository's root)
    from tests.server.ws_client import choose, must_act, own_event
else:
    from ws_client import choose, must_act, own_event

try:  # the clients' JSON decoding is their largest cost (and part of every measured response)
    import orjson

    _loads: Callable[[str | bytes], Any] = orjson.loads
except ImportError:
    _loads = json.loads


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    deals: int = 0
    frames: int = 0
    ambiguous: int = 0
    lags: list[float] = field(default_factory=list)
    ai_moves: list[float] = field(default_factory=list)


def rss_kib(pid: int) -> int:
    if pid <= 0:
        return 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (Linux /proc)."""
    if pid <= 0:
        return 0.0
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (a server's AI workers)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            if ppid == pid:
                found.append(int(entry.name))
    return found


def tree_cpu_seconds(pid: int) -> float:
    """CPU of a server process and of its AI worker processes."""
    total = cpu_seconds(pid)
    for child in children(pid):
        try:
            total += cpu_seconds(child)
        except (OSError, ValueError, IndexError):
            continue
    return total


def own_cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def cpu_by_process() -> dict[int, tuple[str, float]]:
    """CPU seconds used so far by every process: pid → (command line, seconds)."""
    found: dict[int, tuple[str, float]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            args = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
            found[int(entry.name)] = (args or entry.name, cpu_seconds(int(entry.name)))
        except (OSError, ValueError, IndexError):
            continue
    return found


def other_load(
    before: dict[int, tuple[str, float]], after: dict[int, tuple[str, float]], wall: float,
    exclude: set[int], count: int = 3,
) -> str:
    """What the other processes used during the run, in cores: the total and the busiest."""
    used = sorted(
        ((cpu - before.get(pid, ("", 0.0))[1], args) for pid, (args, cpu) in after.items()
         if pid not in exclude),
        reverse=True,
    )
    total = sum(u for u, _ in used) / wall
    top = "; ".join(f"{u / wall:.2f} {args[:70]}" for u, args in used[:count] if u / wall >= 0.05)
    return f"{total:.2f} cores in all ({top or 'none above 0.05'})"


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


#: The pacing the servers run with (AI move latency is measured beyond it).
PACING = [0.0]
_AI_EVENTS = ("played", "passed", "returned")


async def recv(ws: ClientConnection, stats: Stats, clock: list[float] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = _loads(await asyncio.wait_for(ws.recv(), timeout=120))
    stats.frames += 1
    if clock is not None:
        now = time.perf_counter()
        event = message.get("event") if message.get("type") == "state" else None
        if event and event.get("event") in _AI_EVENTS and event.get("seat", event.get("from")) != 0 and clock[0]:
            stats.ai_moves.append(max(0.0, now - clock[0] - PACING[0]))
        clock[0] = now
    return message


async def send_and_wait(
    ws: ClientConnection, message: dict[str, Any], stats: Stats, clock: list[float] | None = None,
) -> dict[str, Any]:
    """Send a person's action and read frames up to the answer to it (its event or an error)."""
    await ws.send(json.dumps(message))
    while True:
        reply = await recv(ws, stats, clock)
        if own_event(reply, 0, message):
            return reply


async def act(
    ws: ClientConnection, message: dict[str, Any], stats: Stats, think: float = 0.0,
    rng: random.Random | None = None, clock: list[float] | None = None,
) -> dict[str, Any]:
    """Send a person's action (after thinking 0.5×–1.5× ``think`` seconds); time it until the
    frame of its own event."""
    if think > 0:
        await asyncio.sleep(think * (rng or random).uniform(0.5, 1.5))
    start = time.perf_counter()
    reply = await send_and_wait(ws, message, stats, clock)
    if reply["type"] == "error" and reply["code"] == "ambiguous":
        stats.ambiguous += 1
        option = reply["options"][0]
        message = {**message, "interpretation": {"type": option["type"], "rank": option["rank"]}}
        start = time.perf_counter()
        reply = await send_and_wait(ws, message, stats, clock)
    stats.latencies.append(time.perf_counter() - start)
    if reply["type"] == "error":
        stats.errors.append(f"{reply['code']}: {reply['message']}")
    return reply


async def play_table(
    base: str, game: str, deals: int, difficulties: list[str], seed: int, stats: Stats,
    http: httpx.AsyncClient, ramp: float = 0.0, think: float = 0.0, partner: str = "",
    ws_base: str = "",
) -> None:
    rng = random.Random(seed)
    if ramp > 0:  # spread the tables' starts (and so their AI rhythm) over the ramp
        await asyncio.sleep(rng.uniform(0, ramp))
    body = {"game": game, "difficulty": rng.choice(difficulties),
            "partner": partner or rng.choice(difficulties), "seed": seed}
    for attempt in range(3):  # a keep-alive connection the server just closed: retry
        try:
            response = await http.post(f"{base}/api/tables", json=body)
            if response.status_code != 200:
                raise RuntimeError(f"the table was refused: {response.status_code} {response.text[:200]}")
            created = response.json()
            break
        except httpx.TransportError:
            if attempt == 2:
                raise
    url = f"ws{(ws_base or base)[4:]}/ws/tables/{created['table_id']}?token={created['token']}"
    clock = [0.0]
    async with connect(url, max_size=2**22) as ws:
        state = await recv(ws, stats, clock)
        played = 0
        while True:
            if state["type"] == "state":
                obs = state["observation"]
                event = state["event"]
                if obs["phase"] == "over" and (event is None or event["event"] == "deal_ended"):
                    played += 1
                    stats.deals += 1
                    if played >= deals:
                        return
                    state = await act(ws, {"type": "next_deal"}, stats, think, rng, clock)
                    continue
                if must_act(obs):
                    state = await act(ws, choose(obs, seed), stats, think, rng, clock)
                    continue
            state = await recv(ws, stats, clock)


async def sample_rss(pids: list[int], peak: list[int], stop: asyncio.Event) -> None:
    while not stop.is_set():
        peak[0] = max(peak[0], sum(rss_kib(pid) for pid in pids))
        await asyncio.sleep(0.05)


async def sample_lag(stats: Stats, stop: asyncio.Event, every: float = 0.01) -> None:
    """How late this process's event loop wakes up (the clients' own queueing)."""
    while not stop.is_set():
        start = time.perf_counter()
        await asyncio.sleep(every)
        stats.lags.append(time.perf_counter() - start - every)


def start_servers(args: argparse.Namespace) -> tuple[list[subprocess.Popen[str]], list[str], list[int]]:
    """The server processes of this run: (processes, base URLs, pids)."""
    if args.url:  # already running servers (pacing 0 is then up to whoever started them)
        bases = [u.rstrip("/") for u in args.url]
        pids = list(args.pid) + [0] * (len(bases) - len(args.pid))
        return [], bases, pids
    if args.servers > 1 and not (args.db.startswith("postgresql") and args.redis):
        raise SystemExit("--servers N > 1 needs --db postgresql://… and --redis redis://…")
    db = args.db or f"sqlite:///{Path(tempfile.mkdtemp(prefix='cardavia-bench-')) / 'bench.sqlite3'}"
    procs, bases = [], []
    for _ in range(args.servers):
        port = free_port()
        command = [sys.executable, "-m", "cardavia.server.cli_serve", "--port", str(port), "--db", db,
                   "--pacing", str(args.pacing), "--allow-seeds"]
        if args.redis:
            command += ["--redis", args.redis]
        if args.ai_workers is not None:
            command += ["--ai-workers", str(args.ai_workers)]
        procs.append(subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE,
                                      stderr=subprocess.STDOUT, text=True))
        bases.append(f"http://127.0.0.1:{port}")
    return procs, bases, [p.pid for p in procs]


#: Tables created from one loopback address (below the server's expert-table cap).
TABLES_PER_ADDRESS = 4


async def run(args: argparse.Namespace) -> None:
    stack = contextlib.ExitStack()
    procs, bases, pids = start_servers(args)
    PACING[0] = args.pacing
    difficulties = args.difficulties.split(",")
    route_rng = random.Random(1)
    try:
        async with httpx.AsyncClient(timeout=120, limits=httpx.Limits(max_connections=64)) as http:
            for base in bases:
                for _ in range(1200):
                    try:
                        if (await http.get(f"{base}/api/health")).status_code == 200:
                            break
                    except httpx.HTTPError:
                        pass
                    await asyncio.sleep(0.05)
            warm = Stats()  # warm-up: imports, agents, the database
            for base in bases:
                for game in ("guandan", "runfast"):
                    await play_table(base, game, 1, difficulties, 10**6, warm, http)
            baseline = sum(rss_kib(pid) for pid in pids)
            stats = Stats()
            peak = [baseline]
            stop = asyncio.Event()
            sampler = asyncio.create_task(sample_rss(pids, peak, stop))
            lagger = asyncio.create_task(sample_lag(stats, stop))
            games = ["guandan", "runfast"] if args.game == "mix" else [args.game]
            load_before = os.getloadavg()
            procs_before = cpu_by_process()
            cpu_servers = [tree_cpu_seconds(pid) for pid in pids]
            cpu_clients = own_cpu_seconds()
            started = time.perf_counter()

            def ws_base(i: int) -> str:
                if args.route == "same" or len(bases) == 1:
                    return bases[i % len(bases)]
                return route_rng.choice(bases)

            # one loopback address per few tables: the server caps the expert tables one
            # client address holds (Limits.expert_tables_per_client)
            people = [http] + [
                stack.enter_context(contextlib.nullcontext(httpx.AsyncClient(
                    timeout=120,
                    transport=httpx.AsyncHTTPTransport(local_address=f"127.0.{1 + n // 250}.{1 + n % 250}"),
                )))
                for n in range(args.tables // TABLES_PER_ADDRESS + 1)
            ]
            results = await asyncio.gather(
                *(
                    play_table(bases[i % len(bases)], games[i % len(games)], args.deals, difficulties, i,
                               stats, people[1 + i // TABLES_PER_ADDRESS], args.ramp, args.think,
                               args.partner, ws_base(i))
                    for i in range(args.tables)
                ),
                return_exceptions=True,
            )
            for client in people[1:]:
                await client.aclose()
            wall = time.perf_counter() - started
            cpu_servers = [tree_cpu_seconds(pid) - before for pid, before in zip(pids, cpu_servers, strict=True)]
            cpu_clients = own_cpu_seconds() - cpu_clients
            load_after = os.getloadavg()
            tree = {p for pid in pids for p in (pid, *children(pid))}
            others = other_load(procs_before, cpu_by_process(), wall, {os.getpid(), *tree})
            stop.set()
            await sampler
            await lagger
            failures = [r for r in results if isinstance(r, BaseException)]
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            try:
                proc.wait(timeout=20)
            except subprocess.TimeoutExpired:  # (a graceful stop can hang on a kept-alive socket)
                proc.kill()
                proc.wait(timeout=10)
    cpu_server = sum(cpu_servers)
    lat = sorted(x * 1000 for x in stats.latencies)

    def pct(q: float) -> float:
        return lat[min(len(lat) - 1, round(q * (len(lat) - 1)))] if lat else 0.0

    per_table = (peak[0] - baseline) / max(1, args.tables)
    lags = sorted(x * 1000 for x in stats.lags) or [0.0]
    if args.think > 0:
        mode = (f"think time: each person waits {args.think * 0.5:g}-{args.think * 1.5:g} s"
                " (uniform) before acting")
    else:
        mode = "closed loop: people answer instantly (saturates the server)"
    print(f"mode: {mode}")
    print(f"tables {args.tables} ({args.game}), deals per table {args.deals},"
          f" AI difficulties {difficulties}, partner {args.partner or 'as the others'},"
          f" pacing {args.pacing}, ramp {args.ramp} s")
    workers = "one per core" if args.ai_workers is None else (
        "0 (the AI thread)" if args.ai_workers == 0 else str(args.ai_workers))
    print(f"servers {len(bases)} ({args.db.split(':')[0] if args.db else 'sqlite'}"
          f"{', redis' if args.redis else ''}), AI workers per server {workers}, route {args.route}")
    print(f"wall time {wall:.1f} s; deals finished {stats.deals}; person actions {len(lat)};"
          f" frames received {stats.frames} ({stats.frames / wall:.0f}/s)")
    print(f"response to a person's action (ms): p50 {pct(0.5):.1f}  p90 {pct(0.9):.1f}"
          f"  p99 {pct(0.99):.1f}  max {pct(1.0):.1f}  mean {statistics.fmean(lat or [0]):.1f}")
    ai = sorted(x * 1000 for x in stats.ai_moves) or [0.0]
    print(f"AI move latency beyond pacing (ms): p50 {ai[len(ai) // 2]:.1f}"
          f"  p99 {ai[min(len(ai) - 1, round(0.99 * (len(ai) - 1)))]:.1f}  max {ai[-1]:.1f}"
          f"  ({len(stats.ai_moves)} AI moves)")
    print(f"server RSS (the server processes, not their AI workers): before {baseline / 1024:.1f} MiB,"
          f" peak {peak[0] / 1024:.1f} MiB, per table {per_table:.0f} KiB")
    print(f"errors: refused frames {len(stats.errors)}, failed tables {len(failures)},"
          f" ambiguous round trips {stats.ambiguous}")
    print(f"CPU: server {cpu_server:.1f} s ({cpu_server / wall * 100:.0f}% of a core,"
          f" {cpu_server / max(1, len(lat)) * 1000:.2f} ms per person action),"
          f" clients {cpu_clients:.1f} s ({cpu_clients / wall * 100:.0f}%);"
          f" client loop lag p50 {lags[len(lags) // 2]:.1f} ms,"
          f" p99 {lags[min(len(lags) - 1, round(0.99 * (len(lags) - 1)))]:.1f} ms")
    for index, (pid, used) in enumerate(zip(pids, cpu_servers, strict=True)):
        print(f"  server {index} (pid {pid}, with its AI workers): CPU {used:.1f} s"
              f" ({used / wall * 100:.0f}% of a core), {used / max(1, len(lat)) * 1000:.2f} ms"
              f" per person action of the run")
    if cpu_clients / wall > 0.85:
        print("  note: the clients were CPU-bound: the response times include their own queueing")
    print(f"machine: {os.cpu_count()} CPUs, load average {load_before[0]:.2f} before,"
          f" {load_after[0]:.2f} after; other processes used {others}")
    for failure in failures[:5]:
        print("  failure:", repr(failure)[:200])
    for error in stats.errors[:5]:
        print("  refused:", error[:200])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=200)
    parser.add_argument("--deals", type=int, default=1)
    parser.add_argument("--game", choices=["mix", "guandan", "runfast"], default="mix")
    parser.add_argument("--difficulties", default="random",
                        help="comma-separated; each table draws its opponents' and its"
                        " partner's level from these (hard/expert search 50/150 ms a move)")
    parser.add_argument("--pacing", type=float, default=0.0,
                        help="seconds between AI moves (the product default is 0.6)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="seconds a person thinks before each action, drawn uniformly from"
                        " 0.5x-1.5x this (default 0: answer instantly, a closed loop)")
    parser.add_argument("--ramp", type=float, default=0.0,
                        help="start the tables at random times within this many seconds")
    parser.add_argument("--partner", default="",
                        help="the Guandan partner's level (default: drawn from --difficulties)")
    parser.add_argument("--servers", type=int, default=1,
                        help="server processes to start (more than 1: --db postgresql://… --redis …)")
    parser.add_argument("--db", default="", help="the servers' database (default: a fresh SQLite file)")
    parser.add_argument("--redis", default="", help="redis://… : the servers share the tables")
    parser.add_argument("--ai-workers", type=int, default=None,
                        help="AI worker processes per server (default: the server's, one per core;"
                        " 0: the single AI thread)")
    parser.add_argument("--route", choices=["random", "same"], default="random",
                        help="where a table's WebSocket goes: any process (random, as a plain load"
                        " balancer) or the one that created it")
    parser.add_argument("--url", action="append", default=[],
                        help="use a running server instead of starting one (repeat for several)")
    parser.add_argument("--pid", type=int, action="append", default=[],
                        help="its process id, for the RSS and CPU (repeat, in --url order)")
    args = parser.parse_args()
    try:  # the clients' own overhead is part of every response time measured: keep it low
        import uvloop
    except ImportError:
        asyncio.run(run(args))
    else:
        uvloop.run(run(args))


if __name__ == "__main__":
    main()
