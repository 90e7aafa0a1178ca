"""A game claimed from a player who had left is written as such: ``Wins N points (claimed)``
in a ``.mat`` file (scored as the absent side's resignation, which GNU Backgammon imports
without a warning), read back as the claim, and said in the analysis."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from test_mat import GNUBG, HAVE_GNUBG

from backgammon.analysis import Analyser
from backgammon.analysis.report import text_report, to_json
from backgammon.dice import ManualDice
from backgammon.formats.mat import export_mat, import_mat
from backgammon.formats.sgf import export_sgf
from backgammon.game.match import Match
from backgammon.position import WinKind


def claimed_match() -> Match:
    """A 5-point match: game 1 claimed by seat 0 (a single game), game 2 claimed by seat 1
    (a gammon), game 3 under way."""
    match = Match(5, dice=ManualDice(["3 5", "6 4", "4 2", "1 6", "2 1"]),
                  players=("Ann Lee", "Bob"))
    match.game.roll(0)  # seat 1 wins the opening roll
    match.game.play(1, "8/3 6/3")
    match.game.roll(0)
    match.game.play(0, "24/18 13/9")
    match.claim(0)  # seat 1, to roll, has left
    match.game.roll(0)  # seat 0 wins the opening roll of game 2
    match.game.play(0, "8/4 6/4")
    match.game.roll(1)
    match.game.play(1, "13/7 8/7")
    match.claim(1, WinKind.GAMMON)  # seat 0, to roll, has left
    match.game.roll(0)
    return match


def test_a_claim_is_written_read_back_and_scored_as_a_resignation() -> None:
    match = claimed_match()
    assert [game.result.reason for game in match.games[:2] if game.result] == ["claim"] * 2
    text = export_mat(match)
    wins = re.findall(r"Wins \d+ points?.*", text)
    assert wins == ["Wins 1 point (claimed)", "Wins 2 points (claimed)"], text
    read = import_mat(text)
    assert [game.result.reason for game in read.games[:2] if game.result] == ["claim"] * 2
    assert read.score == match.score == (1, 2)
    assert export_mat(read) == text
    # In .sgf a claim is marked as the resignation it is scored as.
    assert export_sgf(match).count("R]") == 2


@pytest.mark.skipif(not HAVE_GNUBG, reason="GNU Backgammon (Debian package gnubg) is missing")
def test_gnubg_imports_a_claimed_game_without_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "claimed.mat"
    path.write_text(export_mat(claimed_match()))
    done = subprocess.run([GNUBG, "-t", "-q"], input=f"import mat {path}\nshow score\nquit\ny\n",
                          capture_output=True, text=True, timeout=120)
    output = done.stdout + done.stderr
    warnings = [line for line in output.splitlines()
                if re.search(r"warning|invalid|error|unknown|unrecognised", line, re.IGNORECASE)]
    assert not warnings, warnings
    assert "The score (after 2 games) is: Ann Lee 1, Bob 2" in output, output


def test_the_analysis_says_a_game_was_claimed() -> None:
    analysis = Analyser(plies=0).analyse(claimed_match())
    games = to_json(analysis)["games"]
    assert [game["claimed"] for game in games] == [True, True, False]
    text = text_report(analysis)
    assert "Game 1 (score 0-0): Ann Lee won 1 point, claimed (Bob had left)" in text, text
