"""The searching bot: legal plays always, the forced-play shortcut, n-ply values checked
against a plain computation, filters, hints, levels, the shipped weights, and bots playing
games and matches through the engine (self-play files included)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import replace
from itertools import islice

import numpy as np
import pytest
from support import random_turns

from backgammon import ALL_ROLLS, Position
from backgammon.bot import (
    Bot,
    FakeEvaluator,
    Level,
    PubEval,
    act,
    play_match,
    play_out,
    player,
)
from backgammon.bot.bot import LEVELS
from backgammon.bot.kernel import boards_of
from backgammon.bot.network import Array, equities, flip_outputs
from backgammon.bot.search import ROLL_WEIGHTS, MoveFilter, Search
from backgammon.cli import main
from backgammon.cube import HIGHEST_CUBE, CubeContext, MatchScore
from backgammon.dice import ManualDice, SeededDice
from backgammon.formats.mat import import_mat, read_mat
from backgammon.game import Action, Game, Phase
from backgammon.game.match import Match
from backgammon.training.duel import GreedyPlayer, duel
from backgammon.training.selfplay import selfplay


class CountingEvaluator(FakeEvaluator):
    """The fake evaluator, counting its calls and the positions asked about."""

    def __init__(self) -> None:
        self.calls = 0
        self.positions = 0

    def evaluate_batch(self, positions: Sequence[Position]) -> Array:
        self.calls += 1
        self.positions += len(positions)
        return super().evaluate_batch(positions)


def fake_bot(plies: int = 0, **options: object) -> Bot:
    return Bot(plies=plies, evaluator=FakeEvaluator(), **options)  # type: ignore[arg-type]


# A position with a safe play and plays that leave blots to the opposing anchor on the
# 3-point: every play of 2-1 moves 3 pips, so only a look at the replies tells them apart.
EXPOSED = Position.from_points(
    {1: 2, 2: 2, 4: 3, 5: 3, 6: 3, 10: 2}, {22: 2, 1: 3, 2: 3, 3: 3, 4: 2, 5: 2}
)


# Legal plays, always


@pytest.mark.parametrize("plies", [0, 1])
def test_search_never_returns_an_illegal_play(plies: int) -> None:
    bot = fake_bot(plies, noise=0.05, seed=3)
    turns = list(random_turns(seed=11, games=6))
    for position, dice in turns[:: 3 if plies == 0 else 12]:
        play = bot.best_play(position, dice)
        plays = position.legal_plays(dice)
        if not plays:
            assert play is None
        else:
            assert play is not None
            assert play.result in {p.result for p in plays}


def test_two_ply_plays_are_legal() -> None:
    bot = fake_bot(2)
    for position, dice in list(random_turns(seed=12, games=1))[::15]:
        plays = position.legal_plays(dice)
        play = bot.best_play(position, dice)
        assert (play is None) == (not plays)
        assert play is None or play.result in {p.result for p in plays}


def test_a_forced_play_is_returned_without_evaluation() -> None:
    position = Position.from_points({1: 1}, {6: 1}, checkers=2)  # 1-1: only 1/off
    evaluator = CountingEvaluator()
    bot = Bot(plies=2, evaluator=evaluator)
    plays = position.legal_plays((1, 1))
    assert len(plays) == 1
    play = bot.best_play(position, (1, 1))
    assert play is not None and play.result == plays[0].result
    assert evaluator.calls == 0


def test_no_legal_play_gives_none_without_evaluation() -> None:
    # Both checkers on the bar against a closed board.
    position = Position.from_points({"bar": 2}, {p: 2 for p in range(1, 7)}, checkers=12)
    evaluator = CountingEvaluator()
    assert Bot(evaluator=evaluator).best_play(position, (6, 5)) is None
    assert evaluator.calls == 0


# Choices


def test_zero_ply_hits_with_a_pip_count_evaluator() -> None:
    # A blot of the opponent's on its 20-point (the mover's 5) in reach of the 8-point by 3.
    position = Position.from_points({8: 2, 6: 5, 13: 8}, {20: 1, 6: 5, 13: 9})
    play = fake_bot(0).best_play(position, (3, 1))
    assert play is not None and any(step.hit for step in play.steps)


@pytest.mark.parametrize("plies", [1, 2])
def test_deeper_search_keeps_clear_of_the_anchor(plies: int) -> None:
    play = fake_bot(plies).best_play(EXPOSED, (2, 1))
    assert play is not None
    # The result has the opponent on roll: the mover's checkers are its "theirs".
    mover = play.result.theirs
    assert mover[10] == 2, str(play)
    assert all(mover[p] != 1 for p in range(4, 25)), str(play)


def plain_one_ply(evaluator: FakeEvaluator, position: Position) -> np.ndarray:
    """The 1-ply value of a position, computed roll by roll with no batching or caching."""
    total = np.zeros(5)
    for weight, roll in zip(ROLL_WEIGHTS, ALL_ROLLS, strict=True):
        results = [play.result for play in position.legal_plays(roll)] or [position.flip()]
        values = evaluator.evaluate_batch(results)
        best = int(np.argmin(equities(values)))
        total += weight * flip_outputs(values[best])
    return total


def test_one_ply_value_is_the_average_over_rolls_of_the_best_replies() -> None:
    evaluator = FakeEvaluator()
    search = Search(evaluator)
    positions = [p for p, _ in random_turns(seed=13, games=1)][5:40:7]
    values = search.values(positions, plies=1)
    for position, value in zip(positions, values, strict=True):
        assert value == pytest.approx(plain_one_ply(evaluator, position), abs=1e-5)


def test_two_ply_value_averages_one_ply_values_of_the_replies() -> None:
    search = Search(FakeEvaluator())
    position = Position.initial()
    replies = search.replies([position])[0]
    expected = ROLL_WEIGHTS @ flip_outputs(search.values(list(replies), plies=1))
    assert search.values([position], plies=2)[0] == pytest.approx(expected, abs=1e-5)


def test_finished_games_have_their_exact_value_at_any_depth() -> None:
    # The opponent has borne off; the player on roll, with none off, is gammoned.
    lost = Position.from_points({}, {6: 2}, checkers=2).flip()
    assert lost.is_game_over()
    for plies in (0, 1, 2):
        assert Search(FakeEvaluator()).values([lost], plies)[0].tolist() == [0, 0, 0, 1, 0]


def test_the_cache_answers_repeated_questions() -> None:
    evaluator = CountingEvaluator()
    bot = Bot(plies=1, evaluator=evaluator)
    bot.evaluate(Position.initial())
    calls = evaluator.calls
    bot.evaluate(Position.initial())
    assert evaluator.calls == calls
    # The plays of 3-1 were evaluated among the replies above: only their own replies are new.
    bot.best_play(Position.initial(), (3, 1))
    assert evaluator.calls == calls + 1
    bot.best_play(Position.initial(), (3, 1))
    assert evaluator.calls == calls + 1


def test_cache_size_is_bounded() -> None:
    search = Search(FakeEvaluator(), cache_size=50)
    positions = [p for p, _ in random_turns(seed=14, games=2)]
    search.values(positions[:40], 0)
    search.values(positions[40:120], 0)
    assert len(search._values[0]) <= 80
    assert search.values(positions[:3], 0).shape == (3, 5)


def test_filters_limit_the_plays_searched_deeper() -> None:
    search = Search(FakeEvaluator())
    plays = Position.initial().legal_plays((6, 4))
    ranked = search.rank(plays, plies=1, filters=(MoveFilter(2, 10.0),))
    assert len(ranked) == len(plays)
    assert [r.plies for r in ranked].count(1) == 2
    assert [r.plies for r in ranked[:2]] == [1, 1]  # deeper first
    ranked = search.rank(plays, plies=1, filters=(MoveFilter(1, 10.0),), at_least=3)
    assert [r.plies for r in ranked].count(1) == 3


def test_hints_are_ranked_legal_and_led_by_the_best_play() -> None:
    bot = fake_bot(1)
    position, dice = Position.initial(), (5, 2)
    hints = bot.hints(position, dice, n=4)
    assert len(hints) == 4
    legal = {p.result for p in position.legal_plays(dice)}
    assert all(h.play.result in legal for h in hints)
    assert [h.equity for h in hints] == sorted((h.equity for h in hints), reverse=True)
    assert hints[0].play.result == bot.best_play(position, dice).result  # type: ignore[union-attr]
    play, probabilities, equity = hints[0]
    assert play is hints[0].play
    assert probabilities.equity == pytest.approx(equity, abs=1e-5)
    assert fake_bot().hints(position, (1, 1), n=100)[-1].play is not None
    assert len(bot.hints(Position.from_points({1: 1}, {6: 1}, checkers=1), (2, 1))) == 1


# Match play


ONE_POINT = CubeContext(match=MatchScore(1))


def test_match_play_ranks_by_the_chance_of_winning_the_match() -> None:
    """In a 1-point match only winning counts: the play chosen is the one with the best
    chance to win, where money play weighs gammons too and often chooses another."""
    bot = Bot()
    differ = 0
    for position, dice in islice(random_turns(3, 2), 150):
        plays = position.legal_plays(dice)
        if len(plays) < 2 or position.is_race():
            continue
        wins = flip_outputs(bot.search.values([p.result for p in plays], 0))[:, 0]
        chosen = bot.best_play(position, dice, ONE_POINT)
        assert chosen is not None
        assert wins[[p.result for p in plays].index(chosen.result)] == pytest.approx(wins.max())
        differ += chosen.result != bot.best_play(position, dice).result  # type: ignore[union-attr]
    assert differ >= 1
    # Hints in a match rank as the match's play does.
    position = Position.initial()
    hints = bot.hints(position, (6, 4), n=3, cube=ONE_POINT)
    best = bot.best_play(position, (6, 4), ONE_POINT)
    assert best is not None and hints[0].play.result == best.result


def test_a_bot_in_a_match_plays_for_the_match_score() -> None:
    """The seat's play in a game of a match is the bot's at the match's score and cube."""
    bot = Bot()
    match = Match(1, dice=ManualDice(["6 1", "6 4"]))
    match.game.roll(0)
    game = match.game
    assert game.cube_context(0) == replace(ONE_POINT, max_cube=HIGHEST_CUBE)
    assert game.dice is not None
    expected = bot.best_play(game.position, game.dice, ONE_POINT)
    assert expected is not None and player.best_play(bot, game, 0).result == expected.result


def test_evaluate_at_a_chosen_depth() -> None:
    bot = fake_bot(0)
    position = Position.initial()
    assert bot.evaluate(position).win == pytest.approx(0.5)
    assert bot.evaluate(position, plies=1) != bot.evaluate(position)


# Levels and noise


def test_levels_from_weakest_to_strongest() -> None:
    assert list(Level) == [
        "beginner", "casual", "intermediate", "advanced", "expert", "strongest", "world-class"
    ]
    noises = [LEVELS[level][1] for level in Level]
    plies = [LEVELS[level][0] for level in Level]
    assert noises == sorted(noises, reverse=True) and plies == sorted(plies)
    bot = Bot(level="strongest", evaluator=FakeEvaluator())
    assert (bot.plies, bot.noise) == (2, 0.0)
    assert Bot(level="world-class", evaluator=FakeEvaluator()).plies == 3
    assert Bot(level=Level.BEGINNER, evaluator=FakeEvaluator()).noise > 0
    assert Bot(level="expert", plies=0, evaluator=FakeEvaluator()).plies == 0
    with pytest.raises(ValueError):
        Bot(level="grandmaster", evaluator=FakeEvaluator())
    with pytest.raises(ValueError):
        Bot(plies=7, evaluator=FakeEvaluator())


def test_noise_changes_some_choices_reproducibly() -> None:
    turns = list(random_turns(seed=15, games=3))
    plain = fake_bot(0)
    choices = []
    for seed in (1, 1):
        noisy = fake_bot(0, noise=0.3, seed=seed)
        choices.append([str(noisy.best_play(p, d)) for p, d in turns])
    assert choices[0] == choices[1]
    assert choices[0] != [str(plain.best_play(p, d)) for p, d in turns]


# The shipped weights (coarse checks only)


def test_shipped_bot_loads_and_evaluates_the_start_near_even() -> None:
    bot = Bot()
    assert 0.35 < bot.evaluate(Position.initial()).win < 0.65
    race = Position.from_points({1: 1}, {6: 1}, checkers=1)
    assert bot.evaluate(race).win == pytest.approx(1.0)  # the bearoff table: off at once


def test_shipped_bot_ranks_by_the_kernels_deep_values() -> None:
    """A bot of the networks ranks with the kernel's n-ply values (its search has the
    engine), to 3 plies: the best play's values are the kernel's of its result."""
    bot = Bot(level="world-class")
    assert bot.search.kernel is not None
    position = Position.from_points({1: 2, 3: 2, 4: 3, 6: 1}, {2: 2, 5: 3, 6: 2}, checkers=8)
    ranked = bot.search.rank(position.legal_plays((6, 2)), bot.plies)
    assert ranked[0].plies == 3
    kernel = bot.search.kernel
    deep = flip_outputs(kernel.values(boards_of([ranked[0].play.result]), 3))[0]
    assert ranked[0].values == pytest.approx(deep, abs=1e-6)


def test_shipped_bot_beats_pubeval() -> None:
    result = duel(GreedyPlayer(Bot().evaluator), PubEval(), games=200, seed=2026)
    assert result.points_per_game > 0.0, str(result)


# Bots at the table


def test_act_waits_for_its_turn() -> None:
    game = Game(dice=ManualDice(["6 1"]))
    bot = fake_bot()
    assert act(bot, game, 1) is Action.ROLL  # the opening roll, which either seat makes
    assert game.on_roll == 0
    assert act(bot, game, 1) is None
    assert act(bot, game, 0) is Action.PLAY
    assert game.phase is Phase.ROLL and game.on_roll == 1


def test_bots_play_a_money_game_to_its_end() -> None:
    game = Game(dice=SeededDice(7))
    play_out(game, (fake_bot(), fake_bot(0, noise=0.1, seed=1)))
    assert game.phase is Phase.OVER and game.result is not None


def test_bots_play_a_match_to_its_end() -> None:
    # The shipped networks: the pip-count fake would hit back and forth for ever.
    match = Match(3, dice=SeededDice(8))
    play_match(match, (Bot(), Bot()))
    assert match.is_over and max(match.score) >= 3


def test_selfplay_session_and_match() -> None:
    bots = (Bot(), Bot(level="beginner", seed=2))
    session = selfplay(games=3, seed=4, bots=bots)
    assert sum(game.result is not None for game in session.games) == 3
    match = selfplay(match_length=3, seed=4, bots=bots)
    assert match.is_over


def test_selfplay_command_writes_a_mat_file(tmp_path, capsys) -> None:
    out = tmp_path / "games.mat"
    assert main(["selfplay", "--games", "2", "--seed", "9", "--out", str(out)]) == 0
    match = read_mat(out)
    assert sum(game.result is not None for game in match.games) == 2
    assert "Wrote 2 games" in capsys.readouterr().out
    out = tmp_path / "match.mat"
    assert main(["selfplay", "--match-length", "3", "--seed", "9", "--out", str(out)]) == 0
    assert import_mat(out.read_text()).is_over


def test_selfplay_levels_are_the_bot_levels() -> None:
    from backgammon.cli import build_parser

    parser = build_parser()
    actions = parser._subparsers._group_actions[0].choices["selfplay"]._actions  # type: ignore[union-attr]
    level = next(a for a in actions if a.dest == "level")
    assert list(level.choices) == [str(level) for level in Level]


def test_games_of_random_bots_stay_legal() -> None:
    rng = random.Random(3)
    for seed in range(3):
        game = Game(dice=SeededDice(seed))
        play_out(game, (fake_bot(0, noise=rng.random(), seed=seed), fake_bot(1)))
        assert Game.replay(game.rules, game.events).result == game.result
