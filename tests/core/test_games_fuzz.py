"""Random play of every game (seeded): whatever the dice, the rules keep the board sound.

Each game is played many times with a random legal play each turn, and after every play:
the checkers are conserved (each side's 15 are on the points, on the bar, pinned, waiting to
enter or off), no point holds what the game forbids (``GameRules.check``: two sides on a point
only where one is pinned, no bar in games without hits), the mover's checkers only moved
forward, each play's steps replay to its result, the opponent's checkers moved only when hit
(pinned where they stand in Plakoto), the dice's order changes nothing, and every game ends
with a score the game allows.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from backgammon import BAR, Side
from backgammon.games import (
    GAMES,
    Board,
    Ending,
    GamePlay,
    GameRules,
    LoneChecker,
    Stage,
    rules_for,
)
from backgammon.games.base import six_block_without_opponent_ahead

#: Games each fuzz plays: enough for every ending to come up, about 3 s of CPU a game.
GAMES_EACH = 100
#: No game here lasts this many turns (a side needs at most ~380 pips of dice).
MOST_TURNS = 1000


def play_randomly(rules: GameRules, rng: random.Random) -> tuple[int, Counter[str]]:
    """Play one game at random to its end, checking every play; the winner's points (for
    the side that started, negative when it lost) and what happened on the way."""
    board = rules.initial()
    seen: Counter[str] = Counter()
    starter_on_roll = True
    for _ in range(MOST_TURNS):
        board = play_turn(rules, board, rng, seen)
        starter_on_roll = not starter_on_roll
        result = rules.outcome(board)
        if result is not None:
            assert result.points == rules.points[result.ending]
            seen[result.ending.value] += 1
            if result.winner is None:
                return 0, seen
            starter_won = (result.winner is Side.ON_ROLL) == starter_on_roll
            return (result.points if starter_won else -result.points), seen
    raise AssertionError(f"{rules.name}: no end after {MOST_TURNS} turns")


def play_turn(rules: GameRules, board: Board, rng: random.Random,
              seen: Counter[str]) -> Board:
    """One whole turn at random, its throws again and named doubles (Acey-deucey's 1-2)
    included; the board after it, the opponent on roll."""
    stage = Stage.THROW
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    while True:
        plays = rules.legal_plays(board, dice)
        if not plays:
            seen["no move"] += 1
            return board.flip()
        play = rng.choice(plays)
        check_play(rules, play, dice)
        if rng.random() < 0.1:  # the order of the dice never matters
            assert {p.result for p in rules.legal_plays(board, dice[::-1])} == \
                {p.result for p in plays}
        seen["hit" if any(step.hit for step in play.steps) else "quiet"] += 1
        waiting = play.board.mine_waiting, play.board.theirs_waiting
        board = rules.check(play.result)
        # Never more checkers to enter than before: a hit checker is not one that waits.
        assert board.theirs_waiting <= waiting[0] and board.mine_waiting <= waiting[1]
        if board.mine_pinned or board.theirs_pinned:
            seen["pinned"] += 1
        if rules.outcome(board) is not None:
            return board
        next_stage = rules.next_stage(play, dice, stage)
        if next_stage is None:
            return board
        seen[next_stage.value] += 1
        stage, board = next_stage, board.flip()
        if stage is Stage.NAMED_DOUBLE:
            die = rng.randint(1, 6)
            dice = (die, die)
        else:
            dice = (rng.randint(1, 6), rng.randint(1, 6))


def check_play(rules: GameRules, play: GamePlay, dice: tuple[int, int]) -> None:
    """A play uses the dice it may, moves only forward, and its steps make its result."""
    steps = play.steps
    assert len(steps) <= (4 if dice[0] == dice[1] else 2)
    mine = bytearray(play.board.mine)
    for step in steps:
        assert step.from_point > step.to_point, step
        assert mine[step.from_point] > 0, step
        mine[step.from_point] -= 1
        mine[step.to_point] += 1
    after = play.result.flip()  # the mover's view again
    assert bytes(mine) == after.mine
    assert sum(after.mine) == sum(after.theirs) == rules.checkers
    # The opponent's checkers move only when hit: to the bar, one a hitting step.
    theirs, before = after.theirs, play.board.theirs
    hits = sum(step.hit for step in steps)
    if rules.lone_checker is LoneChecker.HIT:
        assert theirs[BAR] - before[BAR] == hits
        assert sum(a != b for a, b in zip(theirs[1:BAR], before[1:BAR], strict=True)) == hits
    else:
        assert theirs == before
        # A pinner may move on in the same turn and free the checker it pinned.
        pins = bin(after.theirs_pinned & ~play.board.theirs_pinned).count("1")
        assert pins <= hits
    if rules.name in ("fevga", "long-nardy"):
        assert not six_block_without_opponent_ahead(after, rules.travel)
    if rules.name == "fevga":
        assert not all(after.mine[19:25])


@pytest.mark.parametrize("name", GAMES)
def test_random_play_keeps_every_game_sound_and_every_game_ends(name: str) -> None:
    rules = rules_for(name)
    rng = random.Random(f"fuzz {name}")
    # Backgammon's layouts are fuzzed elsewhere; Acey-deucey's turns are the longest.
    games = {"standard": 10, "nackgammon": 10, "acey-deucey": 50}.get(name, GAMES_EACH)
    scores: Counter[int] = Counter()
    seen: Counter[str] = Counter()
    for _ in range(games):
        score, happened = play_randomly(rules, rng)
        scores[score] += 1
        seen.update(happened)
    allowed = set(rules.points.values())
    assert {abs(score) for score in scores} <= allowed
    # Both sides win sometimes, and the game's special endings come up.
    assert any(s > 0 for s in scores) and any(s < 0 for s in scores), scores
    if name == "plakoto":
        assert seen["pinned"] and seen[Ending.MOTHER.value], seen
    if name in ("portes", "tavla", "standard", "acey-deucey"):
        assert seen["hit"], seen
    if name == "acey-deucey":
        assert seen[Stage.NAMED_DOUBLE.value] and seen[Stage.THROW.value], seen
    if rules.lone_checker.value == "holds":
        assert not seen["hit"]


def test_a_pinned_checker_stays_put_until_its_pinner_leaves() -> None:
    """Plakoto, in random play: a checker pinned before a play is still on its point after it,
    unless the pinner's last checker left that point in the play."""
    rules = rules_for("plakoto")
    rng = random.Random(3)
    checked = 0
    for _ in range(40):
        board = rules.initial()
        while rules.outcome(board) is None:
            plays = rules.legal_plays(board, (rng.randint(1, 6), rng.randint(1, 6)))
            if not plays:
                board = board.flip()
                continue
            play = rng.choice(plays)
            after = play.result.flip()
            for point in board.pinned()[0]:
                assert after.mine[point] == 1
                assert not any(step.from_point == point for step in play.steps)
                checked += 1
            for point in board.pinned()[1]:
                if point not in after.pinned()[1]:
                    assert after.mine[25 - point] == 0  # the pinner left
            board = play.result
    assert checked > 100


def test_same_way_games_never_share_a_point() -> None:
    """Fevga and Long Nardy: no point ever holds checkers of both sides."""
    for name in ("fevga", "long-nardy"):
        rules = rules_for(name)
        rng = random.Random(name)
        board: Board = rules.initial()
        for _ in range(300):
            plays = rules.legal_plays(board, (rng.randint(1, 6), rng.randint(1, 6)))
            board = rng.choice(plays).result if plays else board.flip()
            for point in range(1, 25):
                assert not (board.mine[point] and board.theirs[rules.travel.their_point(point)])
            if rules.outcome(board) is not None:
                board = rules.initial()
