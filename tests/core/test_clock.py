"""A match's clocks, worked out from the record's times (:mod:`backgammon.game.clock`): the
delay each wait, the bank after it, the opening roll, a turn's steps, cube actions and
resignations, money games and matches, and the time-out.

Each test writes the record's times itself (``at``), so nothing here waits or reads the wall
clock.
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from backgammon import WinKind
from backgammon.dice import ManualDice, SeededDice
from backgammon.errors import BackgammonError
from backgammon.fairdice import FairMatchDice
from backgammon.game import Act, Action, Game, Rules
from backgammon.game.clock import (
    PRESETS,
    ClockFold,
    Clocks,
    TimeControl,
    clocks,
    stamp,
    time_out,
)
from backgammon.game.match import Match

T0 = datetime(2026, 12, 7, 12, 0, tzinfo=UTC)
#: 10 s a wait, then 30 s a point.
CONTROL = TimeControl(10, 30)


def at(seconds: float) -> datetime:
    return T0 + timedelta(seconds=seconds)


def timed(game: Game, seconds: float) -> None:
    """Give the last events made the time ``seconds`` (a game's automatic events share their
    player's time: they are made in the same moment)."""
    stamp(game, len(game.events) - 1, at(seconds))


def read(match: Match, seconds: float, control: TimeControl = CONTROL) -> Clocks:
    return clocks(match, control, T0, at(seconds))


def opened(length: int = 3, *rolls: str) -> Match:
    """A match whose opening roll (seat 0 wins it, 6-1) was made at 4 s."""
    match = Match(length, dice=ManualDice(["6 1", *rolls]))
    match.game.roll(1)
    timed(match.game, 4)
    return match


def test_the_presets() -> None:
    assert {name: (c.delay, c.bank) for name, c in PRESETS.items()} == {
        "fast": (8, 20), "normal": (12, 60), "casual": (15, 180)}
    assert TimeControl.named("casual") is PRESETS["casual"]
    with pytest.raises(BackgammonError, match="choose fast, normal, casual"):
        TimeControl.named("bullet")


@pytest.mark.parametrize(("delay", "bank"), [(-1, 5), (5, -1), (601, 5), (5, 3601), (0, 0),
                                             (True, 5), (2.5, 5)])
def test_a_time_control_is_whole_seconds_in_bounds_and_gives_some_time(
    delay: object, bank: object
) -> None:
    with pytest.raises(BackgammonError, match="time control"):
        TimeControl(delay, bank)  # type: ignore[arg-type]


def test_a_match_bank_is_a_point_times_the_length_and_a_money_games_three_points() -> None:
    assert CONTROL.bank_for(5) == 150 and CONTROL.bank_for(0) == 90


def test_the_delay_runs_first_then_the_bank_of_the_seat_awaited_only() -> None:
    match = opened()
    assert read(match, 4) == Clocks((90, 90), (0,), 10, None)
    assert read(match, 12) == Clocks((90, 90), (0,), 2, None)
    assert read(match, 14) == Clocks((90, 90), (0,), 0, None)
    assert read(match, 34) == Clocks((70, 90), (0,), 0, None)


def test_the_time_before_the_first_event_runs_from_the_start_for_both_at_the_opening() -> None:
    match = Match(3, dice=ManualDice(["6 1"]))
    assert read(match, 25) == Clocks((75, 75), (0, 1), 0, None)
    match.game.roll(1)
    timed(match.game, 25)
    assert read(match, 25).banks == (75, 75)


def test_the_clocks_start_once_the_other_seat_is_taken() -> None:
    match = Match(3, dice=FairMatchDice())
    match.game.add_seed(0, "mine")  # the creator's seed, while the invite waits
    timed(match.game, 50)
    match.game.join(1)  # a friend took 100 s to come
    timed(match.game, 100)
    assert read(match, 105) == Clocks((90, 90), (0, 1), 5, None)


def test_nobody_is_out_of_time_at_the_opening_roll_which_either_may_make() -> None:
    match = Match(1, dice=ManualDice(["6 1"]))
    assert read(match, 1000) == Clocks((0, 0), (0, 1), 0, None)


def test_once_one_has_thrown_their_own_opening_die_the_other_alone_is_awaited() -> None:
    match = Match(1, Rules(own_opening_dice=True), ManualDice(["6 1"]))
    match.game.roll(0)  # seat 0 throws its die alone
    timed(match.game, 4)
    assert [event.action for event in match.game.events] == [Action.THROW]
    assert read(match, 14) == Clocks((30, 30), (1,), 0, None)
    late = read(match, 100)
    assert (late.out, late.ran_out) == (1, at(44))
    time_out(match, 1, at(44))
    assert match.winner == 0 and match.game.events[-1].action is Action.CLAIM


def test_each_wait_gets_its_delay_and_a_turns_steps_are_one_wait() -> None:
    match = opened(3, "3 1")
    game = match.game
    game.step(0, 13, 7)
    timed(game, 20)  # 16 s into the wait: no charge yet, the turn goes on
    game.undo(0)
    timed(game, 24)
    game.play(0, "13/7 8/7")
    timed(game, 30)
    assert [event.action for event in game.events] == [Action.ROLL, Action.STEP, Action.UNDO,
                                                       Action.PLAY]
    # The move took 26 s: 16 past its delay. Seat 1's roll then waits, with a delay of its own.
    assert read(match, 30) == Clocks((74, 90), (1,), 10, None)
    game.roll(1)
    timed(game, 45)
    assert read(match, 45) == Clocks((74, 85), (1,), 10, None)


def test_a_double_is_the_doublers_wait_and_the_answer_the_takers() -> None:
    match = opened(5, "3 1")
    game = match.game
    game.play(0, "13/7 8/7")
    timed(game, 4)
    game.double(1)
    timed(game, 24)  # seat 1 took 20 s to double
    assert read(match, 24) == Clocks((150, 140), (0,), 10, None)
    game.take(0)
    timed(game, 64)  # seat 0 took 40 s to take
    assert read(match, 64) == Clocks((120, 140), (1,), 10, None)


def test_a_resignation_waits_for_the_other_seats_answer_even_offered_out_of_turn() -> None:
    match = opened(5, "3 1")
    game = match.game
    game.resign(1)  # while the game waits for seat 0 to move
    timed(game, 34)  # charged to seat 0, whom the game waited for: 30 s, 20 past the delay
    assert read(match, 34) == Clocks((130, 150), (0,), 10, None)
    game.reject(0)
    timed(game, 40)
    assert read(match, 60) == Clocks((120, 150), (0,), 0, None)  # seat 0 moves again


def test_a_match_carries_each_bank_from_game_to_game_and_a_money_session_does_not() -> None:
    for length, banks in ((3, (70, 90)), (0, (90, 90))):
        match = opened(length)
        game = match.game
        game.resign(0, WinKind.SINGLE)
        timed(game, 34)  # seat 0 spent 20 s of its bank before resigning
        game.accept(1)
        timed(game, 34)
        assert len(match.games) == 2
        assert read(match, 34) == Clocks(banks, (0, 1), 10, None)


def test_a_wait_the_record_shows_overrunning_leaves_the_bank_at_zero() -> None:
    match = opened(1, "3 1")
    match.game.play(0, "13/7 8/7")
    timed(match.game, 100)  # 96 s: 86 past the delay, more than the 30 s bank
    clock = read(match, 100)
    assert clock.banks == (0, 30) and clock.out is None


def test_out_of_time_is_the_seat_awaited_once_its_delay_and_bank_have_run_out() -> None:
    match = opened(1)
    assert read(match, 43).out is None
    late = read(match, 44)
    assert (late.out, late.ran_out) == (0, at(44))
    assert read(match, 500).ran_out == at(44)  # however late it is read


def test_a_time_out_ends_the_match_for_the_other_seat() -> None:
    match = opened(5)
    late = read(match, 500)
    assert (late.out, late.ran_out) == (0, at(164))  # 4 s, then 10 s and the 150 s bank
    time_out(match, 0, at(164))
    assert match.is_over and match.winner == 1 and match.forfeited == 0
    assert match.game.events[-1].action is Action.CLAIM
    assert read(match, 500) == Clocks((0, 150), (), 0, None)
    assert Match.from_dict(match.to_dict()).winner == 1


def test_a_money_time_out_loses_the_game_at_the_highest_level_the_position_allows() -> None:
    match = Match(0, dice=ManualDice(["6 1", "3 1"]))
    match.game.roll(1)
    match.game.play(0, "13/7 8/7")  # seat 1 to roll, its back checkers in seat 0's home
    time_out(match, 1, at(50))
    first = match.games[0].result
    assert first is not None and (first.winner, first.kind) == (0, WinKind.BACKGAMMON)
    assert not match.is_over and len(match.games) == 2


def test_a_time_out_of_a_seat_the_game_does_not_wait_for_is_refused_and_changes_nothing() -> None:
    match = opened(3)
    record = match.to_json()
    with pytest.raises(BackgammonError):
        time_out(match, 1, at(50))
    assert match.to_json() == record


@pytest.mark.parametrize("length", [0, 3])
def test_a_fold_kept_between_reads_agrees_with_a_fresh_read_after_every_action(
    length: int,
) -> None:
    match = Match(length, dice=SeededDice(5))
    fold = ClockFold(match, TimeControl(3, 2), T0)
    seconds, games = 0.0, 0
    for _ in range(400):
        if match.is_over or games > 3:
            break
        game = match.game
        seat = 0 if game.player_to_act is None else game.player_to_act
        offered = game.legal_actions(seat)
        made = len(game.events)
        if Action.ROLL in offered:
            game.act(seat, Act(Action.ROLL))
        elif Action.CONFIRM in offered:
            game.act(seat, Act(Action.CONFIRM))
        else:
            assert game.turn is not None
            game.act(seat, Act(Action.STEP, step=game.turn.legal_steps()[0]))
        seconds += 1.5 + seat  # seat 1 is the slower: its bank runs down
        for index in range(made, len(game.events)):
            stamp(game, index, at(seconds))
        games = len(match.games)
        now = at(seconds + 1)
        assert fold.read(now) == clocks(match, fold.control, T0, now)
    assert fold.read(at(seconds)).banks != (fold.control.bank_for(length),) * 2
