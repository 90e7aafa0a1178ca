"""Properties of positions and legal plays that hold for every position, checked with hypothesis.

The positions come from seeded random games (a random legal play each turn) of all three
variants, so they are the positions real games reach: checkers on the bar, hits, bear-offs.
"""

from __future__ import annotations

import functools
import random
from itertools import permutations

from hypothesis import given, settings
from hypothesis import strategies as st

from backgammon import BAR, OFF, Play, Position, Step, Turn, Variant

Dice = tuple[int, int]

# Random games per variant that positions are drawn from; each is played once and kept, so
# the properties share the cost of playing them.
GAMES = 150

SETTINGS = settings(max_examples=150, deadline=None)


@functools.cache
def random_game(variant: Variant, seed: int) -> tuple[Position, ...]:
    """Every position of one game, start to last turn, with a random legal play each turn."""
    rng = random.Random(seed)
    position = Position.initial(variant)
    game = []
    while not position.is_game_over():
        game.append(position)
        plays = position.legal_plays((rng.randint(1, 6), rng.randint(1, 6)))
        position = rng.choice(plays).result if plays else position.flip()
    return tuple(game)


@st.composite
def positions(draw: st.DrawFn) -> Position:
    """A position from a random game: the variant, the game's seed and how far in.

    How far is per mille of the game's length. Only about one position in ten of a random game
    has a checker borne off, so half the draws come from the last tenth, where bearing off is.
    """
    variant = draw(st.sampled_from(list(Variant)))
    game = random_game(variant, draw(st.integers(min_value=0, max_value=GAMES - 1)))
    per_mille = draw(st.integers(0, 1000) | st.integers(900, 1000))
    return game[per_mille * (len(game) - 1) // 1000]


dice_rolls = st.tuples(st.integers(1, 6), st.integers(1, 6))


def dice_per_step(dice: Dice) -> list[int]:
    """The dice a roll gives to play: doubles four times."""
    return [dice[0]] * 4 if dice[0] == dice[1] else list(dice)


def step_is_legal(board: Position, step: Step, die: int) -> bool:
    """Whether one checker may make ``step`` with ``die`` on ``board``, by RULES.md alone.

    Written apart from the move generator: a checker on the bar must enter first; a point held
    by two or more opposing checkers is closed; bearing off needs every checker home, and a die
    above the checker's point needs no checker on a higher point.
    """
    mine, theirs = board.mine, board.theirs
    source, target = step.from_point, step.to_point
    if not mine[source] or (mine[BAR] and source != BAR):
        return False
    if target != OFF:
        return source - target == die and theirs[25 - target] < 2
    if any(mine[7:26]):
        return False
    return source == die or (source < die and not any(mine[source + 1 : 7]))


def dice_for_steps(position: Position, steps: tuple[Step, ...], dice: Dice) -> list[int] | None:
    """Dice for the steps, one each, that make every step legal in its turn; None if none do.

    An exact fit (each step moving its die's number) comes first when there is one.
    """
    fits = []
    for chosen in sorted(set(permutations(dice_per_step(dice), len(steps)))):
        board = position
        for index, (step, die) in enumerate(zip(steps, chosen, strict=True)):
            if not step_is_legal(board, step, die):
                break
            board = board_after(position, tuple(s[:2] for s in steps[: index + 1]))
        else:
            fits.append(list(chosen))
    fits.sort(key=sum)
    return fits[0] if fits else None


def die_can_move(position: Position, die: int) -> bool:
    """Whether any checker of the player on roll can move ``die`` pips."""
    for source in range(1, 26):
        target = max(source - die, OFF)
        if step_is_legal(position, Step(source, target), die):
            return True
    return False


def board_after(position: Position, moves: tuple[tuple[int, int], ...]) -> Position:
    """The board after checker moves (from, to), the mover still on roll: a blot landed on
    goes to the bar."""
    mine, theirs = list(position.mine), list(position.theirs)
    for source, target in moves:
        mine[source] -= 1
        mine[target] += 1
        if target != OFF and theirs[25 - target] == 1:
            theirs[25 - target] = 0
            theirs[BAR] += 1
    return Position(mine, theirs)


def check_hit_flags(position: Position, steps: tuple[Step, ...]) -> None:
    """Each step says it hits exactly when it lands on a blot of the board at that moment."""
    for index, step in enumerate(steps):
        before = board_after(position, tuple(s[:2] for s in steps[:index]))
        blot = step.to_point != OFF and before.theirs[25 - step.to_point] == 1
        assert step.hit == blot, f"step {step} of {position!r}: the hit flag is wrong"


@SETTINGS
@given(positions(), dice_rolls)
def test_checkers_are_conserved(position: Position, dice: Dice) -> None:
    for play in position.legal_plays(dice):
        after = play.result
        assert sum(after.mine) == sum(after.theirs) == position.checkers
        # The opponent (now on roll) has lost no borne-off checker, and the mover none.
        assert after.mine[OFF] == position.theirs[OFF]
        assert after.theirs[OFF] >= position.mine[OFF]


@SETTINGS
@given(positions(), dice_rolls)
def test_steps_lead_to_the_result(position: Position, dice: Dice) -> None:
    for play in position.legal_plays(dice):
        assert play.position == position
        check_hit_flags(position, play.steps)
        moves = tuple((step.from_point, step.to_point) for step in play.steps)
        assert board_after(position, moves) == play.result.flip()


@SETTINGS
@given(positions(), dice_rolls)
def test_every_step_is_legal_in_its_turn(position: Position, dice: Dice) -> None:
    for play in position.legal_plays(dice):
        assert dice_for_steps(position, play.steps, dice) is not None, f"{position!r} {play}"


@SETTINGS
@given(positions(), dice_rolls)
def test_pips_drop_by_the_pips_played(position: Position, dice: Dice) -> None:
    mine_before, theirs_before = position.pips()
    for play in position.legal_plays(dice):
        played = sum(step.from_point - step.to_point for step in play.steps)
        theirs_after, mine_after = play.result.pips()
        assert mine_before - mine_after == played
        # A hit checker on the mover's point t stands on the opponent's 25 - t: to the bar is t.
        assert theirs_after - theirs_before == sum(s.to_point for s in play.steps if s.hit)
        chosen = dice_for_steps(position, play.steps, dice)
        assert chosen is not None, f"{play} is not a move of {dice}"
        # Bearing off from below a die's number uses fewer pips than the die shows.
        assert played <= sum(chosen) <= sum(dice_per_step(dice))
        if sum(chosen) == played and len(play.steps) == len(dice_per_step(dice)):
            assert played == sum(dice_per_step(dice))


@SETTINGS
@given(positions(), dice_rolls)
def test_every_play_uses_as_many_dice_as_possible(position: Position, dice: Dice) -> None:
    plays = position.legal_plays(dice)
    lengths = {len(play.steps) for play in plays}
    assert len(lengths) <= 1, f"{position!r} {dice}: plays of {sorted(lengths)} steps"
    assert lengths <= set(range(1, len(dice_per_step(dice)) + 1))
    high, low = max(dice), min(dice)
    if lengths == {1} and high != low and die_can_move(position, high):
        # RULES.md: "if either can be used but not both, the larger must be used."
        for play in plays:
            assert step_is_legal(position, play.steps[0], high), f"{position!r} {dice}: {play}"


@SETTINGS
@given(positions(), dice_rolls)
def test_no_play_only_when_no_die_can_move(position: Position, dice: Dice) -> None:
    movable = die_can_move(position, dice[0]) or die_can_move(position, dice[1])
    assert bool(position.legal_plays(dice)) == movable


@SETTINGS
@given(positions(), dice_rolls)
def test_plays_are_distinct_and_do_not_depend_on_dice_order(position: Position, dice: Dice) -> None:
    plays = position.legal_plays(dice)
    assert len({play.result for play in plays}) == len(plays)
    assert len({str(play) for play in plays}) == len(plays)
    swapped = position.legal_plays((dice[1], dice[0]))
    assert {play.result for play in swapped} == {play.result for play in plays}


@SETTINGS
@given(positions())
def test_position_id_round_trip(position: Position) -> None:
    assert Position.from_id(position.id(), checkers=position.checkers) == position
    assert eval(repr(position), {"Position": Position}) == position


@SETTINGS
@given(positions())
def test_flip_twice_is_identity(position: Position) -> None:
    flipped = position.flip()
    assert flipped.flip() == position
    assert flipped.pips() == position.pips()[::-1]
    assert flipped.bar == position.bar[::-1]
    assert flipped.off == position.off[::-1]


@SETTINGS
@given(positions(), dice_rolls)
def test_parse_play_round_trip(position: Position, dice: Dice) -> None:
    plays = position.legal_plays(dice)
    # Parsing generates the plays again each time, so a roll with many plays is sampled.
    for play in plays[:: max(1, len(plays) // 20)]:
        text = str(play)
        assert position.parse_play(text, dice) == play
        # Hits need no marks (landing on a blot is a hit), and the moves may come in any order.
        assert position.parse_play(text.replace("*", ""), dice) == play
        assert position.parse_play(" ".join(reversed(text.split())), dice) == play


def complete_every_path(
    turn: Turn, position: Position, reached: set[Play], seen: set[tuple[Position, int]]
) -> None:
    """Follow every offered step to the end, collecting the plays the paths complete.

    With doubles every die is the same, so what may follow depends only on the board and the
    number of steps made: a board met again at the same depth is not followed twice (a heavy
    1-1 has thousands of orders of steps, and the cost grows with their square).
    """
    board = turn.current()
    assert board == board_after(position, turn.made)
    if turn.dice[0] == turn.dice[1]:
        if (board, len(turn.made)) in seen:
            return
        seen.add((board, len(turn.made)))
    steps = turn.legal_steps()
    if not steps:
        assert turn.is_complete, f"{position!r}: no step offered after {turn.made}"
        reached.add(turn.play())
        return
    assert not turn.is_complete, f"{position!r}: complete after {turn.made}, yet steps offered"
    for from_point, to_point in steps:
        after = turn.step(from_point, to_point)
        assert after.made == (*turn.made, (from_point, to_point))
        assert after.undo().made == turn.made
        complete_every_path(after, position, reached, seen)


@settings(max_examples=100, deadline=None)
@given(positions(), dice_rolls)
def test_turn_paths_reach_exactly_the_legal_plays(position: Position, dice: Dice) -> None:
    reached: set[Play] = set()
    complete_every_path(position.turn(dice), position, reached, set())
    plays = position.legal_plays(dice)
    if plays:
        assert {play.result for play in reached} == {play.result for play in plays}
    else:
        # A roll with no move: the turn is complete at once and passes to the opponent.
        assert [play.result for play in reached] == [position.flip()]
