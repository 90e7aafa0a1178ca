"""Seeded dice resume where a record left them, so a match rebuilt from its record rolls on
exactly as it would have."""

from __future__ import annotations

import random

import pytest

from backgammon.dice import ManualDice, SecureDice, SeededDice
from backgammon.game import Game, Phase
from backgammon.game.match import Match


def test_seeded_dice_count_what_they_draw_and_resume_anywhere() -> None:
    dice = SeededDice(11)
    sequence = [dice.roll() for _ in range(20)]
    assert dice.drawn == 20 and sequence[0] == SeededDice(11).roll()
    for count in (0, 7, 20, 3):
        dice.resume(count)
        assert dice.drawn == count
        assert [dice.roll() for _ in range(20 - count)] == sequence[count:]


def test_dice_seeded_by_chance_resume_too() -> None:
    dice = SeededDice()
    sequence = [dice.roll() for _ in range(5)]
    dice.resume(2)
    assert [dice.roll() for _ in range(3)] == sequence[2:]


def play_on(match: Match, rnd: random.Random, actions: int) -> None:
    """Roll and play random legal plays (doubling now and then, always taken)."""
    for _ in range(actions):
        if match.is_over:
            return
        game = match.game
        if game.phase is Phase.MOVE:
            assert game.dice is not None
            game.play(game.on_roll, rnd.choice(game.position.legal_plays(game.dice)))
        elif game.phase is Phase.CUBE:
            assert game.offer is not None
            game.drop(game.offer.decider) if rnd.random() < 0.3 else game.take(game.offer.decider)
        elif game.may_double() and rnd.random() < 0.1:
            game.double(game.on_roll)
        else:
            game.roll(game.on_roll)


@pytest.mark.parametrize("seed", range(4))
def test_a_match_rebuilt_with_resume_rolls_on_as_if_never_stopped(seed: int) -> None:
    whole = Match(5, dice=SeededDice(seed))
    play_on(whole, random.Random(seed), 150)
    saved = whole.to_json()
    rebuilt = Match.from_json(saved, SeededDice(seed), resume=True)
    assert isinstance(rebuilt.dice_source, SeededDice)
    assert rebuilt.dice_source.drawn == whole.rolls_drawn > 0
    play_on(whole, random.Random(seed + 100), 150)
    play_on(rebuilt, random.Random(seed + 100), 150)
    assert record(rebuilt) == record(whole)


def record(match: Match) -> list[list[tuple[object, ...]]]:
    """Each game's events without their times."""
    return [[(e.action, e.player, e.dice, e.steps) for e in game.events] for game in match.games]


def test_a_game_rebuilt_with_resume_rolls_on() -> None:
    game = Game(dice=SeededDice(3))
    game.roll(0)
    assert game.dice is not None
    game.play(game.on_roll, game.position.legal_plays(game.dice)[0])
    game.roll(game.on_roll)
    rebuilt = Game.from_json(game.to_json(), SeededDice(3), resume=True)
    assert rebuilt.rolls_drawn == 2
    expected = SeededDice(3)
    expected.resume(2)
    assert isinstance(rebuilt.dice_source, SeededDice)
    assert rebuilt.dice_source.roll() == expected.roll()


def test_without_resume_seeded_dice_start_afresh_and_other_sources_go_on() -> None:
    match = Match(3, dice=SeededDice(8))
    play_on(match, random.Random(8), 20)
    again = Match.from_json(match.to_json(), SeededDice(8))
    assert isinstance(again.dice_source, SeededDice) and again.dice_source.drawn == 0
    manual = ManualDice(["5 2"])
    Match.from_json(match.to_json(), manual, resume=True)
    assert manual.roll() == (5, 2)
    Match.from_json(match.to_json(), SecureDice(), resume=True)  # nothing to resume
