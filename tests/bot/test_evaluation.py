"""The computer player, phase 1: encoding, networks, evaluators, pubeval, self-play training."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

from backgammon import ALL_ROLLS, Position
from backgammon.bot import FakeEvaluator, NetworkEvaluator, Probabilities
from backgammon.bot.encoding import (
    CONTACT_FEATURES,
    CONTACT_INPUTS,
    RACE_INPUTS,
    boards,
    encode_contact,
    encode_race,
    is_race,
)
from backgammon.bot.evaluator import terminal_values
from backgammon.bot.network import (
    Network,
    equities,
    flip_outputs,
    lambda_returns,
    load_networks,
    save_networks,
)
from backgammon.bot.pubeval import PubEval
from backgammon.cli import build_parser, main
from backgammon.training import generations, supervised
from backgammon.training.duel import GreedyPlayer, duel, play_game
from backgammon.training.train import CHECKPOINT, NETWORKS, SelfPlay, Settings, train


def random_positions(games: int, seed: int) -> list[Position]:
    """Positions (game not over) from random games."""
    rng = random.Random(seed)
    positions = []
    for _ in range(games):
        position = Position.initial()
        while True:
            plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
            position = rng.choice(plays).result if plays else position.flip()
            if position.is_game_over():
                break
            positions.append(position)
    return positions


POSITIONS = random_positions(12, seed=7)


def feature(row: np.ndarray, name: str, side: int = 0) -> float:
    """One hand-made contact feature of an encoded row (side 0: the player on roll)."""
    start = 2 * 101 + side * len(CONTACT_FEATURES)
    return float(row[start + CONTACT_FEATURES.index(name)])


# Encoding


def test_shapes_and_types() -> None:
    mine, theirs = boards(POSITIONS[:50])
    assert mine.shape == theirs.shape == (50, 26) and mine.dtype == np.uint8
    contact = encode_contact(mine, theirs)
    race = encode_race(mine, theirs)
    assert contact.shape == (50, CONTACT_INPUTS) and contact.dtype == np.float32
    assert race.shape == (50, RACE_INPUTS) and race.dtype == np.float32
    assert np.isfinite(contact).all() and np.isfinite(race).all()


def test_boards_are_the_positions_counts() -> None:
    mine, theirs = boards(POSITIONS[:5])
    for row, position in enumerate(POSITIONS[:5]):
        assert tuple(mine[row]) == position.mine and tuple(theirs[row]) == position.theirs


def test_raw_units_of_the_start() -> None:
    row = encode_contact(*boards([Position.initial()]))[0]
    units = row[:100].reshape(25, 4)  # the player on roll's points 1..24 and the bar

    assert units[5].tolist() == [1, 1, 1, 1]  # five on the 6-point: (5 - 3) / 2 beyond three
    assert units[7].tolist() == [1, 1, 1, 0]  # three on the 8-point
    assert units[12].tolist() == [1, 1, 1, 1]  # five on the midpoint
    assert units[23].tolist() == [1, 1, 0, 0]  # two on the 24-point
    assert units[0].tolist() == [0, 0, 0, 0]  # the 1-point, and the bar below
    assert units[24].tolist() == [0, 0, 0, 0]
    assert row[100] == 0  # none borne off
    # The start is symmetric: the opponent's half is the same.
    assert np.array_equal(row[:101], row[101:202])


def test_features_of_the_start() -> None:
    row = encode_contact(*boards([Position.initial()]))[0]
    for side in (0, 1):
        assert feature(row, "pips / 167", side) == pytest.approx(1.0)
        assert feature(row, "blots / 5", side) == 0
        assert feature(row, "home board points made / 6", side) == pytest.approx(1 / 6)
        assert feature(row, "rearmost checker's point / 25", side) == pytest.approx(24 / 25)
        assert feature(row, "anchors in the other side's home board / 2", side) == 0.5
        assert feature(row, "checkers in the home board / 15", side) == pytest.approx(5 / 15)


def test_longest_prime() -> None:
    primed = Position.from_points({4: 2, 5: 2, 6: 2, 7: 2, 8: 2, 13: 5}, {24: 2, 13: 13})
    row = encode_contact(*boards([primed]))[0]
    assert feature(row, "longest prime / 6") == pytest.approx(5 / 6)
    assert feature(row, "home board points made / 6") == pytest.approx(3 / 6)


def test_a_checker_on_the_bar_against_a_closed_board_cannot_move() -> None:
    closed_out = Position.from_points(
        {"bar": 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3}
    )
    row = encode_contact(*boards([closed_out]))[0]
    assert feature(row, "rolls on which the rearmost checker can move both dice / 36") == 0
    assert feature(row, "rearmost checker's point / 25") == 1.0


def test_direct_six_shot() -> None:
    # The opponent's blot is six pips in front of the only checker of the player on roll
    # that can reach it: 11 sixes, 5-1, 4-2, 3-3, 2-2 hit: 17 rolls.
    position = Position.from_points({13: 1, 6: 14}, {18: 1, 1: 14})
    row = encode_contact(*boards([position]))[0]
    assert feature(row, "rolls on which the other side hits a blot / 36", side=1) == (
        pytest.approx(17 / 36)
    )


def exact_shots(position: Position) -> int:
    """Rolls of 36 with a legal play that hits, by the move generator."""
    return sum(
        (1 if a == b else 2)
        for a, b in ALL_ROLLS
        if any(step.hit for play in position.legal_plays((a, b)) for step in play.steps)
    )


def test_shots_agree_with_the_move_generator() -> None:
    # The feature leaves out the rule to use both dice, so a few positions may differ.
    contact = [p for p in POSITIONS if not p.is_race()][:300]
    rows = encode_contact(*boards(contact))
    name = "rolls on which the other side hits a blot / 36"
    estimated = np.array([round(feature(row, name, side=1) * 36) for row in rows])
    exact = np.array([exact_shots(p) for p in contact])
    assert np.mean(estimated == exact) > 0.97
    assert np.mean(np.abs(estimated - exact)) < 0.2


def test_is_race_matches_the_position() -> None:
    races = is_race(*boards(POSITIONS))
    assert races.tolist() == [p.is_race() for p in POSITIONS]
    assert any(races) and not all(races)


# Probabilities and outputs


def test_probabilities_equity_and_flip() -> None:
    p = Probabilities(0.7, 0.3, 0.1, 0.05, 0.01)
    assert p.equity == pytest.approx(2 * 0.7 - 1 + 0.3 - 0.05 + 0.1 - 0.01)
    assert p.flip().flip() == p
    assert p.flip().equity == pytest.approx(-p.equity)
    outputs = np.array([p.as_tuple()], dtype=np.float32)
    assert equities(outputs)[0] == pytest.approx(p.equity, abs=1e-6)
    assert Probabilities.from_values(flip_outputs(outputs)[0]).equity == pytest.approx(
        -p.equity, abs=1e-6
    )


def test_terminal_values() -> None:
    # The player on roll has lost: the opponent bore off everything.
    gammoned = Position.from_points({6: 15}, {}, checkers=15)
    backgammoned = Position.from_points({20: 1, 6: 14}, {}, checkers=15)
    single = Position.from_points({6: 3}, {}, checkers=15)
    over, values = terminal_values(*boards([gammoned, backgammoned, single, Position.initial()]))
    assert over.tolist() == [True, True, True, False]
    assert values.tolist() == [[0, 0, 0, 1, 0], [0, 0, 0, 1, 1], [0, 0, 0, 0, 0], [0] * 5]


# Networks


def test_save_and_load_round_trip(tmp_path: Path) -> None:
    net = Network.create(CONTACT_INPUTS, 16, seed=3)
    race = Network.create(RACE_INPUTS, 8, seed=4)
    x = encode_contact(*boards(POSITIONS[:20]))
    net.save(tmp_path / "net.npz")
    loaded = Network.load(tmp_path / "net.npz")
    assert np.array_equal(loaded.forward(x), net.forward(x))

    save_networks(tmp_path / "both.npz", {"contact": net, "race": race}, {"games": 7})
    networks, meta = load_networks(tmp_path / "both.npz", ("contact", "race"))
    assert meta == {"games": 7}
    assert np.array_equal(networks["race"].w1, race.w1)
    assert not list(tmp_path.glob("*.partial"))


def test_lambda_returns() -> None:
    values = np.array([[0.5, 0.1, 0.0, 0.1, 0.0], [0.6, 0.2, 0.0, 0.1, 0.0]], np.float32)
    final = np.array([0, 0, 0, 1, 0], np.float32)  # the last player on roll lost a gammon
    # TD(0): each target is the next state's value, turned round.
    td0 = lambda_returns(values, final, 0.0)
    assert np.allclose(td0[1], [1, 1, 0, 0, 0])
    assert np.allclose(td0[0], flip_outputs(values[1]))
    # TD(1): the game's result, for whoever is on roll.
    td1 = lambda_returns(values, final, 1.0)
    assert np.allclose(td1[1], [1, 1, 0, 0, 0]) and np.allclose(td1[0], [0, 0, 0, 1, 0])


def test_td_update_reduces_the_error_on_a_toy_sequence() -> None:
    rng = np.random.default_rng(0)
    x = (rng.random((12, 30)) > 0.7).astype(np.float32)
    final = np.array([0, 0, 0, 0, 0], np.float32)
    net = Network.create(30, 10, seed=0)
    first = net.td_update(x, final, lam=1.0, learning_rate=0.05)
    for _ in range(200):
        last = net.td_update(x, final, lam=1.0, learning_rate=0.05)
    assert last < first / 4
    # The player on roll at the end lost, so the last position's player won; and so on back.
    wins = net.forward(x)[:, 0]
    assert (wins[1::2] > 0.8).all() and (wins[0::2] < 0.2).all()


# Evaluators and players


def test_fake_evaluator() -> None:
    fake = FakeEvaluator()
    assert fake.evaluate(Position.initial()) == Probabilities(0.5, 0, 0, 0, 0)
    ahead = Position.from_points({1: 15}, {6: 15})
    assert fake.evaluate(ahead).win > 0.9 > 0.1 > fake.evaluate(ahead.flip()).win
    assert fake.evaluate_batch(POSITIONS[:9]).shape == (9, 5)
    assert fake.evaluate(Position.from_points({6: 2}, {}, checkers=15)).lose_gammon == 0


def test_network_evaluator_uses_both_networks_and_exact_ends() -> None:
    contact = Network.create(CONTACT_INPUTS, 8, seed=1)
    race = Network.create(RACE_INPUTS, 8, seed=2)
    evaluator = NetworkEvaluator(contact, race)
    batch = [*POSITIONS[:30], Position.from_points({6: 15}, {}, checkers=15)]
    values = evaluator.evaluate_batch(batch)
    mine, theirs = boards(batch)
    races = is_race(mine, theirs)
    assert np.allclose(values[-1], [0, 0, 0, 1, 0])
    expected = contact.forward(encode_contact(mine[:-1], theirs[:-1]))[~races[:-1]]
    assert np.allclose(values[:-1][~races[:-1]], expected, atol=1e-5, rtol=0)
    assert np.allclose(evaluator.reference_boards(mine, theirs), values, atol=1e-5, rtol=0)
    first = evaluator.evaluate(batch[0])
    assert first.as_tuple() == pytest.approx(tuple(values[0]))


def test_greedy_player_picks_the_plays_best_result() -> None:
    # Bearing off with 6-1, the player keeps the last checker on the 1-point, not the 2.
    position = Position.from_points({6: 1, 2: 1}, {6: 1, 5: 1, 4: 1}, checkers=3)
    plays = position.legal_plays((6, 1))
    assert len(plays) > 1
    chosen = GreedyPlayer(FakeEvaluator()).choose(position, plays)
    assert chosen.result.theirs[1] == 1


def test_play_game_and_duel() -> None:
    points = play_game((PubEval(), PubEval()), random.Random(1))
    assert points in (-3, -2, -1, 1, 2, 3)
    result = duel(PubEval(), PubEval(), games=4, seed=3)
    # The same player in both seats with the same dice wins and loses the same games.
    assert result.games == 4 and result.points_per_game == 0


# Pubeval against GNU Backgammon's built-in copy


def test_pubeval_chooses_the_plays_of_gnubg_pubeval() -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    pubeval = PubEval()
    rng = random.Random(11)
    compared = races = 0
    for position in POSITIONS[::3]:
        dice = (rng.randint(1, 6), rng.randint(1, 6))
        plays = position.legal_plays(dice)
        if len(plays) < 2:
            continue
        mine = pubeval.choose(position, plays)
        board = [list(position.theirs[1:26]), list(position.mine[1:26])]
        steps = gnubg_nn.pub_best_move(board, *dice)
        assert after_steps(position, steps) == (mine.result.theirs, mine.result.mine), (
            position.id(), dice, str(mine), steps
        )
        compared += 1
        races += position.is_race()
    assert compared > 100 and races > 5


def after_steps(position: Position, steps: list[int]) -> tuple[tuple[int, ...], ...]:
    """The sides (mover, opponent) after gnubg_nn's steps: 0-based from/to pairs, 24 the bar,
    -1 off."""
    mover, opponent = list(position.mine), list(position.theirs)
    for source, target in zip(steps[::2], steps[1::2], strict=True):
        source, target = source + 1, max(target + 1, 0)
        mover[source] -= 1
        mover[target] += 1
        if target and opponent[25 - target] == 1:
            opponent[25 - target] = 0
            opponent[25] += 1
    return tuple(mover), tuple(opponent)


def test_pubeval_opening_plays() -> None:
    start = Position.initial()
    assert str(PubEval().best_play(start, (3, 1))) == "8/5 6/5"
    assert PubEval().best_play(
        Position.from_points({"bar": 2, 6: 13}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 12: 3}),
        (3, 1),
    ) is None


# Training


def test_self_play_plays_and_trains(tmp_path: Path) -> None:
    evaluator = NetworkEvaluator(
        Network.create(CONTACT_INPUTS, 8, seed=1), Network.create(RACE_INPUTS, 8, seed=2)
    )
    before = evaluator.contact.w1.copy()
    self_play = SelfPlay(evaluator, seed=5, parallel=4)
    ended = []
    self_play.play(0, 6, lam=0.7, rate=lambda game: 0.01, on_game_end=lambda: ended.append(1))
    assert len(ended) == 6 and self_play.plies > 6 * 20
    assert not np.array_equal(before, evaluator.contact.w1)


def test_training_is_reproducible_and_resumes(tmp_path: Path) -> None:
    settings = Settings(games=20, hidden=8, race_hidden=8, parallel=4, eval_every=10,
                        eval_games=2, checkpoint_minutes=0, out=tmp_path / "a", progress=False)
    assert train(settings) == 0
    history = [line for line in (tmp_path / "a" / "progress.jsonl").read_text().splitlines()]
    assert len(history) == 2
    whole, meta = load_networks(tmp_path / "a" / CHECKPOINT, NETWORKS)
    assert meta["games"] == 20 and len(meta["history"]) == 2

    # The snapshot after ten games, resumed: the same weights as twenty games at once.
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "checkpoint-000000010.npz").rename(tmp_path / "b" / CHECKPOINT)
    train(Settings(**{**settings.__dict__, "out": tmp_path / "b", "resume": True}))
    resumed, meta = load_networks(tmp_path / "b" / CHECKPOINT, NETWORKS)
    assert meta["games"] == 20 and len(meta["history"]) == 2
    assert np.array_equal(resumed["contact"].w1, whole["contact"].w1)
    assert np.array_equal(resumed["race"].w2, whole["race"].w2)


def test_train_command_writes_a_checkpoint(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                           ) -> None:
    out = tmp_path / "run"
    status = main(["train", "--games", "20", "--out", str(out), "--hidden", "8",
                   "--race-hidden", "8", "--eval-every", "20", "--eval-games", "2",
                   "--no-progress"])
    assert status == 0
    assert (out / CHECKPOINT).exists()
    networks, meta = load_networks(out / CHECKPOINT, NETWORKS)
    assert networks["contact"].hidden == 8 and meta["settings"]["games"] == 20
    assert "Trained 20 games" in capsys.readouterr().out


def test_train_command_defaults_are_the_settings_defaults() -> None:
    args = build_parser().parse_args(["train"])
    defaults = Settings()
    for name in ("games", "seed", "race_hidden", "lam", "lr_end", "parallel",
                 "eval_every", "checkpoint_minutes"):
        assert getattr(args, name) == getattr(defaults, name), name
    # These default by stage: None is the stage's own default.
    for name in ("lr", "out", "hidden", "eval_games", "epochs"):
        assert getattr(args, name) is None, name
    assert args.stage == "td" and not args.resume
    search = build_parser().parse_args(["train", "--stage", "search"])
    refining = supervised.Settings()
    for name in ("plies", "positions", "rounds", "explore"):
        assert getattr(search, name) == getattr(refining, name), name
    assert Path(search.start) == refining.start
    rollout = build_parser().parse_args(["train", "--stage", "rollout"])
    generating = generations.Settings()
    for name in ("generations", "positions", "trials", "truncate", "luck", "workers",
                 "explore", "seed", "save_minutes"):
        assert getattr(rollout, name) == getattr(generating, name), name
    assert Path(rollout.start) == generating.start
