"""The analysis engine and its statistics: the bot's own play has no error, planted checker and
cube errors are found and marked, forced plays are no decisions, the counts match a hand
count, and gnubg's formulas give gnubg's figures.

Every analysis here is at 0 plies, with the shipped networks.
"""

from __future__ import annotations

import pytest

from backgammon.analysis import Analyser, AnalysisError, CubeError, Kind, LuckMark, Mark
from backgammon.analysis.decisions import luck_mark, skill_mark
from backgammon.analysis.stakes import may_double
from backgammon.analysis.statistics import PlayerStatistics, gather, rating_name
from backgammon.bot import Bot
from backgammon.cube import CubeContext, CubeOwner, MatchScore
from backgammon.dice import ManualDice
from backgammon.formats.ids import gnubg_id_of
from backgammon.game import Game, Rules, SetUp
from backgammon.game.match import Match
from backgammon.position import Position
from backgammon.training.selfplay import selfplay


@pytest.fixture(scope="module")
def analyser() -> Analyser:
    return Analyser(plies=0)


def test_the_bots_own_play_at_the_analysing_depth_has_no_error(analyser: Analyser) -> None:
    bot = Bot(plies=0, seed=3)
    for length, seed in ((5, 11), (3, 12)):
        match = selfplay(1, length, seed, (bot, bot))
        analysis = analyser.analyse(match)
        counted = [d for d in analysis.decisions if d.counted]
        assert sum(d.unforced for d in counted) > 20 and any(d.kind is Kind.CUBE for d in counted)
        assert all(d.equity_loss == 0.0 and d.mark is None for d in counted)
        for stats in analysis.statistics:
            assert stats.error_total == 0.0 and stats.pr == 0.0
            assert stats.rating == 2050.0


def planted_errors(ids: list[str] | None = None) -> Match:
    """Seat 0 opens 3-1 with 8/7 8/5 (a blunder), seat 1 doubles at once (too early) and
    seat 0 drops (a take was right); ``ids`` gets gnubg's ID of each decision's moment."""
    match = Match(3, dice=ManualDice(["3 1"]), players=("Ann", "Bob"))
    game = match.game
    game.roll(0)
    seen = [gnubg_id_of(match)]
    game.play(0, "8/7 8/5")
    seen.append(gnubg_id_of(match))
    game.double(1)
    seen.append(gnubg_id_of(match))
    game.drop(0)
    if ids is not None:
        ids += seen
    return match


def test_a_planted_blunder_a_wrong_double_and_a_wrong_pass_are_found(analyser: Analyser) -> None:
    ids: list[str] = []
    analysis = analyser.analyse(planted_errors(ids))
    assert [f"{d.position_id}:{d.match_id}" for d in analysis.decisions] == ids
    play, double, drop = analysis.decisions
    assert (play.kind, play.seat, play.played, play.best) == (
        Kind.CHECKER, 0, "8/7 8/5", "8/5 6/5")
    assert play.unforced and play.mark is Mark.VERY_BAD and play.equity_loss > 0.16
    assert (double.kind, double.seat, double.played, double.best) == (
        Kind.CUBE, 1, "double", "no double")
    assert double.cube_error is CubeError.WRONG_DOUBLE_BELOW_DP
    # Marked at least doubtful (over 0.04): how much more it costs depends on the networks.
    assert double.mark in (Mark.DOUBTFUL, Mark.BAD, Mark.VERY_BAD)
    assert (drop.kind, drop.seat, drop.played, drop.best) == (Kind.TAKE, 0, "drop", "take")
    assert drop.cube_error is CubeError.WRONG_PASS and drop.equity_loss > 0.5
    ann, bob = analysis.statistics
    assert ann.checker_error == pytest.approx(play.equity_loss)
    assert ann.cube_error == pytest.approx(drop.equity_loss)
    assert bob.cube_error == pytest.approx(double.equity_loss)
    assert (ann.passes, bob.doubles, ann.total_cube, bob.total_cube) == (1, 1, 1, 1)
    assert ann.cube_errors[CubeError.WRONG_PASS].count == 1
    # The match's chance lost is the EMG times half the swing of a single game at 0-0 of 3.
    assert play.cost == pytest.approx(play.equity_loss * (0.5 - _lose_one(3)))
    assert bob.actual_result == pytest.approx(0.5 - _lose_one(3))


def _lose_one(length: int) -> float:
    from backgammon.bot.met import equity_after

    return equity_after(MatchScore(length), lost=1)


def test_a_missed_double_in_a_race_is_found(analyser: Analyser) -> None:
    # 57 pips against 69, the cube in the middle: a double and a pass.
    race = Position.from_points({6: 3, 5: 3, 4: 3, 3: 2, 2: 2, 1: 2}, {6: 4, 5: 4, 4: 4, 3: 3})
    match = Match(5, dice=ManualDice(["6 5"]), setup=SetUp(race))
    match.game.roll(0)
    match.game.play(0, "6/off 5/off")
    missed, _ = analyser.analyse(match).decisions
    assert (missed.kind, missed.played, missed.best) == (Kind.CUBE, "no double", "double")
    assert missed.cube_error is CubeError.MISSED_DOUBLE_ABOVE_CP and missed.close
    assert missed.mark in (Mark.BAD, Mark.VERY_BAD)


def test_counts_equal_a_hand_count_and_forced_plays_are_no_decisions(analyser: Analyser) -> None:
    # Seat 0 has one checker left, on the bar; seat 1's home board is closed but for its 1 and
    # 7 points. Seat 0 dances with 5-4 and must play bar/24/18 with 6-1: no choice either
    # time. Seat 1 has choices with 4-3 and 2-2. Both may double before every roll.
    start = Position.from_points({"bar": 1}, {2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 5})
    assert Position.initial() != start and len(start.legal_plays((6, 1))) == 1
    match = Match(3, dice=ManualDice(["5 4", "4 3", "6 1", "2 2"]), setup=SetUp(start))
    game = match.game
    game.roll(0)  # the dance is passed by the game itself
    game.roll(1)
    game.play(1, "13/9 13/10")
    game.roll(0)
    game.play(0, "bar/24/18")
    game.roll(1)
    game.play(1, "13/11(2) 9/7 10/8")
    analysis = analyser.analyse(match)
    first, second = analysis.statistics
    assert (first.total_moves, first.unforced_moves, first.total_cube) == (2, 0, 2)
    assert (second.total_moves, second.unforced_moves, second.total_cube) == (2, 2, 2)
    forced = [d for d in analysis.decisions if d.kind is Kind.CHECKER and d.seat == 0]
    assert [d.played for d in forced] == ["no move", "bar/18"]
    assert all(not d.unforced and d.equity_loss == 0 and not d.alternatives for d in forced)
    assert [d.move_number for d in analysis.decisions if d.kind is Kind.CHECKER] == [1, 2, 3, 4]


def test_dice_that_came_with_a_set_up_had_no_cube_decision(analyser: Analyser) -> None:
    match = Match(5, dice=ManualDice(["6 5"]), setup=SetUp(Position.initial(), dice=(4, 2)))
    match.game.play(0, "8/4 6/4")
    match.game.roll(1)
    match.game.play(1, "24/13")
    kinds = [(d.seat, d.kind) for d in analyser.analyse(match).decisions]
    assert kinds == [(0, Kind.CHECKER), (1, Kind.CUBE), (1, Kind.CHECKER)]


def test_a_lone_money_game_and_its_ids(analyser: Analyser) -> None:
    # Each decision's IDs are those the formats give the game at that moment.
    game = Game(Rules(jacoby=True), dice=ManualDice(["6 1", "3 3"]))
    game.roll(0)
    ids = [gnubg_id_of(game)]
    game.play(0, "13/7 8/7")
    ids.append(gnubg_id_of(game))
    game.roll(1)
    ids.append(gnubg_id_of(game))
    game.play(1, "24/21(2) 13/10(2)")
    analysis = analyser.analyse(game)
    assert analysis.length == 0 and analysis.players == ("Player 0", "Player 1")
    opening, cube, reply = analysis.decisions
    assert [f"{d.position_id}:{d.match_id}" for d in analysis.decisions] == ids
    assert cube.kind is Kind.CUBE and reply.dice == (3, 3)
    assert opening.luck is not None and reply.luck is not None
    # Money: the cost of an error is in points at the cube, here 1.
    assert reply.cost == reply.equity_loss


def test_the_opening_rolls_luck_weighs_both_players_rolls(analyser: Analyser) -> None:
    # At the start of a money game the 30 opening rolls average to nothing (each roll is as
    # good for either player), so the opening's luck is the value of its best play.
    cube = CubeContext()
    start = Position.initial()
    best_31 = max(analyser.checker(start, (3, 1), p, cube)[2] for p in start.legal_plays((3, 1)))
    assert analyser.luck(start, (3, 1), cube, first=True) == pytest.approx(best_31, abs=1e-6)
    # Later rolls weigh against the 36 rolls of the player on roll alone.
    assert analyser.luck(start, (3, 1), cube, first=False) < best_31


def test_resignations_are_judged_not_counted(analyser: Analyser) -> None:
    match = Match(3, dice=ManualDice(["3 1"]))
    match.game.roll(0)
    match.game.play(0, "8/5 6/5")
    match.game.resign(1, 3)  # a backgammon, at the start: a gift
    match.game.accept(0)
    decisions = analyser.analyse(match).decisions
    resign, answer = decisions[-2:]
    assert (resign.kind, resign.seat, resign.played, resign.best) == (
        Kind.RESIGN, 1, "resign backgammon", "play on")
    assert resign.mark is Mark.VERY_BAD
    assert (answer.kind, answer.seat, answer.played, answer.equity_loss) == (
        Kind.ANSWER, 0, "accept", 0.0)
    assert not resign.counted and not answer.counted


def test_a_resignation_right_after_a_take_is_judged(analyser: Analyser) -> None:
    """The history gives the board and the cube at the offer, the take included: resigning
    a single game holding a cube just taken at 2, early in the game, is a gift."""
    match = Match(5, dice=ManualDice(["6 1"]))
    game = match.game
    game.roll(0)
    game.play(0, "13/7 8/7")
    game.double(1)
    game.take(0)
    game.resign(0)
    game.accept(1)
    resign, answer = analyser.analyse(match).decisions[-2:]
    assert (resign.kind, resign.seat, resign.best, resign.mark) == (
        Kind.RESIGN, 0, "play on", Mark.VERY_BAD)
    assert resign.match_id == answer.match_id
    assert (answer.kind, answer.seat, answer.played, answer.equity_loss) == (
        Kind.ANSWER, 1, "accept", 0.0)


def test_a_game_of_a_match_without_its_score_is_refused(analyser: Analyser) -> None:
    game = Game(in_match=True, dice=ManualDice(["3 1"]))
    game.roll(0)
    game.play(0, "8/5 6/5")
    with pytest.raises(AnalysisError, match="without its match score"):
        analyser.analyse(game)


def test_an_analyser_plays_without_noise() -> None:
    with pytest.raises(AnalysisError):
        Analyser(bot=Bot(plies=0, noise=0.1))


def test_the_cube_is_alive_as_gnubg_says() -> None:
    assert may_double(CubeContext(match=MatchScore(5, (2, 3))))
    assert not may_double(CubeContext(match=MatchScore(5, (3, 2)), value=2))  # wins at 2
    assert not may_double(CubeContext(match=MatchScore(5, (4, 1), crawford=True)))
    assert may_double(CubeContext(match=MatchScore(5, (1, 4))))  # the trailer post-Crawford
    assert not may_double(CubeContext(value=2, owner=CubeOwner.OPPONENT))


def test_marks_at_gnubgs_thresholds() -> None:
    assert [skill_mark(x) for x in (0.04, 0.0401, 0.0801, 0.1601)] == [
        None, Mark.DOUBTFUL, Mark.BAD, Mark.VERY_BAD]
    assert [luck_mark(x) for x in (-0.61, -0.31, 0.0, 0.31, 0.61)] == [
        LuckMark.VERY_UNLUCKY, LuckMark.UNLUCKY, None, LuckMark.LUCKY, LuckMark.VERY_LUCKY]


def test_gnubgs_figures_from_gnubgs_sums() -> None:
    # gnubg 1.07 on a 3-point match: 32 unforced moves, 0.710 EMG lost, no cube error, luck
    # +23.054% and -36.844% of the match, the match won: it printed "Error based abs. FIBS
    # rating 1666.2", "Luck adjusted result -9.90%", "Luck based FIBS rating diff. -201.21"
    # and "Casual player" for an overall rate of 19.7 mEMG.
    mine = PlayerStatistics(unforced_moves=32, close_cube=4, checker_error=0.710,
                            match_length=3, actual_result=0.5, luck_cost=0.23054)
    mine.luck_adjusted_result = 0.5 - 0.23054 - 0.36844
    assert mine.rating == pytest.approx(1666.2, abs=0.5)
    assert mine.luck_rating_difference == pytest.approx(-201.21, abs=0.05)
    assert mine.error_rate * 1000 == pytest.approx(19.7, abs=0.05)
    assert mine.rating_name == rating_name(0.0197) == "Casual player"
    assert mine.pr == pytest.approx(500 * 0.710 / 36)


def test_gathering_sums_each_seat_and_the_snowie_rate(analyser: Analyser) -> None:
    analysis = analyser.analyse(planted_errors())
    ann, bob = gather(analysis.decisions, [analysis.games[0].result], 3)
    assert ann.moves_of_both == bob.moves_of_both == 1
    assert ann.snowie_error_rate == pytest.approx(ann.error_total)
    assert ann.luck_adjusted_result == pytest.approx(
        ann.actual_result - ann.luck_cost + bob.luck_cost)
