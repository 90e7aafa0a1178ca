"""What the analysis says of one decision: its kind, what was played and what was best, the
equity it lost, its mark, and (for a checker play) the luck of the roll it played.

Marks are GNU Backgammon's, at its default thresholds, on the equity lost in EMG (equity
normalised to money, see :mod:`backgammon.analysis`): more than 0.04 lost is *doubtful*, more
than 0.08 *bad*, more than 0.16 *very bad*. A roll more than 0.3 better than the average of
the rolls is *lucky*, more than 0.6 *very lucky*; as much worse, *unlucky* and *very unlucky*.

>>> skill_mark(0.05), skill_mark(0.16), skill_mark(0.1601), skill_mark(0.0)
(<Mark.DOUBTFUL: 'doubtful'>, <Mark.BAD: 'bad'>, <Mark.VERY_BAD: 'very bad'>, None)
>>> luck_mark(-0.45), luck_mark(0.3), luck_mark(0.61)
(<LuckMark.UNLUCKY: 'unlucky'>, None, <LuckMark.VERY_LUCKY: 'very lucky'>)
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from ..cube import CubeContext
from ..position import Position


class Kind(StrEnum):
    """The kinds of decision: a checker play; the cube action of the player on roll (double
    or not); the answer to a double (take or drop); an offer to resign and its answer."""

    CHECKER = "checker"
    CUBE = "cube"
    TAKE = "take"
    RESIGN = "resign"
    ANSWER = "answer"


class Mark(StrEnum):
    """How bad a decision was (none: no mark)."""

    DOUBTFUL = "doubtful"
    BAD = "bad"
    VERY_BAD = "very bad"


class LuckMark(StrEnum):
    """How lucky a roll was (none: no mark)."""

    VERY_LUCKY = "very lucky"
    LUCKY = "lucky"
    UNLUCKY = "unlucky"
    VERY_UNLUCKY = "very unlucky"


class CubeError(StrEnum):
    """gnubg's six kinds of cube error, as ``show statistics`` counts them."""

    MISSED_DOUBLE_BELOW_CP = "missed double below CP"  # the opponent should have taken
    MISSED_DOUBLE_ABOVE_CP = "missed double above CP"  # the opponent should have dropped
    WRONG_DOUBLE_BELOW_DP = "wrong double below DP"  # too weak to double
    WRONG_DOUBLE_ABOVE_TG = "wrong double above TG"  # too good to double
    WRONG_TAKE = "wrong take"
    WRONG_PASS = "wrong pass"


#: The least equity lost (EMG) for each mark, worst first (GNU Backgammon's defaults).
SKILL_THRESHOLDS = ((Mark.VERY_BAD, 0.16), (Mark.BAD, 0.08), (Mark.DOUBTFUL, 0.04))
#: The least luck (EMG, either way) for each luck mark, strongest first.
LUCK_THRESHOLDS = ((0.6, LuckMark.VERY_LUCKY, LuckMark.VERY_UNLUCKY),
                   (0.3, LuckMark.LUCKY, LuckMark.UNLUCKY))
#: A cube decision is close (it counts in the cube error rate) when doubling is less than a
#: very bad mistake: the best action's equity less that of doubling (a drop at most) is
#: under this (gnubg's ``isCloseCubedecision``).
CLOSE_CUBE = 0.16


def skill_mark(loss: float) -> Mark | None:
    """The mark of a decision that lost ``loss`` (EMG, 0 or more): strictly more than a
    threshold earns its mark."""
    for mark, threshold in SKILL_THRESHOLDS:
        if loss > threshold:
            return mark
    return None


def luck_mark(luck: float) -> LuckMark | None:
    """The mark of a roll ``luck`` (EMG) better (or, negative, worse) than the average."""
    for threshold, lucky, unlucky in LUCK_THRESHOLDS:
        if luck > threshold:
            return lucky
        if luck < -threshold:
            return unlucky
    return None


@dataclass(frozen=True)
class Alternative:
    """A choice the analysis weighed (a play, or a cube action), with its equity (EMG) for
    the player deciding and the depth it was evaluated at (None: not a search's); a rolled-out
    play has the standard error ``se`` of its equity."""

    text: str
    equity: float
    plies: int | None = None
    se: float | None = None


@dataclass(frozen=True)
class Rollout:
    """How a decision's plays were rolled out: ``trials`` each, ``truncate`` turns deep (0:
    to the end), from ``seed`` (the same dice for every play)."""

    trials: int
    truncate: int
    seed: int


@dataclass(frozen=True)
class Luck:
    """The luck of a roll: ``emg`` better than the average of the rolls (negative: worse),
    ``cost`` the same in chances of winning the match (points in money play), and its mark."""

    emg: float
    cost: float
    mark: LuckMark | None


@dataclass(frozen=True)
class Decision:
    """One decision of a game, judged.

    ``game`` and ``move_number`` (both from 1) say where it was: the move number counts the
    turns of the game, a cube decision and its answer taking the number of the turn they come
    before. ``seat`` decided; ``kind`` says what about. ``played`` and ``best`` are the play
    (gnubg notation) or the action ("double", "no double", "take", "drop", "resign gammon",
    "accept", "reject"). ``equity_loss`` is what the choice cost against the best, in EMG (0
    or more), and ``cost`` the same in chances of winning the match (points in money play).

    ``position`` is the board the decision was taken on, from ``viewer``'s side (the mover,
    the doubler for a double and its answer, the player on roll for a resignation), with the
    ``cube`` as ``viewer`` saw it; ``position_id`` and ``match_id`` are gnubg's IDs of that
    moment. ``alternatives`` are the choices weighed, best first. A checker decision also has
    ``unforced`` (the roll had two plays or more), the ``luck`` of its roll and ``equity``,
    the played play's equity (EMG, the mover's); a cube decision has ``close`` and its
    ``cube_error`` if it was one. A checker decision rolled out
    (:mod:`backgammon.analysis.rollout`) has its ``rollout``, and its alternatives, best,
    loss, mark and equity are the rollouts'.
    """

    game: int
    move_number: int
    seat: int
    kind: Kind
    dice: tuple[int, int] | None
    played: str
    best: str
    equity_loss: float
    cost: float
    mark: Mark | None
    position: Position
    viewer: int
    cube: CubeContext
    position_id: str
    match_id: str
    alternatives: tuple[Alternative, ...] = ()
    unforced: bool = False
    luck: Luck | None = None
    equity: float | None = None
    close: bool = False
    cube_error: CubeError | None = None
    rollout: Rollout | None = None

    @property
    def counted(self) -> bool:
        """Whether the statistics count the decision: every checker play and cube decision
        (resignations are marked but not counted, as in gnubg)."""
        return self.kind in (Kind.CHECKER, Kind.CUBE, Kind.TAKE)
