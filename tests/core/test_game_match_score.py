"""Match.score_for: the score of a game of a match as one seat sees it, as the core's
MatchScore (the match's games also carry it, and a game's JSON stays as it was)."""

from __future__ import annotations

import pytest

from backgammon import WinKind
from backgammon.cube import MAX_MATCH_LENGTH, MatchScore
from backgammon.dice import ManualDice
from backgammon.errors import BackgammonError
from backgammon.formats.mat import import_mat
from backgammon.game.match import Match


def test_score_for_each_game_and_seat() -> None:
    match = Match(3, dice=ManualDice(["6 1", "6 1", "6 1"]))
    for _ in range(2):
        match.game.roll(0)
        match.game.resign(0)  # seat 0, on roll, gives seat 1 a point
        match.game.accept(1)
    assert [match.score_for(i, 0) for i in range(3)] == [
        MatchScore(3, (0, 0)),
        MatchScore(3, (0, 1)),
        MatchScore(3, (0, 2), crawford=True),
    ]
    assert match.score_for(2, 1) == MatchScore(3, (2, 0), crawford=True)
    for index in range(3):
        assert match.score_for(index, 0) == match.games[index].score
        score = match.score_for(index, 1)
        assert score is not None and score.score == match.scores_before(index)[::-1]


def test_a_money_session_has_no_match_score() -> None:
    match = Match(0, dice=ManualDice(["6 1"]))
    match.game.roll(0)
    match.game.resign(0, WinKind.GAMMON)
    match.game.accept(1)
    assert match.score_for(0, 0) is None and match.score_for(1, 1) is None


def test_the_score_is_not_saved_with_a_game() -> None:
    match = Match(3)
    assert "score" not in match.game.to_dict()
    rebuilt = Match.from_json(match.to_json())
    assert rebuilt.score_for(0, 1) == MatchScore(3, (0, 0))


def test_one_match_length_limit_everywhere() -> None:
    """Matches go to at most MAX_MATCH_LENGTH points (gnubg's 64, which the match equity
    table covers): the match, its score and a .mat file's header all refuse longer ones."""
    assert Match(MAX_MATCH_LENGTH).length == 64
    for make in (lambda: Match(65), lambda: MatchScore(65)):
        with pytest.raises(BackgammonError, match="64"):
            make()
    with pytest.raises(BackgammonError):
        import_mat(" 65 point match\n\n Game 1\n A : 0    B : 0\n")
