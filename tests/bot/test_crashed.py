"""GNU Backgammon's crashed class (:func:`backgammon.bot.encoding.is_crashed`): hand-built
positions on each side of each of its rules, and the same class as gnubg-nn's own
``classify`` on positions of random games."""

from __future__ import annotations

import numpy as np
import pytest
from test_kernel import random_positions

from backgammon import Position
from backgammon.bot.encoding import boards, is_crashed

# The other side in the hand-built positions: 15 checkers in contact, never crashed.
_SOUND = {20: 2, 13: 5, 8: 3, 6: 5}


def crashed(mine: dict[int | str, int], theirs: dict[int | str, int] = _SOUND) -> bool:
    return bool(is_crashed(*boards([Position.from_points(mine, theirs)]))[0])


def test_six_checkers_in_play_have_crashed_and_seven_have_not() -> None:
    assert crashed({24: 1, 6: 5})  # nine off
    assert not crashed({24: 1, 6: 4, 4: 2})
    # The other side's checkers count alike: on roll or not.
    assert crashed(_SOUND, {24: 1, 6: 5})


def test_checkers_piled_on_the_ace_point_do_not_count() -> None:
    # Seven in play, two of them on the ace point: five besides them.
    assert crashed({24: 2, 6: 3, 1: 2})
    # One checker on the ace point is no pile: seven in play.
    assert not crashed({24: 2, 6: 4, 1: 1})
    # Ten in play, four on the ace point: six besides.
    assert crashed({24: 2, 6: 4, 1: 4})
    assert not crashed({24: 2, 6: 5, 1: 4})


def test_a_pile_on_the_deuce_point_counts_but_one() -> None:
    # Ace and deuce points both piled (3 and 3): 13 in play, 13 - 3 - 3 + 1 = 8: not crashed;
    # with two fewer elsewhere, 6: crashed, although the ace point alone leaves 8.
    assert not crashed({24: 2, 8: 3, 6: 2, 2: 3, 1: 3})
    assert crashed({24: 2, 8: 1, 6: 2, 2: 3, 1: 3})
    # No pile on the ace point: the deuce point's checkers but one are set aside.
    assert crashed({24: 2, 6: 2, 2: 4, 1: 1})  # 9 in play, 9 - 3 = 6
    assert not crashed({24: 2, 6: 3, 2: 4, 1: 1})


def test_races_are_never_crashed() -> None:
    # Three checkers a side and no contact: a race, whatever the count.
    assert not crashed({6: 3}, {6: 3})
    assert crashed({24: 1, 6: 2}, {6: 3})


def test_the_class_is_gnubg_nns_on_random_games() -> None:
    gnubg_nn = pytest.importorskip("gnubg_nn")
    positions = [p for p in random_positions(6000, seed=5)
                 if sum(p.mine) == 15 and not p.is_game_over()]
    ours = is_crashed(*boards(positions))
    theirs = np.array([
        gnubg_nn.classify([list(p.theirs[1:26]), list(p.mine[1:26])]) == 4 for p in positions
    ])
    np.testing.assert_array_equal(ours, theirs)
    assert 50 < ours.sum() < len(positions) - 1000
