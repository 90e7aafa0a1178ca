"""The server's views of a match, without the web: the dice as the page marks them, the steps
on each side's board, and the record's entries read from the game's history."""

from __future__ import annotations

from backgammon.dice import ManualDice
from backgammon.game import Rules
from backgammon.match import Match
from backgammon.server.db import now
from backgammon.server.store import LiveMatch, SeatSettings
from backgammon.server.views import state_of, step_view


def live(match: Match) -> LiveMatch:
    return LiveMatch("test", match, (SeatSettings("human"), SeatSettings("human")), None, now())


def test_a_step_on_each_sides_board() -> None:
    assert step_view(13, 7, mover=0, view=0).board_from == 13
    seen = step_view(13, 7, mover=0, view=1)
    assert (seen.from_, seen.to, seen.board_from, seen.board_to) == (13, 7, 12, 18)
    bar = step_view(25, 20, mover=1, view=0)
    assert (bar.board_from, bar.board_to) == (25, 5)  # the bar is the mover's on every board


def test_the_dice_marked_as_the_steps_use_them() -> None:
    match = Match(0, Rules(), ManualDice(["3 3"]))
    match.game.roll(0)  # a tie: both roll again
    state = state_of(live(match), 0)
    assert state.phase == "opening" and state.opening_tie == [3, 3]
    match = Match(0, Rules(), ManualDice(["6 1"]))
    match.game.roll(0)
    match.game.step(0, 13, 7)
    dice = [(die.value, die.used) for die in state_of(live(match), 0).dice]
    assert dice == [(6, True), (1, False)]


def test_the_record_from_the_history() -> None:
    match = Match(0, Rules(), ManualDice(["6 1", "5 2"]))
    game = match.game
    game.roll(0)
    game.play(0, "13/7 8/7")
    game.double(1)
    game.take(0)
    game.roll(1)
    game.resign(1, 2)
    game.reject(0)
    entries = [(e.seat, e.kind, e.dice, e.play, e.value, e.level)
               for e in state_of(live(match), 0).record[0].entries]
    assert entries == [
        (0, "opening", [6, 1], None, None, None),
        (0, "play", [6, 1], "13/7 8/7", None, None),
        (1, "double", None, None, 2, None),
        (0, "take", None, None, None, None),
        (1, "resign", None, None, None, 2),
        (0, "reject", None, None, None, None),
    ]


def test_a_plays_steps_in_the_record_mark_the_hit() -> None:
    # White's 13/7 6/5 leaves a blot on its 7-point, black's 18: black's 6-5 hits it on the way.
    match = Match(0, Rules(), ManualDice(["6 1", "6 5"]))
    game = match.game
    game.roll(0)
    game.play(0, "13/7 6/5")
    game.roll(1)
    game.play(1, "24/18* 18/13")
    entries = state_of(live(match), 0).record[0].entries
    steps = [[(s.from_, s.to, s.hit) for s in e.steps or []] for e in entries]
    assert steps == [[], [(13, 7, False), (6, 5, False)], [(24, 18, True), (18, 13, False)]]
    assert entries[2].play == "24/18*/13"
    assert entries[0].steps is None
