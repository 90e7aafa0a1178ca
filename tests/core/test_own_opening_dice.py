"""RULES.md, Starting the game: "Each player rolls one die." With the option
``own_opening_dice`` (online games between people), each player throws their own: the first
roll throws the roller's die alone, the other player's completes the opening roll."""

from __future__ import annotations

import pytest

from backgammon import WinKind
from backgammon.dice import ManualDice
from backgammon.errors import BackgammonError
from backgammon.fairdice import FairDice
from backgammon.game import Action, Game, IllegalActionError, Phase, Rules
from backgammon.game.history import OpeningRoll

OWN = Rules(own_opening_dice=True)


def test_the_first_roll_throws_the_rollers_die_alone_and_waits_for_the_other() -> None:
    game = Game(OWN, ManualDice(["5 2"]))
    assert game.player_to_act is None  # either may throw first
    game.roll(1)
    throw = game.events[-1]
    assert (throw.action, throw.player, throw.die, throw.dice) == (Action.THROW, 1, 2, None)
    assert game.phase is Phase.OPENING and game.thrown == (1, 2)
    assert game.player_to_act == 0
    assert game.legal_actions(0) == [Action.ROLL] and Action.ROLL not in game.legal_actions(1)
    with pytest.raises(IllegalActionError, match="has thrown their die"):
        game.roll(1)


def test_the_others_roll_completes_the_opening_roll_keeping_the_die_thrown() -> None:
    """Dice that can tell their next roll (entered, seeded, fair) throw its dice, one a
    seat: the opening roll is the one a single roll would have made, whoever throws first.
    Others (the operating system's random numbers) draw the second die afresh."""
    game = Game(OWN, ManualDice(["5 2", "3 6"]))
    game.roll(1)  # seat 1's die: the 2 of 5-2
    game.roll(0)  # seat 0's die: the 5, the same roll drawn
    roll = game.events[-1]
    assert (roll.action, roll.player, roll.dice) == (Action.ROLL, 0, (5, 2))
    assert game.thrown is None and game.dice_source.pending == 1  # type: ignore[attr-defined]
    # The higher die moves first, playing both numbers.
    assert (game.phase, game.on_roll, game.dice) == (Phase.MOVE, 0, (5, 2))
    secure = Game(OWN)
    secure.roll(0)
    secure.roll(1)
    assert secure.events[-1].dice[0] == secure.events[0].die  # type: ignore[index]


def test_equal_dice_have_both_throw_again() -> None:
    game = Game(Rules(own_opening_dice=True, automatic_doubles=1), ManualDice(["4 4", "2 1"]))
    game.roll(0)
    game.roll(1)  # 4 and 4: a tie
    assert game.phase is Phase.OPENING and game.thrown is None and game.player_to_act is None
    assert game.cube_value == 2  # the option's automatic double, as with one roll
    game.roll(1)  # seat 1 throws first this time: a 1
    game.roll(0)  # seat 0's 2
    assert (game.on_roll, game.dice) == (0, (2, 1))


def test_fair_dice_give_what_one_roll_would_and_take_no_seed_after_a_throw() -> None:
    """A throw draws no roll: the roll that completes it draws the same one again, so the
    record's opening roll is the fair dice's roll number 0, as the verifier checks."""
    seed = bytes(range(32))
    own, both = Game(OWN, FairDice(seed)), Game(Rules(), FairDice(seed))
    own.roll(0)
    with pytest.raises(IllegalActionError, match="seed may be added only before"):
        own.add_seed(1, "a" * 16)
    own.roll(1)
    both.roll(0)
    assert own.events[-1].dice == both.events[-1].dice
    assert own.rolls_drawn == both.rolls_drawn == 1


def test_a_player_who_does_not_throw_may_have_the_game_claimed() -> None:
    game = Game(OWN, ManualDice(["5 2"]))
    with pytest.raises(IllegalActionError, match="waits for the opening roll"):
        game.claim(0)
    game.roll(0)
    with pytest.raises(IllegalActionError, match="not for them"):
        game.claim(1)  # the game waits for seat 1
    game.claim(0)
    assert game.result is not None
    assert (game.result.winner, game.result.kind, game.result.reason) == (0, WinKind.SINGLE,
                                                                          "claim")


def test_the_record_replays_and_the_history_shows_one_opening_roll() -> None:
    game = Game(OWN, ManualDice(["6 3"]))
    game.roll(0)
    game.roll(1)
    copy = Game.from_json(game.to_json())
    assert copy.to_json() == game.to_json() and copy.dice == game.dice == (6, 3)
    entries = list(game.history())
    assert [type(entry).__name__ for entry in entries] == ["OpeningRoll", "Rolled"]
    opening = entries[0]
    assert isinstance(opening, OpeningRoll)
    assert (opening.index, opening.seat, opening.dice, opening.winner) == (1, 1, (6, 3), 0)
    waiting = Game(OWN, ManualDice(["6 1"]))
    waiting.roll(0)
    assert Game.from_json(waiting.to_json()).thrown == (0, 6)


def edited(game: Game, change: dict[str, object], at: int) -> dict[str, object]:
    data = game.to_dict()
    events = list(data["events"])  # type: ignore[call-overload]
    events[at] = {**events[at], **change}
    return {**data, "events": events}


def test_a_record_that_breaks_the_throws_is_refused() -> None:
    game = Game(OWN, ManualDice(["6 3"]))
    game.roll(0)
    game.roll(1)
    with pytest.raises(BackgammonError, match="keeps the die seat 0 threw, a 6"):
        Game.from_dict(edited(game, {"dice": [5, 3]}, 1))
    with pytest.raises(BackgammonError, match="begins with one die thrown"):
        Game.from_dict({**game.to_dict(), "events": game.to_dict()["events"][1:]})
    with pytest.raises(BackgammonError, match="from 1 to 6"):
        Game.from_dict(edited(game, {"die": 9}, 0))
    plain = Game(Rules(), ManualDice(["6 1"]))
    plain.roll(0)
    data = plain.to_dict()
    data["events"] = [{"action": "throw", "player": 0, "die": 6, "time": "t"}]
    with pytest.raises(BackgammonError, match="one roll throws both"):
        Game.from_dict(data)


def test_without_the_option_one_roll_throws_both_dice() -> None:
    game = Game(Rules(), ManualDice(["6 1"]))
    game.roll(1)
    assert [event.action for event in game.events] == [Action.ROLL]
    assert game.dice == (6, 1)
