"""Game.history(): one typed walk over a game's record, checked entry by entry on games made
by hand (automatic doubles, beavers, resignations, set-ups, a match) and by invariants over
seeded random games and matches."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from backgammon import Play, Position, WinKind
from backgammon.cube import CubeOwner, MatchScore
from backgammon.dice import ManualDice, SeededDice
from backgammon.game import (
    Act,
    Action,
    Beavered,
    Doubled,
    Dropped,
    Entry,
    Game,
    GameEnded,
    OpeningRoll,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Rules,
    SetUp,
    Taken,
    TurnPlayed,
)
from backgammon.game.match import Match


def kinds(game: Game) -> list[str]:
    return [type(entry).__name__ for entry in game.history()]


def test_ties_at_the_opening_double_the_cube_up_to_the_cap() -> None:
    game = Game(Rules(automatic_doubles=1), ManualDice(["2 2", "5 5", "3 5"]))
    for seat in (0, 1, 0):
        game.roll(seat)
    first, second, third, rolled = game.history()
    assert first == OpeningRoll(0, 0, (2, 2), None, False, True, 2)
    assert second == OpeningRoll(1, 1, (5, 5), None, False, False, 2)  # the cap is reached
    assert third == OpeningRoll(2, 0, (3, 5), 1, False, False, 2)
    assert first.tie and not third.tie
    # Seat 1 won with 5 against 3: it plays 5-3 from its own side of the start.
    assert isinstance(rolled, Rolled)
    assert (rolled.seat, rolled.dice, rolled.opening) == (1, (5, 3), True)
    assert rolled.position == Position.initial()
    assert rolled.cube is not None and rolled.cube.value == 2
    assert rolled.cube.owner is CubeOwner.CENTRE


def test_an_opening_reroll_gives_the_winner_a_roll_of_their_own() -> None:
    game = Game(Rules(opening_reroll=True), ManualDice(["6 1", "4 2"]))
    game.roll(1)
    game.roll(0)
    opening, rolled = game.history()
    assert opening == OpeningRoll(0, 1, (6, 1), 0, True, False, 1)
    assert rolled == Rolled(1, 0, (4, 2), Position.initial(), game.cube_context(0))


def test_a_money_game_with_a_beaver_and_resignations_rejected_and_accepted() -> None:
    game = Game(Rules(beavers=True, jacoby=True), ManualDice(["6 1", "3 1", "5 5"]))
    game.roll(0)
    game.play(0, "13/7 8/7")
    start_of_1 = game.position
    context_of_1 = game.cube_context(1)
    game.double(1)
    game.beaver(0)
    game.take(1)
    game.roll(1)
    game.play(1, "8/5 6/5")
    at_first_offer = (game.position, game.cube_context(0))
    game.resign(0, WinKind.GAMMON)
    game.reject(1)
    game.roll(0)
    at_second_offer = (game.position, game.cube_context(0))  # seat 0 on roll, dice up
    game.resign(1)
    game.accept(0)
    entries = list(game.history())
    assert kinds(game) == [
        "OpeningRoll", "Rolled", "TurnPlayed", "Doubled", "Beavered", "Taken", "Rolled",
        "TurnPlayed", "ResignationOffered", "ResignationRejected", "Rolled",
        "ResignationOffered", "ResignationAccepted", "GameEnded",
    ]  # fmt: skip
    doubled, beavered, taken = entries[3:6]
    assert doubled == Doubled(2, 1, 2, start_of_1, context_of_1)
    assert context_of_1.jacoby and context_of_1.beavers
    assert beavered == Beavered(3, 0, 4)
    assert taken == Taken(4, 1, 4, 0)  # the beaver's maker keeps the cube
    played = entries[7]
    assert isinstance(played, TurnPlayed) and played.cube is not None
    cube = played.cube
    assert (cube.value, cube.owner, cube.jacoby) == (4, CubeOwner.OPPONENT, False)
    assert entries[8] == ResignationOffered(7, 0, WinKind.GAMMON, False, 0, *at_first_offer)
    assert entries[9] == ResignationRejected(8, 1, WinKind.GAMMON)
    # Seat 1 resigns while seat 0 is on roll: the board and cube are seat 0's.
    assert entries[11] == ResignationOffered(10, 1, WinKind.SINGLE, True, 0, *at_second_offer)
    assert entries[12] == ResignationAccepted(11, 0, WinKind.SINGLE)
    assert entries[13] == GameEnded(11, 0, WinKind.SINGLE, 4, "resign")


def test_a_pending_resignation_and_a_drop() -> None:
    game = Game(dice=ManualDice(["6 1"]))
    game.roll(0)
    game.resign(0)
    opening = next(game.history())
    assert isinstance(opening, OpeningRoll) and opening.winner == 0
    assert list(game.history())[-1] == ResignationOffered(
        1, 0, WinKind.SINGLE, None, 0, Position.initial(), game.cube_context(0)
    )
    game.reject(1)
    game.play(0, "13/7 8/7")
    game.double(1)
    game.drop(0)
    assert list(game.history())[-2:] == [
        Dropped(5, 0, 2),
        GameEnded(5, 1, WinKind.SINGLE, 1, "drop"),
    ]


def test_a_resignation_right_after_a_take_has_the_board_and_the_cube_taken() -> None:
    """What the analysis judges such an offer on: the doubler on roll, the cube at 2 owned
    by the taker (the resigner here)."""
    game = Match(5, dice=ManualDice(["6 1"])).game
    game.roll(0)
    game.play(0, "13/7 8/7")
    game.double(1)
    game.take(0)
    board = game.position
    game.resign(0)
    offered = list(game.history())[-1]
    assert isinstance(offered, ResignationOffered) and offered.cube is not None
    assert (offered.seat, offered.on_roll, offered.position) == (0, 1, board)
    assert (offered.cube.value, offered.cube.owner) == (2, CubeOwner.OPPONENT)
    assert offered.cube.match == MatchScore(5, (0, 0), False)


def test_a_roll_with_no_move_is_played_as_the_empty_play() -> None:
    closed = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2}
    position = Position.from_points({"bar": 1, 6: 14}, closed)
    game = Game(setup=SetUp(position, on_roll=1, cube_value=2, cube_owner=0))
    game.act(1, Act(Action.ROLL))
    rolled, passed = game.history()
    assert isinstance(rolled, Rolled) and isinstance(passed, TurnPlayed)
    assert (rolled.seat, rolled.opening, rolled.position) == (1, False, position)
    assert passed.play == Play.empty(position) and passed.auto and passed.forced
    assert passed.dice_used == ()
    assert passed.cube is not None
    assert (passed.cube.value, passed.cube.owner) == (2, CubeOwner.OPPONENT)


def test_a_set_up_game_starts_its_history_at_the_set_up() -> None:
    setup = SetUp(Position.initial(), on_roll=1, dice=(6, 4))
    game = Game(setup=setup)
    game.play(1, "24/14")
    (played,) = game.history()
    assert isinstance(played, TurnPlayed)
    assert (played.seat, played.dice, played.position, str(played.play)) == (
        1, (6, 4), Position.initial(), "24/14"
    )  # fmt: skip
    assert sorted(played.dice_used) == [4, 6] and not played.forced
    for step, die in zip(played.play.steps, played.dice_used, strict=True):
        assert step.from_point - step.to_point == die


def test_each_step_says_which_die_it_used_in_a_bear_off() -> None:
    # 5/1 takes the 4; then 3/off takes the 6, a checker borne off from below the die.
    game = Game(setup=SetUp(Position.from_points({5: 1, 3: 1}, {12: 2}), dice=(6, 4)))
    game.step(0, 5, 1)
    game.step(0, 3, 0)
    assert game.turn is not None and game.turn.dice_used() == (4, 6)
    game.confirm(0)
    (played,) = game.history()
    assert isinstance(played, TurnPlayed)
    steps = [(step.from_point, step.to_point) for step in played.play.steps]
    assert dict(zip(steps, played.dice_used, strict=True)) == {(5, 1): 4, (3, 0): 6}


def test_the_cube_context_of_a_match_game_is_the_matchs_score() -> None:
    match = Match(5, dice=ManualDice(["6 1", "5 2"]))
    match.game.roll(0)
    match.game.play(0, "13/7 8/7")
    match.game.resign(1, WinKind.GAMMON)
    match.game.accept(0)
    game = match.game
    game.roll(1)
    game.play(0, "13/8 13/11")
    game.double(1)
    (*_, played, doubled) = game.history()
    assert isinstance(played, TurnPlayed) and isinstance(doubled, Doubled)
    assert played.cube is not None and doubled.cube is not None
    assert played.cube.match == match.score_for(1, 0) == MatchScore(5, (2, 0))
    assert doubled.cube.match == match.score_for(1, 1) == MatchScore(5, (0, 2))
    assert doubled.position == game.position_for(1)


def test_a_match_game_made_without_its_score_has_no_cube_context() -> None:
    game = Game(in_match=True, dice=ManualDice(["6 1"]))
    game.roll(0)
    assert all(
        entry.cube is None for entry in game.history() if isinstance(entry, Rolled)
    )


# Invariants over random games


def random_match(seed: int) -> Match:
    rnd = random.Random(seed)
    length = rnd.choice([0, 0, 3, 7])
    money = not length
    rules = Rules(
        beavers=money and rnd.random() < 0.6,
        jacoby=money and rnd.random() < 0.5,
        automatic_doubles=rnd.choice([0, 1, 3]) if money else 0,
        opening_reroll=rnd.random() < 0.2,
        auto_forced=rnd.random() < 0.3,
        auto_race_roll=rnd.random() < 0.3,
        max_cube=rnd.choice([None, 16]),
    )
    match = Match(length, rules, SeededDice(seed))
    weights = {Action.DOUBLE: 0.15, Action.RESIGN: 0.03, Action.DROP: 0.3, Action.UNDO: 0.2}
    for _ in range(rnd.choice([30, 300, 700])):
        if match.is_over:
            break
        game = match.game
        seat = game.player_to_act
        seat = rnd.randrange(2) if seat is None else seat
        actions = game.legal_actions(seat)
        action = rnd.choices(actions, [weights.get(a, 1.0) for a in actions])[0]
        if action is Action.STEP:
            assert game.turn is not None
            game.act(seat, Act(action, step=rnd.choice(game.turn.legal_steps())))
        elif action is Action.PLAY:
            assert game.dice is not None
            game.act(seat, Act(action, play=rnd.choice(game.position.legal_plays(game.dice))))
        elif action is Action.RESIGN:
            game.act(seat, Act(action, level=rnd.choice(list(WinKind))))
        else:
            game.act(seat, Act(action))
    return match


def check_history(game: Game, score: MatchScore | None) -> None:
    entries: list[Entry] = list(game.history())
    events = game.events
    # Every roll and every end of a turn makes its entry, at its place in the record.
    rolls = [e.index for e in entries if isinstance(e, OpeningRoll | Rolled)]
    assert set(rolls) == {i for i, e in enumerate(events) if e.action is Action.ROLL}
    turns = [e for e in entries if isinstance(e, TurnPlayed)]
    ends = (Action.PLAY, Action.PASS, Action.CONFIRM)
    assert [e.index for e in turns] == [i for i, e in enumerate(events) if e.action in ends]
    assert [e.index for e in entries] == sorted(e.index for e in entries)
    assert [(t.seat, t.dice, t.play if t.play.steps else None) for t in turns] == game.plays
    # Each turn is a legal play from where the last one left the board.
    position = game.setup.position if game.setup else None
    for turn in turns:
        legal = turn.position.legal_plays(turn.dice)
        assert turn.play in legal if legal else turn.play == Play.empty(turn.position)
        assert turn.forced == (len(legal) <= 1)
        if turn.auto:
            assert turn.forced
        used = Counter(turn.dice_used)
        faces = Counter([turn.dice[0]] * 4 if turn.dice[0] == turn.dice[1] else turn.dice)
        assert len(turn.dice_used) == len(turn.play.steps) and not used - faces
        if position is not None:
            assert turn.position == position
        position = turn.play.result
    # A player's dice are the dice of the play that follows them.
    for entry, following in itertools.pairwise(entries):
        if isinstance(entry, Rolled) and isinstance(following, TurnPlayed):
            assert (following.seat, following.dice) == (entry.seat, entry.dice)
            assert following.position == entry.position
    # The cube each entry reports follows the doubles, beavers and takes before it.
    value = game.setup.cube_value if game.setup else 1
    for entry in entries:
        if isinstance(entry, OpeningRoll):
            assert entry.cube_value == value * (2 if entry.automatic_double else 1)
            value = entry.cube_value
        elif isinstance(entry, TurnPlayed | Rolled | Doubled):
            assert entry.cube is not None and entry.cube.value == value
            match = score if score is None or entry.seat == 0 else score.flip()
            assert entry.cube.match == match
        if isinstance(entry, Doubled):
            assert entry.value == 2 * value
        elif isinstance(entry, Taken):
            value = entry.value
    # The game's end comes last, once.
    ended = [e for e in entries if isinstance(e, GameEnded)]
    if game.result is None:
        assert not ended
    else:
        assert entries[-1] == ended[0] == GameEnded(
            len(events) - 1, game.result.winner, game.result.kind, game.result.points,
            game.result.reason,
        )  # fmt: skip
    # The record rebuilds the same history.
    assert list(game.copy().history()) == entries
    # From any event on, the entries of that event and later (a shown record is extended).
    for start in range(len(events) + 1):
        assert list(game.history(start)) == [
            entry for entry in entries if entry.index >= start
        ], start


@pytest.mark.parametrize("seed", range(24))
def test_history_invariants_over_random_matches(seed: int) -> None:
    match = random_match(seed)
    for index, game in enumerate(match.games):
        check_history(game, match.score_for(index, 0))
