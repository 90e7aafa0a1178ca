"""RULES.md, the game and match rules: one scenario test per clause, played through the API.

Sections covered: "Starting the game", "Doubling", "Winning and scoring", "Matches" and
"Irregularities". Every scenario is played with :class:`ManualDice` (the rolls are fixed in the
test) and, where the clause needs a particular board, a hand-set start position, so each
assertion names the exact points won, the cube's value and owner, the phase and the record.

The opening roll's dice are written (seat 0's die, seat 1's die). Start positions are given
from seat 0's side: ``Position.from_points(seat 0's checkers, seat 1's checkers)``, each side on
its own point numbers (seat 1's point p is seat 0's point 25 - p).
"""

from __future__ import annotations

import pytest

from backgammon import BackgammonError, InvalidDiceError, Position, WinKind
from backgammon.dice import ManualDice
from backgammon.game import Action, Game, GameResult, IllegalActionError, Phase, Rules
from backgammon.game.match import Match

# Seat 1's home board held two deep on every point but the 6 (its 6 is seat 0's 19-point):
# a checker of seat 0 on the bar can enter only with a 6.
FIVE_POINT_BOARD = {1: 2, 2: 2, 3: 2, 4: 2, 5: 2}
# Seat 1's home board closed: a checker of seat 0 on the bar cannot enter at all.
CLOSED_BOARD = {**FIVE_POINT_BOARD, 6: 2}


def opened(rules: Rules | None = None, *rolls: str) -> Game:
    """A standard game where seat 0 won the opening 6-1 and played 13/7 8/7; seat 1 to roll.

    ``rolls`` are queued for the turns that follow.
    """
    game = Game(rules, ManualDice(["6 1", *rolls]))
    game.roll(0)
    game.play(0, "13/7 8/7")
    assert (game.phase, game.on_roll) == (Phase.ROLL, 1)
    return game


def roll_and_play_first(game: Game, seat: int) -> None:
    """``seat`` rolls and plays its first legal play (nothing to play when the roll danced)."""
    game.roll(seat)
    if game.phase is Phase.MOVE:
        assert game.dice is not None
        game.play(seat, game.position.legal_plays(game.dice)[0])


def last_checker_home_game(
    seat1: dict[int | str, int], rules: Rules | None = None, *, double: bool
) -> Game:
    """Seat 1 wins the opening (2 beats 1) and plays 6/4 6/5 from ``seat1``; then seat 0, whose
    last checker is on its 2-point, doubles if ``double`` (seat 1 takes), rolls 6-5 and bears
    it off, ending the game."""
    start = Position.from_points({2: 1}, seat1)
    game = Game(rules, ManualDice(["1 2", "6 5"]), start=start)
    game.roll(0)
    assert (game.on_roll, game.dice) == (1, (2, 1))
    game.play(1, "6/4 6/5")
    if double:
        game.double(0)
        game.take(1)
    game.roll(0)
    game.play(0, "2/off")
    assert game.phase is Phase.OVER
    return game


def resigned_by(match: Match, loser: int, level: WinKind) -> None:
    """In ``match``'s current game ``loser`` wins the opening, then resigns at ``level`` at once
    (on roll, in its own turn) and the opponent accepts."""
    assert isinstance(match.dice_source, ManualDice)
    match.dice_source.enter("6 1" if loser == 0 else "1 6")
    game = match.game
    game.roll(loser)
    game.resign(loser, level)
    game.accept(1 - loser)


# Starting the game


def test_opening_higher_die_moves_first_playing_both_numbers() -> None:
    """RULES.md, Starting the game: "Each player rolls one die. The higher roll moves first,
    playing the two numbers just rolled."

    Seat 0 rolls a 3 and seat 1 a 5: seat 1 moves first, with 5-3 (not a roll of its own), and
    plays 8/3 6/3 on its own side; then seat 0 rolls.
    """
    game = Game(dice=ManualDice(["3 5"]))
    assert game.phase is Phase.OPENING
    game.roll(0)
    assert (game.phase, game.on_roll, game.dice, game.player_to_act) == (Phase.MOVE, 1, (5, 3), 1)
    game.play(1, "8/3 6/3")
    assert (game.phase, game.on_roll) == (Phase.ROLL, 0)
    assert game.position_for(1).mine[3] == 2
    assert game.plays == [(1, (5, 3), game.plays[0][2])]
    assert str(game.plays[0][2]) == "8/3 6/3"


def test_opening_tie_is_rolled_again() -> None:
    """RULES.md, Starting the game: "Equal numbers: both roll again."

    4-4 and then 2-2 leave the game at its opening roll with nobody on roll and the cube at 1
    (automatic doubles are off); 6-3 then lets seat 0 move with 6-3.
    """
    game = Game(dice=ManualDice(["4 4", "2 2", "6 3"]))
    game.roll(0)
    game.roll(1)
    assert (game.phase, game.dice, game.player_to_act, game.cube_value) == (
        Phase.OPENING,
        None,
        None,
        1,
    )
    game.roll(0)
    assert (game.phase, game.on_roll, game.dice) == (Phase.MOVE, 0, (6, 3))
    assert [(event.action, event.dice) for event in game.events] == [
        (Action.ROLL, (4, 4)),
        (Action.ROLL, (2, 2)),
        (Action.ROLL, (6, 3)),
    ]


def test_option_opening_winner_rolls_both_dice_afresh() -> None:
    """RULES.md, Starting the game: "Option (002, 004: "some players prefer"): the first player
    ignores the opening numbers and rolls both dice afresh."

    With the option, seat 1 wins the opening 6 to 2 but does not move 6-2: it is on roll and
    rolls again, 4-4, and plays the 4s.
    """
    game = Game(Rules(opening_reroll=True), ManualDice(["2 6", "4 4"]))
    game.roll(0)
    assert (game.phase, game.on_roll, game.dice, game.player_to_act) == (
        Phase.ROLL,
        1,
        None,
        1,
    )
    assert Action.ROLL not in game.legal_actions(0)
    game.roll(1)
    assert (game.phase, game.on_roll, game.dice) == (Phase.MOVE, 1, (4, 4))
    game.play(1, "24/20(2) 13/9(2)")
    assert (game.phase, game.on_roll) == (Phase.ROLL, 0)


# Doubling


def test_game_starts_at_one_point_with_the_cube_in_the_middle() -> None:
    """RULES.md, Doubling: "A game starts at one point, the cube in the middle."

    Before and after the opening the cube shows 1, nobody owns it, and a game conceded with no
    double costs exactly 1 point.
    """
    game = Game(dice=ManualDice(["6 1"]))
    assert (game.cube_value, game.cube_owner, game.cube_turned) == (1, None, False)
    game.roll(0)
    game.play(0, "13/7 8/7")
    assert (game.cube_value, game.cube_owner, game.cube_turned) == (1, None, False)
    game.resign(1, WinKind.SINGLE)
    game.accept(0)
    assert game.result == GameResult(0, WinKind.SINGLE, 1, "resign")


def test_double_only_at_the_start_of_ones_own_turn_before_rolling() -> None:
    """RULES.md, Doubling: "At the start of their own turn, before rolling, a player may offer
    to double the stake."

    Nobody may double at the opening roll; seat 0 may not double while moving nor in seat 1's
    turn; seat 1 may double before its roll (not after it), which offers a cube of 2.
    """
    game = Game(dice=ManualDice(["6 1", "3 1"]))
    with pytest.raises(IllegalActionError, match="before rolling"):
        game.double(0)
    game.roll(0)
    with pytest.raises(IllegalActionError, match="before rolling"):
        game.double(0)
    game.play(0, "13/7 8/7")
    assert (game.may_double(0), game.may_double(1)) == (False, True)
    with pytest.raises(IllegalActionError, match="seat 1's turn"):
        game.double(0)
    assert Action.DOUBLE in game.legal_actions(1)
    game.double(1)
    assert game.phase is Phase.CUBE
    assert game.offer is not None
    assert (game.offer.player, game.offer.decider, game.offer.value) == (1, 0, 2)
    game.take(0)
    game.roll(1)
    with pytest.raises(IllegalActionError, match="before rolling"):
        game.double(1)


def test_refusing_a_double_concedes_at_the_stake_before_it() -> None:
    """RULES.md, Doubling: "The opponent either refuses, conceding the game at the stake
    before the double"

    Seat 1 doubles 1 to 2, seat 0 drops: seat 1 wins 1 point (not 2), and the game is over.
    """
    game = opened()
    game.double(1)
    game.drop(0)
    assert game.phase is Phase.OVER
    assert game.result == GameResult(1, WinKind.SINGLE, 1, "drop")
    assert game.events[-1].action is Action.DROP
    assert game.legal_actions(0) == game.legal_actions(1) == []


def test_accepting_a_double_doubles_the_stake_and_gives_the_cube() -> None:
    """RULES.md, Doubling: "or accepts, playing on for twice the stake and owning the cube."

    Seat 1 doubles, seat 0 takes: the cube shows 2 and is seat 0's, the doubler rolls on, and
    the game (seat 1 conceding a single game later) is worth 2.
    """
    game = opened(None, "3 1")
    game.double(1)
    game.take(0)
    assert (game.cube_value, game.cube_owner, game.cube_turned) == (2, 0, True)
    assert (game.phase, game.on_roll, game.offer) == (Phase.ROLL, 1, None)
    game.roll(1)
    assert game.dice == (3, 1)
    game.resign(1, WinKind.SINGLE)
    game.accept(0)
    assert game.result == GameResult(0, WinKind.SINGLE, 2, "resign")


def test_only_the_cube_owner_may_redouble() -> None:
    """RULES.md, Doubling: "Only the cube's owner may make the next double (a redouble)"

    Seat 0 owns the cube at 2: seat 1 may not double in its next turn; seat 0 may, to 4.
    """
    game = opened(None, "3 1", "4 2")
    game.double(1)
    game.take(0)
    assert game.may_double(1) is False
    assert Action.DOUBLE not in game.legal_actions(1)
    with pytest.raises(IllegalActionError, match="owner"):
        game.double(1)
    roll_and_play_first(game, 1)
    assert game.on_roll == 0 and game.may_double(0)
    game.double(0)
    assert game.offer is not None
    assert (game.offer.player, game.offer.decider, game.offer.value) == (0, 1, 4)


def test_refusing_a_redouble_pays_the_stake_before_it() -> None:
    """RULES.md, Doubling: "refusing a redouble pays the stake before it."

    The cube is at 2, owned by seat 0; seat 0 redoubles to 4 and seat 1 drops: seat 0 wins 2.
    """
    game = opened(None, "3 1")
    game.double(1)
    game.take(0)
    roll_and_play_first(game, 1)
    game.double(0)
    game.drop(1)
    assert game.result == GameResult(0, WinKind.SINGLE, 2, "drop")


def test_no_limit_on_redoubles_the_cube_may_pass_64() -> None:
    """RULES.md, Doubling: "There is no limit on the number of redoubles (000), so the cube may
    pass 64."

    Each player in turn doubles and the other takes, eight times: the cube goes to 256, owned by
    the last taker, and a single game then costs 256.
    """
    rolls = ["3 1", "4 2", "5 3", "6 4", "2 1", "5 4", "6 2", "5 1"]
    game = opened(None, *rolls)
    for number in range(1, 9):
        doubler = game.on_roll
        game.double(doubler)
        game.take(1 - doubler)
        assert (game.cube_value, game.cube_owner) == (2**number, 1 - doubler)
        roll_and_play_first(game, doubler)
    assert game.cube_value == 256
    loser = game.on_roll
    game.resign(loser, WinKind.SINGLE)
    game.accept(1 - loser)
    assert game.result == GameResult(1 - loser, WinKind.SINGLE, 256, "resign")


def test_max_cube_setting_caps_the_redoubles() -> None:
    """RULES.md, Doubling: "There is no limit on the number of redoubles (000)" -- unless the
    players set one: with ``max_cube=4`` the cube goes 2, 4 and no further."""
    game = opened(Rules(max_cube=4), "3 1", "4 2")
    game.double(1)
    game.take(0)
    roll_and_play_first(game, 1)
    game.double(0)
    game.take(1)
    assert (game.cube_value, game.cube_owner) == (4, 1)
    roll_and_play_first(game, 0)
    assert game.on_roll == 1 and game.cube_owner == 1
    assert game.may_double(1) is False
    with pytest.raises(IllegalActionError, match="may not pass 4"):
        game.double(1)


def test_max_cube_caps_a_beaver_too() -> None:
    """RULES.md, Doubling (the max_cube setting, with beavers): the cube never passes max_cube.

    Rules(beavers=True, max_cube=2): seat 1 doubles to 2 (allowed), seat 0 beavers, which would
    make the cube 4: the beaver must be refused (the engine takes it and the cube shows 4).
    """
    game = opened(Rules(beavers=True, max_cube=2))
    game.double(1)
    assert Action.BEAVER not in game.legal_actions(0)
    with pytest.raises(IllegalActionError):
        game.beaver(0)


def test_max_cube_caps_automatic_doubles_too() -> None:
    """RULES.md, Doubling (the max_cube setting, with automatic doubles): the cube never passes
    max_cube.

    Rules(automatic_doubles=2, max_cube=2), opening rolls 3-3, 4-4, 6-1: the first tie makes the
    cube 2; the second must leave it at 2 (the engine makes it 4).
    """
    game = Game(Rules(automatic_doubles=2, max_cube=2), ManualDice(["3 3", "4 4", "6 1"]))
    game.roll(0)
    game.roll(0)
    assert game.cube_value == 2


def test_automatic_double_on_an_opening_tie_cube_shows_2_and_stays_centred() -> None:
    """RULES.md, Doubling: "Automatic doubles: equal numbers on the opening roll double the
    stake; the cube shows 2 and stays in the middle."

    Opening 3-3 with automatic doubles on: the cube shows 2, nobody owns it, it does not count
    as turned; then after the opening 6-1 either player may double it (seat 1 to 4).
    """
    game = Game(Rules(automatic_doubles=1), ManualDice(["3 3", "6 1"]))
    game.roll(0)
    assert (game.phase, game.cube_value, game.cube_owner) == (Phase.OPENING, 2, None)
    assert (game.automatic_doubles, game.cube_turned) == (1, False)
    game.roll(1)
    game.play(0, "13/7 8/7")
    assert (game.cube_value, game.cube_owner) == (2, None)
    game.double(1)
    assert game.offer is not None and game.offer.value == 4


def test_automatic_doubles_are_capped_per_game() -> None:
    """RULES.md, Doubling: "Players usually cap automatic doubles at one a game (a setting)."

    Three opening ties: with a cap of 1 the cube ends at 2; with a cap of 2 at 4.
    """
    for cap, cube in ((1, 2), (2, 4)):
        game = Game(Rules(automatic_doubles=cap), ManualDice(["3 3", "5 5", "1 1", "6 1"]))
        for _ in range(4):
            game.roll(0)
        assert (game.automatic_doubles, game.cube_value, game.cube_owner) == (cap, cube, None)
        assert (game.phase, game.on_roll) == (Phase.MOVE, 0)


def test_beaver_redoubles_at_once_and_keeps_the_cube_then_doubler_takes() -> None:
    """RULES.md, Doubling: "Beavers: a player who is doubled may at once redouble (beaver) and
    keep the cube; the original doubler accepts or refuses as with a normal double."

    Seat 1 doubles to 2, seat 0 beavers to 4: seat 1 now decides; it takes, so the cube is at 4
    and seat 0 (the beaver's maker) owns it; seat 1 rolls on and may not redouble.
    """
    game = opened(Rules(beavers=True))
    game.double(1)
    assert Action.BEAVER in game.legal_actions(0)
    game.beaver(0)
    assert game.offer is not None
    assert (game.offer.player, game.offer.decider, game.offer.value) == (0, 1, 4)
    assert (game.phase, game.player_to_act) == (Phase.CUBE, 1)
    assert set(game.legal_actions(1)) == {Action.TAKE, Action.DROP}
    game.take(1)
    assert (game.cube_value, game.cube_owner, game.phase, game.on_roll) == (
        4,
        0,
        Phase.ROLL,
        1,
    )
    assert game.may_double(1) is False


def test_beaver_refused_by_the_original_doubler_pays_the_doubled_stake() -> None:
    """RULES.md, Doubling: "the original doubler accepts or refuses as with a normal double."

    Seat 1 doubles to 2, seat 0 beavers to 4, seat 1 drops: seat 0 wins the stake before the
    beaver, 2 points.
    """
    game = opened(Rules(beavers=True))
    game.double(1)
    game.beaver(0)
    game.drop(1)
    assert game.result == GameResult(0, WinKind.SINGLE, 2, "drop")


def test_jacoby_gammon_counts_single_unless_the_cube_was_turned() -> None:
    """RULES.md, Doubling: "Jacoby rule: gammons and backgammons count as a single game unless
    the cube was turned in that game."

    Seat 0 bears off its last checker while seat 1 has none off (a gammon). Without Jacoby:
    2 points. With Jacoby and the cube in the middle: 1 point. With Jacoby after a double and
    take (cube 2): 4 points.
    """
    gammon = {6: 15}
    plain = last_checker_home_game(gammon, double=False)
    assert plain.result == GameResult(0, WinKind.GAMMON, 2, "bear off")
    jacoby = last_checker_home_game(gammon, Rules(jacoby=True), double=False)
    assert jacoby.result == GameResult(0, WinKind.GAMMON, 1, "bear off")
    turned = last_checker_home_game(gammon, Rules(jacoby=True), double=True)
    assert turned.result == GameResult(0, WinKind.GAMMON, 4, "bear off")


# Winning and scoring


def test_first_to_bear_off_all_checkers_wins() -> None:
    """RULES.md, Winning and scoring: "The first player to bear off all fifteen checkers wins."

    Both sides have one checker left on the 1-point; seat 1 wins the opening (2 beats 1) and
    bears off first: seat 1 wins, the game is over and nothing more may be done.
    """
    start = Position.from_points({1: 1}, {1: 1})
    game = Game(dice=ManualDice(["1 2"]), start=start)
    game.roll(0)
    game.play(1, "1/off")
    assert game.phase is Phase.OVER
    assert game.result == GameResult(1, WinKind.SINGLE, 1, "bear off")
    assert game.position_for(1).off == (15, 14)
    assert game.legal_actions(0) == game.legal_actions(1) == []
    with pytest.raises(IllegalActionError, match="The game is over"):
        game.resign(0)


def test_single_game_loser_with_a_checker_off_pays_the_cube_value() -> None:
    """RULES.md, Winning and scoring: "Single game: the loser has borne off at least one
    checker: loses the cube value."

    Seat 1 has 12 checkers off when seat 0 wins with the cube at 2: 2 points.
    """
    game = last_checker_home_game({6: 3}, double=True)
    assert game.result == GameResult(0, WinKind.SINGLE, 2, "bear off")


def test_gammon_loser_with_none_off_pays_twice_the_cube_value() -> None:
    """RULES.md, Winning and scoring: "Gammon: the loser has borne off none: twice the cube
    value."

    Seat 1 has no checker off (none in seat 0's home board) when seat 0 wins at cube 2: 4.
    """
    game = last_checker_home_game({6: 15}, double=True)
    assert game.result == GameResult(0, WinKind.GAMMON, 4, "bear off")


@pytest.mark.parametrize(
    ("seat1", "opening", "play", "points"),
    [
        # In the winner's home board: seat 1's 20-point is seat 0's 5-point; cube 2.
        pytest.param({20: 1, 6: 14}, "1 2", "6/4 6/5", 6, id="in-winners-home-board"),
        # On the bar: seat 0 wins the opening and bears off at once; cube 1.
        pytest.param({"bar": 1, 6: 14}, "2 1", None, 3, id="on-the-bar"),
    ],
)
def test_backgammon_pays_three_times_the_cube_value(
    seat1: dict[int | str, int], opening: str, play: str | None, points: int
) -> None:
    """RULES.md, Winning and scoring: "Backgammon: the loser has borne off none and still has a
    checker on the bar or in the winner's home board: three times the cube value."
    """
    if play is not None:
        game = last_checker_home_game(seat1, double=True)
    else:
        game = Game(dice=ManualDice([opening]), start=Position.from_points({1: 1}, seat1))
        game.roll(0)
        game.play(0, "1/off")
    assert game.result == GameResult(0, WinKind.BACKGAMMON, points, "bear off")


@pytest.mark.parametrize("level", [WinKind.SINGLE, WinKind.GAMMON, WinKind.BACKGAMMON, 1, 2, 3])
def test_resignation_offered_at_each_level_is_scored_at_that_level(level: WinKind | int) -> None:
    """RULES.md, Winning and scoring: "A player may resign, offering a single game, a gammon or
    a backgammon; the opponent accepts"

    With the cube at 2 (owned by seat 0), seat 1 resigns at ``level`` during its move; seat 0
    accepts: seat 0 wins 2 x level points, of that kind.
    """
    game = opened(None, "3 1")
    game.double(1)
    game.take(0)
    game.roll(1)
    game.resign(1, level)
    assert game.phase is Phase.RESIGN and game.player_to_act == 0
    assert game.resignation is not None and game.resignation.level == WinKind(level)
    assert set(game.legal_actions(0)) == {Action.ACCEPT, Action.REJECT}
    game.accept(0)
    assert game.result == GameResult(0, WinKind(level), 2 * int(level), "resign")


def test_rejected_resignation_lets_the_game_go_on_where_it_was() -> None:
    """RULES.md, Winning and scoring: "the opponent accepts or rejects"

    Seat 1 makes one step of its 3-1, then offers a gammon; seat 0 rejects: the game is back in
    seat 1's move with the same dice and the step kept, and seat 1 finishes its play.
    """
    game = opened(None, "3 1")
    game.roll(1)
    game.step(1, 8, 5)
    game.resign(1, WinKind.GAMMON)
    game.reject(0)
    assert (game.phase, game.on_roll, game.dice, game.resignation) == (
        Phase.MOVE,
        1,
        (3, 1),
        None,
    )
    assert game.turn is not None and game.turn.made == ((8, 5),)
    game.step(1, 6, 5)
    game.confirm(1)
    assert (game.phase, game.on_roll, game.result) == (Phase.ROLL, 0, None)
    assert [event.action for event in game.events[-4:]] == [
        Action.RESIGN,
        Action.REJECT,
        Action.STEP,
        Action.CONFIRM,
    ]


# Matches


def test_match_to_n_points_ends_when_a_player_reaches_n() -> None:
    """RULES.md, Matches: "Play may be a series of games to a set number of points ("the first
    to N points wins")."

    A 3-point match: seat 0 wins a single game (1-0, play goes on with a new game), then a
    backgammon (4-0): the match is over, seat 0 has won, no further game starts.
    """
    match = Match(3, dice=ManualDice())
    resigned_by(match, 1, WinKind.SINGLE)
    assert (match.score, match.is_over, match.winner, len(match.games)) == ((1, 0), False, None, 2)
    assert match.game.phase is Phase.OPENING
    resigned_by(match, 1, WinKind.BACKGAMMON)
    assert (match.score, match.is_over, match.winner, len(match.games)) == ((4, 0), True, 0, 2)
    assert match.game.phase is Phase.OVER
    assert match.scores_before(1) == (1, 0)


def test_crawford_game_no_doubling_after_a_player_first_reaches_n_minus_1() -> None:
    """RULES.md, Matches: "the Crawford rule applies ...: in the one game after a player first
    reaches one point short of the match, no doubling."

    3-point match: seat 0 wins a gammon (2-0, one short). The next game is the Crawford game:
    neither seat may double, in its turn before rolling.
    """
    match = Match(3, dice=ManualDice())
    assert match.game.crawford is False
    resigned_by(match, 1, WinKind.GAMMON)
    assert match.score == (2, 0) and match.crawford_played
    game = match.game
    assert game.crawford is True
    assert isinstance(match.dice_source, ManualDice)
    for roll in ("6 1", "3 1"):
        match.dice_source.enter(roll)
    game.roll(0)
    game.play(0, "13/7 8/7")
    assert game.phase is Phase.ROLL
    assert (game.may_double(1), Action.DOUBLE in game.legal_actions(1)) == (False, False)
    with pytest.raises(IllegalActionError, match="Crawford"):
        game.double(1)
    roll_and_play_first(game, 1)
    with pytest.raises(IllegalActionError, match="Crawford"):
        game.double(0)


def test_post_crawford_games_allow_doubling_again_and_only_one_crawford_game() -> None:
    """RULES.md, Matches: "in the one game after a player first reaches one point short of the
    match, no doubling."

    3-point match: 2-0 (Crawford game next), seat 1 wins the Crawford game (2-1); the next game
    is not a Crawford game: seat 1 doubles and seat 0 drops (2-2); the game after, with seat 1
    now also one short, is still not a Crawford game.
    """
    match = Match(3, dice=ManualDice())
    resigned_by(match, 1, WinKind.GAMMON)
    resigned_by(match, 0, WinKind.SINGLE)
    assert match.score == (2, 1)
    assert [game.crawford for game in match.games] == [False, True, False]
    assert isinstance(match.dice_source, ManualDice)
    match.dice_source.enter("6 1")
    game = match.game
    game.roll(0)
    game.play(0, "13/7 8/7")
    assert game.may_double(1)
    game.double(1)
    game.drop(0)
    assert match.score == (2, 2)
    assert [game.crawford for game in match.games] == [False, True, False, False]


@pytest.mark.parametrize(
    "rules",
    [Rules(automatic_doubles=1), Rules(beavers=True), Rules(jacoby=True)],
    ids=["automatic-doubles", "beavers", "jacoby"],
)
def test_automatic_doubles_beavers_and_jacoby_do_not_apply_in_matches(rules: Rules) -> None:
    """RULES.md, Matches: "Automatic doubles, beavers and the Jacoby rule do not apply in
    matches."

    A 5-point match (or a game marked as in a match) with any of them is refused; a money
    session with the same rules is allowed.
    """
    with pytest.raises(BackgammonError, match="do not apply in matches"):
        Match(5, rules)
    with pytest.raises(BackgammonError, match="do not apply in matches"):
        Game(rules, in_match=True)
    assert Match(0, rules).game.rules == rules


# Irregularities


def test_physical_dice_take_exactly_two_numbers_from_1_to_6() -> None:
    """RULES.md, Irregularities: "Where a player enters the numbers of physical dice, the
    software takes exactly two numbers from 1 to 6."

    "6 1", "31", "5-2" and (4, 4) are rolls, used in order; "7 1", "6", "123" and (1, 2, 3) are
    refused with InvalidDiceError and queue nothing.
    """
    dice = ManualDice(["6 1", "31"])
    for bad in ("7 1", "6", "123"):
        with pytest.raises(InvalidDiceError, match="two numbers from 1 to 6"):
            dice.enter(bad)
    with pytest.raises(InvalidDiceError, match="two numbers from 1 to 6"):
        dice.enter((1, 2, 3))  # type: ignore[arg-type]
    dice.enter("5-2")
    dice.enter((4, 4))
    game = Game(dice=dice)
    game.roll(0)
    assert game.dice == (6, 1)
    game.play(0, "13/7 8/7")
    for roll in ((3, 1), (5, 2), (4, 4)):
        game.roll(game.on_roll)
        assert game.dice == roll
        game.play(game.on_roll, game.position.legal_plays(roll)[0])
    with pytest.raises(InvalidDiceError, match="No dice have been entered"):
        game.roll(game.on_roll)


def test_turn_ends_only_on_confirm() -> None:
    """RULES.md, Irregularities: "A turn ends when the player picks up the dice: the software's
    "done"/confirm step."

    Seat 0 steps 13/7 and 8/7: the play is complete but the turn is still seat 0's (CONFIRM),
    seat 1 may not roll; on confirm the turn passes and the record holds two steps and a
    confirm.
    """
    game = Game(dice=ManualDice(["6 1", "3 1"]))
    game.roll(0)
    game.step(0, 13, 7)
    assert (game.phase, game.on_roll) == (Phase.MOVE, 0)
    game.step(0, 8, 7)
    assert (game.phase, game.on_roll, game.player_to_act) == (Phase.CONFIRM, 0, 0)
    with pytest.raises(IllegalActionError):
        game.roll(1)
    game.confirm(0)
    assert (game.phase, game.on_roll) == (Phase.ROLL, 1)
    assert game.position_for(0).mine[7] == 2
    assert [(event.action, event.steps) for event in game.events[1:]] == [
        (Action.STEP, ((13, 7),)),
        (Action.STEP, ((8, 7),)),
        (Action.CONFIRM, None),
    ]


def test_steps_may_be_undone_until_the_turn_is_confirmed() -> None:
    """RULES.md, Irregularities: "Until then the player may undo their own moves in that turn."

    Seat 0 plays 13/7 8/7 step by step, undoes both steps, plays 24/18 6/5 instead and
    confirms; the board shows the second play. After the confirm nothing may be undone.
    """
    game = Game(dice=ManualDice(["6 1"]))
    game.roll(0)
    game.step(0, 13, 7)
    game.step(0, 8, 7)
    game.undo(0)
    assert (game.phase, game.turn and game.turn.made) == (Phase.MOVE, ((13, 7),))
    game.undo(0)
    assert game.turn is not None and game.turn.made == ()
    game.step(0, 24, 18)
    game.step(0, 6, 5)
    game.confirm(0)
    board = game.position_for(0)
    assert board.mine[24:12:-1] == (1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 5)
    assert board.mine[8:4:-1] == (3, 0, 4, 1)
    with pytest.raises(IllegalActionError, match="no step of this turn"):
        game.undo(0)


def test_only_legal_plays_are_accepted() -> None:
    """RULES.md, Irregularities: "The software allows only legal plays, so the opponent never
    has to accept an illegal one."

    With 6-1, 24/17 in one step, 13/6, and 24/18 24/17 are refused; the legal 24/18 24/23 is
    played.
    """
    game = Game(dice=ManualDice(["6 1"]))
    game.roll(0)
    with pytest.raises(BackgammonError):
        game.step(0, 24, 17)
    for bad in ("13/6 13/12", "24/18 24/17", "24/16"):
        with pytest.raises(BackgammonError):
            game.play(0, bad)
    assert (game.phase, game.turn and game.turn.made) == (Phase.MOVE, ())
    game.play(0, "24/18 24/23")
    assert game.phase is Phase.ROLL


def test_actions_out_of_turn_are_refused_with_a_clear_message() -> None:
    """RULES.md, Irregularities: "A roll made before the opponent has finished is void: the
    software refuses any action out of turn, with a clear message."

    While seat 0 moves, seat 1's steps, play, undo and confirm are refused naming whose turn it
    is; in seat 1's turn seat 0 may not roll or double; the record is untouched. (Seat 1's
    roll is queued: a refused roll with no dice entered fails on the dice first, the bug
    tested in test_game_errors.py.)
    """
    game = Game(dice=ManualDice(["6 1", "3 1"]))
    game.roll(0)
    game.step(0, 13, 7)
    before = game.to_json()
    message = r"It is seat 0's turn to move, not seat 1's\."
    with pytest.raises(IllegalActionError, match=message):
        game.step(1, 8, 7)
    with pytest.raises(IllegalActionError, match=message):
        game.undo(1)
    game.step(0, 8, 7)
    with pytest.raises(IllegalActionError, match="It is seat 0's turn to confirm"):
        game.confirm(1)
    assert game.to_json() != before  # seat 0's own step went in
    game.confirm(0)
    after = game.to_json()
    for action in (game.roll, game.double):
        with pytest.raises(IllegalActionError, match="It is seat 1's turn to roll or double"):
            action(0)
    assert game.to_json() == after


def test_forced_play_is_made_automatically_when_the_option_is_on() -> None:
    """RULES.md, Irregularities: "options to play forced moves automatically"

    Seat 0 is on the bar against a five-point board, its other checkers on its 1-point (not
    all home, so none may bear off), and rolls 6-1: bar/18 is its only play.
    With auto_forced the game plays it (an auto PLAY event) and seat 1 is to roll; without the
    option seat 0 must play it.
    """
    start = Position.from_points({"bar": 1, 1: 4}, FIVE_POINT_BOARD)
    forced = Game(Rules(auto_forced=True), ManualDice(["6 1"]), start=start)
    forced.roll(0)
    assert (forced.phase, forced.on_roll) == (Phase.ROLL, 1)
    event = forced.events[-1]
    assert (event.action, event.player, event.steps, event.auto) == (
        Action.PLAY,
        0,
        ((25, 19), (19, 18)),
        True,
    )
    assert forced.position_for(0).mine[18] == 1
    manual = Game(dice=ManualDice(["6 1"]), start=start)
    manual.roll(0)
    assert (manual.phase, manual.on_roll) == (Phase.MOVE, 0)


def test_pure_race_rolls_automatically_when_the_option_is_on() -> None:
    """RULES.md, Irregularities: "and to roll automatically in a pure race."

    A pure race, auto_race_roll on and the cube off: after seat 0's play the game rolls seat
    1's 4-3 for it (an auto ROLL). With the cube in the middle seat 1 has a cube action, so it
    is left to roll or double; in a contact position it is left to roll too.
    """
    race = Position.from_points({6: 2, 5: 2}, {6: 2, 5: 2})
    game = Game(Rules(auto_race_roll=True, cube=False), ManualDice(["2 1", "4 3"]), start=race)
    game.roll(0)
    game.play(0, "6/4 6/5")
    assert (game.phase, game.on_roll, game.dice) == (Phase.MOVE, 1, (4, 3))
    event = game.events[-1]
    assert (event.action, event.player, event.dice, event.auto) == (Action.ROLL, 1, (4, 3), True)
    with_cube = Game(Rules(auto_race_roll=True), ManualDice(["2 1", "4 3"]), start=race)
    with_cube.roll(0)
    with_cube.play(0, "6/4 6/5")
    assert (with_cube.phase, with_cube.on_roll, with_cube.dice) == (Phase.ROLL, 1, None)
    contact = opened(Rules(auto_race_roll=True, cube=False), "4 3")
    assert contact.dice is None


def test_no_legal_move_passes_the_turn_and_the_record_says_so() -> None:
    """RULES.md, Irregularities / Moving: "With no legal move the turn is lost."

    Seat 0 is on the bar against a closed board and rolls 3-2 at the opening: the game records
    an automatic PASS for seat 0, the play list shows a dance, and seat 1 is to roll.
    """
    start = Position.from_points({"bar": 1, 13: 4}, CLOSED_BOARD)
    game = Game(dice=ManualDice(["3 2"]), start=start)
    game.roll(0)
    assert (game.phase, game.on_roll, game.dice) == (Phase.ROLL, 1, None)
    event = game.events[-1]
    assert (event.action, event.player, event.steps, event.auto) == (Action.PASS, 0, (), True)
    assert game.plays == [(0, (3, 2), None)]
    assert game.position_for(0) == start


def test_cube_off_entirely() -> None:
    """RULES.md, Doubling (the option to play without the cube): with ``cube=False`` nobody may
    double and an opening tie does not double the stake even with automatic doubles set.

    Opening 3-3 then 6-1: the cube stays at 1; seat 1 may not double; a gammon resignation then
    costs 2.
    """
    game = Game(Rules(cube=False, automatic_doubles=1), ManualDice(["3 3", "6 1"]))
    game.roll(0)
    assert (game.cube_value, game.automatic_doubles) == (1, 0)
    game.roll(0)
    game.play(0, "13/7 8/7")
    assert (game.may_double(1), Action.DOUBLE in game.legal_actions(1)) == (False, False)
    with pytest.raises(IllegalActionError, match="cube is not used"):
        game.double(1)
    game.resign(1, WinKind.GAMMON)
    game.accept(0)
    assert game.result == GameResult(0, WinKind.GAMMON, 2, "resign")
