"""The computer player's second training stage: supervised on its own search's values."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from backgammon.bot import NetworkEvaluator
from backgammon.bot.bearoff import BearoffEvaluator
from backgammon.bot.encoding import CONTACT_INPUTS, RACE_INPUTS
from backgammon.bot.network import Network, load_networks, save_networks
from backgammon.bot.search import Search
from backgammon.cli import main as cli_main
from backgammon.training.supervised import Settings, generate, label, main, train
from backgammon.training.train import CHECKPOINT, NETWORKS


def small_evaluator() -> NetworkEvaluator:
    return NetworkEvaluator(
        Network.create(CONTACT_INPUTS, 8, seed=1), Network.create(RACE_INPUTS, 8, seed=2)
    )


def start_file(tmp_path: Path) -> Path:
    evaluator = small_evaluator()
    path = tmp_path / "start.npz"
    save_networks(path, {"contact": evaluator.contact, "race": evaluator.race}, {})
    return path


def test_generated_positions_are_live_varied_and_seeded() -> None:
    evaluator = small_evaluator()
    positions = generate(evaluator, 60, seed=3, explore=0.2, parallel=4)
    assert len(positions) == 60
    assert not any(p.is_game_over() for p in positions)
    assert len(set(positions)) > 30
    assert positions == generate(evaluator, 60, seed=3, explore=0.2, parallel=4)


def test_labels_are_the_searchs_1_ply_values() -> None:
    evaluator = small_evaluator()
    positions = generate(evaluator, 10, seed=4, explore=0.1, parallel=2)
    expected = Search(BearoffEvaluator(evaluator)).values(positions, 1)
    assert np.allclose(label(evaluator, positions), expected, atol=1e-6)


def test_a_tiny_supervised_run_writes_a_checkpoint_and_resumes(tmp_path: Path) -> None:
    start = start_file(tmp_path)
    settings = Settings(start=start, positions=50, rounds=1, eval_games=2, parallel=4,
                        out=tmp_path / "run", progress=False)
    assert train(settings) == 0
    networks, meta = load_networks(tmp_path / "run" / CHECKPOINT, NETWORKS)
    assert meta["rounds"] == 1 and len(meta["history"]) == 2  # the start and round 1
    assert (tmp_path / "run" / "checkpoint-round-001.npz").exists()
    before, _ = load_networks(start, NETWORKS)
    assert not np.array_equal(before["contact"].w1, networks["contact"].w1)

    # Resumed with one more round: it goes on from the checkpoint.
    assert train(Settings(**{**settings.__dict__, "rounds": 2, "resume": True})) == 0
    _, meta = load_networks(tmp_path / "run" / CHECKPOINT, NETWORKS)
    assert meta["rounds"] == 2 and len(meta["history"]) == 3


def test_labels_of_two_plies_are_the_searchs() -> None:
    evaluator = small_evaluator()
    positions = generate(evaluator, 3, seed=5, explore=0.1, parallel=2)
    expected = Search(BearoffEvaluator(evaluator)).values(positions, 2)
    assert np.allclose(label(evaluator, positions, plies=2), expected, atol=1e-6)
    with pytest.raises(ValueError, match="1 ply or more"):
        label(evaluator, positions, plies=0)


def test_the_command_line(tmp_path: Path) -> None:
    status = main(["--from", str(start_file(tmp_path)), "--positions", "20", "--rounds", "1",
                   "--eval-games", "0", "--out", str(tmp_path / "cli"), "--no-progress"])
    assert status == 0 and (tmp_path / "cli" / CHECKPOINT).exists()


def test_backgammon_train_stage_search(tmp_path: Path) -> None:
    out = tmp_path / "stage"
    status = cli_main(["train", "--stage", "search", "--from", str(start_file(tmp_path)),
                       "--plies", "1", "--positions", "20", "--rounds", "1", "--parallel", "4",
                       "--eval-games", "0", "--out", str(out), "--no-progress"])
    assert status == 0
    _, meta = load_networks(out / CHECKPOINT, NETWORKS)
    assert meta["settings"]["plies"] == 1 and meta["settings"]["positions"] == 20
    assert meta["settings"]["lr"] == Settings().lr
