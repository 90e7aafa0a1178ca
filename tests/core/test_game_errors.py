"""Bad input to a game or a match gets a clear, typed error and changes nothing.

Every refusal here is checked three ways: the error's type (an IllegalActionError for an action
the game does not allow now, an IllegalPlayError for a move the rules forbid, an
InvalidDiceError for impossible dice, a BackgammonError for a malformed record), a phrase of its
message, and the game's whole JSON record, which must be the same before and after.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from backgammon import BackgammonError, IllegalPlayError, InvalidDiceError, Position, WinKind
from backgammon.cube import HIGHEST_CUBE
from backgammon.dice import ManualDice
from backgammon.game import Game, IllegalActionError, Phase, Rules, SetUp
from backgammon.game.match import Match

BAD_SEATS = [2, -1, True, "0", None, 0.0]


def refused(game: Game, action: Callable[[], object], error: type[Exception], message: str) -> None:
    """Assert that ``action`` raises ``error`` matching ``message`` and leaves ``game`` as it
    was (its record, phase, and who is to act)."""
    before = game.to_json()
    state = (game.phase, game.on_roll, game.dice, game.cube_value, game.cube_owner)
    with pytest.raises(error, match=message):
        action()
    assert game.to_json() == before
    assert (game.phase, game.on_roll, game.dice, game.cube_value, game.cube_owner) == state


def moving() -> Game:
    """Seat 0 has won the opening 6-1 and is to move; one roll (3-1) is queued after it."""
    game = Game(dice=ManualDice(["6 1", "3 1"]))
    game.roll(0)
    return game


def seat1_to_roll(rules: Rules | None = None) -> Game:
    """Seat 0 has played its opening 6-1 (13/7 8/7); seat 1 is to roll or double; 3-1 queued."""
    game = Game(rules, ManualDice(["6 1", "3 1"]))
    game.roll(0)
    game.play(0, "13/7 8/7")
    return game


def doubled(rules: Rules | None = None) -> Game:
    """Seat 1 has doubled; seat 0 is to take or drop."""
    game = seat1_to_roll(rules)
    game.double(1)
    return game


def resigned() -> Game:
    """Seat 0, moving, has offered a single game; seat 1 is to accept or reject."""
    game = moving()
    game.resign(0, WinKind.SINGLE)
    return game


def over() -> Game:
    """Seat 1 doubled and seat 0 dropped: the game is over."""
    game = doubled()
    game.drop(0)
    return game


def saved(game: Game) -> dict[str, Any]:
    """The game's JSON record as a dict, to garble."""
    data: dict[str, Any] = json.loads(game.to_json())
    return data


# Actions out of turn


@pytest.mark.parametrize(
    ("setup", "act", "seat_to_act"),
    [
        pytest.param(moving, lambda g: g.step(1, 8, 5), 0, id="step-in-opponents-move"),
        pytest.param(moving, lambda g: g.play(1, "13/7 8/7"), 0, id="play-in-opponents-move"),
        pytest.param(seat1_to_roll, lambda g: g.roll(0), 1, id="roll-in-opponents-turn"),
        pytest.param(seat1_to_roll, lambda g: g.double(0), 1, id="double-in-opponents-turn"),
        pytest.param(doubled, lambda g: g.take(1), 0, id="doubler-takes-own-double"),
        pytest.param(doubled, lambda g: g.drop(1), 0, id="doubler-drops-own-double"),
        pytest.param(resigned, lambda g: g.accept(0), 1, id="resigner-accepts-own-offer"),
        pytest.param(resigned, lambda g: g.reject(0), 1, id="resigner-rejects-own-offer"),
    ],
)
def test_actions_out_of_turn_are_refused(
    setup: Callable[[], Game], act: Callable[[Game], object], seat_to_act: int
) -> None:
    """An action by the seat the game does not wait for names the seat it waits for."""
    game = setup()
    refused(game, lambda: act(game), IllegalActionError, f"It is seat {seat_to_act}'s turn")


def test_undo_and_confirm_out_of_turn_are_refused() -> None:
    """Seat 1 may not take back or confirm seat 0's steps."""
    game = moving()
    game.step(0, 13, 7)
    refused(game, lambda: game.undo(1), IllegalActionError, "It is seat 0's turn")
    game.step(0, 8, 7)
    refused(game, lambda: game.confirm(1), IllegalActionError, "It is seat 0's turn")


def test_out_of_turn_play_in_notation_is_refused_as_out_of_turn() -> None:
    """Seat 1 types its own 3-1 play (8/5 6/5) while seat 0 is still to move with 6-1: the
    refusal must say that it is seat 0's turn (it says 8/5 6/5 is not a legal 6-1 play)."""
    game = moving()
    refused(game, lambda: game.play(1, "8/5 6/5"), IllegalActionError, "It is seat 0's turn")


@pytest.mark.parametrize("bad_seat", [False, True], ids=["out-of-turn", "seat-2"])
def test_refused_roll_does_not_use_up_entered_dice(bad_seat: bool) -> None:
    """ManualDice 6-1 (opening), 3-1 (seat 1's roll). After seat 0's play, seat 0 (or seat 2)
    tries to roll and is refused; seat 1 then rolls and must get 3-1 (the engine has spent it
    on the refused roll and raises InvalidDiceError)."""
    game = seat1_to_roll()
    refused(game, lambda: game.roll(2 if bad_seat else 0), IllegalActionError, "seat")
    game.roll(1)
    assert game.dice == (3, 1)


@pytest.mark.parametrize("late", [False, True], ids=["out-of-turn", "after-game-over"])
def test_refused_roll_with_no_dice_entered_says_why_it_is_refused(late: bool) -> None:
    """Game with ManualDice holding only the opening 6-1: after seat 0's play a roll by seat 0
    (or, once the game is over, by anyone) must be refused as an action, not for want of
    dice."""
    game = Game(dice=ManualDice(["6 1"]))
    game.roll(0)
    game.play(0, "13/7 8/7")
    if late:
        game.double(1)
        game.drop(0)
    refused(game, lambda: game.roll(0), IllegalActionError, "turn|over")


def test_automatic_race_roll_without_dice_does_not_fail_the_play() -> None:
    """Rules(auto_race_roll=True, cube=False), a pure race, ManualDice holding only the opening
    2-1. Seat 0's play 6/4 6/5 must go through without an error and leave seat 1 to roll (the
    engine records the play, then raises InvalidDiceError from the automatic roll)."""
    race = Position.from_points({6: 2, 5: 2}, {6: 2, 5: 2})
    game = Game(Rules(auto_race_roll=True, cube=False), ManualDice(["2 1"]), start=race)
    game.roll(0)
    game.play(0, "6/4 6/5")
    assert (game.phase, game.on_roll) == (Phase.ROLL, 1)


# Actions in the wrong phase


@pytest.mark.parametrize(
    ("setup", "act", "message"),
    [
        pytest.param(Game, lambda g: g.double(0), "before rolling", id="double-at-opening"),
        pytest.param(Game, lambda g: g.step(0, 13, 7), "No checker", id="step-at-opening"),
        pytest.param(Game, lambda g: g.play(0, "13/7 8/7"), "No checker", id="play-at-opening"),
        pytest.param(Game, lambda g: g.resign(0), "cannot be offered", id="resign-at-opening"),
        pytest.param(Game, lambda g: g.take(1), "no double", id="take-at-opening"),
        pytest.param(moving, lambda g: g.roll(0), "cannot be rolled", id="roll-while-moving"),
        pytest.param(moving, lambda g: g.double(0), "before rolling", id="double-while-moving"),
        pytest.param(moving, lambda g: g.confirm(0), "cannot end yet", id="confirm-unfinished"),
        pytest.param(moving, lambda g: g.undo(0), "no step", id="undo-with-no-step"),
        pytest.param(moving, lambda g: g.take(1), "no double", id="take-with-no-double"),
        pytest.param(moving, lambda g: g.drop(1), "no double", id="drop-with-no-double"),
        pytest.param(seat1_to_roll, lambda g: g.step(1, 8, 5), "No checker", id="step-to-roll"),
        pytest.param(seat1_to_roll, lambda g: g.confirm(1), "no play to", id="confirm-to-roll"),
        pytest.param(doubled, lambda g: g.roll(1), "cannot be rolled", id="roll-while-doubled"),
        pytest.param(doubled, lambda g: g.double(0), "before rolling", id="double-on-a-double"),
        pytest.param(doubled, lambda g: g.resign(0), "cannot be offered", id="resign-doubled"),
        pytest.param(resigned, lambda g: g.step(0, 13, 7), "No checker", id="step-resigning"),
        pytest.param(resigned, lambda g: g.resign(0, 2), "cannot be offered", id="resign-twice"),
        pytest.param(resigned, lambda g: g.take(1), "no double", id="take-a-resignation"),
        pytest.param(over, lambda g: g.double(1), "The game is over", id="double-when-over"),
        pytest.param(over, lambda g: g.resign(0), "The game is over", id="resign-when-over"),
        pytest.param(over, lambda g: g.accept(1), "The game is over", id="accept-when-over"),
    ],
)
def test_actions_in_the_wrong_phase_are_refused(
    setup: Callable[[], Game], act: Callable[[Game], object], message: str
) -> None:
    """An action the current phase does not allow says what the game waits for."""
    game = setup()
    refused(game, lambda: act(game), IllegalActionError, message)


@pytest.mark.parametrize("answer", ["accept", "reject"])
def test_answering_a_resignation_with_none_pending_is_refused(answer: str) -> None:
    """Accept or reject with no resignation offered, in a move and at the start of a turn."""
    for game in (moving(), seat1_to_roll()):
        refused(
            game,
            lambda game=game: getattr(game, answer)(1 - game.on_roll),
            IllegalActionError,
            "no resignation to answer",
        )


# Illegal steps and plays


@pytest.mark.parametrize(
    ("from_point", "to_point"),
    [(24, 17), (13, 6), (12, 6), (8, 9), (25, 19), (6, 0), (7, 0), (30, 24), (-1, 0)],
)
def test_illegal_steps_are_refused(from_point: int, to_point: int) -> None:
    """Steps no die allows (wrong distance, empty point, backwards, from the bar with none
    there, bearing off with checkers outside, points off the board) raise IllegalPlayError
    listing the steps allowed."""
    game = moving()
    refused(
        game,
        lambda: game.step(0, from_point, to_point),
        IllegalPlayError,
        "the steps allowed are",
    )


@pytest.mark.parametrize(
    "text", ["24/17 24/18", "13/5", "13/7", "24/18 24/17", "6/off 6/5", "garbage", ""]
)
def test_illegal_plays_are_refused(text: str) -> None:
    """Plays that break the rules for 6-1, or that are not notation at all."""
    game = moving()
    refused(game, lambda: game.play(0, text), IllegalPlayError, ".")


def test_a_play_from_another_position_or_roll_is_refused() -> None:
    """A Play object made for another roll (5-2 from the start) is checked against the game's
    own position and dice (6-1), and refused."""
    game = moving()
    other = Position.initial().parse_play("13/8 13/11", (5, 2))
    refused(game, lambda: game.play(0, other), IllegalPlayError, ".")


def test_a_partial_turn_may_not_be_confirmed() -> None:
    """After one step of a 6-1 the turn cannot end: the 1 must still be played."""
    game = moving()
    game.step(0, 13, 7)
    refused(game, lambda: game.confirm(0), IllegalActionError, "cannot end yet")


# Cube errors


def test_a_double_by_the_player_who_does_not_own_the_cube_is_refused() -> None:
    """Seat 0 owns the cube at 2 after taking: seat 1, on roll, may not redouble."""
    game = doubled()
    game.take(0)
    refused(game, lambda: game.double(1), IllegalActionError, "Only the cube's owner")


@pytest.mark.parametrize(
    ("rules", "message"),
    [
        pytest.param(None, "beavers are off", id="beavers-off"),
        pytest.param(Rules(beavers=True), "beaver has been made", id="second-beaver"),
    ],
)
def test_a_beaver_that_is_not_allowed_is_refused(rules: Rules | None, message: str) -> None:
    """A beaver with beavers off, and a beaver of a beaver (a raccoon), are refused."""
    game = doubled(rules)
    if rules is not None:
        game.beaver(0)
        refused(game, lambda: game.beaver(1), IllegalActionError, message)
    else:
        refused(game, lambda: game.beaver(0), IllegalActionError, message)


def test_a_beaver_by_the_doubler_is_refused() -> None:
    """With beavers on, the doubler may not beaver its own double."""
    game = doubled(Rules(beavers=True))
    refused(game, lambda: game.beaver(1), IllegalActionError, "seat 0's turn")


def test_cube_actions_refused_when_the_cube_is_off_or_at_its_cap() -> None:
    """With the cube off, or at max_cube, a double is refused saying why."""
    off = seat1_to_roll(Rules(cube=False))
    refused(off, lambda: off.double(1), IllegalActionError, "cube is not used")
    capped = doubled(Rules(max_cube=2))
    capped.take(0)
    capped.roll(1)
    capped.play(1, "8/5 6/5")
    refused(capped, lambda: capped.double(0), IllegalActionError, "may not pass 2")


# Bad seats


@pytest.mark.parametrize("seat", BAD_SEATS, ids=repr)
@pytest.mark.parametrize(
    ("setup", "act"),
    [
        pytest.param(moving, lambda g, s: g.step(s, 13, 7), id="step"),
        pytest.param(moving, lambda g, s: g.play(s, "13/7 8/7"), id="play"),
        pytest.param(moving, lambda g, s: g.resign(s), id="resign"),
        pytest.param(seat1_to_roll, lambda g, s: g.double(s), id="double"),
        pytest.param(doubled, lambda g, s: g.take(s), id="take"),
        pytest.param(doubled, lambda g, s: g.drop(s), id="drop"),
        pytest.param(resigned, lambda g, s: g.accept(s), id="accept"),
        pytest.param(resigned, lambda g, s: g.reject(s), id="reject"),
    ],
)
def test_bad_seats_are_refused(
    setup: Callable[[], Game], act: Callable[[Game, object], object], seat: object
) -> None:
    """A seat that is not 0 or 1 (2, -1, True, "0", None, 0.0) is refused by every action."""
    game = setup()
    refused(game, lambda: act(game, seat), IllegalActionError, "seat 0 or seat 1")


@pytest.mark.parametrize("seat", BAD_SEATS, ids=repr)
def test_a_bad_seat_may_not_roll(seat: object) -> None:
    """A bad seat's opening roll is refused. (That it also uses up the entered roll is the bug
    of test_refused_roll_does_not_use_up_entered_dice.)"""
    game = Game(dice=ManualDice(["6 1"]))
    refused(game, lambda: game.roll(seat), IllegalActionError, "seat 0 or seat 1")  # type: ignore[arg-type]


@pytest.mark.parametrize("view", ["position_for", "may_double", "legal_actions"])
def test_views_refuse_bad_seats(view: str) -> None:
    """game.<view>(2) must raise IllegalActionError like the actions do."""
    game = moving()
    with pytest.raises(IllegalActionError, match="seat 0 or seat 1"):
        getattr(game, view)(2)


# Resignation levels


@pytest.mark.parametrize("level", [0, 4, "gammon"])
def test_a_bad_resignation_level_is_refused(level: object) -> None:
    """A level that is not 1, 2 or 3 (a WinKind) gets a typed error and changes nothing."""
    game = moving()
    refused(game, lambda: game.resign(0, level), BackgammonError, ".")  # type: ignore[arg-type]


# Impossible manual dice


@pytest.mark.parametrize(
    "entry",
    [
        "7 1",
        "0",
        "abc",
        "",
        "6",
        "1 2 3",
        "0 1",
        "6 7",
        (1, 2, 3),
        (0, 1),
        (7, 1),
        (True, 2),
        (3.0, 1),
        31,
        None,
    ],
    ids=repr,
)
def test_impossible_manual_dice_are_refused_and_queue_nothing(entry: object) -> None:
    """Entries that are not two numbers from 1 to 6 raise InvalidDiceError; the roll entered
    before them is still the next roll, and nothing after it."""
    dice = ManualDice(["5 2"])
    with pytest.raises(InvalidDiceError, match="1 to 6"):
        dice.enter(entry)  # type: ignore[arg-type]
    assert dice.roll() == (5, 2)
    with pytest.raises(InvalidDiceError, match="No dice have been entered"):
        dice.roll()
    with pytest.raises(InvalidDiceError):
        ManualDice([entry])  # type: ignore[list-item]


# Bad options


@pytest.mark.parametrize(
    "options",
    [
        {"automatic_doubles": -1},
        {"automatic_doubles": 1.5},
        {"max_cube": 3},
        {"max_cube": 0},
        {"max_cube": "64"},
        {"variant": "bogus"},
    ],
    ids=repr,
)
def test_bad_rules_are_refused(options: dict[str, Any]) -> None:
    """Impossible options raise BackgammonError saying what is wrong."""
    with pytest.raises(BackgammonError):
        Rules(**options)
    with pytest.raises(BackgammonError):
        Rules.from_dict(options)


def test_unknown_rules_are_refused() -> None:
    """Rules.from_dict refuses names it does not know."""
    with pytest.raises(BackgammonError, match="Unknown game options: colour"):
        Rules.from_dict({"colour": "red"})


@pytest.mark.parametrize("length", [-1, True, 2.5, "5"], ids=repr)
def test_bad_match_lengths_are_refused(length: object) -> None:
    """A match length that is not a whole number of points, 0 or more."""
    with pytest.raises(BackgammonError, match="whole number of points"):
        Match(length)  # type: ignore[arg-type]


# Malformed games and records


def _drop_key(data: dict[str, Any], *path: str | int) -> None:
    for key in path[:-1]:
        data = data[key]  # type: ignore[index]
    del data[path[-1]]  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "text",
    ["", "not json", "{", "[]", "null", "42", '"game"', "{}", '{"schema": 2}', '{"schema": "1"}'],
    ids=repr,
)
def test_malformed_game_json_is_refused(text: str) -> None:
    """Text that is not a saved game of schema 1."""
    with pytest.raises(BackgammonError):
        Game.from_json(text)


@pytest.mark.parametrize(
    "path",
    [
        ("rules",),
        ("events",),
        ("start",),
        ("start", "id"),
        ("crawford",),
        ("in_match",),
        ("colours",),
        ("events", 0, "action"),
        ("events", 0, "player"),
        ("events", 0, "time"),
    ],
    ids=repr,
)
def test_saved_game_with_a_missing_field_is_refused(path: tuple[str | int, ...]) -> None:
    """A saved game missing any field it needs."""
    data = saved(moving())
    _drop_key(data, *path)
    with pytest.raises(BackgammonError):
        Game.from_dict(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param({"rules": {"cube": True, "bogus": 1}}, "Unknown game options", id="rule"),
        pytest.param({"rules": [1, 2]}, ".", id="rules-not-a-dict"),
        pytest.param({"start": {"id": "nonsense!", "checkers": 15}}, ".", id="start-id"),
        pytest.param({"start": {"id": "4HPwATDgc/ABMA", "checkers": 16}}, ".", id="checkers"),
        pytest.param({"events": 5}, ".", id="events-not-a-list"),
        pytest.param({"events": [5]}, "malformed", id="event-not-a-dict"),
        pytest.param({"schema": 2}, "schema version 1", id="schema"),
        pytest.param({"colours": ["red", "red"]}, "different colours", id="same-colours"),
        pytest.param({"colours": 5}, ".", id="colours-not-a-list"),
    ],
)
def test_saved_game_with_a_garbled_field_is_refused(change: dict[str, Any], message: str) -> None:
    """A saved game with a field of the wrong kind or value."""
    data = {**saved(moving()), **change}
    with pytest.raises(BackgammonError, match=message):
        Game.from_dict(data)


@pytest.mark.parametrize("colours", [[], ["red"]], ids=repr)
def test_saved_game_with_too_few_colours_is_refused(colours: list[str]) -> None:
    """A saved game whose "colours" holds fewer than two names must raise BackgammonError."""
    data = {**saved(moving()), "colours": colours}
    with pytest.raises(BackgammonError):
        Game.from_dict(data)


ROLL = {"action": "roll", "player": 0, "dice": [6, 1], "time": "t"}


@pytest.mark.parametrize(
    ("events", "message"),
    [
        pytest.param([{**ROLL, "action": "fly"}], "malformed", id="unknown-action"),
        pytest.param([{**ROLL, "player": 2}], "malformed", id="seat-2"),
        pytest.param([{**ROLL, "player": "0"}], "malformed", id="seat-text"),
        pytest.param([{**ROLL, "dice": [7, 1]}], "malformed", id="dice-7"),
        pytest.param([{**ROLL, "dice": [6]}], "malformed", id="one-die"),
        pytest.param([{**ROLL, "dice": None}], "Event 1", id="roll-without-dice"),
        pytest.param(
            [ROLL, {"action": "play", "player": 0, "steps": [[24, 10]], "time": "t"}],
            "Event 2",
            id="illegal-recorded-play",
        ),
        pytest.param(
            [ROLL, {"action": "play", "player": 0, "steps": [[13, 7]], "time": "t"}],
            "Event 2",
            id="half-a-play",
        ),
        pytest.param(
            [ROLL, {"action": "pass", "player": 0, "steps": [], "time": "t"}],
            "Event 2",
            id="pass-with-moves-to-make",
        ),
        pytest.param(
            [ROLL, {"action": "step", "player": 0, "steps": [[13, 8]], "time": "t"}],
            "Event 2",
            id="illegal-recorded-step",
        ),
        pytest.param(
            [ROLL, {"action": "play", "player": 1, "steps": [[13, 7], [8, 7]], "time": "t"}],
            "Event 2",
            id="play-out-of-turn",
        ),
        pytest.param([ROLL, ROLL], "Event 2", id="roll-while-moving"),
        pytest.param(
            [ROLL, {"action": "resign", "player": 0, "level": 5, "time": "t"}],
            "malformed",
            id="resign-level-5",
        ),
        pytest.param(
            [ROLL, {"action": "step", "player": 0, "steps": [[13]], "time": "t"}],
            "malformed",
            id="step-of-one-number",
        ),
    ],
)
def test_malformed_or_illegal_recorded_events_are_refused(
    events: list[dict[str, Any]], message: str
) -> None:
    """A record whose events are malformed, or not legal in the game they rebuild, is refused
    with a BackgammonError that names the bad event."""
    data = {**saved(Game()), "events": events}
    with pytest.raises(BackgammonError, match=message):
        Game.from_json(json.dumps(data))


@pytest.mark.parametrize(
    "event",
    [
        {"action": "step", "player": 0, "time": "t"},
        {"action": "step", "player": 0, "steps": [[13, 7], [8, 7]], "time": "t"},
        {"action": "resign", "player": 0, "time": "t"},
    ],
    ids=["step-without-steps", "step-with-two-steps", "resign-without-level"],
)
def test_recorded_events_missing_their_details_are_refused(event: dict[str, Any]) -> None:
    """After the opening 6-1 the record holds a step with no (or two) steps, or a resignation
    with no level: Game.from_json must raise BackgammonError."""
    data = {**saved(Game()), "events": [ROLL, event]}
    with pytest.raises(BackgammonError):
        Game.from_json(json.dumps(data))


def test_refused_record_does_not_touch_the_original_game() -> None:
    """Rebuilding from a garbled copy of a game's record leaves the game itself alone."""
    game = moving()
    before = game.to_json()
    data = saved(game)
    data["events"].append({"action": "play", "player": 0, "steps": [[24, 10]], "time": "t"})
    with pytest.raises(BackgammonError):
        Game.from_dict(data)
    assert game.to_json() == before


# Malformed matches


def _match_record() -> dict[str, Any]:
    """A 1-point match, won by seat 1 on a single-game resignation."""
    match = Match(1, dice=ManualDice(["6 1"]))
    match.game.roll(0)
    match.game.resign(0)
    match.game.accept(1)
    data: dict[str, Any] = json.loads(match.to_json())
    return data


@pytest.mark.parametrize("text", ["", "nope", "[]", "null", "{}", '{"schema": 2}'], ids=repr)
def test_malformed_match_json_is_refused(text: str) -> None:
    """Text that is not a saved match of schema 1."""
    with pytest.raises(BackgammonError):
        Match.from_json(text)


@pytest.mark.parametrize("key", ["length", "rules", "players", "games"])
def test_saved_match_with_a_missing_field_is_refused(key: str) -> None:
    """A saved match missing a field it needs."""
    data = _match_record()
    del data[key]
    with pytest.raises(BackgammonError):
        Match.from_dict(data)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        pytest.param({"length": -3}, "whole number", id="negative-length"),
        pytest.param({"players": []}, ".", id="no-players"),
        pytest.param({"rules": {"jacoby": True}}, "do not apply in matches", id="jacoby"),
        pytest.param({"games": [[], []]}, "after the match was over", id="extra-game"),
        pytest.param(
            {"games": [[{**ROLL, "dice": [9, 9]}]]}, "game 1 of the saved match", id="bad-dice"
        ),
        pytest.param(
            {"games": [[ROLL, {"action": "play", "player": 0, "steps": [[1, 0]], "time": "t"}]]},
            "game 1 of the saved match",
            id="illegal-recorded-move",
        ),
    ],
)
def test_saved_match_with_a_garbled_field_is_refused(change: dict[str, Any], message: str) -> None:
    """A saved match with a field of the wrong kind or value, or a bad game record."""
    data = {**_match_record(), **change}
    with pytest.raises(BackgammonError, match=message):
        Match.from_dict(data)


def test_a_saved_match_with_a_game_after_it_ended_is_refused() -> None:
    """Seat 1 won the 1-point match in game 1: a record with a second game is refused."""
    data = _match_record()
    data["games"].append([ROLL])
    with pytest.raises(BackgammonError, match="game 2 after the match was over"):
        Match.from_dict(data)


def test_a_second_confirm_says_the_turn_is_over() -> None:
    """Once a turn has ended, a repeated confirm says what the game waits for, not that the
    dice must still be played."""
    game = Game(dice=ManualDice(["6 1"]))
    game.roll(0)
    game.step(0, 13, 7)
    game.step(0, 8, 7)
    game.confirm(0)
    with pytest.raises(IllegalActionError, match="no play to confirm: the game waits for a roll"):
        game.confirm(0)


def test_the_cube_stops_at_4096_without_a_highest_value() -> None:
    """RULES.md, Doubling: no limit on redoubles, but the program stops the cube at 4096, as
    GNU Backgammon does, so every ID can still write it."""
    game = Game(
        setup=SetUp(Position.initial(), cube_value=HIGHEST_CUBE // 2, cube_owner=0)
    )
    assert game.may_double(0)
    game.double(0)
    game.take(1)
    assert game.cube_value == HIGHEST_CUBE and not game.may_double(1)
    assert not game.cube_context(1).may_double
