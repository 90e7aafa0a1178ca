"""Tournaments of the other games, on SQLite and then on PostgreSQL with Redis: a rated
Plakoto elimination of four simulated players played to its winner, every match Plakoto's
and its ratings moved in Plakoto alone (backgammon's untouched); a Tavli tournament, whose
match plays Portes, Plakoto and Fevga in turn with the tournament's length and clock; the
entrants seeded by their rating in the tournament's game; a game no one plays refused with a
sentence; the pages naming the game in each language; and the analysis of a tournament's
match naming its players."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any, get_args

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from test_tournaments import app_for, counts, new_tournament, players
from tournament_players import PATIENCE, Player, play_out

from backgammon.server import Settings
from backgammon.server.db import GameRatingRow, MatchRow, RatedResultRow, UserRow
from backgammon.server.pages.players import catalogue
from backgammon.server.play.schemas import OtherGame
from backgammon.server.tournaments.schemas import Game

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture
def client(database: Settings) -> Iterator[TestClient]:
    """The app on SQLite, then on PostgreSQL with Redis (conftest.py)."""
    with TestClient(app_for(database)) as test_client:
        yield test_client


def field_of(client: TestClient, count: int, **settings: Any) -> tuple[dict[str, Any],
                                                                       list[Player]]:
    """A tournament of ``count`` players made and filled (so started): the creator's view
    of it after the last join, and the players."""
    field = players(client, count)
    made = new_tournament(field[0], max_players=count, **settings)
    for player in field[1:]:
        view: dict[str, Any] = player.ok("POST", f"/api/tournaments/{made['id']}/join")
    return view, field


def test_the_tournaments_games_are_the_online_games() -> None:
    assert set(get_args(Game)) == {"backgammon", *get_args(OtherGame)}


def test_a_rated_plakoto_elimination_moves_plakoto_ratings_alone(client: TestClient) -> None:
    started, four = field_of(client, 4, game="plakoto", rated=True, length=2)
    assert started["game"] == "plakoto" and started["status"] == "running"
    finished, played = play_out(started["id"], four)
    assert finished["status"] == "finished" and finished["winner"] is not None
    assert len(played) == 3 and finished["game"] == "plakoto"
    engine = client.app.state.tournaments.engine  # type: ignore[attr-defined]
    with Session(engine) as session:
        games = session.execute(select(MatchRow.game, MatchRow.record)).all()
        assert [game for game, _ in games] == ["plakoto"] * 3
        assert all(record["rules"]["game"] == "plakoto" and record["length"] == 2
                   for _, record in games)
        assert session.scalars(select(RatedResultRow.game)).all() == ["plakoto"] * 3
        ratings = {row.user_id: row for row in session.scalars(select(GameRatingRow))}
        assert {row.game for row in ratings.values()} == {"plakoto"} and len(ratings) == 4
        # Backgammon's ratings, the accounts' own, are as they were made.
        accounts = session.execute(select(UserRow.id, UserRow.name, UserRow.rating,
                                          UserRow.experience)).all()
        assert {(rating, experience) for _, _, rating, experience in accounts} == {(1500.0, 0)}
        by_name = {name: ratings[user].rating for user, name, _, _ in accounts}
    assert by_name[finished["winner"]] > 1500
    assert sum(rating - 1500 for rating in by_name.values()) == pytest.approx(0, abs=1e-6)
    player = client.get(f"/api/players/{finished['winner']}").json()
    assert player["rating"] == 1500
    # A new tournament of Plakoto shows and seeds its entrants by their Plakoto ratings; one
    # of backgammon, by backgammon's.
    plakoto = new_tournament(four[0], game="plakoto")
    backgammon = new_tournament(four[0])
    assert plakoto["players"][0]["rating"] == round(by_name[four[0].name], 2)
    assert backgammon["players"][0]["rating"] == 1500
    listed = client.get("/api/tournaments").json()
    assert [t["game"] for t in listed["open"]] == ["backgammon", "plakoto"]
    assert listed["finished"][0]["game"] == "plakoto"


def test_a_tavli_tournament_plays_the_three_games_in_turn(client: TestClient) -> None:
    started, two = field_of(client, 2, game="tavli", length=3, time_control="fast")
    match_id = started["draw"][0]["match"]
    state = client.get(f"/api/matches/{match_id}").json()
    assert (state["game"], state["rotation"]) == ("portes", ["portes", "plakoto", "fevga"])
    assert state["length"] == 3 and state["clock"]["delay"] == 8  # "fast"
    finished, _ = play_out(started["id"], two)
    assert finished["status"] == "finished"
    # Each point a game (a single game resigned): three games at least, in turn.
    record = client.get(f"/api/matches/{match_id}/record").json()
    last = client.get(f"/api/matches/{match_id}").json()
    assert last["match_over"] and max(last["score"]) == 3 and len(record["games"]) >= 3
    assert last["game"] == ("portes", "plakoto", "fevga")[(len(record["games"]) - 1) % 3]
    engine = client.app.state.tournaments.engine  # type: ignore[attr-defined]
    with Session(engine) as session:
        assert session.scalar(select(MatchRow.game)) == "tavli"


@pytest.mark.parametrize("game", ["chess", "standard", "Plakoto", "", 3])
def test_a_game_no_one_plays_is_refused_with_a_sentence(client: TestClient, game: Any) -> None:
    (alice,) = players(client, 1)
    response = alice.call("POST", "/api/tournaments", {
        "name": "Cup", "kind": "elimination", "length": 1, "max_players": 4, "game": game})
    assert response.status_code == 422, response.text
    assert "game" in response.text and "chess" not in response.text  # never echoed
    assert counts(client.app) == (0, 0, 0)  # type: ignore[arg-type]


def test_the_pages_name_the_game_in_each_language(client: TestClient) -> None:
    started, two = field_of(client, 2, game="long-nardy")
    for lang in ("en", "fa", "km", "mt", "vi"):
        name = catalogue(lang)["game.long-nardy"]
        listing = two[0].call("GET", f"/tournaments?lang={lang}").text
        assert name in listing.split('id="running-list"')[1]
        # The form offers every game, as the main page's setup does.
        assert listing.count('<option value="long-nardy">') == 1
        assert catalogue(lang)["game.tavliMatch"] in listing
        page = two[0].call("GET", f"/tournaments/{started['id']}?lang={lang}").text
        assert f"<dt>{catalogue(lang)['setup.game']}</dt><dd>{name}</dd>" in page


def test_the_analysis_of_a_tournament_match_names_its_players(client: TestClient) -> None:
    """Between people online, the report names each seat's player, as backgammon's does."""
    started, two = field_of(client, 2, game="fevga")
    finished, (match_id,) = play_out(started["id"], two)
    seat = two[1].ok("GET", f"/api/tournaments/{started['id']}/matches/{match_id}/seat")
    path = f"/api/matches/{match_id}/analysis"
    deadline = time.monotonic() + PATIENCE  # a guard against a hang, not a measure
    while (answer := two[1].call("GET", path, token=seat["token"])).status_code == 202:
        assert time.monotonic() < deadline, "the analysis did not end"
        time.sleep(0.05)
    assert answer.status_code == 200, answer.text
    report = answer.json()
    assert report["kind"] == "board" and report["game"] == "fevga"
    assert [player["name"] for player in report["players"]] == \
        list(finished["draw"][0]["players"])
