"""Bots at the table: a bot takes its seat's action in a game through the game's own API.

:func:`act` performs one action for a seat whose turn it is (the opening roll, a roll or a
double, an answer to a double, a play, an answer to a resignation), so that the terminal,
the server and self-play drive bot players the same way; :func:`play_out` lets bots play a
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

from ..game import Action, Game, Phase
from ..match import Match
from ..moves import Play
from ..position import Position, WinKind
from .bot import Bot, ResignationAnswer
from .cube import CubeAction, CubeDecision, CubeOwner, CubeResponse
from .met import MatchScore


def _match_terms(
    game: Game, seat: int, match: Match | None
) -> tuple[int, tuple[int, int], bool]:
    """The match length, the score (``seat``'s first) and the Crawford flag of ``game``."""
    if match is None or not match.length:
        return 0, (0, 0), False
    score = match.scores_before(match.games.index(game))
    return match.length, (score[seat], score[1 - seat]), game.crawford


def match_score(game: Game, seat: int, match: Match | None = None) -> MatchScore | None:
    """The score of ``game`` for ``seat`` when it is a game of a match (None: money play)."""
    length, score, crawford = _match_terms(game, seat, match)
    return MatchScore(length, score, crawford) if length else None


def best_play(bot: Bot, game: Game, seat: int, match: Match | None = None) -> Play:
    """``bot``'s play for ``seat``, on roll in ``game`` with the dice rolled: in a game of
    a match, the play that gives the best chance of winning the match at its score."""
    assert game.dice is not None and game.on_roll == seat
    score = match_score(game, seat, match)
    play = bot.best_play(game.position, game.dice, score, game.cube_value)
    # A roll with no legal move is passed by the game itself, so a play exists here.
    assert play is not None
    return play


@dataclass(frozen=True)
class CubeTerms:
    """What :meth:`Bot.cube_decision` is asked about a game's cube: the doubler's position
    (the doubler on roll) and the cube, score and rules as they stand before a double.

    The terms are plain values, so that they can be read from a game that goes on changing
    and decided on elsewhere (the server reads them on its event loop and lets a worker
    thread think)."""

    position: Position
    cube_value: int
    cube_owner: CubeOwner
    match_length: int
    score: tuple[int, int]
    crawford: bool
    beavers: bool
    jacoby: bool

    @classmethod
    def of(cls, game: Game, doubler: int, match: Match | None = None) -> CubeTerms:
        """The terms of ``doubler``'s cube decision in ``game`` (a game of ``match``, if
        given, for the score)."""
        length, score, crawford = _match_terms(game, doubler, match)
        owner = (
            CubeOwner.CENTRE
            if game.cube_owner is None
            else CubeOwner.ON_ROLL if game.cube_owner == doubler else CubeOwner.OPPONENT
        )
        money = not length
        return cls(
            game.position_for(doubler),
            cube_value=game.cube_value,
            cube_owner=owner,
            match_length=length,
            score=score,
            crawford=crawford,
            beavers=money and game.rules.beavers,
            jacoby=money and game.rules.jacoby and not game.cube_turned,
        )

    def decide(self, bot: Bot) -> CubeDecision:
        """``bot``'s decision on these terms."""
        return bot.cube_decision(
            self.position,
            cube_value=self.cube_value,
            cube_owner=self.cube_owner,
            match_length=self.match_length,
            score=self.score,
            crawford=self.crawford,
            beavers=self.beavers,
            jacoby=self.jacoby,
        )


def takes_beaver(decision: CubeDecision) -> bool:
    """Whether the doubler should take a beaver, by ``decision`` (the doubler's, before the
    double): playing on at twice the take's stake facing the cube beats dropping, which pays
    the double's stake (one cube, doubled): twice the take's equity against minus two."""
    return decision.double_take >= -1.0


@dataclass(frozen=True)
class ResignationTerms:
    """What :meth:`Bot.answer_resignation` is asked about an offer to resign that waits for
    a seat's answer, as plain values (see :class:`CubeTerms`)."""

    position: Position
    level: WinKind
    resigner_on_roll: bool
    cube_value: int
    match_length: int
    score: tuple[int, int]
    crawford: bool

    @classmethod
    def of(cls, game: Game, seat: int, match: Match | None = None) -> ResignationTerms | None:
        """The terms of the offer waiting for ``seat``'s answer, or None when none waits."""
        if game.phase is not Phase.RESIGN or game.resignation is None:
            return None
        if game.player_to_act != seat:
            return None
        length, score, crawford = _match_terms(game, seat, match)
        return cls(
            game.position,
            game.resignation.level,
            resigner_on_roll=game.on_roll != seat,
            cube_value=game.cube_value,
            match_length=length,
            score=score,
            crawford=crawford,
        )

    def decide(self, bot: Bot) -> ResignationAnswer:
        """``bot``'s answer on these terms."""
        return bot.answer_resignation(
            self.position,
            self.level,
            self.resigner_on_roll,
            self.cube_value,
            self.match_length,
            self.score,
            self.crawford,
        )


class CubeMoment(StrEnum):
    """When a cube decision is asked for."""

    ROLL = "roll"  # the player on roll may double before rolling
    ANSWER = "answer"  # a double waits for its answer
    BEAVER_ANSWER = "beaver-answer"  # a beaver waits for the doubler's answer


@dataclass(frozen=True)
class CubeQuestion:
    """The cube decision a seat faces now: the doubler's terms (a double and a beaver are
    both judged on the terms of the double), when it is asked, and whether the seat may
    beaver. Plain values, read at once from the game (see :class:`CubeTerms`)."""

    terms: CubeTerms
    doubler: int
    moment: CubeMoment
    may_beaver: bool = False

    @classmethod
    def of(cls, game: Game, seat: int, match: Match | None = None) -> CubeQuestion | None:
        """The question ``seat`` faces in ``game``, or None when it has no cube decision to
        make (it may not double now, or no double waits for its answer)."""
        offer = game.offer
        if game.phase is Phase.ROLL and game.may_double(seat):
            return cls(CubeTerms.of(game, seat, match), seat, CubeMoment.ROLL)
        if game.phase is not Phase.CUBE or offer is None or game.player_to_act != seat:
            return None
        if offer.beavered:
            terms = CubeTerms.of(game, offer.decider, match)
            return cls(terms, offer.decider, CubeMoment.BEAVER_ANSWER)
        beaver = Action.BEAVER in game.legal_actions(seat)
        return cls(CubeTerms.of(game, offer.player, match), offer.player, CubeMoment.ANSWER,
                   beaver)

    def advice(self, decision: CubeDecision) -> Action:
        """What the seat should do by ``decision`` (on :attr:`terms`): double or roll (too
        good to double: play on for the gammon, as without a double); take, drop or, where
        allowed, beaver a double; take or drop a beaver."""
        if self.moment is CubeMoment.ROLL:
            return Action.DOUBLE if decision.action is CubeAction.DOUBLE else Action.ROLL
        if self.moment is CubeMoment.BEAVER_ANSWER:
            return Action.TAKE if takes_beaver(decision) else Action.DROP
        if decision.response is CubeResponse.DROP:
            return Action.DROP
        if decision.response is CubeResponse.BEAVER and self.may_beaver:
            return Action.BEAVER
        return Action.TAKE


def _resigned_before(game: Game, seat: int) -> bool:
    """Whether ``seat`` has offered a resignation in this game (and had it refused)."""
    return any(e.action is Action.RESIGN and e.player == seat for e in game.events)


def act(bot: Bot, game: Game, seat: int, match: Match | None = None) -> Action | None:
    """Make ``seat``'s move in ``game`` if the game waits for it: returns the action taken,
    or None when it is not ``seat``'s turn (or the game is over). ``match`` gives the score
    of a match game."""
    phase = game.phase
    if phase is Phase.OPENING:
        game.roll(seat)
        return Action.ROLL
    if game.player_to_act != seat:
        return None
    if phase is Phase.ROLL:
        return _start_turn(bot, game, seat, match)
    if phase is Phase.CUBE:
        return _answer_double(bot, game, seat, match)
    if phase is Phase.MOVE:
        game.play(seat, best_play(bot, game, seat, match))
        return Action.PLAY
    if phase is Phase.CONFIRM:
        game.confirm(seat)
        return Action.CONFIRM
    terms = ResignationTerms.of(game, seat, match)
    assert phase is Phase.RESIGN and terms is not None
    accept = terms.decide(bot).accept
    (game.accept if accept else game.reject)(seat)
    return Action.ACCEPT if accept else Action.REJECT


def _start_turn(bot: Bot, game: Game, seat: int, match: Match | None) -> Action:
    """Resign, double or roll."""
    if not _resigned_before(game, seat):
        length, score, crawford = _match_terms(game, seat, match)
        level = bot.resignation_to_offer(
            game.position, game.cube_value, length, score, crawford
        )
        if level is not None:
            game.resign(seat, level)
            return Action.RESIGN
    question = CubeQuestion.of(game, seat, match)
    if question is not None and _ask(bot, question) is Action.DOUBLE:
        game.double(seat)
        return Action.DOUBLE
    game.roll(seat)
    return Action.ROLL


def _answer_double(bot: Bot, game: Game, seat: int, match: Match | None) -> Action:
    """Take, drop or beaver a double; or, having doubled, take or drop the beaver."""
    question = CubeQuestion.of(game, seat, match)
    assert question is not None
    answer = _ask(bot, question)
    {Action.TAKE: game.take, Action.DROP: game.drop, Action.BEAVER: game.beaver}[answer](seat)
    return answer


def _ask(bot: Bot, question: CubeQuestion) -> Action:
    return question.advice(question.terms.decide(bot))


def play_out(
    game: Game, bots: Sequence[Bot], match: Match | None = None, max_actions: int = 10_000
) -> None:
    """Let ``bots[seat]`` act for each seat until ``game`` is over."""
    for _ in range(max_actions):
        if game.phase is Phase.OVER:
            return
        seat = game.player_to_act
        act(bots[0 if seat is None else seat], game, 0 if seat is None else seat, match)
    raise RuntimeError(f"The game did not end within {max_actions} actions.")


def play_match(match: Match, bots: Sequence[Bot], games: int | None = None) -> None:
    """Let the bots play ``match`` to its end, or (a money session) for ``games`` games."""
    while not match.is_over and (games is None or _finished(match) < games):
        play_out(match.game, bots, match)


def _finished(match: Match) -> int:
    return sum(game.result is not None for game in match.games)
