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
>>> Bot(level="expert", evaluator=FakeEvaluator()).plies
1
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from ..dice import check_dice
from ..errors import BackgammonError
from ..moves import Play
from ..position import Position, WinKind
from .cube import CubeDecision, CubeOwner, cube_efficiency, match_decision, money_decision
from .evaluator import Evaluator
from .met import MatchScore
from .network import Array
from .probabilities import Probabilities
from .search import DEFAULT_FILTERS, MoveFilter, Search

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


#: Each level's search depth and the standard deviation of the noise on its choices (in
#: points of equity), in the manner of GNU Backgammon's levels.
LEVELS: dict[Level, tuple[int, float]] = {
    Level.BEGINNER: (0, 0.15),
    Level.CASUAL: (0, 0.08),
    Level.INTERMEDIATE: (0, 0.04),
    Level.ADVANCED: (0, 0.0),
    Level.EXPERT: (1, 0.0),
    Level.STRONGEST: (2, 0.0),
}

#: The most plies a bot searches.
MAX_PLIES = 3

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

    ``plies``: the depth of its search (0: the network alone; 1 and 2 look at every roll of
    the opponent, and of both). ``noise``: the standard deviation of normal noise added to
    each play's equity before choosing (weaker, less predictable play), drawn from a
    generator seeded by ``seed``. ``level`` sets both by name (:data:`LEVELS`); ``plies`` or
    ``noise`` given as well take precedence. ``evaluator``: what evaluates positions, by
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
    ) -> None:
        if level is not None and level not in LEVELS:
            names = ", ".join(LEVELS)
            raise BackgammonError(f"The levels are {names}; got {level!r}.")
        level_plies, level_noise = LEVELS[Level(level)] if level is not None else (0, 0.0)
        self.plies = level_plies if plies is None else plies
        self.noise = level_noise if noise is None else noise
        if not 0 <= self.plies <= MAX_PLIES:
            raise BackgammonError(f"A bot searches 0 to {MAX_PLIES} plies; got {self.plies}.")
        if self.noise < 0:
            raise BackgammonError(f"The noise is a standard deviation, 0 or more; got {noise}.")
        if evaluator is None:
            from .shipped import shipped_evaluator

            evaluator = shipped_evaluator()
        self.evaluator = evaluator
        self.filters = filters
        self.search = Search(evaluator)
        self._rng = np.random.default_rng(seed)

    def __repr__(self) -> str:
        return f"Bot(plies={self.plies}, noise={self.noise})"

    # Plays

    def best_play(
        self,
        position: Position,
        dice: Iterable[int],
        score: MatchScore | None = None,
        cube_value: int = 1,
    ) -> Play | None:
        """The bot's play of ``dice``: one of ``position.legal_plays(dice)``, or None when no
        checker can move. A forced play is returned without any evaluation. In a match
        (``score``, for the player on roll, with the cube at ``cube_value``) the plays are
        ranked by the chance of winning the match, so gammons count as much as the score
        makes them."""
        plays = position.legal_plays(check_dice(dice))
        if len(plays) <= 1:
            return plays[0] if plays else None
        return self.choose(position, plays, _weights(score, cube_value))

    def choose(
        self, position: Position, plays: Sequence[Play], weights: Array | None = None
    ) -> Play:
        """The bot's choice among ``plays``, the legal plays (two or more) of one roll from
        ``position``: the :class:`~backgammon.bot.duel.Chooser` of cubeless duels.
        ``weights``: the equity to maximise (:meth:`.met.MatchScore.play_weights`; money's
        by default)."""
        ranked = self.search.rank(
            plays, self.plies, self.filters, noise=self.noise, rng=self._rng, weights=weights
        )
        return ranked[0].play

    def hints(
        self,
        position: Position,
        dice: Iterable[int],
        n: int = 5,
        score: MatchScore | None = None,
        cube_value: int = 1,
    ) -> list[Hint]:
        """The ``n`` best plays of ``dice`` (fewer if there are fewer), best first, each
        evaluated at the bot's depth, with no noise. In a match (``score``) they are ranked
        as :meth:`best_play` ranks them, and each equity is the match's, in money units."""
        plays = position.legal_plays(check_dice(dice))
        ranked = self.search.rank(
            plays, self.plies, self.filters, at_least=n, weights=_weights(score, cube_value)
        )
        return [
            Hint(r.play, Probabilities.from_values(r.values), r.equity) for r in ranked[:n]
        ]

    def evaluate(self, position: Position, plies: int | None = None) -> Probabilities:
        """The probabilities of the player on roll, before rolling, at ``plies`` (by default
        the bot's depth)."""
        depth = self.plies if plies is None else plies
        return Probabilities.from_values(self.search.values([position], depth)[0])

    # The cube

    def cube_decision(
        self,
        position: Position,
        cube_value: int = 1,
        cube_owner: CubeOwner | str = CubeOwner.CENTRE,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
        beavers: bool = False,
        jacoby: bool = False,
    ) -> CubeDecision:
        """Whether the player on roll should double, and the opponent take, with the cube at
        ``cube_value`` owned by ``cube_owner``.

        Money play (``match_length`` 0) may have ``beavers`` and the ``jacoby`` rule, and
        its equities are per unit of the cube (whatever its value); match play takes the
        ``score`` (the player on roll's first) and whether this game is the Crawford game,
        and its equities are chances of winning the match.
        """
        probabilities = self.evaluate(position)
        efficiency = cube_efficiency(position)
        if not match_length:
            return money_decision(probabilities, efficiency, cube_owner, jacoby, beavers)
        if beavers or jacoby:
            raise BackgammonError("Beavers and the Jacoby rule do not apply in matches.")
        match = MatchScore(match_length, score, crawford)
        return match_decision(probabilities, efficiency, match, cube_value, cube_owner)

    # Resignations

    def resignation_to_offer(
        self,
        position: Position,
        cube_value: int = 1,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
    ) -> WinKind | None:
        """The resignation the player on roll should offer, or None: the least level the
        opponent should accept, offered only where it gives up next to nothing."""
        if self.evaluate(position, plies=0).win > _HOPELESS:
            return None  # far from lost: no need of a deeper look
        value = _ResignationValues(
            self.evaluate(position), cube_value, match_length, score, crawford
        )
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
        cube_value: int = 1,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
    ) -> bool:
        """Whether to accept the opponent's offer to resign at ``level``: yes when the game
        it gives is worth at least what playing on is worth to the bot.

        ``position`` is seen from its player on roll: the resigner (``resigner_on_roll``, as
        when a player resigns on their turn) or the bot. ``score`` is the bot's first.
        """
        return self.answer_resignation(
            position, level, resigner_on_roll, cube_value, match_length, score, crawford
        ).accept

    def answer_resignation(
        self,
        position: Position,
        level: WinKind | int,
        resigner_on_roll: bool = True,
        cube_value: int = 1,
        match_length: int = 0,
        score: tuple[int, int] = (0, 0),
        crawford: bool = False,
    ) -> ResignationAnswer:
        """:meth:`should_accept_resignation` with the two values it compares."""
        probabilities = self.evaluate(position)
        if resigner_on_roll:
            probabilities = probabilities.flip()
        value = _ResignationValues(probabilities, cube_value, match_length, score, crawford)
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
    ) -> RolloutResult:
        """Roll ``position`` out with this bot's networks, playing at 0-ply whatever the
        bot's depth (:func:`.rollout.rollout` says what each argument does)."""
        from .kernel import Engine
        from .rollout import rollout

        engine = Engine.from_evaluator(self.evaluator)
        return rollout(position, cube, trials, 0, truncate, seed, workers, luck, progress, engine)


class _ResignationValues:
    """What a resignation is worth to a player, against playing on (cubeless), in points or
    in match winning chances."""

    def __init__(
        self,
        probabilities: Probabilities,
        cube_value: int,
        match_length: int,
        score: tuple[int, int],
        crawford: bool,
    ) -> None:
        self.cube_value = cube_value
        self.match = MatchScore(match_length, score, crawford) if match_length else None
        p = probabilities
        if self.match is None:
            self.playing_on = p.equity * cube_value
            self.scale = float(cube_value)
        else:
            m, c = self.match, cube_value
            wins = (p.win - p.win_gammon, p.win_gammon - p.win_backgammon, p.win_backgammon)
            losses = (
                p.lose - p.lose_gammon, p.lose_gammon - p.lose_backgammon, p.lose_backgammon
            )
            self.playing_on = sum(
                share * m.equity_after(won=k * c) for k, share in enumerate(wins, 1)
            ) + sum(share * m.equity_after(lost=k * c) for k, share in enumerate(losses, 1))
            # Half the swing of a single game at this cube plays the part of a point.
            self.scale = (m.equity_after(won=c) - m.equity_after(lost=c)) / 2

    def resigning(self, level: WinKind) -> float:
        """The value to the player of resigning at ``level``."""
        points = int(level) * self.cube_value
        return -float(points) if self.match is None else self.match.equity_after(lost=points)

    def accepting(self, level: WinKind) -> float:
        """The value to the player of accepting the opponent's resignation at ``level``."""
        points = int(level) * self.cube_value
        return float(points) if self.match is None else self.match.equity_after(won=points)


def _weights(score: MatchScore | None, cube_value: int) -> Array | None:
    """The equity weights of a match score (None: money play's)."""
    return None if score is None else score.play_weights(cube_value)
