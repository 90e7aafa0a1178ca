"""RULES.md, Leaving a game: a claim of the game of an absent player, one test per clause."""

from __future__ import annotations

import pytest

from backgammon import Position, WinKind
from backgammon.dice import ManualDice
from backgammon.game import Game, IllegalActionError, Phase, Rules, SetUp
from backgammon.game.match import Match


def started(*rolls: str, rules: Rules | None = None) -> Game:
    """A game past its opening roll (seat 0 wins it with the first roll given)."""
    game = Game(rules, ManualDice(list(rolls)))
    game.roll(0)
    return game


def test_a_claim_is_made_while_the_game_waits_for_the_other_player_only() -> None:
    opening = Game(dice=ManualDice(["6 1"]))
    with pytest.raises(IllegalActionError, match="waits for the opening roll"):
        opening.claim(0)  # either may roll: nobody is absent
    game = started("6 1")
    record = game.to_json()
    with pytest.raises(IllegalActionError, match="not for them"):
        game.claim(0)  # seat 0 is to move: nothing to claim from seat 1
    assert game.to_json() == record
    game.play(0, "13/7 8/7")
    game.claim(0)
    assert game.result is not None
    assert (game.result.winner, game.result.kind, game.result.reason) == (0, WinKind.SINGLE,
                                                                          "claim")


@pytest.mark.parametrize("phase", [Phase.CUBE, Phase.RESIGN])
def test_a_claim_may_be_made_while_a_double_or_a_resignation_waits_for_its_answer(
    phase: Phase,
) -> None:
    game = started("6 1", "3 1")
    game.play(0, "13/7 8/7")
    if phase is Phase.CUBE:
        game.double(1)  # seat 0 to answer, and gone
    else:
        game.roll(1)
        game.resign(1, WinKind.GAMMON)
    assert game.phase is phase
    waits = game.player_to_act
    assert waits is not None
    game.claim(1 - waits)
    assert game.result is not None and game.result.winner == 1 - waits


def test_a_claim_scores_as_the_absent_sides_resignation_times_the_cube() -> None:
    game = started("6 1", "3 1")
    game.play(0, "13/7 8/7")
    game.double(1)
    game.take(0)
    game.roll(1)
    game.claim(0, WinKind.GAMMON)  # seat 1 doubled, then left while to move
    assert game.result is not None and game.result.points == 4
    jacoby = started("6 1", rules=Rules(jacoby=True))
    jacoby.play(0, "13/7 8/7")
    jacoby.claim(0, WinKind.GAMMON)
    assert jacoby.result is not None and jacoby.result.points == 1  # the cube never turned


def test_a_claim_asks_no_more_than_the_position_can_still_give() -> None:
    # Seat 1 (to roll) has borne off a checker, and none is in seat 0's home board.
    setup = SetUp(Position.from_points({6: 14}, {6: 15}), on_roll=1)
    game = Game(setup=setup)
    with pytest.raises(IllegalActionError, match="borne off no checker"):
        game.claim(0, WinKind.GAMMON)
    game.claim(0, WinKind.SINGLE)
    race = Game(setup=SetUp(Position.from_points({6: 15}, {6: 15}), on_roll=1))
    with pytest.raises(IllegalActionError, match="home board"):
        race.claim(0, WinKind.BACKGAMMON)
    race.claim(0, WinKind.GAMMON)
    assert race.result is not None and race.result.points == 2


def test_the_claim_of_a_match_ends_it_and_survives_its_record() -> None:
    match = Match(7, dice=ManualDice(["6 1"]))
    match.game.roll(0)
    match.game.play(0, "13/7 8/7")
    with pytest.raises(IllegalActionError):
        match.claim(1, whole=True)  # seat 1 is the one awaited
    assert not match.is_over and match.forfeited is None
    match.claim(0, whole=True)
    assert (match.is_over, match.winner, match.score, len(match.games)) == (True, 0, (1, 0), 1)
    again = Match.from_json(match.to_json())
    assert (again.is_over, again.winner, again.score, len(again.games)) == (True, 0, (1, 0), 1)
    money = Match(0, dice=ManualDice(["6 1"]))
    money.game.roll(0)
    money.game.play(0, "13/7 8/7")
    money.claim(0)
    assert not money.is_over and len(money.games) == 2  # the session goes on
