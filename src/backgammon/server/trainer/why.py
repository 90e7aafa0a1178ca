"""Why a card's best choice is best: the hints' own reasons (:mod:`backgammon.analysis.
reasons`), worked out once when the card is made, from the moment's gnubg IDs, and kept as
codes and figures so that each reader sees them in their language.

A checker card's reasons are the best play's against the one played (what it does that the
played one does not, the shots, the gammons), from the bot's 0-ply chances after each; a cube
card's are the cube decision's for the player deciding (the chances against those a double or
a take needs, the gammons, the race).
"""

from __future__ import annotations

from typing import Any

from ...analysis.reasons import Reason, cube_reasons, play_reasons
from ...bot import Bot, CubeContext, CubeMoment, CubeOwner, CubeQuestion, Hint, MatchScore
from ...formats.matchid import decode_match_id
from ...position import Position


def cube_of(match_id: str) -> tuple[int, CubeContext]:
    """The seat on roll in gnubg's ``match_id`` and the cube as it sees it.

    >>> seat, cube = cube_of("cAkAAAAAAAAA")
    >>> seat, cube.value, cube.owner, cube.match
    (1, 1, <CubeOwner.CENTRE: 'centre'>, None)
    """
    state = decode_match_id(match_id)
    seat = state.player_on_roll
    owner = (CubeOwner.CENTRE if state.cube_owner is None
             else CubeOwner.ON_ROLL if state.cube_owner == seat else CubeOwner.OPPONENT)
    match = None
    if state.match_length:
        score = state.score if seat == 0 else (state.score[1], state.score[0])
        match = MatchScore(state.match_length, score, state.crawford)
    jacoby = state.jacoby and match is None
    return seat, CubeContext(state.cube_value, owner, match, jacoby=jacoby)


def reasons_of(decision: dict[str, Any], bot: Bot) -> list[dict[str, Any]]:
    """The reasons of the report's ``decision`` (a card's), as plain values: each a
    ``code`` and its ``figures``."""
    position = Position.from_id(decision["position_id"])
    seat, cube = cube_of(decision["match_id"])
    if decision["kind"] == "checker":
        dice = tuple(decision["dice"])
        equities = {a["text"]: a["equity"] for a in decision["alternatives"]}

        def hint(text: str) -> Hint:
            play = position.parse_play(text, dice)
            chances = bot.evaluate(play.result, plies=0).flip()
            return Hint(play, chances, equities.get(text, 0.0))

        reasons = play_reasons(hint(decision["best"]), hint(decision["played"]))
    else:
        moment = CubeMoment.ROLL if decision["kind"] == "cube" else CubeMoment.ANSWER
        question = CubeQuestion(position, cube, seat, moment)
        reasons = cube_reasons(question, question.decide(bot))
    return [as_json(reason) for reason in reasons]


def as_json(reason: Reason) -> dict[str, Any]:
    """A reason as plain values, which :func:`from_json` reads back.

    >>> from_json(as_json(Reason("makes_point", point=5))) == Reason("makes_point", point=5)
    True
    """
    return {"code": reason.code.value, "figures": reason.figures}


def from_json(value: dict[str, Any]) -> Reason:
    """A reason from :func:`as_json`'s values."""
    return Reason(value["code"], **value["figures"])
