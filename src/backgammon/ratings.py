"""FIBS ratings: how a match's result moves the two players' ratings.

The formula is the First Internet Backgammon Server's, as its ``help formula`` states it
(quoted in the rec.games.backgammon archive, bkgm.com/rgb/rgb.cgi?view+1093, and in the
Backgammon FAQ's section "FIBS ratings"). For an ``n``-point match between players rated
``r1`` and ``r2``:

    Let D = abs(r1-r2) (rating difference)
    Let P_upset = 1/(10^(D*sqrt(n)/2000)+1) (probability that underdog wins)
    Let P=1-P_upset if the underdog wins and P=P_upset if the favorite wins.
    For the winner: Let K = max ( 1 , -experience/100+5 )
    The rating change is: 4*K*sqrt(n)*P
    For the loser: Let K = max ( 1 , -experience/100+5 )
    The rating change is: -4*K*sqrt(n)*P
    The 'experience' of a player is the sum of the lengths of all matches a player has
    finished. Every player starts with a rating of 1500 and an experience of 0.

Each player's ``K`` uses their own experience before the match (MacFIBS's help adds the
match's length to it first; FIBS's own text, followed here, does not), so a new player's
rating moves up to five times as fast until 400 points of experience. Equal ratings are no
upset either way: ``P_upset`` is then one half for whichever wins.

>>> change = rating_change(1850.0, 1750.0, length=9, winner_experience=500, loser_experience=500)
>>> round(change.winner, 4), round(change.loser, 4)
(4.974, -4.974)
>>> change = rating_change(1750.0, 1850.0, length=9, winner_experience=500, loser_experience=0)
>>> round(change.winner, 4), round(change.loser, 4)
(7.026, -35.1299)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from .errors import BackgammonError

#: Every player's rating before their first match, and their experience.
START_RATING = 1500.0
START_EXPERIENCE = 0
#: The experience past which a player's changes are no longer boosted (K is then 1).
SETTLED_EXPERIENCE = 400


class RatingError(BackgammonError):
    """A rating asked of a result that has none: a match length under one point."""


@dataclass(frozen=True)
class RatingChange:
    """What a match adds to the winner's rating (positive) and to the loser's (negative)."""

    winner: float
    loser: float


def upset_probability(difference: float, length: int) -> float:
    """The chance that the lower-rated player wins an ``length``-point match, given the
    ratings' ``difference`` (its sign does not matter).

    >>> upset_probability(0, 7)
    0.5
    >>> round(upset_probability(100, 9), 6), round(upset_probability(-100, 9), 6)
    (0.414501, 0.414501)
    """
    _check_length(length)
    return 1 / (10 ** (abs(difference) * math.sqrt(length) / 2000) + 1)


def experience_factor(experience: int) -> float:
    """K: 5 for a new player, falling by one every 100 points of experience to 1 at 400.

    >>> [experience_factor(e) for e in (0, 50, 100, 250, 390, 400, 2000)]
    [5.0, 4.5, 4.0, 2.5, 1.1, 1.0, 1.0]
    """
    return max(1.0, 5 - experience / 100)


def rating_change(
    winner_rating: float,
    loser_rating: float,
    length: int,
    winner_experience: int,
    loser_experience: int,
) -> RatingChange:
    """The changes of both ratings when the player rated ``winner_rating`` wins a
    ``length``-point match against the one rated ``loser_rating``.

    Equal ratings, a 1-point match, both players settled: two points change hands.

    >>> rating_change(1500.0, 1500.0, length=1, winner_experience=400, loser_experience=900)
    RatingChange(winner=2.0, loser=-2.0)

    The underdog who wins gains more than the favourite would have:

    >>> underdog = rating_change(1600.0, 1800.0, length=5, winner_experience=400,
    ...                          loser_experience=400)
    >>> favourite = rating_change(1800.0, 1600.0, length=5, winner_experience=400,
    ...                           loser_experience=400)
    >>> round(underdog.winner, 4), round(favourite.winner, 4)
    (5.5987, 3.3456)
    >>> rating_change(1500.0, 1500.0, length=0, winner_experience=0, loser_experience=0)
    Traceback (most recent call last):
    ...
    backgammon.ratings.RatingError: Only a match to one point or more is rated; this one is to 0.
    """
    upset = upset_probability(winner_rating - loser_rating, length)
    # P is the chance the result had of not happening: small when the favourite wins.
    surprise = upset if winner_rating >= loser_rating else 1 - upset
    base = 4 * math.sqrt(length) * surprise
    return RatingChange(
        winner=experience_factor(winner_experience) * base,
        loser=-experience_factor(loser_experience) * base,
    )


def _check_length(length: int) -> None:
    if length < 1:
        raise RatingError(
            f"Only a match to one point or more is rated; this one is to {length}."
        )
