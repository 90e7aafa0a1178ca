"""Why a cube action or an answer to a resignation: the winning chances the bot measured
against the cube's points (:mod:`backgammon.bot.cube_points`, on the bot's own cube lines and
match equities), the gammons, the race; and the offer's value against playing on.

Each decision is said to the player who makes it: the doubler before the roll or facing a
beaver, the player doubled, the player offered a resignation.

>>> from backgammon import Position
>>> from backgammon.bot.bot import ResignationAnswer
>>> from backgammon.bot.player import ResignationQuestion
>>> from backgammon.bot.probabilities import Probabilities
>>> from backgammon.cube import CubeContext
>>> from backgammon.position import WinKind
>>> offer = ResignationQuestion(Position.initial(), CubeContext(), WinKind.SINGLE, True)
>>> chances = Probabilities(0.9, 0.3, 0.01, 0.0, 0.0)
>>> for reason in resignation_reasons(offer, ResignationAnswer(False, 1.0, 1.2), chances):
...     print(reason)
Reason('reject_points', gets=1.0, worth=1.2)
Reason('win_chances', backgammons=0.01, gammons=0.3, wins=0.9)
"""

from __future__ import annotations

from ...bot import (
    CubeAction,
    CubeDecision,
    CubeMoment,
    CubeQuestion,
    CubeResponse,
    Probabilities,
    ResignationAnswer,
    ResignationQuestion,
    cube_points,
)
from ...game import Action
from ...position import Position
from .reason import Code, Reason

#: The least chance of a gammon worth naming in a cube decision.
GAMMONS_WORTH_SAYING = 0.1


def cube_reasons(question: CubeQuestion, decision: CubeDecision) -> list[Reason]:
    """The reasons of ``decision`` (the bot's, on ``question``) for the player who decides
    now: the doubler's winning chance against the chance that doubling needs, or how far it
    is past the point where playing on for the gammon is worth more; the taker's chance
    against the chance a take needs; the gammons; the race. Where the cube's lines have no
    such point (a score at which the taker always takes, say), the player's chances."""
    p = decision.probabilities
    position = question.position
    if question.moment is CubeMoment.ROLL:
        reasons = _doubler_reasons(question, decision)
    elif question.moment is CubeMoment.BEAVER_ANSWER:
        take = question.advice(decision) is Action.TAKE
        reasons = [Reason(Code.TAKE_BEAVER if take else Code.DROP_BEAVER, wins=p.win)]
    else:
        reasons = _taker_reasons(question, decision)
        p, position = p.flip(), position.flip()
    if not reasons:
        reasons = [_chances(p)]
    return [*reasons, *_gammons(p, reasons), *_race(position)]


def resignation_reasons(
    question: ResignationQuestion, answer: ResignationAnswer, chances: Probabilities
) -> list[Reason]:
    """The reasons of ``answer`` to the offer ``question``: the game the offer gives
    against what playing on is worth (points in money play, chances of winning the match in
    a match), and the answering player's ``chances`` (win, gammon, backgammon) that playing
    on is worth."""
    if question.cube.money:
        code = Code.ACCEPT_POINTS if answer.accept else Code.REJECT_POINTS
    else:
        code = Code.ACCEPT_MATCH if answer.accept else Code.REJECT_MATCH
    return [Reason(code, gets=answer.accepting, worth=answer.playing_on), _chances(chances)]


def answerer_chances(question: ResignationQuestion, chances: Probabilities) -> Probabilities:
    """The chances of the player answering ``question``, from ``chances`` of the player on
    roll in its position."""
    return chances.flip() if question.resigner_on_roll else chances


def _chances(p: Probabilities) -> Reason:
    """The chances ``p`` of winning, and of winning a gammon and a backgammon."""
    return Reason(
        Code.WIN_CHANCES, wins=p.win, gammons=p.win_gammon, backgammons=p.win_backgammon
    )


def _doubler_reasons(question: CubeQuestion, decision: CubeDecision) -> list[Reason]:
    p, points = decision.probabilities, cube_points(decision, question.cube)
    reasons = []
    if decision.action is CubeAction.TOO_GOOD and points.too_good is not None:
        reasons.append(Reason(Code.TOO_GOOD_TO_DOUBLE, margin=p.win - points.too_good))
    elif decision.action is CubeAction.DOUBLE and points.double is not None:
        reasons.append(Reason(Code.DOUBLE, wins=p.win, needed=points.double))
    elif decision.action is CubeAction.NO_DOUBLE:
        if points.double is not None and p.win < points.double:
            reasons.append(Reason(Code.NOT_STRONG_ENOUGH, wins=p.win, needed=points.double))
        else:
            reasons.append(Reason(Code.NO_DOUBLE, wins=p.win))
    if decision.action is CubeAction.DOUBLE and points.take is not None:
        wins, needed = 1.0 - p.win, 1.0 - points.take
        if decision.response is CubeResponse.DROP:
            reasons.append(Reason(Code.THEY_DROP, wins=wins, needed=needed))
        elif decision.response is CubeResponse.BEAVER:
            reasons.append(Reason(Code.THEY_BEAVER, wins=wins))
        else:
            reasons.append(Reason(Code.THEY_TAKE, wins=wins, needed=needed))
    return reasons


def _taker_reasons(question: CubeQuestion, decision: CubeDecision) -> list[Reason]:
    points = cube_points(decision, question.cube)
    wins = 1.0 - decision.probabilities.win
    if points.take is None:
        return []
    code = {Action.DROP: Code.DROP, Action.BEAVER: Code.BEAVER}.get(
        question.advice(decision), Code.TAKE
    )
    return [Reason(code, wins=wins, needed=1.0 - points.take)]


def _gammons(p: Probabilities, said: list[Reason]) -> list[Reason]:
    """The gammons of the player deciding (chances ``p``) won and lost, where they count;
    always the gammons won of a position too good to double."""
    too_good = any(reason.code is Code.TOO_GOOD_TO_DOUBLE for reason in said)
    reasons = []
    if too_good or p.win_gammon >= GAMMONS_WORTH_SAYING:
        reasons.append(Reason(Code.GAMMON_CHANCES, gammons=p.win_gammon))
    if p.lose_gammon >= GAMMONS_WORTH_SAYING:
        reasons.append(Reason(Code.GAMMON_RISK, gammons=p.lose_gammon))
    return reasons


def _race(position: Position) -> list[Reason]:
    """The race count of the player on roll in ``position``, once there is no contact."""
    if not position.is_race():
        return []
    mine, theirs = position.pips()
    if mine == theirs:
        return [Reason(Code.RACE_EVEN)]
    if mine < theirs:
        return [Reason(Code.RACE_LEAD, pips=theirs - mine)]
    return [Reason(Code.RACE_TRAIL, pips=mine - theirs)]
