"""Setting up a game from an ID: a GNU Backgammon Position ID, a full gnubg ID or an XGID
starts a game (or a match at its score) where the ID says, and the IDs of the game set up
are the IDs it was set up from."""

from __future__ import annotations

import random

import pytest

from backgammon import BackgammonError, Position
from backgammon.dice import ManualDice, SeededDice
from backgammon.errors import InvalidIdError
from backgammon.formats.ids import gnubg_id_of, setup_from_id, xgid_of
from backgammon.formats.mat import MatFormatError, export_mat
from backgammon.game import Action, Game, Phase, Rules, SetUp
from backgammon.game.match import Match
from backgammon.variants import Variant


def set_up(text: str, rules: Rules | None = None, dice: ManualDice | None = None) -> Match:
    setting = setup_from_id(text)
    return Match(
        setting.length or 0,
        rules,
        dice,
        setup=setting.setup,
        score=setting.score,
        crawford_game=setting.crawford_game,
    )


def random_moments(seed: int) -> list[Match]:
    """A match played at random, copied at each moment that an ID can set up again."""
    rng = random.Random(seed)
    match = Match(length=7, dice=SeededDice(seed))
    moments = []
    for _ in range(400):
        if match.is_over:
            break
        game = match.game
        if game.phase in (Phase.ROLL, Phase.MOVE) and game.events:
            moments.append(Match.from_dict(match.to_dict()))
        seat = game.player_to_act if game.player_to_act is not None else 0
        skip = (Action.RESIGN, Action.UNDO, Action.PLAY)
        actions = [a for a in game.legal_actions(seat) if a not in skip]
        action = rng.choice(actions)
        if action is Action.STEP:
            assert game.turn is not None
            game.step(seat, *rng.choice(game.turn.legal_steps()))
        else:
            getattr(game, action.value)(seat)
    return moments


@pytest.mark.parametrize("seed", range(6))
def test_the_ids_of_a_game_set_up_from_an_id_are_that_id(seed: int) -> None:
    for moment in random_moments(seed):
        for text in (gnubg_id_of(moment), xgid_of(moment)):
            again = set_up(text)
            assert gnubg_id_of(again) == gnubg_id_of(moment), text
            if text.startswith("XGID"):  # (a Match ID writes the higher die first)
                assert xgid_of(again) == text
            game, copy = moment.game, again.game
            if game.turn is not None and game.turn.made:
                continue  # the ID is of the turn's start: the steps made are not in it
            for seat in (0, 1):
                assert copy.legal_actions(seat) == game.legal_actions(seat)
            if game.turn is not None:
                assert copy.turn is not None
                assert copy.turn.legal_steps() == game.turn.legal_steps()


def test_a_position_id_alone_is_seat_0_to_roll_in_a_money_game() -> None:
    setting = setup_from_id(" 4HPwATDgc/ABMA ")
    assert setting.setup == SetUp(Position.initial()) and setting.length is None
    game = Game(setup=setting.setup)
    assert game.phase is Phase.ROLL and game.on_roll == 0 and game.may_double(0)


def test_a_set_up_match_counts_from_its_score_and_its_crawford_game() -> None:
    position = Position.from_points({6: 1}, {6: 1})  # each side one checker from home
    setup = SetUp(position, on_roll=1, dice=(6, 5))
    match = Match(5, setup=setup, score=(4, 2), crawford_game=True)
    game = match.game
    assert game.crawford and not game.may_double(1) and game.phase is Phase.MOVE
    game.play(1, "6/off")
    assert match.score == (4, 3) and match.scores_before(0) == (4, 2)
    assert not match.game.crawford  # post-Crawford
    # After the Crawford game, not one: the game set up is post-Crawford.
    later = Match(5, setup=SetUp(position), score=(2, 4))
    assert not later.game.crawford and later.game.may_double(0)
    again = Match.from_json(match.to_json())
    assert again.to_dict() == match.to_dict() and again.score == (4, 3)


def test_a_set_up_game_is_saved_and_replayed_but_not_written_as_mat() -> None:
    setting = setup_from_id("XGID=-b----E-C---eE---c-e----B-:1:-1:1:00:0:0:0:0:10")
    game = Game(dice=ManualDice(["3 1"]), setup=setting.setup)
    assert game.cube_value == 2 and game.cube_owner == 1 and game.may_double(0) is False
    game.roll(0)
    game.play(0, "8/5 6/5")
    assert Game.from_json(game.to_json()).to_dict() == game.to_dict()
    assert game.copy().position == game.position
    with pytest.raises(MatFormatError, match="set-up position"):
        export_mat(game)


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("4HPwATDgc/ABMA:MBkAAAAAAAAE", "a double waiting"),
        ("XGID=-b----E-C---eE---c-e----B-:1:-1:-1:D:2:4:0:7:10", "a double waiting"),
        ("4HPwATDgc/ABMA:cAkAAAA", "Match ID"),
        ("4HPwATDgc/ABM", "Position ID"),
        ("XGID=-b----E-C---eE---c-e----B-:0:0:1:52:0:0:3:0", "has 9 fields"),
        (42, "is text"),
    ],
)
def test_an_id_that_sets_up_no_game_is_refused_with_a_reason(text: str, phrase: str) -> None:
    with pytest.raises(InvalidIdError, match=phrase):
        setup_from_id(text)


def test_a_set_up_the_rules_cannot_play_is_refused() -> None:
    closed = Position.from_points({25: 1, 6: 14}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 20: 3})
    with pytest.raises(BackgammonError, match="no legal move"):
        Game(setup=SetUp(closed, dice=(6, 6)))
    with pytest.raises(BackgammonError, match="no cube"):
        Game(Rules(cube=False), setup=SetUp(Position.initial(), cube_value=2, cube_owner=0))
    with pytest.raises(BackgammonError, match="Crawford game"):
        Game(crawford=True, setup=SetUp(Position.initial(), cube_value=2, cube_owner=1))
    with pytest.raises(BackgammonError, match="3 checkers"):
        Game(Rules(variant=Variant.HYPERGAMMON), setup=SetUp(Position.initial()))
    with pytest.raises(BackgammonError, match="one point short"):
        Match(7, setup=SetUp(Position.initial()), score=(3, 2), crawford_game=True)
    with pytest.raises(BackgammonError, match="nothing to play"):
        Match(7, setup=SetUp(Position.initial()), score=(7, 2))
    with pytest.raises(BackgammonError, match="power of two"):
        SetUp(Position.initial(), cube_value=6)
