"""Bots at the table: a bot takes its seat's action in a game through the game's own API.

:func:`decide` chooses one action for a seat whose turn it is (the opening roll, a roll or a
double, an answer to a double, a play, an answer to a resignation) as a
:class:`~backgammon.game.Act`, and :func:`act` makes it through ``Game.act``, so that the
terminal, the server and self-play drive bot players the same way; :func:`play_out` lets bots play a
game or a whole match to its end.

>>> from backgammon.dice import SeededDice
>>> from backgammon.game import Game
>>> from backgammon.bot.evaluator import FakeEvaluator
>>> bot = Bot(evaluator=FakeEvaluator())
>>> game = Game(dice=SeededDice(3))
>>> play_out(game, (bot, bot))
>>> game.result is not None
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from ..cube import CubeContext
from ..game import Act, Action, Game, Phase
from ..game.match import Match
from ..moves import Play
from ..position import Position, WinKind
from .bot import Bot, ResignationAnswer
from .cube import CubeAction, CubeDecision, CubeResponse


def best_play(bot: Bot, game: Game, seat: int) -> Play:
    """``bot``'s play for ``seat``, on roll in ``game`` with the dice rolled: in a game of
    a match, the play that gives the best chance of winning the match at its score."""
    assert game.dice is not None and game.on_roll == seat
    play = bot.best_play(game.position, game.dice, game.cube_context(seat))
    # A roll with no legal move is passed by the game itself, so a play exists here.
    assert play is not None
    return play


def takes_beaver(decision: CubeDecision) -> bool:
    """Whether the doubler should take a beaver, by ``decision`` (the doubler's, before the
    double): playing on at twice the take's stake facing the cube beats dropping, which pays
    the double's stake (one cube, doubled): twice the take's equity against minus two."""
    return decision.double_take >= -1.0


class CubeMoment(StrEnum):
    """When a cube decision is asked for."""

    ROLL = "roll"  # the player on roll may double before rolling
    ANSWER = "answer"  # a double waits for its answer
    BEAVER_ANSWER = "beaver-answer"  # a beaver waits for the doubler's answer


@dataclass(frozen=True)
class CubeQuestion:
    """The cube decision a seat faces now: the doubler's position and cube (a double and a
    beaver are both judged on the cube before the double), and when it is asked.

    Plain values, read at once from the game, so that they can be decided on elsewhere while
    the game goes on (the server reads them on its event loop and lets a worker think)."""

    position: Position
    cube: CubeContext
    doubler: int
    moment: CubeMoment

    @classmethod
    def of(cls, game: Game, seat: int) -> CubeQuestion | None:
        """The question ``seat`` faces in ``game``, or None when it has no cube decision to
        make (it may not double now, or no double waits for its answer)."""
        offer = game.offer
        if game.phase is Phase.ROLL and game.may_double(seat):
            doubler, moment = seat, CubeMoment.ROLL
        elif game.phase is not Phase.CUBE or offer is None or game.player_to_act != seat:
            return None
        elif offer.beavered:
            doubler, moment = offer.decider, CubeMoment.BEAVER_ANSWER
        else:
            doubler, moment = offer.player, CubeMoment.ANSWER
        return cls(game.position_for(doubler), game.cube_context(doubler), doubler, moment)

    def decide(self, bot: Bot) -> CubeDecision:
        """``bot``'s decision for the doubler."""
        return bot.cube_decision(self.position, self.cube)

    def advice(self, decision: CubeDecision) -> Action:
        """What the seat should do by ``decision`` (:meth:`decide`): double or roll (too good
        to double: play on for the gammon, as without a double); take, drop or, where the
        cube allows it, beaver a double; take or drop a beaver."""
        if self.moment is CubeMoment.ROLL:
            return Action.DOUBLE if decision.action is CubeAction.DOUBLE else Action.ROLL
        if self.moment is CubeMoment.BEAVER_ANSWER:
            return Action.TAKE if takes_beaver(decision) else Action.DROP
        return {CubeResponse.DROP: Action.DROP, CubeResponse.BEAVER: Action.BEAVER}.get(
            decision.response, Action.TAKE
        )


@dataclass(frozen=True)
class ResignationQuestion:
    """An offer to resign that waits for a seat's answer: the position and the cube as the
    player on roll sees them, the level offered, and whether the resigner is on roll. Plain
    values, read at once from the game (as :class:`CubeQuestion`)."""

    position: Position
    cube: CubeContext
    level: WinKind
    resigner_on_roll: bool

    @classmethod
    def of(cls, game: Game, seat: int) -> ResignationQuestion | None:
        """The offer waiting for ``seat``'s answer, or None when none waits."""
        offer = game.resignation
        if game.phase is not Phase.RESIGN or offer is None or game.player_to_act != seat:
            return None
        on_roll = game.on_roll
        return cls(
            game.position, game.cube_context(on_roll), offer.level, offer.player == on_roll
        )

    def decide(self, bot: Bot) -> ResignationAnswer:
        """``bot``'s answer, for the seat that answers."""
        return bot.answer_resignation(
            self.position, self.level, self.resigner_on_roll, self.cube
        )


def _resigned_before(game: Game, seat: int) -> bool:
    """Whether ``seat`` has offered a resignation in this game (and had it refused)."""
    return any(e.action is Action.RESIGN and e.player == seat for e in game.events)


def decide(bot: Bot, game: Game, seat: int) -> Act | None:
    """``bot``'s action for ``seat`` in ``game`` as it stands, without making it: None when
    the game does not wait for ``seat`` (or is over). A game of a match knows its score,
    which the bot plays to.

    The game is only read, so the server can let a worker think while the game goes on, and
    apply the answer with :meth:`Game.act <backgammon.game.Game.act>` if nothing moved."""
    phase = game.phase
    if phase is Phase.OPENING:
        return Act(Action.ROLL)
    if game.player_to_act != seat:
        return None
    if phase is Phase.ROLL:
        return _start_turn(bot, game, seat)
    if phase is Phase.CUBE:
        cube_question = CubeQuestion.of(game, seat)
        assert cube_question is not None
        return Act(_ask(bot, cube_question))
    if phase is Phase.MOVE:
        return Act(Action.PLAY, play=best_play(bot, game, seat))
    if phase is Phase.CONFIRM:
        return Act(Action.CONFIRM)
    question = ResignationQuestion.of(game, seat)
    assert phase is Phase.RESIGN and question is not None
    return Act(Action.ACCEPT if question.decide(bot).accept else Action.REJECT)


def act(bot: Bot, game: Game, seat: int) -> Action | None:
    """Make ``seat``'s move in ``game`` if the game waits for it (:func:`decide`): returns
    the action taken, or None when it is not ``seat``'s turn (or the game is over)."""
    move = decide(bot, game, seat)
    if move is None:
        return None
    game.act(seat, move)
    return move.action


def _start_turn(bot: Bot, game: Game, seat: int) -> Act:
    """Resign, double or roll."""
    if not _resigned_before(game, seat):
        level = bot.resignation_to_offer(game.position, game.cube_context(seat))
        if level is not None:
            return Act(Action.RESIGN, level=level)
    question = CubeQuestion.of(game, seat)
    if question is not None and _ask(bot, question) is Action.DOUBLE:
        return Act(Action.DOUBLE)
    return Act(Action.ROLL)


def _ask(bot: Bot, question: CubeQuestion) -> Action:
    return question.advice(question.decide(bot))


def play_out(game: Game, bots: Sequence[Bot], max_actions: int = 10_000) -> None:
    """Let ``bots[seat]`` act for each seat until ``game`` is over."""
    for _ in range(max_actions):
        if game.phase is Phase.OVER:
            return
        seat = game.player_to_act
        act(bots[0 if seat is None else seat], game, 0 if seat is None else seat)
    raise RuntimeError(f"The game did not end within {max_actions} actions.")


def play_match(match: Match, bots: Sequence[Bot], games: int | None = None) -> None:
    """Let the bots play ``match`` to its end, or (a money session) for ``games`` games."""
    while not match.is_over and (games is None or _finished(match) < games):
        play_out(match.game, bots)


def _finished(match: Match) -> int:
    return sum(game.result is not None for game in match.games)
