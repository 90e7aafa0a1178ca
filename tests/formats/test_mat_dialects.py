"""The online sites' dialects of the .mat format: Backgammon
Galaxy's ``Losses N points`` in the loser's column, points written capped at what ended the
match (Galaxy and Backgammon Studio), and an absurd points figure.

The files in tests/data/mat_dialects/ were written from the issue's description of those
exports (random matches played through the rules, their ends rewritten in each dialect), not
taken from the sites. Debian's gnubg reads every one of them without a warning and ends on
the scores asserted here (checked by importing each into Debian's gnubg, `import mat FILE`,
and reading its warnings and final score).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from backgammon.formats.mat import MatFormatError, MatWarning, import_mat, read_mat
from backgammon.position import WinKind

DIALECTS = Path(__file__).parents[1] / "data" / "mat_dialects"

# Each file: the match's score by the rules, each game's (winner, points, how it ended), and
# the lines that get a warning.
BEAR_OFF_7_0 = [(0, 1, "bear off"), (0, 4, "bear off"), (0, 2, "bear off")]
EXPECTED: dict[str, tuple[tuple[int, int], list[tuple[int, int, str]], list[int]]] = {
    "galaxy_losses_beside_wins": ((7, 0), BEAR_OFF_7_0, []),
    "galaxy_losses_after_last_move": ((7, 0), BEAR_OFF_7_0, []),
    "galaxy_losses_own_line": ((7, 0), BEAR_OFF_7_0, []),
    "galaxy_capped_gammon": ((0, 8), [(1, 8, "bear off")], []),
    "galaxy_absurd_points": ((7, 0), BEAR_OFF_7_0, [102]),
    "studio_capped_backgammon": ((9, 0), [(0, 6, "bear off"), (0, 3, "bear off")], []),
    "studio_capped_backgammon_5pt": ((6, 0), [(0, 6, "bear off")], []),
}


def test_every_dialect_sample_has_its_expectation() -> None:
    assert {path.stem for path in DIALECTS.glob("*.mat")} == set(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_each_dialect_sample_is_read_with_the_rules_score(name: str) -> None:
    score, results, warned = EXPECTED[name]
    warnings: list[MatWarning] = []
    match = read_mat(DIALECTS / f"{name}.mat", warnings)
    assert match.score == score
    assert match.is_over and match.winner == (0 if score[0] > score[1] else 1)
    assert [
        (game.result.winner, game.result.points, game.result.reason)
        for game in match.games
        if game.result is not None
    ] == results
    assert [warning.line for warning in warnings] == warned


def test_the_dialect_samples_are_what_their_names_say() -> None:
    """Each sample holds the feature it is named for, so that the test above reads it."""
    text = {name: (DIALECTS / f"{name}.mat").read_text() for name in EXPECTED}
    assert "Wins 1 point                    Losses 1 point" in text["galaxy_losses_beside_wins"]
    assert "53: 1/0                      Losses 2 point\n" in text["galaxy_losses_after_last_move"]
    own_line = "\n" + " " * 34 + "Losses 2 points\n      Wins 2 points and the match"
    assert own_line in text["galaxy_losses_own_line"]
    assert "Losses 7 points             Wins 7 points and the match" in text["galaxy_capped_gammon"]
    assert "Wins 4016 points" in text["galaxy_absurd_points"]
    assert "Wins 1 point and the match" in text["studio_capped_backgammon"]
    assert "Wins 5 points and the match" in text["studio_capped_backgammon_5pt"]


def test_an_absurd_figure_is_read_past_with_a_warning_naming_the_line() -> None:
    warnings: list[MatWarning] = []
    match = read_mat(DIALECTS / "galaxy_absurd_points.mat", warnings)
    assert match.games[1].result is not None and match.games[1].result.points == 4
    (warning,) = warnings
    assert str(warning).startswith("Line 102: The file gives 4016 points")
    assert "read as 4" in warning.message
    # Without a list the file is read all the same.
    assert read_mat(DIALECTS / "galaxy_absurd_points.mat").score == (7, 0)


GAME = " 3 point match\n Game 1\n A : 0                          B : 0\n  1) 31: 8/5 6/5\n"


def test_losses_alone_says_who_resigned() -> None:
    """A game with no "Wins" line, only the loser's "Losses": the other player won."""
    match = import_mat(GAME + "  2)                              Losses 1 point\n")
    result = match.games[0].result
    assert result is not None and (result.winner, result.points, result.reason) == (
        0,
        1,
        "resign",
    )


def test_a_resignation_capped_at_the_match_end_is_the_least_that_ends_it() -> None:
    warnings: list[MatWarning] = []
    match = import_mat(GAME + "      Wins 3 points and the match\n", warnings)
    result = match.games[0].result
    assert result is not None and (result.winner, result.kind) == (0, WinKind.BACKGAMMON)
    assert match.is_over and warnings == []


def test_an_absurd_resignation_figure_is_read_with_a_warning() -> None:
    warnings: list[MatWarning] = []
    match = import_mat(GAME + "      Wins 5 points\n", warnings)
    assert match.is_over and match.winner == 0
    assert [(warning.line, "more than the 3" in warning.message) for warning in warnings] == [
        (5, True)
    ]


def test_an_absurd_resignation_figure_mid_match_is_read_from_the_next_score() -> None:
    text = (
        GAME + "      Wins 40 points\n\n Game 2\n A : 2                          B : 0\n"
    )
    warnings: list[MatWarning] = []
    match = import_mat(text, warnings)
    result = match.games[0].result
    assert result is not None and (result.kind, result.points) == (WinKind.GAMMON, 2)
    assert [warning.line for warning in warnings] == [5]
    assert "next score line shows 2" in warnings[0].message


def test_losses_in_the_winners_column_is_refused() -> None:
    """A "Losses" entry that contradicts the "Wins" one: which player won is not clear."""
    text = GAME.replace("8/5 6/5\n", "8/5 6/5                 Losses 1 point\n")
    with pytest.raises(MatFormatError, match="Line 4: Seat 1 won this game, not seat 0"):
        import_mat(text + "                                  Wins 1 point\n")
