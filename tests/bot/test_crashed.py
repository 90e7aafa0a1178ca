"""GNU Backgammon's crashed class (:func:`backgammon.bot.encoding.is_crashed`): hand-built
positions on each side of each of its rules, the same class as gnubg-nn's own ``classify``
and the kernel's on positions of random games; a crashed network where a file has one, in
numpy and in the kernel alike, and files without one evaluated as before."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np
import pytest
from test_kernel import random_positions

from backgammon import Position
from backgammon.bot.contact_inputs import CONTACT_INPUTS_V2
from backgammon.bot.encoding import CONTACT_INPUTS, RACE_INPUTS, boards, is_crashed
from backgammon.bot.evaluator import NetworkEvaluator
from backgammon.bot.kernel import Kernel, boards_of
from backgammon.bot.kernel import evaluate as kernel_evaluate
from backgammon.bot.network import Network, load_networks, save_networks
from backgammon.training import generations, supervised
from backgammon.training import train as td
from backgammon.training.generations import save_generation
from backgammon.training.refit import RefitError, Settings, refit

# The other side in the hand-built positions: 15 checkers in contact, never crashed.
_SOUND = {20: 2, 13: 5, 8: 3, 6: 5}


def crashed(mine: dict[int | str, int], theirs: dict[int | str, int] = _SOUND) -> bool:
    return bool(is_crashed(*boards([Position.from_points(mine, theirs)]))[0])


def test_six_checkers_in_play_have_crashed_and_seven_have_not() -> None:
    assert crashed({24: 1, 6: 5})  # nine off
    assert not crashed({24: 1, 6: 4, 4: 2})
    # The other side's checkers count alike: on roll or not.
    assert crashed(_SOUND, {24: 1, 6: 5})


def test_checkers_piled_on_the_ace_point_do_not_count() -> None:
    # Seven in play, two of them on the ace point: five besides them.
    assert crashed({24: 2, 6: 3, 1: 2})
    # One checker on the ace point is no pile: seven in play.
    assert not crashed({24: 2, 6: 4, 1: 1})
    # Ten in play, four on the ace point: six besides.
    assert crashed({24: 2, 6: 4, 1: 4})
    assert not crashed({24: 2, 6: 5, 1: 4})


def test_a_pile_on_the_deuce_point_counts_but_one() -> None:
    # Ace and deuce points both piled (3 and 3): 13 in play, 13 - 3 - 3 + 1 = 8: not crashed;
    # with two fewer elsewhere, 6: crashed, although the ace point alone leaves 8.
    assert not crashed({24: 2, 8: 3, 6: 2, 2: 3, 1: 3})
    assert crashed({24: 2, 8: 1, 6: 2, 2: 3, 1: 3})
    # No pile on the ace point: the deuce point's checkers but one are set aside.
    assert crashed({24: 2, 6: 2, 2: 4, 1: 1})  # 9 in play, 9 - 3 = 6
    assert not crashed({24: 2, 6: 3, 2: 4, 1: 1})


def test_races_are_never_crashed() -> None:
    # Three checkers a side and no contact: a race, whatever the count.
    assert not crashed({6: 3}, {6: 3})
    assert crashed({24: 1, 6: 2}, {6: 3})


def test_the_class_is_gnubg_nns_on_random_games() -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    positions = [p for p in random_positions(6000, seed=5)
                 if sum(p.mine) == 15 and not p.is_game_over()]
    ours = is_crashed(*boards(positions))
    theirs = np.array([
        gnubg_nn.classify([list(p.theirs[1:26]), list(p.mine[1:26])]) == 4 for p in positions
    ])
    np.testing.assert_array_equal(ours, theirs)
    assert 50 < ours.sum() < len(positions) - 1000


def test_the_kernel_classes_as_numpy_does() -> None:
    positions = random_positions(3000, seed=6)
    board = boards_of(positions)
    kernel = np.array([kernel_evaluate.is_crashed(b) for b in board])
    np.testing.assert_array_equal(kernel, is_crashed(*boards(positions)))


def networks() -> tuple[Network, Network, Network]:
    return (Network.create(CONTACT_INPUTS_V2, 12, seed=1), Network.create(RACE_INPUTS, 6, seed=2),
            Network.create(CONTACT_INPUTS_V2, 10, seed=3))


def test_crashed_positions_go_to_the_crashed_network_in_numpy_and_the_kernel() -> None:
    contact, race, crashed_net = networks()
    positions = random_positions(3000, seed=7)
    mine, theirs = boards(positions)
    crashed = is_crashed(mine, theirs)
    with_crashed = NetworkEvaluator(contact, race, crashed_net).reference_boards(mine, theirs)
    without = NetworkEvaluator(contact, race).reference_boards(mine, theirs)
    # Within float32's rounding, not equal: the batches differ in size, and BLAS may sum a
    # matrix product of another shape in another order (one unit in the last place).
    np.testing.assert_allclose(with_crashed[~crashed], without[~crashed], atol=1e-6, rtol=0)
    np.testing.assert_allclose(
        with_crashed[crashed],
        NetworkEvaluator(crashed_net, race).reference_boards(mine[crashed], theirs[crashed]),
        atol=1e-6, rtol=0)
    assert not np.allclose(with_crashed[crashed], without[crashed])
    np.testing.assert_allclose(
        Kernel(contact, race, crashed=crashed_net).evaluate(boards_of(positions)), with_crashed,
        atol=1e-5, rtol=0)
    # A crashed network may read another encoding than the contact network's.
    narrow = Network.create(CONTACT_INPUTS, 8, seed=4)
    np.testing.assert_allclose(
        Kernel(contact, race, crashed=narrow).evaluate(boards_of(positions)),
        NetworkEvaluator(contact, race, narrow).reference_boards(mine, theirs),
        atol=1e-5, rtol=0)


def test_a_file_without_a_crashed_network_loads_as_before(tmp_path: Path) -> None:
    contact, race, crashed_net = networks()
    save_networks(tmp_path / "old.npz", {"contact": contact, "race": race})
    save_networks(tmp_path / "new.npz", {"contact": contact, "race": race, "crashed": crashed_net})
    assert NetworkEvaluator.load(tmp_path / "old.npz").crashed is None
    loaded = NetworkEvaluator.load(tmp_path / "new.npz").crashed
    assert loaded is not None
    np.testing.assert_array_equal(loaded.w1, crashed_net.w1)


def test_refit_trains_a_crashed_network_beside_the_contact_network(tmp_path: Path) -> None:
    positions = random_positions(3000, seed=8)
    rng = np.random.default_rng(2)
    board = boards_of(positions)
    for generation in (1, 2):
        part = board[generation - 1 :: 2]
        save_generation(tmp_path / f"gen-{generation:03d}.npz", part,
                        rng.random((len(part), 5)).astype(np.float32), {"generation": generation})
    contact, race, _ = networks()
    save_networks(tmp_path / "start.npz", {"contact": contact, "race": race})
    out = tmp_path / "crashed.npz"
    log = refit(Settings(data=tmp_path, out=out, hidden=12, epochs=1, holdout=2,
                         start=tmp_path / "start.npz", race_from=tmp_path / "start.npz",
                         crashed=True))
    mine, theirs = boards(positions)
    crashed = is_crashed(mine, theirs)
    assert log["training_positions"] + log["validation_positions"] == crashed.sum()
    assert log["start_validation"]["mse"] > 0
    written = load_networks(out, ("contact", "crashed"))[0]
    np.testing.assert_array_equal(written["contact"].w1, contact.w1)
    assert not np.array_equal(written["crashed"].w1, contact.w1)
    with pytest.raises(RefitError, match="--start"):
        refit(Settings(data=tmp_path, out=out, crashed=True))


def _written_crashed(path: Path) -> Network:
    written = load_networks(path, ("contact", "race"), optional=("crashed",))[0]
    assert "crashed" in written, f"{path.name} lost the crashed network"
    return written["crashed"]


@pytest.mark.parametrize("trainer", ["td", "search", "rollout"])
def test_training_keeps_the_crashed_network_of_its_start(tmp_path: Path, trainer: str) -> None:
    contact, race, crashed_net = networks()
    start = tmp_path / "start.npz"
    save_networks(start, {"contact": contact, "race": race, "crashed": crashed_net})
    if trainer == "td":
        # train.py starts afresh or from its own checkpoint: one given a crashed network.
        settings = td.Settings(games=8, hidden=8, race_hidden=8, parallel=4, eval_every=0,
                               eval_games=0, out=tmp_path / "td", progress=False)
        td.train(dataclasses.replace(settings, games=4))
        meta = load_networks(settings.out / td.CHECKPOINT, td.NETWORKS)[1]
        save_networks(settings.out / td.CHECKPOINT,
                      {"contact": contact, "race": race, "crashed": crashed_net}, meta)
        assert td.train(dataclasses.replace(settings, resume=True)) == 0
        outputs = [settings.out / td.CHECKPOINT]
    elif trainer == "search":
        out = tmp_path / "search"
        assert supervised.train(supervised.Settings(
            start=start, positions=20, rounds=1, eval_games=0, parallel=4, out=out,
            progress=False)) == 0
        outputs = [out / td.CHECKPOINT, out / "checkpoint-round-001.npz"]
    else:
        out = tmp_path / "rollout"
        assert generations.train(generations.Settings(
            out=out, start=start, positions=20, trials=36, truncate=2, generations=1,
            eval_games=0, progress=False)) == 0
        outputs = [out / "nets-000.npz", out / "nets-001.npz"]
    for path in outputs:
        kept = _written_crashed(path)
        np.testing.assert_array_equal(kept.w1, crashed_net.w1)
        np.testing.assert_array_equal(kept.b2, crashed_net.b2)
