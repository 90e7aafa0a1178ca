"""The analyser: every decision of a game or a match judged by the bot at a chosen
depth, read from the game's one typed walk over its record (``Game.history()``).

>>> from backgammon.bot import FakeEvaluator
>>> from backgammon.dice import ManualDice
>>> from backgammon.game.match import Match
>>> match = Match(3, dice=ManualDice(["3 1", "6 5"]), players=("Ann", "Bob"))
>>> match.game.roll(0)
>>> match.game.play(0, "24/20")                 # not the 8/5 6/5 every program plays
>>> analysis = Analyser(plies=0, evaluator=FakeEvaluator()).analyse(match)
>>> first = analysis.decisions[0]
>>> first.kind, first.played, first.unforced, first.equity_loss >= 0
(<Kind.CHECKER: 'checker'>, '24/20', True, True)
>>> first.position_id, first.match_id
('4HPwATDgc/ABMA', 'MIFlAAAAAAAE')
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from typing import assert_never

import numpy as np
from numpy.typing import NDArray

from ..bot import Bot, CubeDecision, Evaluator, Scale, equity_after, match_equity
from ..cube import CubeContext, CubeOwner
from ..dice import ALL_ROLLS, ROLL_CHANCES, Dice
from ..errors import BackgammonError
from ..formats.matchid import MatchIdState, encode_match_id
from ..game import (
    Beavered,
    Doubled,
    Dropped,
    Game,
    GameEnded,
    OpeningRoll,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Taken,
    TurnPlayed,
)
from ..game.match import Match
from ..moves import Play
from ..position import Position, WinKind
from .decisions import (
    CLOSE_CUBE,
    Alternative,
    CubeError,
    Decision,
    Kind,
    Luck,
    luck_mark,
    skill_mark,
)
from .stakes import may_double
from .statistics import PlayerStatistics, gather

#: The chance of each roll of ALL_ROLLS, as an array to weigh their values by.
_ROLL_CHANCES = np.array(ROLL_CHANCES)

#: Called as the analysis goes on with the number of decisions judged and their total.
Progress = Callable[[int, int], None]


class AnalysisError(BackgammonError):
    """A game that cannot be analysed as it stands."""


@dataclass(frozen=True)
class GameAnalysis:
    """One game, judged: its number (from 1), the match's length (0: money play), the score
    at its start (seat 0's first; (0, 0)
    in money play), its decisions in order, its end (``winner`` and ``points``, None while it
    is unfinished) and ``result``, what each seat won in it (chances of winning the match, or
    points); ``claimed``: the winner claimed the game of an opponent who had left it."""

    number: int
    length: int
    score: tuple[int, int]
    decisions: tuple[Decision, ...]
    winner: int | None
    points: int
    result: tuple[float, float]
    claimed: bool = False

    @property
    def statistics(self) -> tuple[PlayerStatistics, PlayerStatistics]:
        """Each seat's statistics over this game."""
        return gather(self.decisions, [self.result], self.length)


@dataclass(frozen=True)
class MatchAnalysis:
    """A match (or a money session, ``length`` 0), judged at ``plies``: the players' names,
    seat 0's first, and each game's analysis."""

    players: tuple[str, str]
    length: int
    plies: int
    games: tuple[GameAnalysis, ...]

    @property
    def decisions(self) -> list[Decision]:
        """Every decision of every game, in order."""
        return [decision for game in self.games for decision in game.decisions]

    @property
    def statistics(self) -> tuple[PlayerStatistics, PlayerStatistics]:
        """Each seat's statistics over the whole match."""
        return gather(self.decisions, [game.result for game in self.games], self.length)


class Analyser:
    """Judges games and matches with a bot searching ``plies`` deep (0 is quick; 2, GNU
    Backgammon's usual depth, is the default): each checker play against the bot's best play
    (the played one evaluated as deep as the best), each cube decision by the bot's cubeful
    equities, each resignation and its answer. The luck of each roll is always judged at 0
    plies, as gnubg judges it. ``bot`` (noise-free) or ``evaluator`` replaces the shipped
    networks; ``alternatives`` is how many plays each checker decision keeps for display.

    The games of a match are judged by ``workers`` processes (default: one per core), each
    game's decisions in one of them. A game's judgement depends on that game alone (the bot's
    caches are cleared before each), so the result is the same with any number of workers.
    Where processes cannot be forked (not Linux), one process judges every game."""

    def __init__(
        self,
        plies: int = 2,
        *,
        bot: Bot | None = None,
        evaluator: Evaluator | None = None,
        alternatives: int = 5,
        workers: int | None = None,
    ) -> None:
        self.bot = bot if bot is not None else Bot(plies=plies, evaluator=evaluator)
        if self.bot.noise:
            raise AnalysisError("An analysing bot plays without noise.")
        self.alternatives = alternatives
        if workers is None:
            workers = os.cpu_count() or 1
        if not isinstance(workers, int) or isinstance(workers, bool) or workers < 1:
            raise AnalysisError(f"The analysis needs 1 worker or more; got {workers!r}.")
        self.workers = workers

    @property
    def plies(self) -> int:
        """The depth of the checker play and cube judgements."""
        return self.bot.plies

    def analyse(self, source: Match | Game, progress: Progress | None = None) -> MatchAnalysis:
        """Judge every decision of ``source``: a match or money session (every game of it,
        the unfinished one too) or a lone game. ``progress`` hears how far it has got."""
        if isinstance(source, Match):
            games, players, length = source.games, source.players, source.length
        else:
            games, players = [source], ("Player 0", "Player 1")
            length = source.score.length if source.score is not None else 0
        counts = [sum(_judged(entry) for entry in game.history()) for game in games]
        total = sum(counts)
        done = [0]

        def tick() -> None:
            done[0] += 1
            if progress is not None:
                progress(done[0], total)

        workers = min(self.workers, len(games))
        if workers > 1 and "fork" in multiprocessing.get_all_start_methods():
            analysed = self._in_workers(games, workers, counts, progress)
        else:
            analysed = tuple(
                self.judge_game(game, number, tick) for number, game in enumerate(games, 1)
            )
        return MatchAnalysis(players, length, self.plies, analysed)

    def judge_game(
        self, game: Game, number: int, tick: Callable[[], None] = lambda: None
    ) -> GameAnalysis:
        """Game ``number`` (from 1) judged, from a bot that remembers no other game;
        ``tick`` is called after each decision."""
        self.bot.forget()
        return _GameJudge(self, game, number, tick).judge()

    def _in_workers(
        self,
        games: Sequence[Game],
        workers: int,
        counts: Sequence[int],
        progress: Progress | None,
    ) -> tuple[GameAnalysis, ...]:
        """Each game judged in one of ``workers`` forked processes; they inherit this
        analyser and the games, so only the game's number and its analysis travel."""
        context = multiprocessing.get_context("fork")
        results: dict[int, GameAnalysis] = {}
        done = 0
        with ProcessPoolExecutor(
            workers, context, initializer=_start_worker, initargs=(self, games)
        ) as pool:
            futures = [pool.submit(_judge_in_worker, index) for index in range(len(games))]
            for future in as_completed(futures):
                analysis = future.result()
                results[analysis.number] = analysis
                done += counts[analysis.number - 1]
                if progress is not None:
                    progress(done, sum(counts))
        return tuple(results[number] for number in sorted(results))

    # The judgements, each for the player deciding

    def checker(
        self, position: Position, dice: Dice, play: Play, cube: CubeContext
    ) -> tuple[str, float, float, tuple[Alternative, ...]]:
        """The best play of ``dice`` (notation), its equity and the played ``play``'s (EMG,
        both at the depth of the best), and the plays weighed, best first (none when the
        roll left no choice: then the play is judged at the full depth for its equity)."""
        plays = position.legal_plays(dice)
        if len(plays) <= 1:
            played = self._equity(play, self.plies, cube)
            return str(play), played, played, ()
        ranked = self.bot.rank(plays, cube)
        best = ranked[0]
        mine = next(r for r in ranked if r.play == play)
        played = mine.equity
        if mine.plies < best.plies:
            # As gnubg keeps the played move through its filters: judged as deep as the best.
            played = self._equity(play, best.plies, cube)
        shown = [
            Alternative(str(r.play), r.equity, r.plies)
            for r in ranked[: self.alternatives]
            if r is not mine
        ]
        shown.append(Alternative(str(play), played, max(mine.plies, best.plies)))
        shown.sort(key=lambda a: (-(a.plies or 0), -a.equity))
        if played > best.equity:  # deeper, the played play beats the filters' choice
            return str(play), played, played, tuple(shown)
        return str(best.play), best.equity, played, tuple(shown)

    def _equity(self, play: Play, plies: int, cube: CubeContext) -> float:
        """The equity (EMG) of ``play`` for its mover, ``plies`` deep."""
        return float(self.bot.play_equities([play.result], plies, cube)[0])

    def luck(self, position: Position, dice: Dice, cube: CubeContext, first: bool) -> float:
        """How much better the roll ``dice`` is (EMG, at 0 plies) than the average roll, for
        the player on roll in ``position``: each roll's value is that of its best play. The
        opening roll (``first``) is weighed against the 30 rolls that could have opened the
        game, either player's, as gnubg weighs it."""
        mine = self._roll_values(position, cube)
        rolled = mine[ALL_ROLLS.index((max(dice), min(dice)))]
        if not first:
            return float(rolled - mine @ _ROLL_CHANCES)
        theirs = self._roll_values(position.flip(), cube.flip())
        mixed = [(m, t) for (a, b), m, t in zip(ALL_ROLLS, mine, theirs, strict=True) if a != b]
        # The opponent's EMG is the negative of the player's (the scales are symmetric).
        return float(rolled - sum(m - t for m, t in mixed) / (2 * len(mixed)))

    def _roll_values(self, position: Position, cube: CubeContext) -> NDArray[np.float32]:
        """The equity (EMG, 0 plies) of the best play of each roll of ``ALL_ROLLS``."""
        groups = [
            [p.result for p in position.legal_plays(roll)] or [position.flip()]
            for roll in ALL_ROLLS
        ]
        flat = [result for group in groups for result in group]
        values = self.bot.play_equities(flat, 0, cube)
        bounds = np.cumsum([0] + [len(group) for group in groups])
        return np.array([values[a:b].max() for a, b in itertools.pairwise(bounds)])

    def cube(self, position: Position, cube: CubeContext) -> tuple[float, float, float]:
        """The doubler's equities (EMG) of no double, double and take, double and drop, from
        the bot's cube decision."""
        decision: CubeDecision = self.bot.cube_decision(position, cube)
        values = (decision.no_double, decision.double_take, decision.double_drop)
        if cube.match is None:
            return values  # money: per unit of the cube already, a drop +1
        scale = Scale.of(cube)
        nd, dt, dp = (scale.emg(v) for v in values)
        return nd, dt, dp

    def resignation(
        self, position: Position, cube: CubeContext, level: WinKind, resigner_on_roll: bool
    ) -> tuple[float, float]:
        """What the answering player gets (EMG) by accepting an offer to resign at ``level``
        and by playing on; ``position`` and ``cube`` are the player on roll's."""
        answer = self.bot.answer_resignation(position, level, resigner_on_roll, cube)
        answerer = cube.flip() if resigner_on_roll else cube
        if answerer.match is None:
            unit = float(answerer.value)
            return answer.accepting / unit, answer.playing_on / unit
        scale = Scale.of(answerer)
        return scale.emg(answer.accepting), scale.emg(answer.playing_on)


# What a worker process judges with, set once as it starts.
_WORKER: tuple[Analyser, Sequence[Game]] | None = None


def _start_worker(analyser: Analyser, games: Sequence[Game]) -> None:
    global _WORKER
    _WORKER = (analyser, games)


def _judge_in_worker(index: int) -> GameAnalysis:
    assert _WORKER is not None
    analyser, games = _WORKER
    return analyser.judge_game(games[index], index + 1)


def _judged(entry: object) -> bool:
    """Whether the entry is one the analysis judges (for the progress count)."""
    return isinstance(entry, TurnPlayed | Doubled | ResignationOffered)


class _GameJudge:
    """One pass over a game's history, judging each decision as its entry comes."""

    def __init__(self, analyser: Analyser, game: Game, number: int, tick: Callable[[], None]):
        self.analyser = analyser
        self.game = game
        self.number = number
        self.tick = tick
        self.decisions: list[Decision] = []
        self.turn = 1
        self.reroll = False
        self.rolled: Rolled[Position] | None = None
        self.offer: tuple[Doubled[Position], tuple[float, float, float]] | None = None
        self.beavered = False

    def judge(self) -> GameAnalysis:
        end: GameEnded | None = None
        for entry in self.game.history():
            match entry:
                case OpeningRoll():
                    self.reroll = entry.reroll
                case Rolled():
                    self.rolled = entry
                case TurnPlayed():
                    self._turn(entry)
                case Doubled():
                    self._double(entry)
                case Beavered():
                    self._beaver()
                case Taken() | Dropped():
                    self._answer(entry)
                case ResignationOffered():
                    self._resignation(entry)
                case ResignationAccepted() | ResignationRejected():
                    pass  # judged with the offer, which knows whether it was accepted
                case GameEnded():
                    end = entry
                case _:
                    assert_never(entry)
        score = self.game.score.score if self.game.score is not None else (0, 0)
        return GameAnalysis(
            self.number,
            self.game.score.length if self.game.score is not None else 0,
            score,
            tuple(self.decisions),
            None if end is None else end.winner,
            0 if end is None else end.points,
            self._result(end),
            claimed=end is not None and end.reason == "claim",
        )

    def _cube(self, cube: CubeContext | None) -> CubeContext:
        if cube is None:
            raise AnalysisError(
                "This game of a match was made without its match score: analyse the match."
            )
        return cube

    def _turn(self, entry: TurnPlayed[Position, Play]) -> None:
        cube = self._cube(entry.cube)
        rolled, self.rolled = self.rolled, None
        opening = rolled is not None and rolled.opening
        # No cube decision before the opening roll, nor before dice that came with a set-up.
        if rolled is not None and not opening and may_double(cube):
            equities = self.analyser.cube(entry.position, cube)
            self._cube_decision(entry.seat, entry.position, cube, equities, doubled=False)
        analyser, position, dice = self.analyser, entry.position, entry.dice
        best, best_equity, played, shown = analyser.checker(position, dice, entry.play, cube)
        scale = Scale.of(cube)
        luck = analyser.luck(position, dice, cube, first=opening and not self.reroll)
        loss = max(best_equity - played, 0.0)
        self._add(
            entry.seat, Kind.CHECKER, dice, str(entry.play), best, loss, scale,
            position, entry.seat, cube, alternatives=shown, unforced=bool(shown),
            luck=Luck(luck, luck * scale.unit, luck_mark(luck)), equity=played,
        )
        self.turn += 1
        self.tick()

    def _double(self, entry: Doubled[Position]) -> None:
        cube = self._cube(entry.cube)
        equities = self.analyser.cube(entry.position, cube)
        self._cube_decision(entry.seat, entry.position, cube, equities, doubled=True)
        self.offer = (entry, equities)
        self.tick()

    def _cube_decision(
        self,
        seat: int,
        position: Position,
        cube: CubeContext,
        equities: tuple[float, float, float],
        doubled: bool,
    ) -> None:
        nd, dt, dp = equities
        best, loss = double_loss(equities, doubled)
        optimal = max(nd, min(dt, dp))
        if doubled:
            error = (CubeError.WRONG_DOUBLE_ABOVE_TG if nd > 1.0
                     else CubeError.WRONG_DOUBLE_BELOW_DP)
        else:
            error = (CubeError.MISSED_DOUBLE_ABOVE_CP if dt > 1.0
                     else CubeError.MISSED_DOUBLE_BELOW_CP)
        self._add(
            seat, Kind.CUBE, None, "double" if doubled else "no double", best, loss,
            Scale.of(cube), position, seat, cube,
            alternatives=_cube_alternatives(nd, dt, dp),
            close=doubled or optimal - min(dt, 1.0) < CLOSE_CUBE,
            cube_error=error if loss > 0 else None,
        )

    def _beaver(self) -> None:
        """A beaver is not judged (as in gnubg); the doubler's answer to it is."""
        self.beavered = True

    def _answer(self, entry: Taken | Dropped) -> None:
        """The answer to a double, or the doubler's to a beaver: a take decision (gnubg
        counts both)."""
        assert self.offer is not None
        doubled, (_, dt, dp) = self.offer
        took = isinstance(entry, Taken)
        take, drop = answer_values(dt, dp, self.beavered)
        self.offer, self.beavered = None, False
        loss = drop - take if took else take - drop
        error = CubeError.WRONG_TAKE if took else CubeError.WRONG_PASS
        cube = self._cube(doubled.cube)
        self._add(
            entry.seat, Kind.TAKE, None, "take" if took else "drop",
            "take" if take >= drop else "drop", max(loss, 0.0), Scale.of(cube),
            doubled.position, doubled.seat, cube,
            alternatives=(Alternative("take", take), Alternative("drop", drop)),
            close=True, cube_error=error if loss > 0 else None,
        )

    def _resignation(self, entry: ResignationOffered[Position]) -> None:
        self.tick()
        # The board and cube of the player on roll at the offer, a take just before included.
        position, cube, on_roll = entry.position, self._cube(entry.cube), entry.on_roll
        accepting, playing_on = self.analyser.resignation(
            position, cube, entry.level, entry.seat == on_roll
        )
        scale = Scale.of(cube)
        level = f"resign {entry.level.name.lower()}"
        self._add(
            entry.seat, Kind.RESIGN, None, level,
            level if accepting <= playing_on else "play on",
            max(accepting - playing_on, 0.0), scale, position, on_roll, cube,
            alternatives=(Alternative("play on", -playing_on), Alternative(level, -accepting)),
        )
        if entry.accepted is not None:
            accept = entry.accepted
            self._add(
                1 - entry.seat, Kind.ANSWER, None, "accept" if accept else "reject",
                "accept" if accepting >= playing_on else "reject",
                max(playing_on - accepting if accept else accepting - playing_on, 0.0),
                scale, position, on_roll, cube,
                alternatives=(Alternative("accept", accepting),
                              Alternative("reject", playing_on)),
            )

    def _add(
        self,
        seat: int,
        kind: Kind,
        dice: Dice | None,
        played: str,
        best: str,
        loss: float,
        scale: Scale,
        position: Position,
        viewer: int,
        cube: CubeContext,
        *,
        alternatives: tuple[Alternative, ...] = (),
        unforced: bool = False,
        luck: Luck | None = None,
        equity: float | None = None,
        close: bool = False,
        cube_error: CubeError | None = None,
    ) -> None:
        position_id, match_id = self._ids(position, viewer, cube, dice, kind is Kind.TAKE, seat)
        self.decisions.append(
            Decision(
                self.number, self.turn, seat, kind, dice, played, best, loss,
                loss * scale.unit, skill_mark(loss), position, viewer, cube,
                position_id, match_id, alternatives, unforced, luck, equity, close, cube_error,
            )
        )

    def _ids(
        self, position: Position, viewer: int, cube: CubeContext, dice: Dice | None,
        offered: bool, seat: int,
    ) -> tuple[str, str]:
        """gnubg's Position ID and Match ID of the decision's moment: ``viewer`` on roll and
        to act, or (``offered``: a double waits for its answer) ``seat``, who answers it. A
        resignation's are those of the moment before the offer."""
        owner = {CubeOwner.CENTRE: None, CubeOwner.ON_ROLL: viewer,
                 CubeOwner.OPPONENT: 1 - viewer}[cube.owner]
        score = self.game.score
        state = MatchIdState(
            cube_value=cube.value,
            cube_owner=owner,
            player_on_roll=viewer,
            crawford=self.game.crawford,
            turn=seat if offered else viewer,
            double_offered=offered,
            dice=None if dice is None else (max(dice), min(dice)),
            match_length=0 if score is None else score.length,
            score=(0, 0) if score is None else score.score,
            jacoby=self.game.rules.jacoby and not self.game.in_match,
        )
        return position.id(), encode_match_id(state)

    def _result(self, end: GameEnded | None) -> tuple[float, float]:
        """What each seat won in the game: the change in its chance of winning the match,
        or the points in money play."""
        if end is None:
            return (0.0, 0.0)
        score = self.game.score
        if score is None:
            won = float(end.points)
        else:
            mine = score if end.winner == 0 else score.flip()
            won = equity_after(mine, won=end.points) - match_equity(mine)
        return (won, -won) if end.winner == 0 else (-won, won)


def double_loss(equities: tuple[float, float, float], doubled: bool) -> tuple[str, float]:
    """The right cube action ("double" or "no double") by the doubler's equities (EMG) of no
    double, double and take, double and drop, and what doubling (``doubled``) or not lost.

    >>> best, loss = double_loss((0.4, 0.6, 1.0), doubled=False)
    >>> best, round(loss, 3), double_loss((0.4, 0.6, 1.0), doubled=True)
    ('double', 0.2, ('double', 0.0))
    """
    nd, dt, dp = equities
    optimal = max(nd, min(dt, dp))
    best = "no double" if optimal == nd else "double"
    return best, optimal - (min(dt, dp) if doubled else nd)


def answer_values(dt: float, dp: float, beavered: bool) -> tuple[float, float]:
    """What taking and dropping are worth (EMG) to the player answering a double, from the
    doubler's equities of double and take ``dt`` and of double and drop ``dp``; after a
    beaver the doubler answers, playing on at twice the take's stake, facing the cube, or
    paying the doubled cube (as the bot answers beavers: EMG of the cube before the double).

    >>> answer_values(0.6, 1.0, beavered=False)
    (-0.6, -1.0)
    """
    if beavered:
        return 2 * dt, -2.0
    return -dt, -dp


def _cube_alternatives(nd: float, dt: float, dp: float) -> tuple[Alternative, ...]:
    """The three cube actions with their equities for the doubler, highest first."""
    actions = [Alternative("no double", nd), Alternative("double, take", dt),
               Alternative("double, drop", dp)]
    return tuple(sorted(actions, key=lambda a: -a.equity))


__all__ = [
    "Analyser",
    "AnalysisError",
    "GameAnalysis",
    "MatchAnalysis",
    "Progress",
    "answer_values",
    "double_loss",
]
