"""Pubeval: Tesauro's public linear evaluator, the usual baseline opponent of backgammon bots.

It scores the position after each legal play, from the mover's side, with one of two weight
vectors (race or contact, chosen by the position before the play) and picks the highest score.
Its inputs for each of the mover's points: an opposing blot there; one checker, two or more,
exactly three, and half of each checker beyond three; then the opposing checkers on the bar
(halved) and the mover's checkers borne off (over 15). The weights are Tesauro's, as posted
(:mod:`backgammon.bot._pubeval_weights`).

>>> from backgammon import Position
>>> str(PubEval().best_play(Position.initial(), (3, 1)))
'8/5 6/5'
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from ..moves import Play
from ..position import Position
from . import _pubeval_weights
from .encoding import Board, boards

Scores = NDArray[np.float64]


def _tables(weights: Sequence[float]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Per mover's point 1..24 (rows 1..24): the score of each count 0..15 of the mover's
    checkers, and the score of an opposing blot."""
    w = np.asarray(weights, dtype=np.float64)
    mover = np.zeros((25, 16))
    blot = np.zeros(25)
    counts = np.arange(16)
    for point in range(1, 25):
        base = 5 * (24 - point)
        blot[point] = w[base]
        mover[point] = np.select(
            [counts == 0, counts == 1, counts == 2, counts == 3],
            [0.0, w[base + 1], w[base + 2], w[base + 2] + w[base + 3]],
            w[base + 2] + w[base + 4] * (counts - 3) / 2,
        )
    return mover, blot


_RACE = (*_tables(_pubeval_weights.RACE), _pubeval_weights.RACE[120:])
_CONTACT = (*_tables(_pubeval_weights.CONTACT), _pubeval_weights.CONTACT[120:])
_POINTS = np.arange(1, 25)


def scores(mover: Board, opponent: Board, race: bool) -> Scores:
    """Pubeval's score of each row: the mover's and the opponent's counts after a play.

    A row where the mover has borne off every checker scores infinity, as in the original.
    """
    mover_table, blot_table, (bar_weight, off_weight) = _RACE if race else _CONTACT
    # The opponent's checkers on the mover's point p are on the opponent's point 25 - p.
    blots = opponent[:, 24:0:-1] == 1
    score = (
        mover_table[_POINTS, mover[:, 1:25]].sum(axis=1)
        + blots @ blot_table[1:]
        + bar_weight * opponent[:, 25] / 2.0
        + off_weight * mover[:, 0] / 15.0
    )
    return np.where(mover[:, 0] == mover.sum(axis=1), np.inf, score)


class PubEval:
    """Chooses plays by pubeval's score."""

    def choose(self, position: Position, plays: Sequence[Play]) -> Play:
        """The play, of ``plays`` (the legal plays of one roll), with the highest score."""
        # A play's result has the opponent on roll: its "theirs" side is the mover.
        opponent, mover = boards([play.result for play in plays])
        return plays[int(np.argmax(scores(mover, opponent, position.is_race())))]

    def best_play(self, position: Position, dice: tuple[int, int]) -> Play | None:
        """Pubeval's play of ``dice``, or None when no checker can move."""
        plays = position.legal_plays(dice)
        return self.choose(position, plays) if plays else None
