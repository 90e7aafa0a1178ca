"""What a state shows of a game of the other games (:class:`~backgammon.game.BoardGame`): its
board (:class:`.schemas.GameBoardView`, with the travel, the pinned checkers and those waiting
to enter), the steps on it and the dice. :mod:`.views` makes the rest of the state alike for
every game (the record's entries from the history both games walk), and backgammon's board on
its own path.

>>> from backgammon.games import rules_for
>>> view = game_board_view(rules_for("fevga").initial(), 0, Travel.SAME)
>>> view.points[23], view.points[11], view.travel
(PointView(seat=0, count=15), PointView(seat=1, count=15), 'same')
"""

from __future__ import annotations

from functools import cache, lru_cache

from ...game import Phase
from ...game.board_game import BoardGame
from ...games import Board, Travel
from ...position import BAR, OFF
from ...turns import dice_of_steps
from .schemas import GameBoardView, PinView, PointView, StepView

#: How many boards are kept made: a few for each match in play.
KEPT = 1024

#: A checker's step, from a point to a point, on the mover's point numbers.
_Step = tuple[int, int]


def game_side(game: BoardGame, view: int) -> tuple[Board, int, list[_Step], tuple[_Step, ...]]:
    """The board as seat ``view`` sees it, the player moving, the steps that may come next
    and the steps made this turn (on the mover's point numbers)."""
    mover = game.on_roll
    board = game.turn.current() if game.turn is not None else game.position
    seen = board if view == mover else board.flip()
    steps = game.turn.legal_steps() if game.turn is not None and game.phase is Phase.MOVE else []
    made = game.turn.made if game.turn is not None else ()
    return seen, mover, steps, made


def game_sided_text(game: BoardGame, view: int) -> str:
    """The side of a state (its ``view``, ``board``, ``steps`` and ``made``) as the members
    of a JSON object, made of the texts of boards and steps made once."""
    seen, mover, steps, made = game_side(game, view)
    travel = game.game.travel
    return (
        f'"view":{view},"board":{_board_text(seen, view, travel)},'
        f'"steps":[{",".join(_step_text(a, b, mover, view, travel) for a, b in steps)}],'
        f'"made":[{",".join(_step_text(a, b, mover, view, travel) for a, b in made)}]'
    )


def game_sided(game: BoardGame, view: int) -> dict[str, object]:
    """:func:`game_sided_text`'s members as values."""
    seen, mover, steps, made = game_side(game, view)
    travel = game.game.travel
    return {
        "view": view,
        "board": game_board_view(seen, view, travel),
        "steps": [game_step_view(a, b, mover, view, travel) for a, b in steps],
        "made": [game_step_view(a, b, mover, view, travel) for a, b in made],
    }


@lru_cache(KEPT)
def game_board_view(seen: Board, view: int, travel: Travel) -> GameBoardView:
    """The checkers of ``seen`` (``view``'s side) placed by seat: each of the viewer's points
    with the side on top of it (a pinned checker lies under its pinner's), the pinned ones
    apart, and the checkers waiting to enter apart from those on the bar."""
    other = 1 - view
    mine, theirs = seen.mine, seen.theirs
    mine_pinned, theirs_pinned = seen.pinned()
    points, pinned = [], []
    for point in range(1, 25):
        across = travel.their_point(point)
        if point in mine_pinned and theirs[across]:
            points.append(PointView(seat=other, count=theirs[across]))
            pinned.append(PinView(point=point, seat=view))
        elif mine[point]:
            points.append(PointView(seat=view, count=mine[point]))
            if across in theirs_pinned:
                pinned.append(PinView(point=point, seat=other))
        elif theirs[across]:
            points.append(PointView(seat=other, count=theirs[across]))
        else:
            points.append(PointView(seat=None, count=0))
    pips = seen.pips()

    def by_seat(own: int, opponent: int) -> list[int]:
        return [own, opponent] if view == 0 else [opponent, own]

    return GameBoardView(
        points=points,
        bar=by_seat(mine[BAR], theirs[BAR]),
        off=by_seat(mine[OFF], theirs[OFF]),
        pips=by_seat(pips[0], pips[1]),
        travel=travel.value,
        pinned=pinned,
        waiting=by_seat(seen.mine_waiting, seen.theirs_waiting),
    )


@lru_cache(KEPT)
def _board_text(seen: Board, view: int, travel: Travel) -> str:
    return game_board_view(seen, view, travel).model_dump_json()


@cache
def game_step_view(from_point: int, to_point: int, mover: int, view: int,
                   travel: Travel) -> StepView:
    """A step of ``mover``'s (on their point numbers) with the places it joins on seat
    ``view``'s board: the mover's bar and tray keep their numbers, a point is the viewer's
    number for it (which the games' travel fixes).

    >>> game_step_view(24, 20, 1, 0, Travel.SAME).board_from
    12
    """

    def place(point: int) -> int:
        if point in (BAR, OFF) or mover == view:
            return point
        return travel.their_point(point)

    return StepView.model_validate(
        {"from": from_point, "to": to_point, "board_from": place(from_point),
         "board_to": place(to_point)}
    )


@cache
def _step_text(from_point: int, to_point: int, mover: int, view: int, travel: Travel) -> str:
    return game_step_view(from_point, to_point, mover, view, travel).model_dump_json(
        by_alias=True)


def game_dice(game: BoardGame) -> list[tuple[int, bool]]:
    """The dice of the roll being played, highest first (a double is four), each with
    whether a step made has used it."""
    if game.turn is None or game.phase not in (Phase.MOVE, Phase.CONFIRM):
        return []
    dice = game.turn.dice
    faces = [dice[0]] * 4 if dice[0] == dice[1] else sorted(dice, reverse=True)
    left = list(dice_of_steps(dice, game.turn.made))
    shown = []
    for face in faces:
        used = face in left
        if used:
            left.remove(face)
        shown.append((face, used))
    return shown
