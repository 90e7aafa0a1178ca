"""Chosen checker decisions re-judged by rollouts (:mod:`backgammon.bot.rollout`).

Each play the analysis weighed (its ``alternatives``, the played one among them) is rolled out
from the position it leaves, the opponent on roll: the mover's probabilities are the
rollout's turned round, and the plays are ranked as the analysis ranks them, by the cubeless
equity at the score (``play_weights`` of the mover's cube in a match, money equity
otherwise). The decision comes back with those equities (each with its standard error), the
best play, the equity lost, its cost and its mark recomputed, and ``rollout`` saying how it
was rolled out. Every play is rolled out with the same seed, so that the plays share their
dice and their difference is measured more finely than either equity.

A play that ends the game has its exact value (standard error 0). Cube decisions keep the
analysis's n-ply cubeful figures: only checker decisions are rolled out.

>>> from backgammon.analysis import Analyser
>>> from backgammon.dice import ManualDice
>>> from backgammon.game.match import Match
>>> match = Match(3, dice=ManualDice(["3 1"]))
>>> match.game.roll(0)
>>> match.game.play(0, "24/20")
>>> analysis = Analyser(plies=0, workers=1).analyse(match)
>>> judged = rollout_decision(find_decision(analysis, 1, 1), trials=36, truncate=2, seed=1,
...                           workers=1)
>>> judged.rollout.trials, judged.played, judged.equity_loss > 0
(36, '24/20', True)
"""

from __future__ import annotations

import dataclasses
import secrets
from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from ..bot import RolloutResult, Scale, equities, flip_outputs, rollout, weights_at
from ..cube import CubeContext
from ..moves import Play
from ..position import Side
from .analyser import AnalysisError, GameAnalysis, MatchAnalysis
from .decisions import Alternative, Decision, Kind, Rollout, skill_mark

#: GNU Backgammon's usual rollout: 1,296 trials (36 squared, each pair of first rolls once).
TRIALS = 1296


def find_decision(analysis: MatchAnalysis, game: int, move: int) -> Decision:
    """The checker decision of move ``move`` of game ``game`` (both from 1, as the reports
    number them); AnalysisError, with a sentence, where there is none to roll out."""
    if not 1 <= game <= len(analysis.games):
        raise AnalysisError(
            f"There is no game {game}: the match analysed has {len(analysis.games)}."
        )
    checker = [d for d in analysis.games[game - 1].decisions if d.kind is Kind.CHECKER]
    found = [d for d in checker if d.move_number == move]
    if not found:
        raise AnalysisError(
            f"Game {game} has no move {move}: its moves are numbered 1 to {len(checker)}."
        )
    if not found[0].unforced:
        raise AnalysisError(
            f"Move {move} of game {game} was forced: there is no choice to roll out."
        )
    return found[0]


def rollout_decision(
    decision: Decision,
    *,
    trials: int = TRIALS,
    truncate: int = 0,
    seed: int | None = None,
    workers: int | None = None,
    ray: str | None = None,
) -> Decision:
    """``decision`` (an unforced checker play) re-judged by rolling out each of its
    alternatives over ``trials`` trials, ``truncate`` turns deep (0: to the end), from
    ``seed`` (None: a random one, kept in the result), with ``workers`` processes (None: one a
    core; on the Ray cluster at ``ray`` where given)."""
    if decision.kind is not Kind.CHECKER or not decision.unforced:
        raise AnalysisError(
            f"Only an unforced checker play can be rolled out; move {decision.move_number} "
            f"of game {decision.game} is a {'forced ' if decision.kind is Kind.CHECKER else ''}"
            f"{decision.kind.value} decision."
        )
    assert decision.dice is not None  # a checker decision has its roll
    plays = {str(p): p for p in decision.position.legal_plays(decision.dice)}
    chosen = [plays[a.text] for a in decision.alternatives]
    live = [p for p in chosen if not p.result.is_game_over()]
    # One seed for every play: their trials get the same dice.
    seed = secrets.randbits(62) if seed is None else seed
    results = [
        rollout(p.result, decision.cube.flip(), trials, truncate=truncate, seed=seed,
                workers=workers, ray=ray)
        for p in live
    ]
    by_play = dict(zip(live, results, strict=True))
    ranked = ranked_plays(
        decision.cube,
        [(a.text, play, by_play.get(play)) for a, play in zip(decision.alternatives, chosen,
                                                               strict=True)],
    )
    played = next(a for a in ranked if a.text == decision.played)
    loss = ranked[0].equity - played.equity
    return dataclasses.replace(
        decision,
        best=ranked[0].text,
        equity_loss=loss,
        cost=loss * Scale.of(decision.cube).unit,
        mark=skill_mark(loss),
        alternatives=ranked,
        equity=played.equity,
        rollout=Rollout(trials, truncate, seed),
    )


def ranked_plays(
    cube: CubeContext, rolled: Sequence[tuple[str, Play, RolloutResult | None]]
) -> tuple[Alternative, ...]:
    """Plays (each written ``text``) ranked, the best first, by the equity their rollouts give
    their mover with ``cube`` (the mover's; at the score in a match), each with its standard
    error; a play that ends the game, rolled out by none (None), has its exact value."""
    weights = weights_at(cube)
    judged = [_judged(text, play, result, weights) for text, play, result in rolled]
    return tuple(sorted(judged, key=lambda a: -a.equity))


def _judged(
    text: str, play: Play, result: RolloutResult | None, weights: NDArray[np.float32] | None
) -> Alternative:
    """The alternative ``play`` (written ``text``) with the equity its rollout ``result``
    gives its mover, and its standard error (exact where the play ends the game)."""
    if result is None:
        return Alternative(text, _finished(play, weights), None, 0.0)
    mine = flip_outputs(np.array([result.probabilities.as_tuple()]))
    equity = float(equities(mine, weights)[0])
    if weights is None:
        return Alternative(text, equity, None, result.equity_se)
    # The five outputs' errors in the mover's order (flipping reorders them). No covariance is
    # kept: the sum of the weighted errors bounds the error.
    errors = np.array(result.probabilities_se)[[0, 3, 4, 1, 2]]
    return Alternative(text, equity, None, float(np.abs(weights) @ errors))


def _finished(play: Play, weights: NDArray[np.float32] | None) -> float:
    """The exact equity for the mover of a play that ends the game (the mover bore off)."""
    outcome = play.result.outcome()
    assert outcome is not None and outcome.winner is Side.OPPONENT
    kind = int(outcome.kind)
    outputs = np.array([[1.0, kind >= 2, kind >= 3, 0.0, 0.0]])
    return float(equities(outputs, weights)[0])


def with_rollouts(
    analysis: MatchAnalysis,
    places: Iterable[tuple[int, int]],
    *,
    trials: int = TRIALS,
    truncate: int = 0,
    seed: int | None = None,
    workers: int | None = None,
    ray: str | None = None,
) -> MatchAnalysis:
    """``analysis`` with the checker decisions at ``places`` ((game, move) pairs, from 1)
    rolled out (:func:`rollout_decision`); every place is checked before any is rolled out.
    The statistics then count the rolled-out losses, as gnubg's do after a rollout."""
    chosen = [find_decision(analysis, game, move) for game, move in places]
    rolled = {
        id(d): rollout_decision(d, trials=trials, truncate=truncate, seed=seed,
                                workers=workers, ray=ray)
        for d in chosen
    }
    games: list[GameAnalysis] = [
        dataclasses.replace(game, decisions=tuple(rolled.get(id(d), d) for d in game.decisions))
        for game in analysis.games
    ]
    return dataclasses.replace(analysis, games=tuple(games))


__all__ = ["TRIALS", "find_decision", "ranked_plays", "rollout_decision", "with_rollouts"]
