"""What online play writes in a match's record: a player's seed for the fair dice and a seat
taken are events (so every copy of the match has them, and the version moves), and a claimed
game says it was claimed."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_api import client_for as api_client_for
from test_api import create as api_create
from test_seats import act, client_for, create, join, state_of

from backgammon.fairdice import FairMatchDice, derive_roll
from backgammon.game.match import Match
from backgammon.game.verify import verify_dice
from backgammon.server import Settings
from backgammon.server.db import make_engine, migrate
from backgammon.server.play.live import LiveMatch, SeatSettings
from backgammon.server.play.saves import MatchChangedError
from backgammon.server.play.seats import Seating
from backgammon.server.play.store import MatchStore
from backgammon.server.settings import sqlite_url

HUMANS = (SeatSettings("human"), SeatSettings("human"))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[Any]:
    with client_for(tmp_path / "games.sqlite") as test_client:
        yield test_client


def test_a_seed_added_through_one_copy_is_rolled_with_by_another(tmp_path: Path) -> None:
    """Two processes' copies of one match (two stores on one database, each checking its
    row): the seed added through one is in the other's dice before its first roll, and a
    roll made on the version before the seed is refused."""
    engine = make_engine(sqlite_url(tmp_path / "games.sqlite"))
    migrate(engine)
    one, other, behind = (MatchStore(engine, shared=True) for _ in range(3))

    async def scenario() -> dict[str, Any]:
        live = await one.add(Match(3, dice=FairMatchDice()), HUMANS, None, Seating())
        copy, late = await other.get(live.id), await behind.get(live.id)
        async with live.lock:
            before = live.version
            live.match.game.add_seed(0, "alice")
            await one.save(live, before)
        # A copy that rolls on the version it had, without reading its row, cannot save.
        async with late.lock:
            late.match.game.roll(0)
            with pytest.raises(MatchChangedError):
                await behind.save(late, 0)
        async with copy.lock:
            await other.current(copy)  # as every action does first
            assert copy.match.game.dice_source.seeds == ("alice", "")  # type: ignore[union-attr]
            await play_one_game(other, copy)
        return copy.match.to_dict()

    record = asyncio.run(scenario())
    first, *_ = record["games"][0]
    assert {k: first[k] for k in ("action", "player", "seed")} == {
        "action": "seed", "player": 0, "seed": "alice"}
    dice = record["dice"][0]
    assert dice["seeds"] == ["alice", ""]
    rolled = next(event for event in record["games"][0] if event["action"] == "roll")
    assert tuple(rolled["dice"]) == derive_roll(bytes.fromhex(dice["server_seed"]),
                                                ("alice", ""), 1)
    report = verify_dice(record)
    assert report.ok and report.games[0].seeds == ("alice", ""), report.text()


async def play_one_game(store: MatchStore, live: LiveMatch) -> None:
    """The opening roll (again after a tie), then a resignation accepted, saved (call with
    the lock held)."""
    game, before = live.match.game, live.version
    while game.dice is None:
        game.roll(0 if game.player_to_act is None else game.player_to_act)
    game.resign(game.on_roll)
    game.accept(1 - game.on_roll)
    await store.save(live, before)


def test_a_seed_is_an_event_and_the_dice_still_verify(tmp_path: Path) -> None:
    with api_client_for(tmp_path / "games.sqlite") as client:
        state = api_create(client, length=1)
        match_id = state["id"]
        response = client.post(f"/api/matches/{match_id}/seed", json={"seat": 1, "seed": "bob"})
        assert response.status_code == 200, response.text
        seeded = response.json()
        assert seeded["version"] == state["version"] + 1
        assert seeded["fair_dice"]["seeds"] == ["", "bob"]
        assert seeded["record"][0]["entries"] == []  # no move of the game
        record = client.get(f"/api/matches/{match_id}/record").json()
        assert [event["action"] for event in record["games"][0]] == ["seed"]


def test_two_servers_on_one_database_roll_with_a_seed_added_on_either(
    database: Settings,
) -> None:
    """Two apps on one PostgreSQL database (two processes, as far as the matches go)."""
    if not database.database_url.startswith("postgresql"):
        pytest.skip("SQLite is served by one process: two apps on it do not share matches")
    with api_client_for(database) as first, api_client_for(database) as second:
        match_id = api_create(first, length=1)["id"]
        second.headers["Authorization"] = first.headers["Authorization"]
        assert second.get(f"/api/matches/{match_id}").status_code == 200  # in its memory
        seeded = first.post(f"/api/matches/{match_id}/seed", json={"seat": 0, "seed": "amy"})
        assert seeded.status_code == 200, seeded.text
        version = seeded.json()["version"]
        rolled = second.post(f"/api/matches/{match_id}/actions",
                             json={"seat": 0, "action": "roll", "version": version})
        assert rolled.status_code == 200, rolled.text
        state = rolled.json()
        while state["to_act"] is None:  # the opening roll was a tie (the dice are the seeds')
            rolled = second.post(f"/api/matches/{match_id}/actions",
                                 json={"seat": 0, "action": "roll", "version": state["version"]})
            assert rolled.status_code == 200, rolled.text
            state = rolled.json()
        seat = state["to_act"]
        for body in ({"seat": seat, "action": "resign", "level": 1},
                     {"seat": 1 - seat, "action": "accept"}):
            answer = second.post(f"/api/matches/{match_id}/actions",
                                 json={**body, "version": state["version"]})
            assert answer.status_code == 200, answer.text
            state = answer.json()
        record = second.get(f"/api/matches/{match_id}/record").json()
    report = verify_dice(record)
    assert report.ok and report.games[0].seeds == ("amy", ""), report.text()


def test_a_page_reconnecting_after_a_join_is_sent_the_seat_taken(client: Any) -> None:
    """The join is an event: the version moves, so a page that saw the match waiting and
    reconnects with ``since`` is sent the state with the seat taken at once."""
    created = create(client, opponent="online", names=["ann", "Player 1"])
    match_id = created["id"]
    url = f"/api/matches/{match_id}/updates?view=0"
    with client.websocket_connect(url) as socket:
        waiting = socket.receive_json()
    assert waiting["waiting_for_opponent"]
    joined = join(client, created["invite"], name="bob")  # the page is away
    after = state_of(client, match_id)
    assert after["version"] == waiting["version"] + 1 and not after["waiting_for_opponent"]
    with client.websocket_connect(f"{url}&since={waiting['version']}") as socket:
        caught_up = socket.receive_json()
        assert caught_up == after and caught_up["seats"][1]["name"] == "bob"
        rolled = act(client, match_id, joined["token"], seat=1, action="roll")
        assert socket.receive_json()["version"] == rolled["version"] == after["version"] + 1
