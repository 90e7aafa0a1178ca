"""The FIBS rating formula against results worked out by hand and against FIBS's own figures.

Hand-worked: for D = 100 in a 9-point match, D*sqrt(n)/2000 = 0.15, 10^0.15 = 1.412538, so
P_upset = 1/2.412538 = 0.414501 and 4*sqrt(9) = 12: the favourite who wins gains
12 * 0.414501 = 4.974016, the underdog who wins 12 * 0.585499 = 7.025984.
"""

from __future__ import annotations

import pytest

from backgammon.ratings import (
    START_RATING,
    RatingError,
    experience_factor,
    rating_change,
    upset_probability,
)

SETTLED = 400  # experience at which K is 1


@pytest.mark.parametrize(
    ("winner", "loser", "length", "gain"),
    [
        (1850.0, 1750.0, 9, 4.974016),  # the favourite wins
        (1750.0, 1850.0, 9, 7.025984),  # the underdog wins
        (1500.0, 1500.0, 1, 2.0),  # 4 * 1 * 1/2
        (1500.0, 1500.0, 25, 10.0),  # 4 * 5 * 1/2
        # D = 400, n = 4: 10^(400*2/2000) = 10^0.4 = 2.511886; P_upset = 0.284747; 4*2 = 8
        (2000.0, 1600.0, 4, 8 * 0.284747),
        (1600.0, 2000.0, 4, 8 * 0.715253),
    ],
)
def test_settled_players_exchange_what_the_formula_says(
    winner: float, loser: float, length: int, gain: float
) -> None:
    change = rating_change(winner, loser, length, SETTLED, SETTLED)
    assert change.winner == pytest.approx(gain, abs=1e-5)
    assert change.loser == pytest.approx(-gain, abs=1e-5)


# FIBS players' table of the share of matches a favourite must win to hold their rating
# (rec.games.backgammon, "batting average for favorite to maintain his rating"): 1 - P_upset.
@pytest.mark.parametrize(
    ("difference", "length", "share"),
    [(100, 1, 0.529), (100, 9, 0.585), (200, 5, 0.626), (300, 3, 0.645), (400, 11, 0.822),
     (700, 7, 0.894)],
)
def test_the_favourites_break_even_share_matches_the_fibs_table(
    difference: int, length: int, share: float
) -> None:
    assert 1 - upset_probability(difference, length) == pytest.approx(share, abs=0.0005)
    # At that share of wins the favourite's expected change is nothing.
    win = rating_change(START_RATING + difference, START_RATING, length, SETTLED, SETTLED)
    loss = rating_change(START_RATING, START_RATING + difference, length, SETTLED, SETTLED)
    expected = share * win.winner + (1 - share) * loss.loser
    assert abs(expected) < 0.01


@pytest.mark.parametrize(
    ("experience", "factor"), [(0, 5.0), (1, 4.99), (100, 4.0), (250, 2.5), (400, 1.0), (5000, 1.0)]
)
def test_new_players_move_faster(experience: int, factor: float) -> None:
    assert experience_factor(experience) == pytest.approx(factor)


def test_each_player_is_boosted_by_their_own_experience_only() -> None:
    # Equal ratings, 1 point: the base change is 2; a new winner gains 10, a settled loser
    # loses 2, and the other way round.
    new_wins = rating_change(1500.0, 1500.0, 1, winner_experience=0, loser_experience=SETTLED)
    assert (new_wins.winner, new_wins.loser) == (10.0, -2.0)
    settled_wins = rating_change(1500.0, 1500.0, 1, winner_experience=SETTLED,
                                 loser_experience=150)
    assert (settled_wins.winner, settled_wins.loser) == (2.0, -7.0)


def test_only_matches_to_a_length_are_rated() -> None:
    with pytest.raises(RatingError, match="one point or more"):
        rating_change(1500.0, 1500.0, 0, 0, 0)
