"""Tournaments on Ray give the per-board results of ``--workers 1`` (a local Ray, 2 CPUs)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
import ray  # the [cluster] extra: ./scripts/test installs it, so this runs (never skipped)

from cardavia.ai.tournament import _play, run
from cardavia.env.cluster import ray_map, selfplay_sharded

BOARDS = 20


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def _same(a: dict[str, Any], b: dict[str, Any]) -> None:
    for key in ("seconds", "workers"):
        a.pop(key), b.pop(key)
    assert a == b


@pytest.mark.parametrize(
    ("game", "names"), [("runfast", ("basic", "random", "random")), ("guandan", ("basic", "random"))]
)
def test_ray_boards_equal_workers_1(local_ray: None, game: str, names: tuple[str, ...]) -> None:
    jobs = [(game, names, 31, i, None) for i in range(BOARDS)]
    assert ray_map(_play, jobs, "auto") == [_play(job) for job in jobs]
    on_ray = run(game, list(names), BOARDS, 31, progress=False, ray="auto")
    _same(on_ray, run(game, list(names), BOARDS, 31, progress=False))


def test_ray_selfplay_shards_equal_local(local_ray: None) -> None:
    local = selfplay_sharded("runfast", 6, 4, ["random"], shards=3)
    assert selfplay_sharded("runfast", 6, 4, ["random"], shards=3, ray_address="auto") == local
