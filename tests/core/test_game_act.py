"""Game.act: one typed action value per move of a game, the same as the method of its name;
the table of what each phase allows; the public Offer and Resignation; the empty play and the
automatic-double rule written once."""

from __future__ import annotations

import random

import pytest

from backgammon import Play, Position, WinKind
from backgammon.dice import ManualDice, SeededDice
from backgammon.game import (
    Act,
    Action,
    Game,
    IllegalActionError,
    Offer,
    Phase,
    Resignation,
    Rules,
)
from backgammon.game.rules import ALLOWED


def strip_times(game: Game) -> list[dict[str, object]]:
    return [{k: v for k, v in event.to_dict().items() if k != "time"} for event in game.events]


def random_acts(seed: int, rules: Rules) -> tuple[Game, Game]:
    """Two games with the same seeded dice: one played through the named methods, the other
    through Game.act with the same choices."""
    rnd = random.Random(seed)
    by_method = Game(rules, SeededDice(seed))
    by_act = Game(rules, SeededDice(seed))
    for _ in range(300):
        if by_method.phase is Phase.OVER:
            break
        seat = by_method.player_to_act
        seat = rnd.randrange(2) if seat is None else seat
        action = rnd.choice(by_method.legal_actions(seat))
        if action is Action.STEP:
            assert by_method.turn is not None
            step = rnd.choice(by_method.turn.legal_steps())
            by_method.step(seat, *step)
            by_act.act(seat, Act(Action.STEP, step=step))
        elif action is Action.PLAY:
            assert by_method.dice is not None
            play = rnd.choice(by_method.position.legal_plays(by_method.dice))
            text_or_play = str(play) if rnd.random() < 0.5 else play
            by_method.play(seat, text_or_play)
            by_act.act(seat, Act(Action.PLAY, play=text_or_play))
        elif action is Action.RESIGN:
            level = rnd.choice(list(WinKind))
            by_method.resign(seat, level)
            by_act.act(seat, Act(Action.RESIGN, level=level))
        else:
            getattr(by_method, action.value)(seat)
            by_act.act(seat, Act(action))
    return by_method, by_act


@pytest.mark.parametrize("seed", range(12))
def test_act_makes_the_same_game_as_the_named_methods(seed: int) -> None:
    rules = Rules(beavers=seed % 2 == 0, jacoby=seed % 3 == 0, auto_race_roll=seed % 4 == 0)
    by_method, by_act = random_acts(seed, rules)
    assert strip_times(by_act) == strip_times(by_method)
    assert by_act.position == by_method.position and by_act.result == by_method.result


def test_an_action_given_by_name_is_taken() -> None:
    game = Game(dice=ManualDice(["6 1"]))
    game.act(0, Act("roll"))  # type: ignore[arg-type]
    assert game.phase is Phase.MOVE


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: Act(Action.PASS), "A pass is not a player's action"),
        (lambda: Act(Action.STEP), "A step needs its step"),
        (lambda: Act(Action.PLAY), "A play needs its play"),
        (lambda: Act(Action.ROLL, step=(13, 7)), "A roll takes no step"),
        (lambda: Act(Action.STEP, step=(13, 7), play="13/7"), "A step takes no play"),
        (lambda: Act(Action.DOUBLE, level=WinKind.GAMMON), "A double takes no level"),
        (lambda: Act(Action.RESIGN, level=4), "A resignation offers a single game"),  # type: ignore[arg-type]
        (lambda: Act("fold"), "'fold' is not an action: choose one of roll, double"),  # type: ignore[arg-type]
    ],
)
def test_malformed_acts_are_refused_with_a_sentence(make: object, message: str) -> None:
    with pytest.raises(IllegalActionError, match=message):
        make()  # type: ignore[operator]


def test_a_resignation_offers_a_single_game_unless_told() -> None:
    assert Act(Action.RESIGN).level is WinKind.SINGLE
    assert Act(Action.RESIGN, level=2).level is WinKind.GAMMON  # type: ignore[arg-type]


def test_refused_acts_change_nothing() -> None:
    game = Game(dice=ManualDice(["6 1", "3 1"]))
    game.act(0, Act(Action.ROLL))
    before = game.to_json()
    with pytest.raises(IllegalActionError, match="It is seat 0's turn"):
        game.act(1, Act(Action.STEP, step=(13, 7)))
    with pytest.raises(IllegalActionError, match="A double is offered at the start of a turn"):
        game.act(0, Act(Action.DOUBLE))
    assert game.to_json() == before


@pytest.mark.parametrize("seed", range(6))
def test_the_actions_offered_are_those_the_phase_allows(seed: int) -> None:
    """legal_actions never offers what the phase table leaves out."""
    rnd = random.Random(seed)
    game = Game(Rules(beavers=True), SeededDice(seed))
    for _ in range(400):
        if game.phase is Phase.OVER:
            break
        offered = {a for seat in (0, 1) for a in game.legal_actions(seat)}
        assert offered <= ALLOWED[game.phase]
        seat = game.player_to_act
        seat = rnd.randrange(2) if seat is None else seat
        action = rnd.choice(game.legal_actions(seat))
        if action is Action.STEP:
            assert game.turn is not None
            game.act(seat, Act(action, step=rnd.choice(game.turn.legal_steps())))
        elif action is Action.PLAY:
            assert game.dice is not None
            game.act(seat, Act(action, play=rnd.choice(game.position.legal_plays(game.dice))))
        elif action in (Action.DROP, Action.ACCEPT) and rnd.random() < 0.9:
            continue
        else:
            game.act(seat, Act(action))


def test_offer_and_resignation_are_public_values() -> None:
    game = Game(Rules(beavers=True), ManualDice(["6 1"]))
    game.roll(0)
    game.play(0, "13/7 8/7")
    game.double(1)
    assert game.offer == Offer(player=1, decider=0, value=2)
    game.beaver(0)
    assert game.offer == Offer(player=0, decider=1, value=4, beavered=True)
    game.take(1)
    game.resign(1, WinKind.GAMMON)
    assert game.resignation == Resignation(1, WinKind.GAMMON, Phase.ROLL)


@pytest.mark.parametrize(
    ("rules", "in_match", "made", "cube", "doubles"),
    [
        (Rules(automatic_doubles=2), False, 0, 1, True),
        (Rules(automatic_doubles=2), False, 1, 2, True),
        (Rules(automatic_doubles=2), False, 2, 4, False),  # the cap is reached
        (Rules(automatic_doubles=2, max_cube=2), False, 1, 2, False),  # the cube's limit
        (Rules(automatic_doubles=2, cube=False), False, 0, 1, False),
        (Rules(), False, 0, 1, False),
        (Rules(), True, 0, 1, False),  # never in a match
    ],
)
def test_the_automatic_double_rule(
    rules: Rules, in_match: bool, made: int, cube: int, doubles: bool
) -> None:
    assert rules.doubles_on_tie(in_match=in_match, made=made, cube_value=cube) is doubles


def test_a_game_doubles_on_ties_by_the_one_rule() -> None:
    game = Game(Rules(automatic_doubles=2, max_cube=2), ManualDice(["2 2", "4 4", "6 1"]))
    game.roll(0)
    game.roll(1)
    game.roll(0)
    assert game.cube_value == 2 and game.automatic_doubles == 1


def test_the_empty_play_is_a_pass() -> None:
    position = Position.from_points({"bar": 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2})
    assert position.legal_plays((6, 6)) == []
    play = Play.empty(position)
    assert (play.steps, play.position, play.result, str(play)) == (
        (),
        position,
        position.flip(),
        "no move",
    )
    assert position.parse_play("pass", (6, 6)) == play
    assert position.turn((6, 6)).play() == play


def test_raw_counts_are_the_counts() -> None:
    position = Position.from_points({"bar": 1, 6: 14}, {1: 2, 24: 13})
    assert tuple(position.mine_bytes) == position.mine
    assert tuple(position.theirs_bytes) == position.theirs


def test_the_points_of_a_win_count_the_cube_and_the_jacoby_rule() -> None:
    game = Game(Rules(jacoby=True), ManualDice(["6 1"]))
    game.roll(0)
    game.play(0, "13/7 8/7")
    assert [game.points_for(kind) for kind in WinKind] == [1, 1, 1]
    game.double(1)
    game.take(0)
    assert [game.points_for(kind) for kind in WinKind] == [2, 4, 6]
