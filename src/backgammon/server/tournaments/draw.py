"""A tournament's draw, what it plays next and its standings: pure functions of its entrants
(user ids, in seed order: the first is the top seed) and its pairings so far.

Single elimination (``"elimination"``) takes any number of players: the bracket is the next
power of two, and the places beyond the entrants are byes, met by the top seeds in the first
round, so that no two byes meet and the top seeds meet as late as the draw allows. Round robin
(``"round_robin"``, up to :data:`MOST_ROUND_ROBIN` players) plays everyone once, a round at a
time (the circle method; with an odd number, each round one player rests). A round's
pairings are made once every pairing before it has its winner.

>>> entrants = [11, 12, 13]
>>> first = next_pairings("elimination", entrants, [])
>>> [(p.round, p.slot, p.players, p.winner) for p in first]
[(0, 0, (11, None), 11), (0, 1, (12, 13), None)]
>>> final = next_pairings("elimination", entrants, [*first, first[1].decided(13, (0, 3))])
>>> [(p.round, p.slot, p.players) for p in final]
[(1, 0, (11, 13))]
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

Kind = Literal["elimination", "round_robin"]
#: The most players a round robin takes (each plays all the others).
MOST_ROUND_ROBIN = 8
#: The most players a single elimination takes.
MOST_ELIMINATION = 64


@dataclass(frozen=True)
class Pairing:
    """One place of the draw: its round and slot (both from 0), its players (seat 0's user,
    then seat 1's; None for a bye), and once decided its winner and the points each seat
    won. A bye is decided as it is made: its player goes through."""

    round: int
    slot: int
    players: tuple[int, int | None]
    winner: int | None = None
    points: tuple[int, int] = (0, 0)

    @property
    def bye(self) -> bool:
        """Whether one player goes through without a match."""
        return self.players[1] is None

    def decided(self, winner: int, points: tuple[int, int]) -> Pairing:
        """The pairing once its match is over: ``winner`` won, and each seat ``points``."""
        return replace(self, winner=winner, points=points)


def bracket_order(size: int) -> list[int]:
    """The seeds (from 1) in the order of a bracket of ``size`` places (a power of two):
    each pair of neighbours meets in the first round, and seeds 1 and 2 only in the final.

    >>> bracket_order(2), bracket_order(4)
    ([1, 2], [1, 4, 2, 3])
    >>> bracket_order(8)
    [1, 8, 4, 5, 2, 7, 3, 6]
    """
    order = [1]
    while len(order) < size:
        places = 2 * len(order)
        order = [seed for kept in order for seed in (kept, places + 1 - kept)]
    return order


def bracket_size(players: int) -> int:
    """The places of the bracket for ``players``: the least power of two that holds them.

    >>> [bracket_size(n) for n in (2, 3, 4, 5, 8, 9)]
    [2, 4, 4, 8, 8, 16]
    """
    size = 2
    while size < players:
        size *= 2
    return size


def elimination_rounds(players: int) -> int:
    """The rounds of a single elimination of ``players``.

    >>> [elimination_rounds(n) for n in (2, 3, 4, 5, 9)]
    [1, 2, 2, 3, 4]
    """
    return bracket_size(players).bit_length() - 1


def round_robin_rounds(entrants: list[int]) -> list[list[tuple[int, int]]]:
    """Every pair of ``entrants`` once, in rounds in which each plays at most once (the
    circle method: the first stays, the others turn); with an odd number, the one left
    over rests that round.

    >>> round_robin_rounds([1, 2, 3, 4])
    [[(1, 4), (2, 3)], [(1, 3), (4, 2)], [(1, 2), (3, 4)]]
    >>> round_robin_rounds([1, 2, 3])
    [[(2, 3)], [(1, 3)], [(1, 2)]]
    """
    circle: list[int | None] = [*entrants, None] if len(entrants) % 2 else list(entrants)
    count = len(circle)
    rounds = []
    for _ in range(count - 1):
        pairs = [(circle[i], circle[count - 1 - i]) for i in range(count // 2)]
        rounds.append([(a, b) for a, b in pairs if a is not None and b is not None])
        circle = [circle[0], circle[-1], *circle[1:-1]]
    return rounds


def next_pairings(kind: Kind, entrants: list[int], pairings: list[Pairing]) -> list[Pairing]:
    """The pairings that can be made now and are not yet: the first round's at the start,
    then each as the pairings it waits for are decided. Byes come decided."""
    if kind == "round_robin":
        return _next_round_robin(entrants, pairings)
    return _next_elimination(entrants, pairings)


def _next_elimination(entrants: list[int], pairings: list[Pairing]) -> list[Pairing]:
    made = {(p.round, p.slot): p for p in pairings}
    if not made:
        order = bracket_order(bracket_size(len(entrants)))
        seeded = [entrants[seed - 1] if seed <= len(entrants) else None for seed in order]
        first = []
        for slot in range(len(seeded) // 2):
            one, other = seeded[2 * slot], seeded[2 * slot + 1]
            assert one is not None  # the top seed of each pair is an entrant
            first.append(Pairing(0, slot, (one, other), winner=one if other is None else None))
        return first
    new = []
    for round_ in range(1, elimination_rounds(len(entrants))):
        for slot in range(bracket_size(len(entrants)) >> (round_ + 1)):
            if (round_, slot) in made:
                continue
            feeders = made.get((round_ - 1, 2 * slot)), made.get((round_ - 1, 2 * slot + 1))
            if feeders[0] and feeders[1] and feeders[0].winner and feeders[1].winner:
                new.append(Pairing(round_, slot, (feeders[0].winner, feeders[1].winner)))
    return new


def _next_round_robin(entrants: list[int], pairings: list[Pairing]) -> list[Pairing]:
    rounds = round_robin_rounds(entrants)
    played = max((p.round for p in pairings), default=-1)
    if played + 1 >= len(rounds) or any(p.winner is None for p in pairings):
        return []
    return [Pairing(played + 1, slot, pair) for slot, pair in enumerate(rounds[played + 1])]


def is_finished(kind: Kind, entrants: list[int], pairings: list[Pairing]) -> bool:
    """Whether every pairing the tournament will have is made and decided.

    >>> one = next_pairings("elimination", [1, 2], [])
    >>> is_finished("elimination", [1, 2], one), is_finished("elimination", [1, 2],
    ...     [one[0].decided(2, (0, 1))])
    (False, True)
    """
    if any(p.winner is None for p in pairings):
        return False
    if kind == "round_robin":
        return len({p.round for p in pairings}) == len(round_robin_rounds(entrants))
    final = elimination_rounds(len(entrants)) - 1
    return any(p.round == final for p in pairings)


@dataclass(frozen=True)
class Standing:
    """A player's place (from 1; players who went out in the same elimination round share
    it) and record: matches won and lost (a bye is neither), points won and conceded."""

    place: int
    user: int
    wins: int = 0
    losses: int = 0
    points_won: int = 0
    points_lost: int = 0


def standings(kind: Kind, entrants: list[int], pairings: list[Pairing]) -> list[Standing]:
    """The players, best first.

    Round robin: most wins first, then most points won, then fewest points conceded, then
    the draw's order (the higher seed), so that no two share a place. Elimination: the
    winner, then the players by the round they went out in, the latest first (all who went
    out in a round share a place), the draw's order within a round; those still in, before
    all who went out.

    >>> rr = [Pairing(0, 0, (1, 2)).decided(1, (3, 1)), Pairing(0, 1, (3, 4)).decided(4, (2, 3))]
    >>> table = standings("round_robin", [1, 2, 3, 4], rr)
    >>> [(s.place, s.user, s.wins, s.points_won) for s in table]
    [(1, 1, 1, 3), (2, 4, 1, 3), (3, 3, 0, 2), (4, 2, 0, 1)]
    """
    tally = {user: [0, 0, 0, 0] for user in entrants}
    out: dict[int, int] = {}  # the round each player went out in
    for pairing in pairings:
        if pairing.winner is None or pairing.bye:
            continue
        for seat, user in enumerate(pairing.players):
            assert user is not None
            won = user == pairing.winner
            tally[user][0 if won else 1] += 1
            tally[user][2] += pairing.points[seat]
            tally[user][3] += pairing.points[1 - seat]
            if not won:
                out[user] = pairing.round
    seed = {user: index for index, user in enumerate(entrants)}
    if kind == "round_robin":
        order = sorted(entrants, key=lambda u: (-tally[u][0], -tally[u][2], tally[u][3], seed[u]))
        places = list(range(1, len(order) + 1))  # the seed breaks every tie
    else:
        last = elimination_rounds(len(entrants))
        order = sorted(entrants, key=lambda u: (-out.get(u, last), seed[u]))
        reached = [out.get(u, last) for u in order]
        places = [reached.index(r) + 1 for r in reached]
    return [Standing(place, user, *tally[user]) for place, user in zip(places, order, strict=True)]


def winner(kind: Kind, entrants: list[int], pairings: list[Pairing]) -> int | None:
    """The tournament's winner once it is finished (:func:`is_finished`), else None."""
    if not is_finished(kind, entrants, pairings):
        return None
    return standings(kind, entrants, pairings)[0].user
