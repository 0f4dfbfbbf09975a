"""Tournaments and self-play past one machine: boards (or self-play shards) on Ray.

Needs the ``[cluster]`` extra (``ray``). Every board of a tournament is a pure function of
(game, agents, seed, board index), so the per-board results on Ray are the ones
``--workers 1`` gives; results are collected in board order. Learned agents registered in
this process (``NAME=PATH``) are registered again in each Ray worker from their files.

``address``: ``"auto"`` joins a running cluster when there is one and otherwise starts a
local Ray; any other text is a cluster address (``ray://host:10001`` or ``host:6379``).
A Ray already initialised in this process (a test's ``ray.init(num_cpus=2)``) is used as is.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def _connect(address: str) -> Any:
    try:
        import ray
    except ImportError:
        raise ValueError("--ray needs Ray: pip install 'cardavia[cluster]'") from None
    if not ray.is_initialized():
        if address == "auto":
            try:
                ray.init(address="auto", log_to_driver=False)
            except ConnectionError:
                ray.init(log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    return ray


def _registered() -> dict[str, dict[str, str]]:
    try:
        from cardavia.env.agents import REGISTERED
    except ImportError:  # the [env] extra is not installed: no learned agents either
        return {}
    return {name: dict(files) for name, files in REGISTERED.items()}


def _run_one(fn: Callable[[T], R], job: T, registered: dict[str, dict[str, str]]) -> R:
    if registered:
        from cardavia.env.agents import REGISTERED, register

        for name, files in registered.items():
            for game, path in files.items():
                if REGISTERED.get(name, {}).get(game) != path:
                    register(name, path)
    return fn(job)


def ray_map(fn: Callable[[T], R], jobs: Sequence[T], address: str = "auto") -> list[R]:
    """``[fn(job) for job in jobs]`` computed on Ray, in job order."""
    ray = _connect(address)
    remote = ray.remote(_run_one)
    registered = _registered()
    futures = [remote.remote(fn, job, registered) for job in jobs]
    return list(ray.get(futures))


# --------------------------------------------------------------------------- self-play


def shard_seed(seed: int, shard: int, shards: int) -> int:
    """The seed of one self-play shard (one shard: the run's own seed)."""
    return seed if shards == 1 else (seed * 1_000_003 + shard * 7_919 + 23) % (2**62)


def shard_deals(deals: int, shards: int) -> list[int]:
    """Deals per shard: as even as possible, the first shards one more."""
    return [deals // shards + (1 if i < deals % shards else 0) for i in range(shards)]


def _shard(job: tuple[str, int, int, tuple[str, ...]]) -> list[dict[str, Any]]:
    from cardavia.selfplay import selfplay_records

    game, deals, seed, names = job
    return list(selfplay_records(game, deals, seed, list(names)))


def selfplay_sharded(
    game: str,
    deals: int,
    seed: int,
    names: Sequence[str],
    *,
    shards: int = 1,
    workers: int = 1,
    ray_address: str | None = None,
) -> list[dict[str, Any]]:
    """Self-play split into ``shards`` independent runs (Guandan: a match each), played in
    this process, on ``workers`` processes or on Ray; the records, in shard order, are the
    same whichever runs them."""
    if shards < 1 or shards > deals:
        raise ValueError(f"--shards {shards} must be between 1 and the number of deals ({deals})")
    jobs = [
        (game, n, shard_seed(seed, i, shards), tuple(names)) for i, n in enumerate(shard_deals(deals, shards))
    ]
    if ray_address is not None:
        parts = ray_map(_shard, jobs, ray_address)
    elif workers > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(_shard, jobs))
    else:
        parts = [_shard(job) for job in jobs]
    return [record for part in parts for record in part]
