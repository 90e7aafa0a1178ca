"""Training on rollouts of the bot's own positions, in generations (``--stage rollout``)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from backgammon import Position
from backgammon.bot import NetworkEvaluator
from backgammon.bot.bearoff import is_bearoff, shipped_table
from backgammon.bot.encoding import CONTACT_INPUTS, RACE_INPUTS
from backgammon.bot.kernel import Kernel, board_of, position_of
from backgammon.bot.network import Network, load_networks, save_networks
from backgammon.bot.rollout import rollout
from backgammon.cli import main as cli_main
from backgammon.training import generations
from backgammon.training.generations import (
    GenerationsError,
    Settings,
    draw,
    label,
    load_generation,
    save_generation,
    train,
)
from backgammon.training.train import NETWORKS


def small() -> NetworkEvaluator:
    return NetworkEvaluator(
        Network.create(CONTACT_INPUTS, 8, seed=1), Network.create(RACE_INPUTS, 8, seed=2)
    )


def small_engine() -> Kernel:
    evaluator = small()
    return Kernel(evaluator.contact, evaluator.race, shipped_table())


def start_file(tmp_path: Path) -> Path:
    evaluator = small()
    path = tmp_path / "start.npz"
    save_networks(path, {"contact": evaluator.contact, "race": evaluator.race}, {})
    return path


def tiny(tmp_path: Path, out: str, **changes: object) -> Settings:
    settings = Settings(out=tmp_path / out, start=start_file(tmp_path), positions=40, trials=36,
                        truncate=2, eval_games=2, progress=False)
    return Settings(**{**settings.__dict__, **changes})


def test_drawn_positions_are_live_varied_and_seeded() -> None:
    kernel = small_engine()
    boards = draw(kernel, 300, seed=3, explore=0.2)
    assert boards.shape == (300, 2, 26)
    assert np.array_equal(boards, draw(kernel, 300, seed=3, explore=0.2))
    assert not np.array_equal(boards, draw(kernel, 300, seed=3, explore=0.0))
    positions = [position_of(b) for b in boards]
    assert not any(p.is_game_over() for p in positions)
    assert not is_bearoff(boards[:, 0].astype(np.uint8), boards[:, 1].astype(np.uint8)).any()
    assert len(set(positions)) > 150


def test_a_label_is_the_positions_own_rollout() -> None:
    kernel = small_engine()
    boards = draw(kernel, 5, seed=4, explore=0.1)
    settings = Settings(trials=36, truncate=3)
    targets = label(kernel, boards[2:], seed=7, first=2, settings=settings)
    position = position_of(boards[3])
    expected = rollout(position, trials=36, truncate=3, seed=(7 + 3 * 0x9E3779B97F4A7C15) % 2**63,
                       workers=1, kernel=kernel)
    assert np.allclose(targets[1], expected.probabilities.as_tuple(), atol=1e-6)


def test_the_label_of_a_game_every_roll_ends_is_exact() -> None:
    # Every roll bears the last checker off (hitting the blot on the way with a 1), with the
    # opponent's checker still in the winner's home board or on the bar: a backgammon.
    position = Position.from_points({2: 1}, {24: 1, 6: 14})
    assert not position.is_race()
    for luck in (True, False):
        targets = label(small_engine(), board_of(position)[None], seed=1, first=0,
                        settings=Settings(trials=36, truncate=5, luck=luck))
        assert targets.tolist() == [[1.0, 1.0, 1.0, 0.0, 0.0]]


def test_a_generation_file_round_trips(tmp_path: Path) -> None:
    boards = draw(small_engine(), 20, seed=5, explore=0.1)
    targets = np.random.default_rng(1).random((20, 5)).astype(np.float32)
    meta = {"command": "backgammon train --stage rollout", "settings": {"trials": 36}}
    save_generation(tmp_path / "gen-001.npz", boards, targets, meta)
    loaded = load_generation(tmp_path / "gen-001.npz")
    assert np.array_equal(loaded[0], boards) and loaded[0].dtype == np.int8
    assert np.array_equal(loaded[1], targets) and loaded[2] == meta


def test_a_tiny_run_is_reproducible_and_trains(tmp_path: Path) -> None:
    first = tiny(tmp_path, "a", generations=2)
    assert train(first) == 0
    assert train(tiny(tmp_path, "b", generations=2)) == 0
    for name in ("gen-001.npz", "gen-002.npz", "nets-002.npz"):
        with np.load(first.out / name) as a, np.load(tmp_path / "b" / name) as b:
            assert all(np.array_equal(a[key], b[key]) for key in a.files if key != "meta")
    start, _ = load_networks(first.out / "nets-000.npz", NETWORKS)
    end, meta = load_networks(first.out / "nets-002.npz", NETWORKS)
    assert not np.array_equal(start["contact"].w1, end["contact"].w1)
    assert meta["positions"] == 80 and "previous_ppg" in meta and "pubeval_ppg" in meta
    log = [json.loads(line) for line in (first.out / "progress.jsonl").read_text().splitlines()]
    assert [entry["generation"] for entry in log] == [1, 2]
    with pytest.raises(GenerationsError, match="--resume"):
        train(first)


class Stop(Exception):
    pass


def test_a_run_killed_while_labelling_resumes_where_it_stopped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = tiny(tmp_path, "whole", generations=1, eval_games=0)
    train(whole)
    labelled: list[int] = []
    real = generations.label

    def dying(kernel: Kernel, boards: np.ndarray, seed: int, first: int,
              settings: Settings) -> np.ndarray:
        if len(labelled) == 2:
            raise Stop  # killed while labelling the third piece
        labelled.append(first)
        return real(kernel, boards, seed, first, settings)

    monkeypatch.setattr(generations, "label", dying)
    cut = tiny(tmp_path, "cut", generations=1, eval_games=0, save_minutes=0.0)
    with pytest.raises(Stop):
        train(cut)
    assert labelled == [0, 16]
    assert not (cut.out / "gen-001.npz").exists()
    _, _, meta = load_generation(cut.out / "gen-001.partial.npz")
    assert meta["labelled"] == 32

    labelled.clear()
    monkeypatch.setattr(generations, "label", real)
    assert train(Settings(**{**cut.__dict__, "resume": True})) == 0
    a, b = load_generation(whole.out / "gen-001.npz"), load_generation(cut.out / "gen-001.npz")
    assert np.array_equal(a[0], b[0]) and np.array_equal(a[1], b[1])
    assert not (cut.out / "gen-001.partial.npz").exists()


def test_a_wider_contact_network_starts_from_the_narrower(tmp_path: Path) -> None:
    settings = tiny(tmp_path, "wide", generations=0, hidden=12)
    train(settings)
    networks, _ = load_networks(settings.out / "nets-000.npz", NETWORKS)
    assert networks["contact"].hidden == 12
    boards = draw(small_engine(), 10, seed=6, explore=0.0)
    assert np.allclose(
        Kernel(networks["contact"], networks["race"]).evaluate(boards),
        Kernel(small().contact, small().race).evaluate(boards),
        atol=1e-6,
    )


def test_backgammon_train_stage_rollout(tmp_path: Path) -> None:
    out = tmp_path / "cli"
    status = cli_main(["train", "--stage", "rollout", "--from", str(start_file(tmp_path)),
                       "--positions", "20", "--trials", "36", "--truncate", "2",
                       "--generations", "1", "--eval-games", "0", "--out", str(out),
                       "--no-progress"])
    assert status == 0
    _, _, meta = load_generation(out / "gen-001.npz")
    assert meta["settings"]["trials"] == 36 and meta["settings"]["positions"] == 20
    assert meta["command"].startswith("backgammon ")


def test_a_resumed_run_may_widen_its_contact_network(tmp_path: Path) -> None:
    settings = tiny(tmp_path, "grow", generations=1, eval_games=0, positions=20)
    train(settings)
    assert train(Settings(**{**settings.__dict__, "generations": 2, "hidden": 10,
                             "resume": True})) == 0
    networks, _ = load_networks(settings.out / "nets-002.npz", NETWORKS)
    assert networks["contact"].hidden == 10
