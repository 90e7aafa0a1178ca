"""BoardGame.history(): the typed walk backgammon's record has, over the other games' records.

Every game is played to its end at random (resignations offered and answered now and then) and
its history checked entry by entry: each entry's types (the boards ``Board``, the plays
``GamePlay``), what each says against the record, and the same history from the record's JSON
replayed. Then the entries only these games make: Acey-deucey's named double, Plakoto's pins
and its mother and draw endings.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from support import play_board_game_at_random

from backgammon.cube import CubeContext
from backgammon.dice import ManualDice, SeededDice
from backgammon.game import (
    Action,
    BoardEntry,
    BoardGame,
    DoubleNamed,
    EndReason,
    GameEnded,
    OpeningRoll,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Rules,
    TurnPlayed,
)
from backgammon.games import GAMES, Board, GamePlay, LoneChecker, rules_for
from backgammon.moves import Step
from backgammon.position import WinKind

OTHER_GAMES = GAMES[3:]
#: The entries a game without the cube can make.
KINDS = (OpeningRoll, Rolled, TurnPlayed, DoubleNamed, ResignationOffered, ResignationAccepted,
         ResignationRejected, GameEnded)


def check_entry(game: BoardGame, entry: BoardEntry) -> None:
    """One entry's types, and what it says against the game's record."""
    assert isinstance(entry, KINDS)
    assert entry.seat in (0, 1)
    event = game.events[entry.index]
    match entry:
        case OpeningRoll():
            assert event.action is Action.ROLL and entry.dice == event.dice
        case Rolled():
            assert event.action is Action.ROLL
            assert isinstance(entry.position, Board) and isinstance(entry.cube, CubeContext)
        case TurnPlayed():
            assert event.action in (Action.PLAY, Action.PASS, Action.CONFIRM)
            assert isinstance(entry.position, Board) and isinstance(entry.play, GamePlay)
            assert entry.play.board == entry.position
            assert entry.lone_checker is game.game.lone_checker
            assert len(entry.dice_used) == len(entry.play.steps)
            marked = tuple(step for step in entry.play.steps if step.hit)
            assert entry.hits + entry.pins == marked
            assert not (entry.hits and entry.pins)
        case DoubleNamed():
            assert event.action is Action.NAME and entry.dice == (event.die, event.die)
        case ResignationOffered():
            assert event.action is Action.RESIGN and entry.level is event.level
            assert isinstance(entry.position, Board)
        case ResignationAccepted() | ResignationRejected():
            assert event.action in (Action.ACCEPT, Action.REJECT)
        case GameEnded():
            assert game.result is not None and entry.index == len(game.events) - 1
            assert (entry.winner, entry.kind, entry.points) == (
                game.result.winner, game.result.kind, game.result.points)
            assert isinstance(entry.reason, EndReason) and entry.reason == game.result.reason
        case _:
            raise AssertionError(f"{entry!r} is no entry of a game without the cube")


@pytest.mark.parametrize("name", OTHER_GAMES)
def test_each_game_walked_to_its_end_has_typed_entries_and_replays_them(name: str) -> None:
    rng = random.Random(f"history {name}")
    kinds: Counter[str] = Counter()
    for seed in range(6):
        game = BoardGame(Rules.for_game(name), SeededDice(seed))
        play_board_game_at_random(game, rng, resign=0.02)
        entries = list(game.history())
        for entry in entries:
            check_entry(game, entry)
        kinds.update(type(entry).__name__ for entry in entries)
        assert [entry.index for entry in entries] == sorted(entry.index for entry in entries)
        assert isinstance(entries[-1], GameEnded)
        assert sum(isinstance(entry, GameEnded) for entry in entries) == 1
        # Every play of the game is a turn of its history, in order.
        turns = [entry for entry in entries if isinstance(entry, TurnPlayed)]
        assert [(turn.seat, turn.dice) for turn in turns] == [
            (seat, dice) for seat, dice, _ in game.plays]
        # The record's JSON replayed walks to the same entries, and from any event on.
        replayed = BoardGame.from_json(game.to_json())
        assert list(replayed.history()) == entries
        start = rng.randrange(len(game.events))
        assert list(game.history(start)) == [e for e in entries if e.index >= start]
    assert kinds["TurnPlayed"] and kinds["Rolled"] and kinds["OpeningRoll"]
    assert bool(kinds["DoubleNamed"]) == (name == "acey-deucey")


def test_pins_are_told_from_hits() -> None:
    """A step marked ``hit`` is a hit where the game hits, a pin in Plakoto, and neither
    where one checker holds a point."""
    rng = random.Random(5)
    seen: dict[str, Counter[str]] = {}
    for name in ("portes", "plakoto", "fevga"):
        seen[name] = Counter()
        for seed in range(3):
            game = BoardGame(Rules.for_game(name), SeededDice(seed))
            play_board_game_at_random(game, rng, resign=0.02)
            for entry in game.history():
                if isinstance(entry, TurnPlayed):
                    seen[name].update(hits=len(entry.hits), pins=len(entry.pins))
    assert seen["portes"]["hits"] and not seen["portes"]["pins"]
    assert seen["plakoto"]["pins"] and not seen["plakoto"]["hits"]
    assert not seen["fevga"]["hits"] and not seen["fevga"]["pins"]


def test_acey_deuceys_named_double_is_an_entry_between_its_plays() -> None:
    game = BoardGame(Rules.for_game("acey-deucey"), ManualDice(["2 1", "2 1", "3 3"]))
    game.roll(0)
    game.roll(0)
    game.play(0, "bar/24 bar/23")
    game.name(0, 6)
    game.play(0, "bar/19(2) 24/18 23/17")
    game.roll(0)
    opening, rolled, one_two, named, double, again = game.history()
    assert isinstance(opening, OpeningRoll) and opening.reroll
    assert isinstance(rolled, Rolled) and rolled.dice == (2, 1)
    assert isinstance(one_two, TurnPlayed) and one_two.dice == (2, 1)
    assert sorted(one_two.play.steps) == [Step(25, 23), Step(25, 24)]
    assert named == DoubleNamed(one_two.index + 1, 0, 6) and named.dice == (6, 6)
    assert isinstance(double, TurnPlayed) and (double.seat, double.dice) == (0, (6, 6))
    assert double.position == one_two.play.result.flip()  # the same player goes on
    assert isinstance(again, Rolled) and (again.seat, again.dice) == (0, (3, 3))


def plakoto(start: Board, dice: list[str]) -> BoardGame:
    """A game of Plakoto from ``start`` (seat 0's view) with ``dice``, after its opening roll
    and the winner's roll afresh."""
    game = BoardGame(Rules.for_game("plakoto"), ManualDice(dice), start=start)
    game.roll(0)
    game.roll(game.on_roll)
    return game


def test_a_pinned_mother_ends_plakoto_and_the_history_says_so() -> None:
    """Seat 0 pins seat 1's last checker on its starting point, and has none left on its own:
    seat 1 loses 2 points at once."""
    start = Board.from_points({3: 1, 2: 14}, {24: 1, 6: 14})
    game = plakoto(start, ["6 5", "2 1"])
    game.play(0, "3/1* 2/1")
    *_, played, ended = game.history()
    assert isinstance(played, TurnPlayed)
    assert played.pins == (Step(3, 1, True),) and played.hits == ()
    assert played.lone_checker is LoneChecker.PIN
    assert played.play.result.pinned() == (frozenset({24}), frozenset())
    assert ended == GameEnded(played.index, 0, WinKind.GAMMON, 2, EndReason.MOTHER)
    assert not ended.drawn


def test_both_mothers_pinned_draw_plakoto_and_the_history_says_so() -> None:
    """Seat 0 has pinned seat 1's mother but keeps a checker on its own starting point; seat 1
    pins that one in turn: a draw, with no points."""
    start = Board.from_points({24: 1, 1: 1, 10: 13}, {3: 1, 24: 1, 5: 13}, theirs_pinned=[24])
    assert rules_for("plakoto").outcome(start) is None
    game = plakoto(start, ["5 6", "2 1"])
    assert game.on_roll == 1
    game.play(1, "3/1* 5/4")
    *_, played, ended = game.history()
    assert isinstance(played, TurnPlayed) and played.pins == (Step(3, 1, True),)
    assert isinstance(ended, GameEnded) and ended.drawn
    assert (ended.winner, ended.points, ended.reason) == (1, 0, EndReason.DRAW)
