"""The computer player: plays, evaluations, hints, cube and resignation decisions.

A :class:`Bot` searches (:mod:`.search`) over an evaluator: by default the package's trained
networks with exact bear-offs (:func:`.shipped.shipped_evaluator`). Its strength is set by the
depth of its search and the noise on its choices, or by a named :class:`Level`.

>>> from backgammon import Position
>>> from backgammon.bot.evaluator import FakeEvaluator
>>> bot = Bot(evaluator=FakeEvaluator())
>>> position = Position.initial()
>>> bot.best_play(position, (3, 1)) in position.legal_plays((3, 1))
True
>>> bot.cube_decision(position, cube_value=2, cube_owner="on roll").action
<CubeAction.NO_DOUBLE: 'no double'>
>>> expert = Bot(level="expert", evaluator=FakeEvaluator())
>>> expert.plies, expert.cube_plies
(1, 2)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

import numpy as np
from numpy.typing import NDArray

from ..cube import CubeContext, CubeOwner, MatchScore
from ..dice import check_dice
from ..errors import BackgammonError
from ..moves import Play
from ..position import Position, WinKind
from .cube import (
    CubeDecision,
    cube_efficiency,
    dead_match_equity,
    match_decision,
    money_decision,
)
from .evaluator import Evaluator
from .kernel import Kernel, KernelError
from .kernel.api import MAX_PLIES as KERNEL_MAX_PLIES
from .met import equity_after, weights_at
from .network import equities, flip_outputs
from .probabilities import Probabilities
from .search import DEFAULT_FILTERS, MoveFilter, Ranked, Search

if TYPE_CHECKING:
    from ..cube import CubeContext
    from .rollout import RolloutResult


class Level(StrEnum):
    """Named strengths, weakest first."""

    BEGINNER = "beginner"
    CASUAL = "casual"
    INTERMEDIATE = "intermediate"
    ADVANCED = "advanced"
    EXPERT = "expert"
    STRONGEST = "strongest"
    WORLD_CLASS = "world-class"


#: Each level's search depth and the standard deviation of the noise on its choices (in
#: points of equity), in the manner of GNU Backgammon's levels. World class (3-ply) takes
#: about a second a decision (bench/bot/bot.py): for hints and analysis more than for play.
LEVELS: dict[Level, tuple[int, float]] = {
    Level.BEGINNER: (0, 0.15),
    Level.CASUAL: (0, 0.08),
    Level.INTERMEDIATE: (0, 0.04),
    Level.ADVANCED: (0, 0.0),
    Level.EXPERT: (1, 0.0),
    Level.STRONGEST: (2, 0.0),
    Level.WORLD_CLASS: (3, 0.0),
}

#: The depth at which each level takes its cube decisions. A cube decision is one search a
#: turn, not one a play, so a level affords more depth there than in its plays: at 2-ply
#: (about 20 ms a decision) the errors on the gnubg-judged cube set are within 3
#: millipoints, at 0-ply about twice that (docs/lab/computer-player.md, cube decisions).
CUBE_PLIES: dict[Level, int] = {
    Level.BEGINNER: 0,
    Level.CASUAL: 0,
    Level.INTERMEDIATE: 1,
    Level.ADVANCED: 2,
    Level.EXPERT: 2,
    Level.STRONGEST: 2,
    Level.WORLD_CLASS: 3,
}

#: The most plies a bot searches: the compiled kernel's deepest search.
MAX_PLIES = KERNEL_MAX_PLIES

# Resignations: the most a player gives up by resigning (per point of the cube, or per half
# the swing of a game in a match), and the rounding allowed in the opponent's due.
_RESIGN_TOLERANCE = 0.02
_ACCEPT_TOLERANCE = 1e-9
# A player with more than this chance of winning at 0-ply does not think of resigning.
_HOPELESS = 0.1


class Hint(NamedTuple):
    """A candidate play with its probabilities and cubeless equity for the player making it
    (after the play, before the opponent rolls)."""

    play: Play
    probabilities: Probabilities
    equity: float


class ResignationAnswer(NamedTuple):
    """The answer to an offer to resign, and the values it weighs for the player answering:
    the game the offer gives against playing on (cubeless), in points, or in chances of
    winning the match."""

    accept: bool
    accepting: float
    playing_on: float


class Bot:
    """A computer player.

    Every question is asked for the player on roll in ``position``; those that depend on the
    stake take the cube as that player sees it, a :class:`~backgammon.cube.CubeContext`
    (``Game.cube_context(seat)`` makes it; None: money play, the cube centred at 1).

    ``plies``: the depth of its search (0: the network alone; 1 and 2 look at every roll of
    the opponent, and of both). ``noise``: the standard deviation of normal noise added to
    each play's equity before choosing (weaker, less predictable play), drawn from a
    generator seeded by ``seed``. ``cube_plies``: the depth of its cube decisions (by default
    ``plies``). ``level`` sets all three by name (:data:`LEVELS`, :data:`CUBE_PLIES`);
    ``plies``, ``noise`` or ``cube_plies`` given as well take precedence (a ``plies`` given
    sets the cube's depth too). ``evaluator``: what evaluates positions, by
    default the shipped networks with the bearoff table.
    """

    def __init__(
        self,
        plies: int | None = None,
        noise: float | None = None,
        seed: int | None = None,
        level: Level | str | None = None,
        evaluator: Evaluator | None = None,
        filters: tuple[MoveFilter, ...] = DEFAULT_FILTERS,
        cube_plies: int | None = None,
    ) -> None:
        if level is not None and level not in LEVELS:
            names = ", ".join(LEVELS)
            raise BackgammonError(f"The levels are {names}; got {level!r}.")
        level_plies, level_noise = LEVELS[Level(level)] if level is not None else (0, 0.0)
        self.plies = level_plies if plies is None else plies
        self.noise = level_noise if noise is None else noise
        if cube_plies is None:
            cube_plies = CUBE_PLIES[Level(level)] if level is not None and plies is None else (
                self.plies)
        self.cube_plies = cube_plies
        for depth in (self.plies, self.cube_plies):
            if not 0 <= depth <= MAX_PLIES:
                raise BackgammonError(f"A bot searches 0 to {MAX_PLIES} plies; got {depth}.")
        if self.noise < 0:
            raise BackgammonError(f"The noise is a standard deviation, 0 or more; got {noise}.")
        if evaluator is None:
            from .shipped import shipped_evaluator

            evaluator = shipped_evaluator()
        self.evaluator = evaluator
        self.filters = filters
        self.search = Search(evaluator, kernel=_kernel_of(evaluator))
        self._rng = np.random.default_rng(seed)

    def __repr__(self) -> str:
        return f"Bot(plies={self.plies}, noise={self.noise}, cube_plies={self.cube_plies})"

    # Plays

    def best_play(
        self, position: Position, dice: Iterable[int], cube: CubeContext | None = None
    ) -> Play | None:
        """The bot's play of ``dice``: one of ``position.legal_plays(dice)``, or None when no
        checker can move. A forced play is returned without any evaluation. In a match (the
        ``cube``'s score) the plays are ranked by the chance of winning the match, so gammons
        count as much as the score and the cube make them."""
        plays = position.legal_plays(check_dice(dice))
        if len(plays) <= 1:
            return plays[0] if plays else None
        return self.choose(position, plays, cube)

    def choose(
        self, position: Position, plays: Sequence[Play], cube: CubeContext | None = None
    ) -> Play:
        """The bot's choice among ``plays``, the legal plays (two or more) of one roll from
        ``position``, ranked as :meth:`best_play` ranks them (without ``cube``: the
        :class:`~backgammon.training.duel.Chooser` of cubeless duels)."""
        ranked = self.search.rank(
            plays, self.plies, self.filters, noise=self.noise, rng=self._rng,
            weights=weights_at(cube),
        )
        return ranked[0].play

    def hints(
        self,
        position: Position,
        dice: Iterable[int],
        n: int = 5,
        cube: CubeContext | None = None,
    ) -> list[Hint]:
        """The ``n`` best plays of ``dice`` (fewer if there are fewer), best first, each
        evaluated at the bot's depth, with no noise. In a match they are ranked as
        :meth:`best_play` ranks them, and each equity is the match's, in money units."""
        plays = position.legal_plays(check_dice(dice))
        ranked = self.search.rank(
            plays, self.plies, self.filters, at_least=n, weights=weights_at(cube)
        )
        return [
            Hint(r.play, Probabilities.from_values(r.values), r.equity) for r in ranked[:n]
        ]

    def evaluate(self, position: Position, plies: int | None = None) -> Probabilities:
        """The probabilities of the player on roll, before rolling, at ``plies`` (by default
        the bot's depth)."""
        depth = self.plies if plies is None else plies
        return Probabilities.from_values(self.search.values([position], depth)[0])

    def rank(self, plays: Sequence[Play], cube: CubeContext | None = None) -> list[Ranked]:
        """``plays`` (of one roll) ranked best first as :meth:`hints` ranks them, each with the
        depth it was judged at (those the filters dropped, shallower), with no noise."""
        return self.search.rank(plays, self.plies, self.filters, weights=weights_at(cube))

    def forget(self) -> None:
        """Forget every value the search remembers (as a bot judging a new game does)."""
        self.search.clear()

    def play_equities(
        self, results: Sequence[Position], plies: int, cube: CubeContext | None = None
    ) -> NDArray[np.float32]:
        """The equity (EMG) of each play's result for the player who made it, at ``plies``
        and the cube's score (cubeless): how the bot's ranking values each play, the player on
        roll in ``results`` being the opponent.

        >>> from backgammon.bot import FakeEvaluator
        >>> after = Position.initial().parse_play("8/5 6/5", (3, 1)).result
        >>> Bot(evaluator=FakeEvaluator()).play_equities([after], 0).shape
        (1,)
        """
        values = flip_outputs(self.search.values(list(results), plies))
        return equities(values, weights_at(cube))

    # The cube

    def cube_decision(
        self,
        position: Position,
        cube: CubeContext | None = None,
        *,
        cube_value: int | None = None,
        cube_owner: CubeOwner | str | None = None,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
        plies: int | None = None,
    ) -> CubeDecision:
        """Whether the player on roll should double, and the opponent take (or beaver, where
        ``cube`` allows it).

        The cube is ``cube``, or, as a convenience, the keywords: ``cube_value`` and
        ``cube_owner`` ("on roll", "centre" or "opponent"), and for match play the
        ``match_length``, the ``score`` (the player on roll's first) and whether this game is
        the Crawford game. Equities are per unit of the cube (whatever its value) in money
        play, and chances of winning the match in match play. The chances are searched at
        ``plies``, by default :attr:`cube_plies`.
        """
        cube = _context(cube, cube_value, cube_owner, match_length, score, crawford)
        probabilities = self.evaluate(position, self.cube_plies if plies is None else plies)
        efficiency = cube_efficiency(position)
        if cube.money:
            return money_decision(probabilities, efficiency, cube)
        return match_decision(probabilities, efficiency, cube)

    # Resignations

    def resignation_to_offer(
        self, position: Position, cube: CubeContext | None = None
    ) -> WinKind | None:
        """The resignation the player on roll should offer, or None: the least level the
        opponent should accept, offered only where it gives up next to nothing."""
        if self.evaluate(position, plies=0).win > _HOPELESS:
            return None  # far from lost: no need of a deeper look
        value = _ResignationValues(self.evaluate(position), cube or CubeContext())
        for level in WinKind:
            given = value.playing_on - value.resigning(level)
            # The least level the opponent should accept: it gets at least its due.
            if given >= -_ACCEPT_TOLERANCE:
                return level if given <= _RESIGN_TOLERANCE * value.scale else None
        return None

    def should_accept_resignation(
        self,
        position: Position,
        level: WinKind | int,
        resigner_on_roll: bool = True,
        cube: CubeContext | None = None,
    ) -> bool:
        """Whether to accept the opponent's offer to resign at ``level``: yes when the game
        it gives is worth at least what playing on is worth to the bot.

        ``position`` and ``cube`` are seen from the player on roll: the resigner
        (``resigner_on_roll``, as when a player resigns on their turn) or the bot.
        """
        return self.answer_resignation(position, level, resigner_on_roll, cube).accept

    def answer_resignation(
        self,
        position: Position,
        level: WinKind | int,
        resigner_on_roll: bool = True,
        cube: CubeContext | None = None,
    ) -> ResignationAnswer:
        """:meth:`should_accept_resignation` with the two values it compares, for the bot."""
        probabilities = self.evaluate(position)
        cube = cube or CubeContext()
        if resigner_on_roll:
            probabilities, cube = probabilities.flip(), cube.flip()
        value = _ResignationValues(probabilities, cube)
        accepting = value.accepting(WinKind(level))
        return ResignationAnswer(
            accepting >= value.playing_on - _ACCEPT_TOLERANCE, accepting, value.playing_on
        )

    # Rollouts

    def rollout(
        self,
        position: Position,
        cube: CubeContext | None = None,
        trials: int = 1296,
        truncate: int = 0,
        seed: int | None = None,
        workers: int | None = None,
        luck: bool = True,
        progress: bool = False,
        plies: int = 0,
        ray: str | None = None,
        cubeful: bool = False,
    ) -> RolloutResult:
        """Roll ``position`` out with this bot's networks and move filters, playing at
        ``plies`` (0 by default, whatever the bot's depth: deeper trials cost far more;
        ``cubeful``: the cube played in the trials; :func:`.rollout.rollout` says what each
        argument does)."""
        from .rollout import rollout

        return rollout(
            position, cube, trials, plies, truncate, seed, workers, luck, progress,
            self.rollout_kernel(), self.filters, ray, cubeful,
        )

    def rollout_kernel(self) -> Kernel:
        """The compiled networks this bot's rollouts play with."""
        return self.search.kernel or Kernel.from_evaluator(self.evaluator)


class _ResignationValues:
    """What a resignation is worth to a player, against playing on (cubeless), in points or
    in match winning chances, with the cube as the player sees it."""

    def __init__(self, probabilities: Probabilities, cube: CubeContext) -> None:
        self.cube = cube
        p, match = probabilities, cube.match
        if match is None:
            # The Jacoby rule: while it holds, gammons count as single games.
            dead = 2.0 * p.win - 1.0 if cube.jacoby else p.equity
            self.playing_on = dead * cube.value
            self.scale = float(cube.value)
        else:
            self.playing_on = dead_match_equity(p, match, cube.value)
            # Half the swing of a single game at this cube plays the part of a point.
            won, lost = equity_after(match, won=cube.value), equity_after(match, lost=cube.value)
            self.scale = (won - lost) / 2

    def resigning(self, level: WinKind) -> float:
        """The value to the player of resigning at ``level``."""
        points = self.cube.points(level)
        match = self.cube.match
        return -float(points) if match is None else equity_after(match, lost=points)

    def accepting(self, level: WinKind) -> float:
        """The value to the player of accepting the opponent's resignation at ``level``."""
        points = self.cube.points(level)
        match = self.cube.match
        return float(points) if match is None else equity_after(match, won=points)


def _context(
    cube: CubeContext | None,
    cube_value: int | None,
    cube_owner: CubeOwner | str | None,
    match_length: int,
    score: tuple[int, int],
    crawford: bool,
) -> CubeContext:
    """``cube``, or the context the keywords of :meth:`Bot.cube_decision` describe."""
    in_match = bool(match_length) or score != (0, 0) or crawford
    if cube is not None:
        if in_match or cube_value is not None or cube_owner is not None:
            raise BackgammonError("Give the cube as a CubeContext or as keywords, not both.")
        return cube
    return CubeContext(
        1 if cube_value is None else cube_value,
        CubeOwner.CENTRE if cube_owner is None else CubeOwner(cube_owner),
        MatchScore(match_length, score, crawford) if in_match else None,
    )


def _kernel_of(evaluator: Evaluator) -> Kernel | None:
    """The compiled kernel of ``evaluator``'s networks, or None for another evaluator (a
    fake, pubeval), which the search then runs in Python."""
    try:
        return Kernel.from_evaluator(evaluator)
    except KernelError:
        return None
