"""A position set up by hand, as the page's position editor (``/editor``) sets one: the checkers
of both sides, who is on roll, the dice (or none: to roll), the cube, the match (or money) and
the variant; checked as the rules check a game set up from an ID, and written as the GNU
Backgammon ID and the XGID (:mod:`.ids`), or read back from either.

A side's checkers are given by seat, each on that seat's own point numbers, as 25 counts:
points 1 to 24, then the bar. Whatever of the variant's checkers is not on the board is borne
off, as GNU Backgammon's editor has it: a side may have fewer checkers on the board than the
variant has, never more.

>>> start = [0, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0]
>>> edited = Edited((start, start), dice=(3, 1), length=7)
>>> edited.ids()
('4HPwATDgc/ABMA:MIHlAAAAAAAE', 'XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10')
>>> Edited.from_id("XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:7:10") == edited
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..cube import MAX_MATCH_LENGTH, is_whole
from ..errors import BackgammonError, InvalidPositionError
from ..game import Rules, SetUp
from ..game.match import Match
from ..position import BAR, Position
from ..variants import Variant
from .ids import IdSetting, gnubg_id_of, setup_from_id, xgid_of

#: A side's checkers on the board, on its own point numbers: points 1 to 24, then the bar.
Board = tuple[int, ...]


@dataclass(frozen=True)
class Edited:
    """A position set up in the editor, by seat (seat 0 is GNU Backgammon's player 0 and
    XG's bottom player). Constructing one checks it, with a sentence that says what cannot
    be (:class:`~backgammon.errors.BackgammonError`).

    >>> Edited(([0] * 5 + [16] + [0] * 19, [1] + [0] * 24))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    backgammon.errors.InvalidPositionError: Seat 0 has 16 checkers on the board; a side has 15 ...
    """

    boards: tuple[Sequence[int], Sequence[int]]
    variant: Variant = Variant.STANDARD
    on_roll: int = 0
    dice: tuple[int, int] | None = None
    cube_value: int = 1
    cube_owner: int | None = None
    length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False

    def __post_init__(self) -> None:
        variant = Variant(self.variant)
        object.__setattr__(self, "variant", variant)
        boards = (_board(self.boards, 0, variant), _board(self.boards, 1, variant))
        object.__setattr__(self, "boards", boards)
        self.match()  # every refusal of the rules, said once, by the rules

    @property
    def position(self) -> Position:
        """The position seen from the player on roll."""
        checkers = self.variant.checkers
        sides = [[checkers - sum(board), *board] for board in self.boards]
        if self.on_roll not in (0, 1):
            raise BackgammonError(f"The player on roll is seat 0 or 1; got {self.on_roll!r}.")
        return Position(sides[self.on_roll], sides[1 - self.on_roll])

    def setting(self) -> IdSetting:
        """The game to set up, as an ID would give it."""
        setup = SetUp(self.position, on_roll=self.on_roll, dice=self.dice,
                      cube_value=self.cube_value, cube_owner=self.cube_owner)
        return IdSetting(setup, self.length, self.score, self.crawford)

    def match(self) -> Match:
        """The match that plays on from here (a money session when ``length`` is 0)."""
        if not is_whole(self.length) or not 0 <= self.length <= MAX_MATCH_LENGTH:
            raise BackgammonError(
                f"A match is to 1 to {MAX_MATCH_LENGTH} points, or 0 for money; "
                f"got {self.length!r}."
            )
        if not self.length and self.score != (0, 0):
            raise BackgammonError(
                "Money play has no score; a score is for a match.", code="money_score"
            )
        if self.crawford and (self.cube_value != 1 or self.cube_owner is not None):
            raise BackgammonError(
                "Nobody doubles in the Crawford game: the cube stays at 1 in the middle.",
                code="crawford_cube",
            )
        setting = self.setting()
        return setting.match(self.length, Rules(self.variant))

    def ids(self) -> tuple[str, str]:
        """The GNU Backgammon ID (``PositionID:MatchID``) and the XGID."""
        match = self.match()
        return gnubg_id_of(match), xgid_of(match)

    @classmethod
    def initial(cls, variant: Variant | str = Variant.STANDARD) -> Edited:
        """The starting position of ``variant``, seat 0 to roll, in money play.

        >>> Edited.initial("hypergammon").ids()[0]
        'AACgAgAAKgAAAA:MAEAAAAAAAAE'
        """
        layout = Variant(variant).layout
        board = tuple(layout.get(point, 0) for point in range(1, BAR + 1))
        return cls((board, board), Variant(variant))

    @classmethod
    def from_id(cls, text: str, variant: Variant | str = Variant.STANDARD) -> Edited:
        """The position that a GNU Backgammon Position ID (seat 0 on roll, money play), a full
        GNU Backgammon ID or an XGID holds, in ``variant`` (the IDs do not say which)."""
        variant = Variant(variant)
        setting = setup_from_id(text, checkers=variant.checkers)
        setup = setting.setup
        position = setup.position
        on_roll, opponent = position.mine[1:], position.theirs[1:]
        boards = (on_roll, opponent) if setup.on_roll == 0 else (opponent, on_roll)
        return cls(
            boards,
            variant,
            setup.on_roll,
            setup.dice,
            setup.cube_value,
            setup.cube_owner,
            setting.length or 0,
            setting.score if setting.length else (0, 0),
            setting.crawford_game,
        )


def _board(boards: object, seat: int, variant: Variant) -> Board:
    """Seat ``seat``'s 25 counts, checked: whole numbers, at most the variant's checkers."""
    if not isinstance(boards, Sequence) or len(boards) != 2:
        raise InvalidPositionError("The checkers are given for two seats, 0 and 1.")
    board = boards[seat]
    if not isinstance(board, Sequence) or len(board) != BAR:
        raise InvalidPositionError(
            f"Seat {seat}'s checkers are 25 counts: points 1 to 24, then the bar."
        )
    if not all(is_whole(count) and count >= 0 for count in board):
        raise InvalidPositionError(
            f"Seat {seat}'s checkers are counted in whole numbers, 0 or more."
        )
    total = sum(board)
    if total > variant.checkers:
        raise InvalidPositionError(
            f"Seat {seat} has {total} checkers on the board; a side has {variant.checkers} "
            f"in {variant.value}.",
            code="too_many",
        )
    return tuple(board)
