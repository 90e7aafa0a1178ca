"""Rollouts and labels on a Ray cluster (``--ray ADDRESS``) give what one machine gives with
the same seed. The cluster is a Ray instance this test starts (``"local"``)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from backgammon import Position
from backgammon.bot import rollout
from backgammon.bot.pools import ClusterError, worker_pool
from backgammon.training import truth

ray = pytest.importorskip("ray")

#: A middle-game position after the opening 3-1 and a reply.
POSITION = Position.initial().parse_play("8/5 6/5", (3, 1)).result
CANDIDATES = [
    truth.Candidate(position.id(), "contact", "test")
    for position in (POSITION, Position.initial().parse_play("24/18 13/8", (6, 5)).result)
]


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    yield "local"
    ray.shutdown()


def test_a_rollout_on_the_cluster_is_the_rollout_here(cluster: str) -> None:
    here = rollout(POSITION, trials=72, truncate=3, seed=11, workers=1)
    there = rollout(POSITION, trials=72, truncate=3, seed=11, workers=2, ray=cluster)
    assert there.as_dict() == here.as_dict()


def test_labels_on_the_cluster_are_the_labels_here(cluster: str, tmp_path: Path) -> None:
    settings = truth.Settings(target_se=1.0, max_trials=36, truncate=2)
    folders = []
    for name, ray_address in (("here", None), ("there", cluster)):
        folder = tmp_path / name
        truth.choose(folder, [("test", CANDIDATES, len(CANDIDATES))], None, 1, {})
        assert truth.label(folder, settings, workers=2, ray=ray_address) == len(CANDIDATES)
        folders.append(folder)
    here, there = (truth.read_labels(folder) for folder in folders)
    assert [_without_time(row) for row in here] == [_without_time(row) for row in there]


def _without_time(row: dict[str, object]) -> dict[str, object]:
    return {key: value for key, value in row.items() if key != "seconds"}


def test_without_ray_the_cluster_path_says_what_to_install(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(ClusterError, match=r"pip install 'backgammon\[cluster\]'"):
        worker_pool(2, ray="local")
