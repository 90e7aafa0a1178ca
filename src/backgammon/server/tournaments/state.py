"""A tournament as read at one version, and the change it makes next: pure, so that every
process that reads the same version plans the same change (:mod:`.service` writes it once).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime

from .draw import Kind, Pairing, is_finished, next_pairings, winner


@dataclass(frozen=True)
class NewTournament:
    """What its creator chose (checked already by :mod:`.schemas`)."""

    name: str
    kind: Kind
    #: What each match plays (:attr:`..db.TournamentRow.game`).
    game: str
    length: int
    time_control: str
    rated: bool
    max_players: int
    starts_at: datetime | None


@dataclass(frozen=True)
class Entrant:
    """A player entered: their account's id, name, whether their page is hidden, rating in
    the tournament's game, and once it starts their seed (0: the top)."""

    user: int
    name: str
    hidden: bool
    rating: float
    seed: int | None


@dataclass(frozen=True)
class Placed:
    """A place of the draw as kept: the pairing and its match (None for a bye)."""

    pairing: Pairing
    match_id: str | None


@dataclass(frozen=True)
class Tournament:
    """A tournament as read at one version: its row's settings and standing, its entrants
    (in seed order once started, in the order they joined before) and its draw."""

    id: str
    name: str
    kind: Kind
    game: str
    creator: int
    length: int
    time_control: str
    rated: bool
    max_players: int
    starts_at: datetime | None
    status: str
    version: int
    winner: int | None
    created_at: datetime
    secret: str = field(repr=False)
    entrants: list[Entrant] = field(default_factory=list)
    draw: list[Placed] = field(default_factory=list)

    def seeds(self) -> list[int]:
        """The entrants' user ids in seed order."""
        return [entrant.user for entrant in self.entrants]

    def pairings(self) -> list[Pairing]:
        """The draw's pairings."""
        return [placed.pairing for placed in self.draw]

    def entrant(self, user: int) -> Entrant | None:
        """The entry of ``user``, if any."""
        return next((entrant for entrant in self.entrants if entrant.user == user), None)

    def match_of(self, user: int) -> Placed | None:
        """The match ``user`` is to play now, if any."""
        for placed in self.draw:
            if placed.match_id and placed.pairing.winner is None and user in placed.pairing.players:
                return placed
        return None

    def is_due(self, moment: datetime) -> bool:
        """Whether an open tournament starts (or, too few, is called off) now."""
        if self.status != "open":
            return False
        if self.starts_at is None:
            return len(self.entrants) >= self.max_players
        return moment >= self.starts_at


@dataclass(frozen=True)
class Plan:
    """A change of a tournament: its new status and winner, the entrants' seed order where
    it starts, the pairings decided, and the new ones."""

    status: str
    winner: int | None = None
    seeds: list[int] | None = None
    decided: list[Pairing] = field(default_factory=list)
    new: list[Pairing] = field(default_factory=list)


Results = dict[str, tuple[int, tuple[int, int]]]


def plan(tournament: Tournament, results: Results, moment: datetime) -> Plan | None:
    """What changes in ``tournament`` now, given the results of its matches that are over
    (by match id: the winning seat and each seat's points); None: nothing.

    >>> from backgammon.server.db import now
    >>> t = Tournament("t", "T", "elimination", "plakoto", 1, 1, "none", False, 2, None, "open",
    ...                0, None, (moment := now()), "k", [Entrant(5, "a", False, 1500.0, None),
    ...                                                  Entrant(6, "b", False, 1600.0, None)])
    >>> started = plan(t, {}, moment)
    >>> started.status, started.seeds, [p.players for p in started.new]
    ('running', [6, 5], [(6, 5)])
    """
    kind = tournament.kind
    if tournament.status == "open":
        if not tournament.is_due(moment):
            return None
        if len(tournament.entrants) < 2:
            return Plan("cancelled")
        # The top seeds by rating, then by the order they joined (the entrants' order).
        order = sorted(range(len(tournament.entrants)),
                       key=lambda i: (-tournament.entrants[i].rating, i))
        seeds = [tournament.entrants[i].user for i in order]
        new = _grown(kind, seeds, [])
        return Plan("running", seeds=seeds, new=new)
    if tournament.status != "running":
        return None
    seeds = tournament.seeds()
    decided = []
    pairings = []
    for placed in tournament.draw:
        pairing = placed.pairing
        if pairing.winner is None and placed.match_id in results:
            seat, points = results[placed.match_id]
            user = pairing.players[seat]
            assert user is not None  # a match has two players
            pairing = pairing.decided(user, points)
            decided.append(pairing)
        pairings.append(pairing)
    if not decided:
        return None
    new = _grown(kind, seeds, pairings)
    every = pairings + new
    if is_finished(kind, seeds, every):
        return Plan("finished", winner=winner(kind, seeds, every), decided=decided, new=new)
    return Plan("running", decided=decided, new=new)


def _grown(kind: Kind, seeds: list[int], pairings: list[Pairing]) -> list[Pairing]:
    """The pairings to make now, byes included, until none can be (a bye decided at once
    may make the next round's pairing: two byes side by side)."""
    new: list[Pairing] = []
    while True:
        more = next_pairings(kind, seeds, pairings + new)
        if not more:
            return new
        new.extend(more)
