"""The tournament's draw, on its own: the brackets of 2 to 9 players and their byes, round
robins of 2 to 8, whole tournaments played out with every result, and the standings' ties."""

from __future__ import annotations

import itertools
import random

import pytest

from backgammon.server.tournaments.draw import (
    MOST_ROUND_ROBIN,
    Kind,
    Pairing,
    bracket_order,
    elimination_rounds,
    is_finished,
    next_pairings,
    round_robin_rounds,
    standings,
    winner,
)


def played_out(kind: Kind, entrants: list[int], pick: random.Random) -> list[Pairing]:
    """Every pairing the tournament makes, each decided at random as soon as it is made."""
    pairings: list[Pairing] = []
    while True:
        new = next_pairings(kind, entrants, pairings)
        if not new:
            return pairings
        for pairing in new:
            if pairing.winner is None:
                seat = pick.randrange(2)
                won = pairing.players[seat]
                assert won is not None
                points = (3, pick.randrange(3)) if seat == 0 else (pick.randrange(3), 3)
                pairing = pairing.decided(won, points)
            pairings.append(pairing)


@pytest.mark.parametrize("size", [2, 4, 8, 16, 32])
def test_a_bracket_keeps_the_top_seeds_apart(size: int) -> None:
    order = bracket_order(size)
    assert sorted(order) == list(range(1, size + 1))
    # Each first-round pair adds up to size + 1; seeds 1 and 2 are in opposite halves.
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    assert (order.index(1) < size // 2) != (order.index(2) < size // 2)


@pytest.mark.parametrize("count", range(2, 10))
def test_an_elimination_of_any_size_has_one_winner(count: int) -> None:
    entrants = list(range(100, 100 + count))
    first = next_pairings("elimination", entrants, [])
    size = 1 << elimination_rounds(count)
    byes = [p for p in first if p.bye]
    # The byes are the top seeds', decided at once, and no two byes meet.
    assert sorted(p.players[0] for p in byes) == entrants[: size - count]
    assert all(p.winner == p.players[0] for p in byes)
    assert len(first) == size // 2
    for seed in range(3):
        pairings = played_out("elimination", entrants, random.Random(seed))
        matches = [p for p in pairings if not p.bye]
        assert len(matches) == count - 1  # each match puts out one player
        assert len({(p.round, p.slot) for p in pairings}) == len(pairings)
        assert is_finished("elimination", entrants, pairings)
        champion = winner("elimination", entrants, pairings)
        final = max(pairings, key=lambda p: p.round)
        assert champion == final.winner
        table = standings("elimination", entrants, pairings)
        assert table[0].user == champion and table[0].place == 1
        assert sorted(s.user for s in table) == entrants
        assert table[1].place == 2 and table[1].losses == 1


def test_two_byes_side_by_side_make_the_next_round_at_once() -> None:
    entrants = [1, 2, 3, 4, 5]  # eight places: seeds 1, 2 and 3 go through
    first = next_pairings("elimination", entrants, [])
    assert [p.players for p in first] == [(1, None), (4, 5), (2, None), (3, None)]
    assert [p.players for p in next_pairings("elimination", entrants, first)] == [(2, 3)]


def test_a_tournament_waits_for_a_result_before_its_next_round() -> None:
    first = next_pairings("elimination", [1, 2, 3, 4], [])
    assert next_pairings("elimination", [1, 2, 3, 4], first) == []
    half = [first[0].decided(1, (1, 0)), first[1]]
    assert next_pairings("elimination", [1, 2, 3, 4], half) == []
    assert not is_finished("elimination", [1, 2, 3, 4], half)
    assert winner("elimination", [1, 2, 3, 4], half) is None


@pytest.mark.parametrize("count", range(2, MOST_ROUND_ROBIN + 1))
def test_a_round_robin_pairs_everyone_once(count: int) -> None:
    entrants = list(range(1, count + 1))
    rounds = round_robin_rounds(entrants)
    pairs = [frozenset(pair) for round_ in rounds for pair in round_]
    assert sorted(pairs, key=sorted) == sorted(
        (frozenset(pair) for pair in itertools.combinations(entrants, 2)), key=sorted)
    for round_ in rounds:  # each plays at most once a round
        seen = [player for pair in round_ for player in pair]
        assert len(seen) == len(set(seen))
    pairings = played_out("round_robin", entrants, random.Random(count))
    assert len(pairings) == count * (count - 1) // 2
    assert is_finished("round_robin", entrants, pairings)
    table = standings("round_robin", entrants, pairings)
    assert [s.place for s in table] == list(range(1, count + 1))
    assert sum(s.wins for s in table) == len(pairings) == sum(s.losses for s in table)
    keys = [(-s.wins, -s.points_won, s.points_lost) for s in table]
    assert keys == sorted(keys)


def test_a_round_robin_plays_a_round_at_a_time() -> None:
    entrants = [1, 2, 3, 4]
    first = next_pairings("round_robin", entrants, [])
    assert {p.round for p in first} == {0} and len(first) == 2
    one = [first[0].decided(1, (1, 0)), first[1]]
    assert next_pairings("round_robin", entrants, one) == []
    both = [one[0], first[1].decided(3, (1, 0))]
    assert {p.round for p in next_pairings("round_robin", entrants, both)} == {1}


def test_round_robin_ties_go_to_points_then_points_conceded_then_the_seed() -> None:
    # Three players each win once (a cycle): points decide, then points conceded, then seed.
    cycle = [
        Pairing(0, 0, (1, 2)).decided(1, (3, 2)),
        Pairing(1, 0, (2, 3)).decided(2, (3, 0)),
        Pairing(2, 0, (3, 1)).decided(3, (3, 1)),
    ]
    # Won: 1: 3+1=4, 2: 2+3=5, 3: 0+3=3. Conceded: 1: 2+3=5, 2: 3+0=3, 3: 3+1=4.
    table = standings("round_robin", [1, 2, 3], cycle)
    assert [(s.user, s.wins, s.points_won, s.points_lost) for s in table] == [
        (2, 1, 5, 3), (1, 1, 4, 5), (3, 1, 3, 4)]
    even = [
        Pairing(0, 0, (1, 2)).decided(1, (3, 0)),
        Pairing(1, 0, (2, 3)).decided(2, (3, 0)),
        Pairing(2, 0, (3, 1)).decided(3, (3, 0)),
    ]
    # All equal: the draw's order (the seed) decides.
    assert [s.user for s in standings("round_robin", [3, 1, 2], even)] == [3, 1, 2]


def test_elimination_places_are_shared_by_round() -> None:
    entrants = list(range(1, 9))
    pairings = played_out("elimination", entrants, random.Random(1))
    places = [s.place for s in standings("elimination", entrants, pairings)]
    assert places == [1, 2, 3, 3, 5, 5, 5, 5]
