"""The tutor: before a person's play or cube action is final, the engine judges it, and the
page warns when it loses more than the player's threshold (GNU Backgammon's marks), with the
better play or cube action and its reasons, and lets the player take it back or keep it.

The judgement is the analysis's own (:class:`~backgammon.analysis.Analyser`'s checker and
cube judgements, its marks), made with the hints' bot in the hints' pool of threads, and the
warning shows the hint of the decision (:mod:`.hints`). A warning is kept with the match
(:attr:`~..live.LiveMatch.tutor`), outside the rules' record: the record already keeps what
the player did next (the steps taken back and their undos, or the action kept), and the
rules core stays free of what the engine thought. Never in an online match between people,
practice or not: the tutor is the help of a player who plays the computer, or both sides at
one screen.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from fastapi import APIRouter, Depends, HTTPException, Request, status
from sqlalchemy.exc import SQLAlchemyError

from ....analysis import Analyser
from ....analysis.analyser import answer_values, double_loss
from ....analysis.decisions import SKILL_THRESHOLDS, skill_mark
from ....bot import Bot, CubeMoment, CubeQuestion
from ....game import Game, Phase
from ...http.guards import BoundedPool, rate_limited
from .. import computer
from ..board_games import refuse_other_games
from ..deps import Held, Live, StoreDep, check_holds
from ..hint_schemas import HintView, TutorAsk, TutorNote, TutorNotes, TutorView
from ..live import LiveMatch
from ..saves import MatchChangedError
from .hints import LEVEL, cube_question, move_question

log = logging.getLogger(__name__)

router = APIRouter(prefix="/api/matches", tags=["tutor"])

#: The least loss (EMG) that earns each mark: a warning at a threshold is for more than it.
THRESHOLDS = {mark.value: least for mark, least in SKILL_THRESHOLDS}


@dataclass(frozen=True)
class _Judged:
    """What the bot found: the action's loss against the best, and the decision's hint."""

    played: str
    best: str
    loss: float
    hint: Callable[[Bot], HintView]


@router.post(
    "/{match_id}/tutor",
    response_model=TutorView,
    dependencies=[Depends(rate_limited("hint"))],
    responses={
        401: {"description": "no seat token"},
        403: {"description": "the token does not hold the seat the game waits for, or the "
              "match is online between people (no tutor there)"},
        404: {"description": "no such match"},
        409: {"description": "nothing to judge: the game has moved on from the version "
              "asked, or the action is not one the seat may make now"},
        422: {"description": "the question is malformed"},
        429: {"description": "too many hints asked from this address"},
        503: {"description": "the threads that think out hints are all busy"},
    },
)
async def judge(
    ask: TutorAsk, request: Request, live: Live, held: Held, store: StoreDep
) -> TutorView:
    """The tutor's judgement of ``action`` before it is sent: the play made this turn (its
    steps all made, the confirm not yet sent), or a double, take or drop. A loss of more
    than the ``threshold``'s least comes with a warning and the decision's hint (better
    plays or the cube decision, with reasons in ``lang``), and the warning is kept with the
    match. About as long as a hint: at most about a second."""
    pool: BoundedPool = request.app.state.hint_pool
    verdict: TutorView = await pool.run(computer.consult, LEVEL, _question(live, ask, held))
    if verdict.warn:
        await _keep(live, store, ask, verdict)
    return verdict


@router.get(
    "/{match_id}/tutor",
    response_model=TutorNotes,
    responses={404: {"description": "no such match"}},
)
async def warnings(live: Live) -> TutorNotes:
    """The tutor's warnings in the match, oldest first: when each was given, what was
    judged, what it lost and the threshold. The record's next event of that game says
    whether the player took the play back or kept it."""
    return TutorNotes(notes=[TutorNote(**note) for note in live.tutor])


def _question(
    live: LiveMatch, ask: TutorAsk, held: frozenset[int]
) -> Callable[[Bot], TutorView]:
    """What to ask the bot, read from the match now; 403 online between
    people, 409 when the game is not where the question says."""
    if live.seating.online:
        raise HTTPException(
            status.HTTP_403_FORBIDDEN,
            "The tutor is off in an online match between people: each player plays on "
            "their own judgement.",
        )
    refuse_other_games(live, "The tutor's warnings")
    game = live.match.game
    assert isinstance(game, Game)
    seat = game.player_to_act
    if live.match.is_over or seat is None or ask.version != live.version:
        raise _refuse("The game has moved on since; judge the action as it stands now.")
    if live.seats[seat].kind == "computer":
        raise _refuse(f"The game waits for the computer (seat {seat}).")
    check_holds(held, seat)
    judged = _checker(live, seat, ask) if ask.action == "confirm" else _cube(live, seat, ask)
    return _verdict(judged, seat, ask)


def _refuse(sentence: str) -> HTTPException:
    return HTTPException(status.HTTP_409_CONFLICT, sentence)


def _checker(live: LiveMatch, seat: int, ask: TutorAsk) -> Callable[[Bot], _Judged]:
    game = live.match.game
    assert isinstance(game, Game)  # the other games' are refused (_question)
    if game.phase is not Phase.CONFIRM or game.turn is None or game.dice is None:
        raise _refuse("No play waits to be confirmed: make every step of the roll first.")
    position, dice, cube = game.position, game.dice, game.cube_context(seat)
    play = game.turn.play()
    hint = move_question(game, seat, ask.view, ask.version, ask.lang)

    def judge(bot: Bot) -> _Judged:
        best, best_equity, played, _ = Analyser(bot=bot, workers=1).checker(
            position, dice, play, cube
        )
        return _Judged(str(play), best, max(best_equity - played, 0.0), hint)

    return judge


def _cube(live: LiveMatch, seat: int, ask: TutorAsk) -> Callable[[Bot], _Judged]:
    game = live.match.game
    assert isinstance(game, Game)  # the other games' are refused (_question)
    question = CubeQuestion.of(game, seat)
    doubling = ask.action == "double"
    wanted = (CubeMoment.ROLL,) if doubling else (CubeMoment.ANSWER, CubeMoment.BEAVER_ANSWER)
    if question is None or question.moment not in wanted or (
        doubling and not live.match.game.may_double(seat)
    ):
        raise _refuse(f"Seat {seat} may not {ask.action} now.")
    hint = cube_question(question, seat, ask.version, ask.lang)

    def judge(bot: Bot) -> _Judged:
        equities = Analyser(bot=bot, workers=1).cube(question.position, question.cube)
        if doubling:
            best, loss = double_loss(equities, doubled=True)
            return _Judged("double", best, loss, hint)
        beavered = question.moment is CubeMoment.BEAVER_ANSWER
        take, drop = answer_values(equities[1], equities[2], beavered)
        best = "take" if take >= drop else "drop"
        chosen, other = (take, drop) if ask.action == "take" else (drop, take)
        return _Judged(ask.action, best, max(other - chosen, 0.0), hint)

    return judge


def _verdict(
    judged: Callable[[Bot], _Judged], seat: int, ask: TutorAsk
) -> Callable[[Bot], TutorView]:
    """The answer: the hint of the decision is thought out only for a warning."""

    def verdict(bot: Bot) -> TutorView:
        found = judged(bot)
        mark = skill_mark(found.loss)
        warn = found.loss > THRESHOLDS[ask.threshold]
        return TutorView(
            version=ask.version,
            seat=seat,
            action=ask.action,
            played=found.played,
            best=found.best,
            loss=found.loss,
            mark=None if mark is None else mark.value,
            warn=warn,
            hint=found.hint(bot) if warn else None,
        )

    return verdict


async def _keep(live: LiveMatch, store: StoreDep, ask: TutorAsk, verdict: TutorView) -> None:
    """Keep the warning with the match, unless the game has moved on meanwhile (the warning
    then reached a page that has moved on too) or the save fails: the warning is a note,
    and the game goes on without it."""
    async with live.lock:
        game, event = len(live.match.games), len(live.match.game.events)
        # One note a moment: the same question asked again (another threshold, a page
        # reloaded) adds nothing, so the notes grow no faster than the record.
        if live.version != ask.version or live.stale or any(
            (n["game"], n["event"], n["action"]) == (game, event, ask.action) for n in live.tutor
        ):
            return
        note = TutorNote(
            game=game,
            event=event,
            seat=verdict.seat,
            action=verdict.action,
            played=verdict.played,
            best=verdict.best,
            loss=verdict.loss,
            mark=verdict.mark,
            threshold=ask.threshold,
        )
        try:
            await store.add_tutor_note(live, note.model_dump())
        except (MatchChangedError, SQLAlchemyError):
            log.warning("The tutor's warning in match %s was not kept.", live.id, exc_info=True)

