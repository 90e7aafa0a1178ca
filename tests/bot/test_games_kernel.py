"""The compiled move generator of the other games (``bot/kernel/boards.py``) against the
core's rules objects: on boards of seeded random games, all 21 rolls, the kernel gives the
core's results, in the core's order (Portes: the same set, since its core is backgammon's own
generator), the same number of dice used, and the same outcome."""

from __future__ import annotations

import random
from functools import cache

import numpy as np
import pytest

from backgammon.bot.games.match import DiceStream
from backgammon.bot.kernel import boards as kb
from backgammon.games import Board, rules_for

OTHER_GAMES = ("portes", "tavla", "plakoto", "fevga", "long-nardy", "acey-deucey")
#: Boards a game, each with its 21 rolls (about a minute a game on one core).
BOARDS = 1_000
ROLLS = [(a, b) for a in range(1, 7) for b in range(1, a + 1)]


@cache
def random_boards(game: str, count: int = BOARDS) -> tuple[Board, ...]:
    """Boards of seeded random games (every third board a game, so that more games are
    seen), each on the roll of whoever is to throw, Acey-deucey's throws again included."""
    rules = rules_for(game)
    rng = random.Random(f"kernel-{game}")
    boards: list[Board] = []
    games = 0
    while len(boards) < count:
        board, dice = rules.initial(), DiceStream(f"kernel-{game}-{games}")
        games += 1
        for turn in range(2_000):
            if turn % 3 == games % 3:
                boards.append(board)
            plays = rules.legal_plays(board, dice.throw())
            if not plays:
                board = board.flip()
                continue
            board = rng.choice(plays).result
            if rules.outcome(board) is not None:
                break
    return tuple(boards[:count])


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_the_kernel_gives_the_cores_results(game: str) -> None:
    rules = rules_for(game)
    code = kb.game_code(game)
    boards = random_boards(game)
    arrays = kb.boards_array(boards)
    ws = kb.workspace()
    for board, array in zip(boards, arrays, strict=True):
        for d1, d2 in ROLLS:
            plays = rules.legal_plays(board, (d1, d2))
            count = kb.generate(ws, code, array, d1, d2)
            results = [kb.board_of_array(r) for r in ws[7][:count]]
            core = [play.result for play in plays]
            if game == "portes":
                assert len(results) == len(set(results)) and set(results) == set(core)
            else:
                assert results == core, (board, (d1, d2))
            if plays:
                assert ws[9][2] == len(plays[0].steps)


def test_the_boards_cover_the_special_stages() -> None:
    plakoto = kb.boards_array(random_boards("plakoto"))
    assert (plakoto[:, 2:, 1:25].sum(axis=(1, 2)) > 0).sum() > 300  # pinned checkers
    assert (plakoto[:, 2:, 24].sum(axis=1) > 0).sum() > 10  # a pinned mother
    acey = kb.boards_array(random_boards("acey-deucey"))
    assert (acey[:, 2, 0] > 0).sum() > 100  # checkers yet to enter
    assert (acey[:, 0, 25] > acey[:, 2, 0]).sum() > 50  # a hit checker on the bar
    nardy = kb.boards_array(random_boards("long-nardy"))
    assert (nardy[:, 0, 24] == 15).sum() >= 2  # a first throw from the head


@pytest.mark.parametrize("game", OTHER_GAMES)
def test_the_kernel_scores_games_as_the_core(game: str) -> None:
    rules = rules_for(game)
    code = kb.game_code(game)
    ended = 0
    boards = random_boards(game)
    for board in boards:
        for play in rules.legal_plays(board, (6, 5)) + rules.legal_plays(board, (2, 2)):
            result = rules.outcome(play.result)
            over, points = kb.outcome(code, kb.board_array(play.result))
            assert over == (result is not None)
            if result is not None:
                ended += 1
                mine = result.points if result.winner is not None and \
                    result.winner.value == "on roll" else -result.points
                assert points == (0 if result.winner is None else mine)
    assert ended > 0


@pytest.mark.parametrize(("game", "board", "dice", "count"), [
    # Long Nardy: two checkers from the head on a first 6-6, one otherwise.
    ("long-nardy", None, (6, 6), 1),
    ("long-nardy", None, (6, 5), 1),
    # Fevga: the first checker passes the opponent's start before a second leaves.
    ("fevga", None, (6, 5), 1),
    # Acey-deucey: all enter from off the board.
    ("acey-deucey", None, (2, 1), 2),
])
def test_starting_rolls(game: str, board: Board | None, dice: tuple[int, int],
                        count: int) -> None:
    rules = rules_for(game)
    start = rules.initial() if board is None else board
    assert len(kb.legal_results(game, start, dice)) == count


def test_boards_go_to_arrays_and_back() -> None:
    board = Board.from_points({24: 14, 5: 1}, {24: 13, 20: 1, 3: 1}, mine_pinned=[5])
    array = kb.board_array(board)
    assert kb.board_of_array(array) == board
    flipped = np.empty_like(array)
    kb.flip(array, flipped)
    assert kb.board_of_array(flipped) == board.flip()


def test_a_game_the_kernel_does_not_play_is_refused() -> None:
    with pytest.raises(Exception, match="kernel plays"):
        kb.game_code("standard")
