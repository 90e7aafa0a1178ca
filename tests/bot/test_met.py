"""The match equity table: Kazaross-XG2's entries, its extension to the longest match the bot
plays (checked against GNU Backgammon's own extension when gnubg is installed), what a score
is worth after a game, and the bot's questions at every match length up to the limit."""

from __future__ import annotations

import itertools
import math
import os
import re
import shutil
import subprocess

import numpy as np
import pytest

from backgammon import Position, WinKind
from backgammon.bot import Bot, CubeAction, CubeContext, CubeOwner, MatchEquityTable, MatchScore
from backgammon.bot import _met_kazaross_xg2 as kazaross
from backgammon.bot.cube import CONTACT_EFFICIENCY, match_decision
from backgammon.bot.evaluator import FakeEvaluator
from backgammon.bot.met import MAX_MATCH_LENGTH, equity_after, gammon_value, play_weights
from backgammon.bot.player import play_out
from backgammon.bot.probabilities import Probabilities
from backgammon.dice import SeededDice
from backgammon.errors import BackgammonError
from backgammon.game.match import Match

MET = MatchEquityTable.kazaross_xg2()
GNUBG = shutil.which("gnubg") or shutil.which("gnubg", path="/usr/games")
GNUBG_KAZAROSS = "/usr/share/gnubg/met/Kazaross-XG2.xml"
LENGTHS = range(1, MAX_MATCH_LENGTH + 1)


# Kazaross-XG2's own entries


def test_met_entries() -> None:
    assert MET.name == "Kazaross-XG2"
    assert MET.equity(1, 2) == pytest.approx(0.67736)  # the Crawford game, 1-away 2-away
    assert MET.equity(2, 4) == pytest.approx(0.66870)
    assert MET.equity(0, 3) == 1.0 and MET.equity(3, -1) == 0.0
    # Post-Crawford: the trailer's chances (the free drop makes 2-away nearly even).
    assert MET.equity(2, 1, post_crawford=True) == pytest.approx(0.48803)
    assert MET.equity(1, 2, post_crawford=True) == pytest.approx(1 - 0.48803)
    assert MET.equity(1, 1, post_crawford=True) == 0.5


def test_the_native_entries_are_the_table_s() -> None:
    assert MET.native_length == len(kazaross.PRE_CRAWFORD) == 25
    for away in range(1, 26):
        for other in range(1, 26):
            assert MET.equity(away, other) == kazaross.PRE_CRAWFORD[away - 1][other - 1]
    # Every post-Crawford score a match of up to 25 points can reach (the trailer 24 away
    # at most) is the table's.
    assert MET.post_crawford[:24] == kazaross.POST_CRAWFORD[:24]


# The extension


def test_the_table_covers_the_longest_match_and_refuses_longer_ones() -> None:
    assert MET.max_length == MAX_MATCH_LENGTH == 64
    assert MET.equity(64, 64) == 0.5
    with pytest.raises(BackgammonError, match="covers matches of up to 64 points"):
        MET.equity(65, 3)
    with pytest.raises(BackgammonError, match="A match is to 1 to 64 points"):
        MatchScore(65)


def test_equities_are_chances_that_favour_the_leader_everywhere() -> None:
    for away in LENGTHS:
        for other in LENGTHS:
            equity = MET.equity(away, other)
            assert 0.0 < equity < 1.0
            assert equity + MET.equity(other, away) == pytest.approx(1.0, abs=1e-5)
            # One point nearer the end is better, whoever gets it.
            if away > 1:
                assert MET.equity(away - 1, other) > equity
            if other > 1:
                assert MET.equity(away, other - 1) < equity
        assert MET.equity(away, away) == pytest.approx(0.5, abs=1e-5)
    trailer = MET.post_crawford
    assert trailer[0] == 0.5 and all(b < a for a, b in itertools.pairwise(trailer))


def test_the_model_joins_the_table_smoothly() -> None:
    # At the seam, the model's 26-away is a little worse than the table's 25-away.
    for other in range(1, 27):
        step = MET.equity(25, other) - MET.equity(26, other)
        assert 0.0 < step < 0.04


def test_an_extended_table_built_by_hand() -> None:
    # Two points of data, extended to four: the model's normal chance beyond 2 away.
    table = MatchEquityTable("tiny", [[0.5, 0.7], [0.3, 0.5]], [0.5, 0.49], max_length=4)
    sigma = math.sqrt((1.47**2 + 1.24**2) * (3 + 1) / 2)
    assert table.equity(3, 1) == pytest.approx(0.5 * math.erfc(2 / (sigma * math.sqrt(2))))
    assert table.equity(1, 3) == pytest.approx(1 - table.equity(3, 1))
    assert table.equity(2, 1) == 0.3  # the data's own
    # Post-Crawford, 2 away is worked out again (no 2-point match reaches it): a single
    # game at the doubled cube wins the match.
    three_away = 0.375 * 0.5 + 0.125 * 1.0  # a single game to 1 away, a gammon wins
    assert table.post_crawford == pytest.approx((0.5, 0.5, three_away, 0.375 * 0.5 + 0.125))


def _gnubg_table() -> tuple[dict[int, list[float]], list[float]]:
    """GNU Backgammon's Kazaross-XG2 table extended to 64 points, as it prints it."""
    commands = f"set matchequitytable {GNUBG_KAZAROSS}\nshow matchequitytable 64\n"
    output = subprocess.run(
        [str(GNUBG), "-t", "-q"], input=commands, capture_output=True, text=True, timeout=120
    ).stdout
    pre: dict[int, list[float]] = {}
    post: list[float] = []
    section = ""
    for line in output.splitlines():
        if line.startswith(("Pre-Crawford", "Post-Crawford table for player")):
            section = line
        row = re.match(r"\s+(\d+)-away\s+([\d. ]+)$", line)
        if row and section:
            values = [float(v) / 100 for v in row.group(2).split()]
            if section.startswith("Pre"):
                pre[int(row.group(1))] = values
            elif "player 0" in section:
                post = values
    return pre, post


@pytest.mark.skipif(
    GNUBG is None or not os.path.exists(GNUBG_KAZAROSS),
    reason="GNU Backgammon (Debian's gnubg) is not installed",
)
def test_the_extension_is_gnu_backgammon_s() -> None:
    pre, post = _gnubg_table()
    assert sorted(pre) == list(LENGTHS) and len(post) == MAX_MATCH_LENGTH
    # gnubg prints percentages to 4 decimals: 5e-7 of a chance, and float32 rounding.
    for away, row in pre.items():
        for other, equity in enumerate(row, 1):
            assert MET.equity(away, other) == pytest.approx(equity, abs=1e-6)
    assert MET.post_crawford == pytest.approx(post, abs=1e-6)


# Scores after a game


def test_equity_after_a_game_that_ends_the_match() -> None:
    score = MatchScore(length=7, score=(6, 3))
    assert equity_after(score, won=1) == 1.0
    assert equity_after(score, lost=4) == 0.0
    assert equity_after(score, lost=3) == pytest.approx(1.0 - equity_after(score.flip(), won=3))


def test_scores_after_the_game_enter_the_crawford_game() -> None:
    # 3-away 3-away: a single win leaves 2-away 3-away; a gammon 1-away, for the Crawford game.
    score = MatchScore(5, (2, 2))
    assert equity_after(score, won=2) == pytest.approx(MET.equity(1, 3))
    # In the Crawford game, what follows is post-Crawford.
    crawford = MatchScore(5, (4, 2), crawford=True)
    assert equity_after(crawford, lost=1) == pytest.approx(MET.equity(1, 2, post_crawford=True))


def test_gammon_values() -> None:
    # In the Crawford game the leader's gammon is worth nothing: a single game wins.
    assert gammon_value(MatchScore(5, (4, 2), crawford=True)) == 0.0
    # Post-Crawford the trailer at 2-away wins the match with a gammon or with a single game
    # won with the cube on 2: at cube 1 a gammon is worth as much as the single game's swing.
    assert gammon_value(MatchScore(5, (3, 4))) == pytest.approx(1.0)
    assert 0.3 < gammon_value(MatchScore(7)) < 0.7
    # In a long match at an even score a gammon is worth about half a game, as in money play.
    assert 0.3 < gammon_value(MatchScore(64)) < 0.7


# The bot at every length


def scores(length: int) -> list[MatchScore]:
    """Scores of a match of ``length`` points: the start, one side ahead, the Crawford game
    and the game after it, each from both sides."""
    found = [MatchScore(length), MatchScore(length, (length // 2, length // 3))]
    if length > 1:
        found += [
            MatchScore(length, (length - 1, 0), crawford=True),
            MatchScore(length, (length - 1, length // 2)),
        ]
    return found + [score.flip() for score in found]


def test_play_weights_at_every_length_and_cube() -> None:
    for length in LENGTHS:
        for score in scores(length):
            for cube in (1, 2, 4, 64):
                weights = play_weights(score, cube)
                assert weights[0] == 2.0 and np.isfinite(weights).all()
                # A gammon never costs the winner, nor helps the loser.
                assert weights[1] >= -1e-6 and weights[3] <= 1e-6


def test_cube_decisions_at_every_length() -> None:
    chances = [
        Probabilities(0.55, 0.15, 0.01, 0.10, 0.01),
        Probabilities(0.72, 0.20, 0.01, 0.05, 0.0),
        Probabilities(0.90, 0.40, 0.02, 0.01, 0.0),
    ]
    for length in LENGTHS:
        for score in scores(length):
            for owner in CubeOwner:
                for value in (1, 2, 8):
                    cube = CubeContext(value, owner, score)
                    for p in chances:
                        decision = match_decision(p, CONTACT_EFFICIENCY, cube)
                        assert 0.0 <= decision.no_double <= 1.0
                        if cube.may_double:
                            assert 0.0 <= decision.double_take <= 1.0
                            assert 0.0 <= decision.double_drop <= 1.0
                        else:
                            assert decision.action is CubeAction.NO_DOUBLE


def test_hints_and_resignations_at_every_length() -> None:
    bot = Bot(evaluator=FakeEvaluator())
    position = Position.initial()
    for length in LENGTHS:
        for score in scores(length):
            cube = CubeContext(match=score)
            hints = bot.hints(position, (6, 4), 3, cube)
            assert len(hints) == 3 and all(math.isfinite(h.equity) for h in hints)
            assert bot.cube_decision(position, cube).action in set(CubeAction)
            assert bot.resignation_to_offer(position, cube) is None  # an even game
            # Without gammons, a single game is all there is to win.
            assert bot.should_accept_resignation(position, WinKind.SINGLE, cube=cube)


def test_bots_play_a_game_of_the_longest_match() -> None:
    match = Match(MAX_MATCH_LENGTH, dice=SeededDice(7))
    bot = Bot(evaluator=FakeEvaluator())
    play_out(match.game, (bot, bot))
    assert match.games[0].result is not None and not match.is_over
