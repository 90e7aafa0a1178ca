"""A player's seed for the fair dice and a seat taken are events of the record, allowed in
any phase before the game's first roll (a game set up in the middle starts past its opening),
refused after it, and replayed by every copy of the game, with any dice."""

from __future__ import annotations

import pytest

from backgammon.dice import SecureDice
from backgammon.fairdice import FairDice, FairMatchDice, derive_roll
from backgammon.game import Game, IllegalActionError, Phase, SetUp, begun
from backgammon.game.match import Match
from backgammon.position import Position

SEED = bytes(range(32))


def test_a_seed_and_a_join_before_the_first_roll_then_neither() -> None:
    game = Game(dice=FairDice(SEED))
    game.add_seed(1, "bob")
    game.join(1)
    game.add_seed(1, "bob-2")  # a player may change their seed
    assert not begun(game) and game.phase is Phase.OPENING and len(game.events) == 3
    game.roll(0)
    assert begun(game) and game.events[-1].dice == derive_roll(SEED, ("", "bob-2"), 1)
    with pytest.raises(IllegalActionError, match="before its first roll"):
        game.add_seed(0, "late")
    with pytest.raises(IllegalActionError, match="before its first roll"):
        game.join(0)
    # Neither is a move of the game: the list of actions offered has them never.
    assert not {"seed", "join"} & {action.value for action in game.legal_actions(1)}


def test_a_game_set_up_in_the_middle_takes_them_too() -> None:
    setup = SetUp(Position.initial(), on_roll=0)
    game = Game(dice=FairDice(SEED), setup=setup)
    assert game.phase is Phase.ROLL
    game.join(1)
    game.add_seed(0, "ann")
    game.roll(0)
    assert game.events[-1].dice == derive_roll(SEED, ("ann", ""), 1)


def test_other_dice_take_no_new_seed_but_replay_a_recorded_one() -> None:
    with pytest.raises(IllegalActionError, match="not provably fair"):
        Game(dice=SecureDice()).add_seed(0, "x")
    game = Game(dice=FairDice(SEED))
    game.add_seed(0, "ann")
    game.roll(0)
    # An analysis replays a record with dice of its own: the seed is kept, and changes nothing.
    again = Game.from_dict(game.to_dict(), SecureDice())
    assert [event.action for event in again.events] == [event.action for event in game.events]


def test_a_copy_sharing_dice_that_have_rolled_replays_changed_seeds() -> None:
    """The server's copy for the computer is rebuilt from the record with the match's own
    dice, which have rolled since the seeds: the seeds replay, the dice end as they were."""
    match = Match(3, dice=FairMatchDice())
    match.game.add_seed(0, "first")
    match.game.add_seed(0, "second")
    match.game.roll(0)
    copy = Match.from_dict(match.to_dict(), match.dice_source)
    assert [event.to_dict() for event in copy.game.events] == [
        event.to_dict() for event in match.game.events]
    dice = match.game.dice_source
    assert isinstance(dice, FairDice) and dice.seeds == ("second", "")
