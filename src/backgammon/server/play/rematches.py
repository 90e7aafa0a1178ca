"""Rematches: at a match's end, another with the same settings.

Between two people online, either player offers a rematch and the other accepts or declines
(:meth:`.service.MatchService.offer_rematch`, :meth:`~.service.MatchService.answer_rematch`);
against the computer, or at one screen, the offer starts it at once. The rematch has the
first match's length, variant and rules and its dice (fair ones, or the same seed where the
server allows seeds), is listed for spectators if the first was, and is rated if the first
was (:meth:`..accounts.ratings.Ratings.rematched`). It starts from the opening, even where
the first match was set up from a position. Online the players change seats, so that each
plays the other colour: the first match's seat 1 has seat 0, white by default.

Each seat's token in the rematch is made from its token in the first match
(:func:`.seats.rematch_token`): the offer keeps the digest of the offerer's, the acceptance
adds the accepter's, and each page asks for its own with its own token
(``GET /api/matches/{id}/rematch``), so that no answer carries the other seat's.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import HTTPException, status

from ...game.match import BoardMatch, Match
from ..db import now
from .live import AnyMatch, LiveMatch, Rematching, dice_for
from .match_rows import new_match_id
from .seats import Key, Seating


def check_offer(live: LiveMatch) -> None:
    """409, with the sentence, unless a rematch of ``live`` may be offered now: the match is
    over, and no rematch is offered or started."""
    if not live.match.is_over:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            "A rematch is offered once the match is over; this one goes on.",
        )
    check_not_started(live.rematch)
    if live.rematch.offered_by is not None:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"Seat {live.rematch.offered_by} has offered a rematch already: it waits for "
            "its answer.",
        )


def check_answer(live: LiveMatch, seat: int) -> int:
    """The seat that offered the rematch ``seat`` answers; 409, with the sentence, where
    there is nothing for ``seat`` to answer."""
    check_not_started(live.rematch)
    offered_by = live.rematch.offered_by
    if offered_by is None:
        raise HTTPException(
            status.HTTP_409_CONFLICT, "No rematch is offered: there is nothing to answer."
        )
    if offered_by == seat:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            "This seat offered the rematch: the other player answers it.",
        )
    return offered_by


def check_not_started(rematch: Rematching) -> None:
    """409 where the rematch has started already."""
    if rematch.next is not None:
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"The rematch has started already: it is match {rematch.next}.",
        )


def seat_in_rematch(live: LiveMatch, seat: int) -> int:
    """The seat that ``seat`` of ``live`` has in its rematch: the other one online (the
    players change colours), the same against the computer or at one screen.

    >>> from backgammon.server.play.live import SeatSettings
    >>> people = (SeatSettings("human"), SeatSettings("human"))
    >>> live = LiveMatch("m", Match(1), people, None, now(), Seating(online=True))
    >>> seat_in_rematch(live, 0)
    1
    """
    return 1 - seat if live.seating.online else seat


def started(live: LiveMatch, keys: list[Key]) -> LiveMatch:
    """The rematch of ``live``, whose seats ``keys`` hold (on its own seats): the same
    settings, from the opening, the players in their seats of :func:`seat_in_rematch`."""
    old = live.match
    order = (seat_in_rematch(live, 0), seat_in_rematch(live, 1))
    players = (old.players[order[0]], old.players[order[1]])
    options: dict[str, Any] = {"players": players, "colours": old.colours,
                               "crawford": old.crawford_rule}
    match: AnyMatch
    if isinstance(old, BoardMatch):
        match = BoardMatch(old.length, old.rules, dice_for(live.seed), rotation=old.rotation,
                           **options)
    else:
        match = Match(old.length, old.rules, dice_for(live.seed), **options)
    seating = Seating(
        keys,
        online=live.seating.online,
        claim_seconds=live.seating.claim_seconds,
        clock=live.seating.clock,
        public=live.seating.public,
        practice=live.seating.practice,  # both agreed to it for the match they rematch
    )
    seats = (live.seats[order[0]], live.seats[order[1]])
    return LiveMatch(
        new_match_id(), match, seats, live.seed, now(), seating, Rematching(of=live.id)
    )


def offered(rematch: Rematching, seat: int, digest: str) -> Rematching:
    """``rematch`` once ``seat`` has offered one, the digest of its token for it kept."""
    return replace(rematch, offered_by=seat, offer_digest=digest, step=rematch.step + 1)


def answered(rematch: Rematching, next_id: str | None) -> Rematching:
    """``rematch`` once answered: started as match ``next_id``, or declined (None)."""
    return replace(
        rematch, offered_by=None, offer_digest=None, next=next_id, step=rematch.step + 1
    )
