"""Tournaments through the API: each route and each refusal (a sentence, and nothing
changed), the start when full and at a start time, byes, every match played to its end by
simulated players, and each change made once however many times it is tried."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from dataclasses import replace
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from sqlalchemy import func, select
from sqlalchemy.exc import OperationalError
from sqlalchemy.orm import Session
from tournament_players import PATIENCE, Player, play_out

from backgammon.server import Settings, create_app
from backgammon.server.db import (
    MatchAccountRow,
    MatchRow,
    RatedResultRow,
    TournamentMatchRow,
    TournamentRow,
    now,
)
from backgammon.server.settings import sqlite_url
from backgammon.server.tournaments.service import Tournaments
from backgammon.server.tournaments.state import plan

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


def app_for(database: Path | Settings, **settings: Any) -> FastAPI:
    unlimited = {"create_rate": None, "hint_rate": None, "action_rate": None,
                 "upload_rate": None, "signin_rate": None, "account_rate": None}
    options = {"computer_pause": 0, "tournament_sweep": 0.05, **unlimited, **settings}
    if isinstance(database, Settings):
        return create_app(Settings(database.database_url, redis_url=database.redis_url,
                                   **options))
    return create_app(Settings(database_url=sqlite_url(database), **options))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(app_for(tmp_path / "games.sqlite")) as test_client:
        yield test_client


def players(client: TestClient, count: int) -> list[Player]:
    return [Player(client, f"Player{number}", shared=True) for number in range(count)]


def new_tournament(creator: Player, **settings: Any) -> dict[str, Any]:
    body = {"name": "Winter cup", "kind": "elimination", "length": 1, "max_players": 4,
            **settings}
    answer: dict[str, Any] = creator.ok("POST", "/api/tournaments", body)
    return answer


def refused(response: Any, status: int, phrase: str) -> None:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and phrase in detail, detail


def counts(app: FastAPI) -> tuple[int, int, int]:
    """The rows of tournaments, their places and the matches, in the database."""
    with Session(app.state.tournaments.engine) as session:
        return tuple(session.scalar(select(func.count()).select_from(table)) or 0
                     for table in (TournamentRow, TournamentMatchRow, MatchRow))  # type: ignore[return-value]


# Creating


def test_a_guest_may_not_create_a_tournament(client: TestClient) -> None:
    response = client.post("/api/tournaments", json={
        "name": "Cup", "kind": "elimination", "length": 1, "max_players": 4})
    refused(response, 401, "Sign in")
    assert counts(client.app) == (0, 0, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize(("change", "phrase"), [
    ({"kind": "round_robin", "max_players": 9}, "at most 8 players"),
    ({"length": 0}, "length"),
    ({"max_players": 1}, "max_players"),
    ({"max_players": 65}, "max_players"),
    ({"kind": "swiss"}, "kind"),
    ({"time_control": "blitz"}, "time_control"),
    ({"name": ""}, "name"),
    ({"name": "a" * 41}, "name"),
    ({"name": "bell\u0007"}, "name"),
    ({"rated": "yes"}, "rated"),
    ({"starts_at": "2020-01-01T00:00:00Z"}, "in the future"),
    ({"starts_at": "2099-01-01T00:00:00Z"}, "within 30 days"),
    ({"starts_at": "2026-12-31T10:00:00"}, "zone"),
    ({"starts_at": "soon"}, "starts_at"),
    ({"prize": 100}, "prize"),
])
def test_bad_settings_are_refused_with_a_sentence(
    client: TestClient, change: dict[str, Any], phrase: str
) -> None:
    (alice,) = players(client, 1)
    body = {"name": "Cup", "kind": "elimination", "length": 1, "max_players": 4, **change}
    response = alice.call("POST", "/api/tournaments", body)
    assert response.status_code == 422, response.text
    assert phrase in response.text
    assert "\u0007" not in response.text and "swiss" not in response.text  # never echoed
    assert counts(client.app) == (0, 0, 0)  # type: ignore[arg-type]


def test_a_tournament_is_made_open_with_its_creator_in_it(client: TestClient) -> None:
    alice, bobby = players(client, 2)
    made = new_tournament(alice, time_control="fast", rated=True)
    assert (made["status"], made["creator"], made["time_control"], made["rated"]) == (
        "open", "Player0", "fast", True)
    assert [p["name"] for p in made["players"]] == ["Player0"] and made["joined"]
    seen = bobby.ok("GET", f"/api/tournaments/{made['id']}")
    assert not seen["joined"] and seen["your_match"] is None
    listed = client.get("/api/tournaments").json()
    assert [t["id"] for t in listed["open"]] == [made["id"]]
    assert listed["open"][0]["players"] == 1 and listed["running"] == listed["finished"] == []


# Joining, leaving, cancelling


def test_joins_and_leaves_and_their_refusals(client: TestClient) -> None:
    alice, bobby, carol = players(client, 3)
    made = new_tournament(alice, max_players=3)
    path = f"/api/tournaments/{made['id']}"
    client.cookies.clear()
    for action in ("join", "leave", "cancel"):
        refused(client.post(f"{path}/{action}"), 401, "Sign in")
    for key, value in bobby.jar.items():  # signed in, without the CSRF header
        client.cookies.set(key, value)
    assert client.post(f"{path}/join").status_code == 403
    refused(bobby.call("POST", "/api/tournaments/nosuch/join"), 404, "No tournament")
    refused(bobby.call("POST", "/api/tournaments/bad%20id/join"), 422, "")
    refused(alice.call("POST", f"{path}/join"), 409, "joined this tournament already")
    assert bobby.ok("POST", f"{path}/join")["joined"]
    version = bobby.ok("GET", path)["version"]
    refused(bobby.call("POST", f"{path}/join"), 409, "joined this tournament already")
    refused(bobby.call("POST", f"{path}/cancel"), 403, "Only the tournament's creator")
    refused(carol.call("POST", f"{path}/leave"), 409, "not in this tournament")
    refused(alice.call("POST", f"{path}/leave"), 409, "cancel it instead")
    assert bobby.ok("GET", path)["version"] == version  # the refusals changed nothing
    left = bobby.ok("POST", f"{path}/leave")
    assert not left["joined"] and [p["name"] for p in left["players"]] == ["Player0"]
    cancelled = alice.ok("POST", f"{path}/cancel")
    assert cancelled["status"] == "cancelled"
    refused(bobby.call("POST", f"{path}/join"), 409, "has started or is over")
    assert client.get("/api/tournaments").json()["open"] == []


def test_a_full_tournament_starts_and_takes_no_one_else(client: TestClient) -> None:
    alice, bobby, carol = players(client, 3)
    made = new_tournament(alice, max_players=2)
    path = f"/api/tournaments/{made['id']}"
    started = bobby.ok("POST", f"{path}/join")
    assert started["status"] == "running"
    assert [p["seed"] for p in started["players"]] == [1, 2]
    assert len(started["draw"]) == 1 and started["your_match"] == started["draw"][0]["match"]
    refused(carol.call("POST", f"{path}/join"), 409, "has started or is over")
    refused(bobby.call("POST", f"{path}/leave"), 409, "has started or is over")
    refused(alice.call("POST", f"{path}/cancel"), 409, "has started or is over")
    assert counts(client.app) == (1, 1, 1)  # type: ignore[arg-type]


def test_its_matches_have_its_clock(client: TestClient) -> None:
    alice, bobby = players(client, 2)
    made = new_tournament(alice, max_players=2, time_control="fast")
    started = bobby.ok("POST", f"/api/tournaments/{made['id']}/join")
    state = client.get(f"/api/matches/{started['draw'][0]['match']}").json()
    assert (state["clock"]["delay"], state["clock"]["bank"]) == (8, 20)  # "fast"
    assert state["clock"]["banks"] == [20.0, 20.0]  # a 1-point match: 20 s a point
    untimed = new_tournament(alice, max_players=2)
    started = bobby.ok("POST", f"/api/tournaments/{untimed['id']}/join")
    assert client.get(f"/api/matches/{started['draw'][0]['match']}").json()["clock"] is None


def test_a_full_tournament_refuses_a_join_before_it_starts(client: TestClient) -> None:
    """Entries are capped where the tournament waits for its start time."""
    alice, bobby, carol = players(client, 3)
    later = (now() + timedelta(days=1)).isoformat()
    made = new_tournament(alice, max_players=2, starts_at=later)
    path = f"/api/tournaments/{made['id']}"
    assert bobby.ok("POST", f"{path}/join")["status"] == "open"  # it waits for its time
    refused(carol.call("POST", f"{path}/join"), 409, "full")
    assert len(alice.ok("GET", path)["players"]) == 2


# Seats


def test_each_player_takes_their_own_seat_only(client: TestClient) -> None:
    alice, bobby, carol = players(client, 3)
    made = new_tournament(alice, max_players=2)
    view = bobby.ok("POST", f"/api/tournaments/{made['id']}/join")
    match_id = view["your_match"]
    seat_path = f"/api/tournaments/{made['id']}/matches/{match_id}/seat"
    mine = bobby.call("GET", seat_path)
    assert mine.status_code == 200 and mine.headers["Cache-Control"] == "no-store"
    refused(carol.call("GET", seat_path), 403, "You do not play in this match")
    refused(carol.call("GET", f"/api/tournaments/{made['id']}/matches/other/seat"), 404,
            "no match with this id")
    client.cookies.clear()
    refused(client.get(seat_path), 401, "Sign in")
    # The token acts for its seat alone; the match is online, between the two accounts.
    seat, token = mine.json()["seats"][0], mine.json()["token"]
    state = client.get(f"/api/matches/{match_id}").json()
    wrong = client.post(f"/api/matches/{match_id}/actions", json={
        "seat": 1 - seat, "version": state["version"], "action": "roll"},
        headers={"Authorization": f"Bearer {token}"})
    assert wrong.status_code == 403, wrong.text


# Playing


def test_four_players_play_an_elimination_to_its_winner(client: TestClient) -> None:
    four = players(client, 4)
    made = new_tournament(four[0], max_players=4)
    for player in four[1:]:
        player.ok("POST", f"/api/tournaments/{made['id']}/join")
    finished, played = play_out(made["id"], four)
    assert finished["status"] == "finished" and finished["winner"] is not None
    assert [p["round"] for p in finished["draw"]] == [0, 0, 1]
    final = finished["draw"][2]
    assert final["winner"] == finished["winner"]
    assert set(final["players"]) == {finished["draw"][0]["winner"], finished["draw"][1]["winner"]}
    assert [s["place"] for s in finished["standings"]] == [1, 2, 3, 3]
    assert finished["standings"][0]["name"] == finished["winner"]
    assert len(played) == len(set(played)) == 3
    assert counts(client.app) == (1, 3, 3)  # type: ignore[arg-type]
    assert client.get("/api/tournaments").json()["finished"][0]["id"] == made["id"]


@pytest.mark.parametrize("count", [3, 5])
def test_the_top_seeds_get_the_byes(client: TestClient, count: int) -> None:
    field = players(client, count)
    made = new_tournament(field[0], max_players=count)
    for player in field[1:]:
        started = player.ok("POST", f"/api/tournaments/{made['id']}/join")
    byes = [p for p in started["draw"] if p["players"][1] is None]
    seeds = [p["name"] for p in started["players"]]  # in seed order
    assert [p["players"][0] for p in byes] == [seeds[i] for i in range(8 - count if count > 4
                                                                          else 4 - count)]
    assert all(p["winner"] == p["players"][0] and p["match"] is None for p in byes)
    finished, played = play_out(made["id"], field)
    assert finished["winner"] is not None and len(played) == count - 1


def test_a_round_robin_plays_everyone_once_and_ranks_them(client: TestClient) -> None:
    three = players(client, 3)
    made = new_tournament(three[0], kind="round_robin", max_players=3)
    for player in three[1:]:
        player.ok("POST", f"/api/tournaments/{made['id']}/join")
    finished, played = play_out(made["id"], three)
    assert len(played) == 3 and [p["round"] for p in finished["draw"]] == [0, 1, 2]
    pairs = {frozenset(p["players"]) for p in finished["draw"]}
    assert len(pairs) == 3
    table = finished["standings"]
    assert [s["place"] for s in table] == [1, 2, 3]
    wins = [s["wins"] for s in table]
    assert wins == sorted(wins, reverse=True) and sum(wins) == 3
    assert table[0]["name"] == finished["winner"]


def test_a_rated_tournament_rates_its_matches(client: TestClient) -> None:
    two = players(client, 2)
    made = new_tournament(two[0], max_players=2, rated=True)
    two[1].ok("POST", f"/api/tournaments/{made['id']}/join")
    finished, played = play_out(made["id"], two)
    with Session(client.app.state.tournaments.engine) as session:  # type: ignore[attr-defined]
        row = session.get(MatchAccountRow, played[0])
        assert row is not None and row.rated
        assert session.scalar(select(func.count()).select_from(RatedResultRow)) == 1
    winner = client.get(f"/api/players/{finished['winner']}").json()
    assert winner["rating"] > 1500


def test_a_player_who_does_not_come_loses_by_the_claim(tmp_path: Path) -> None:
    """The one who came plays on until the game waits for the other, then claims the match
    once the claim time has passed (no time here), and goes through."""
    with TestClient(app_for(tmp_path / "games.sqlite", claim_seconds=0)) as client:
        present, absent = players(client, 2)
        made = new_tournament(present, max_players=2)
        match_id = absent.ok("POST", f"/api/tournaments/{made['id']}/join")["your_match"]
        seat_path = f"/api/tournaments/{made['id']}/matches/{match_id}/seat"
        seat, token = (present.ok("GET", seat_path)[key] for key in ("seats", "token"))
        seat = seat[0]
        action_path = f"/api/matches/{match_id}/actions"
        state = present.ok("GET", f"/api/matches/{match_id}?view={seat}")
        while state["to_act"] in (None, seat):  # the opening roll, then the present's turn
            move = {"seat": seat, "version": state["version"]}
            simple = [a for a in ("roll", "confirm") if a in state["actions"][seat]]
            if simple:
                move["action"] = simple[0]
            else:
                step = state["steps"][0]
                move.update(action="step", **{"from": step["from"], "to": step["to"]})
            state = present.ok("POST", action_path, move, token)
        assert "claim" in state["actions"][seat]
        state = present.ok("POST", action_path, {"seat": seat, "version": state["version"],
                                                 "action": "claim", "match": True}, token)
        assert state["match_over"] and state["winner"] == seat
        view = wait_for_status(client, made["id"], "finished")
        assert view["winner"] == present.name


# The start time, and exactly once


def wait_for_status(client: TestClient, tournament_id: str, wanted: str) -> dict[str, Any]:
    deadline = time.monotonic() + PATIENCE
    while True:
        view: dict[str, Any] = client.get(f"/api/tournaments/{tournament_id}").json()
        if view["status"] == wanted:
            return view
        assert time.monotonic() < deadline, view["status"]
        time.sleep(0.02)


def test_a_tournament_starts_at_its_time_with_no_request(client: TestClient) -> None:
    alice, bobby, carol = players(client, 3)
    soon = (now() + timedelta(seconds=1)).isoformat()
    made = new_tournament(alice, max_players=8, starts_at=soon)
    for player in (bobby, carol):
        player.ok("POST", f"/api/tournaments/{made['id']}/join")
    started = wait_for_status(client, made["id"], "running")
    assert len(started["draw"]) == 2  # three players: a bye and a match
    assert counts(client.app) == (1, 2, 1)  # type: ignore[arg-type]


def test_a_tournament_with_one_player_at_its_time_is_called_off(client: TestClient) -> None:
    (alice,) = players(client, 1)
    soon = (now() + timedelta(seconds=1)).isoformat()
    made = new_tournament(alice, starts_at=soon)
    assert wait_for_status(client, made["id"], "cancelled")["draw"] == []


def test_a_full_tournament_left_unstarted_is_started_by_the_periodic_task(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The join that fills a tournament is kept though the start after it fails (the
    database away a moment): the periodic task starts it."""
    two = players(client, 2)
    made = new_tournament(two[0], max_players=2)
    tournaments: Tournaments = client.app.state.tournaments  # type: ignore[attr-defined]
    settle = tournaments.settle

    async def failing(tournament_id: str) -> bool:
        raise OperationalError("SELECT", {}, Exception("the database is away"))

    monkeypatch.setattr(tournaments, "settle", failing)
    assert two[1].ok("POST", f"/api/tournaments/{made['id']}/join")["status"] == "open"
    monkeypatch.setattr(tournaments, "settle", settle)
    assert len(wait_for_status(client, made["id"], "running")["draw"]) == 1


def test_the_same_change_made_twice_is_written_once(client: TestClient) -> None:
    """Two processes that read a tournament at once and make the same change (its start):
    the first writes it, the second finds the version moved and writes nothing."""
    two = players(client, 2)
    made = new_tournament(two[0], max_players=3)
    two[1].ok("POST", f"/api/tournaments/{made['id']}/join")
    tournaments: Tournaments = client.app.state.tournaments  # type: ignore[attr-defined]
    other = Tournaments(tournaments.engine, tournaments.store, 180, 60)
    read = tournaments.read(made["id"])
    moment = now() + timedelta(days=365)  # as if its start time had passed: it is not due
    assert plan(read, {}, moment) is None  # "when full": not full, not due
    forced = replace(read, max_players=2)  # as if full
    change = plan(forced, {}, moment)
    assert change is not None and change.status == "running"
    assert tournaments.write(forced, change) is True
    assert other.write(forced, change) is False
    assert counts(client.app) == (1, 1, 1)  # type: ignore[arg-type]
    # And settling again, here or there, finds nothing to do.
    assert client.portal.call(other.settle, made["id"]) is False  # type: ignore[union-attr]


# Pages


def test_the_pages_list_and_show_tournaments_in_each_language(client: TestClient) -> None:
    two = players(client, 2)
    made = new_tournament(two[0], max_players=2, kind="round_robin")
    two[1].ok("POST", f"/api/tournaments/{made['id']}/join")
    for lang in ("en", "fa", "km", "mt", "vi"):
        listing = two[1].call("GET", f"/tournaments?lang={lang}")
        assert listing.status_code == 200 and f'lang="{lang}"' in listing.text
        assert "Winter cup" in listing.text and 'id="create-tournament"' in listing.text
        page = two[1].call("GET", f"/tournaments/{made['id']}?lang={lang}")
        assert page.status_code == 200 and 'id="play-match"' in page.text
        assert 'id="standings"' in page.text
    # A player finds their match from their account: its link to their tournaments.
    account = two[1].call("GET", "/account?lang=en").text
    assert 'href="/tournaments?lang=en#yours"' in account
    yours = two[1].call("GET", "/tournaments?lang=en").text
    assert 'id="yours-list"' in yours and "Your match is ready to play" in yours
    part = two[1].call("GET", f"/tournaments/{made['id']}?part=live&lang=en")
    assert part.text.lstrip().startswith('<p class="tournament-status"')
    assert "<html" not in part.text
    assert client.get("/tournaments/nosuch").status_code == 404
    client.cookies.clear()
    assert 'id="create-tournament"' not in client.get("/tournaments?lang=en").text
