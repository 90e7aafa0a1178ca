"""A tournament as the API and its page show it (:class:`.schemas.TournamentView`)."""

from __future__ import annotations

from ..accounts.users import Account
from .draw import standings
from .schemas import EntrantView, PairingView, StandingView, TournamentView
from .state import Tournament


def view_of(tournament: Tournament, viewer: Account | None) -> TournamentView:
    """``tournament`` by its players' names, with ``viewer``'s entry and match."""
    names = {entrant.user: entrant.name for entrant in tournament.entrants}
    seeds, pairings = tournament.seeds(), tournament.pairings()
    mine = None if viewer is None else tournament.match_of(viewer.id)
    return TournamentView(
        id=tournament.id,
        name=tournament.name,
        kind=tournament.kind,
        game=tournament.game,  # type: ignore[arg-type]  # checked at creation
        status=tournament.status,  # type: ignore[arg-type]  # one of the four, as written
        version=tournament.version,
        creator=names.get(tournament.creator, ""),
        length=tournament.length,
        time_control=tournament.time_control,  # type: ignore[arg-type]  # checked at creation
        rated=tournament.rated,
        max_players=tournament.max_players,
        starts_at=tournament.starts_at,
        created_at=tournament.created_at,
        winner=None if tournament.winner is None else names.get(tournament.winner),
        players=[
            EntrantView(name=entrant.name, rating=round(entrant.rating, 2),
                        seed=None if entrant.seed is None else entrant.seed + 1)
            for entrant in tournament.entrants
        ],
        draw=[
            PairingView(
                round=placed.pairing.round,
                slot=placed.pairing.slot,
                match=placed.match_id,
                players=(names[placed.pairing.players[0]],
                         None if placed.pairing.players[1] is None
                         else names[placed.pairing.players[1]]),
                winner=None if placed.pairing.winner is None else names[placed.pairing.winner],
                points=placed.pairing.points,
            )
            for placed in tournament.draw
        ],
        standings=[] if not pairings else [
            StandingView(place=s.place, name=names[s.user], wins=s.wins, losses=s.losses,
                         points_won=s.points_won, points_lost=s.points_lost)
            for s in standings(tournament.kind, seeds, pairings)
        ],
        joined=viewer is not None and tournament.entrant(viewer.id) is not None,
        your_match=None if mine is None else mine.match_id,
    )
