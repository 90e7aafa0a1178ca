"""The chat of an online match through the API: players write with their seat tokens,
signed-in spectators in a channel of their own; every message is pushed to the watching
pages and kept across a restart; every refusal (too long, empty, a control character, a flood,
a wrong token, the wrong channel, a match against the computer or at one screen) is a 4xx with
a sentence that keeps nothing; a mute holds per seat; a report keeps a copy of the message,
which ``backgammon reports`` lists. Markup in a message is kept and answered as text."""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from typing import Any

import pytest
from sqlalchemy import select
from sqlalchemy.orm import Session
from test_api import client_for

from backgammon.cli import main
from backgammon.server import Settings
from backgammon.server.db import ChatMessageRow, ChatReportRow, make_engine

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # Starlette asks for httpx's successor
    from fastapi.testclient import TestClient

State = dict[str, Any]
MARKUP = '<img src=x onerror="alert(1)"><script>alert(2)</script>&amp; "quoted"'


@pytest.fixture
def client(database: Settings) -> Iterator[TestClient]:
    with client_for(database) as test_client:
        yield test_client


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def online(client: TestClient) -> tuple[str, dict[int, str]]:
    """An online match between Ann (seat 0) and Bob (seat 1): its id and each seat's token."""
    created = client.post("/api/matches", json={"opponent": "online", "names": ["Ann", "Bob"]})
    assert created.status_code == 201, created.text
    joined = client.post("/api/matches/join",
                         json={"invite": created.json()["invite"], "name": "Bob"})
    assert joined.status_code == 200, joined.text
    return created.json()["id"], {0: created.json()["token"], 1: joined.json()["token"]}


def write(client: TestClient, match_id: str, token: str | None, **body: Any) -> Any:
    body.setdefault("channel", "players")
    return client.post(f"/api/matches/{match_id}/chat", json=body,
                       headers={} if token is None else bearer(token))


def said(client: TestClient, match_id: str, token: str | None = None) -> list[Any]:
    """The chat's messages as ``token``'s seat (or a spectator) reads them: (name, text or
    phrase) each."""
    listing = read(client, match_id, token)
    return [(each["name"], each["phrase"] or each["text"]) for each in listing["messages"]]


def read(client: TestClient, match_id: str, token: str | None = None, **params: Any) -> Any:
    response = client.get(f"/api/matches/{match_id}/chat", params=params,
                          headers={} if token is None else bearer(token))
    assert response.status_code == 200, response.text
    return response.json()


def refused(response: Any, status: int, phrase: str) -> None:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and detail.endswith(".") and phrase in detail, detail


def sign_up(client: TestClient, name: str) -> dict[str, str]:
    """Sign ``client`` up as ``name``; the CSRF header its writes carry."""
    response = client.post("/api/accounts", json={"name": name, "password": "a long secret"})
    assert response.status_code == 201, response.text
    return {"X-CSRF-Token": client.cookies["bg_csrf"]}


def test_players_write_and_every_watching_page_is_pushed_the_message(
    client: TestClient,
) -> None:
    match_id, tokens = online(client)
    with client.websocket_connect(f"/api/matches/{match_id}/updates?view=1") as page:
        page.receive_json()  # the state now
        response = write(client, match_id, tokens[0], seat=0, text="  Good luck, Bob!  ")
        assert response.status_code == 201, response.text
        message = response.json()
        assert message == {**message, "channel": "players", "seat": 0, "name": "Ann",
                           "text": "Good luck, Bob!", "phrase": None}
        assert page.receive_json() == {"chat": message}
        phrase = write(client, match_id, tokens[1], seat=1, phrase="thanks").json()
        assert page.receive_json() == {"chat": phrase}
    assert phrase["text"] == "" and phrase["id"] > message["id"]
    # Everyone who may watch the match reads it: a spectator, each player.
    assert said(client, match_id) == [("Ann", "Good luck, Bob!"), ("Bob", "thanks")]
    assert said(client, match_id, tokens[1]) == said(client, match_id)
    assert [each["id"] for each in read(client, match_id, after=message["id"])["messages"]] == [
        phrase["id"]]


def test_markup_is_kept_and_answered_as_text(client: TestClient, database: Settings) -> None:
    match_id, tokens = online(client)
    response = write(client, match_id, tokens[0], seat=0, text=MARKUP)
    assert response.status_code == 201
    assert response.headers["content-type"] == "application/json"
    assert response.json()["text"] == MARKUP
    assert read(client, match_id)["messages"][0]["text"] == MARKUP
    engine = make_engine(database.database_url)
    with Session(engine) as session:
        assert session.scalars(select(ChatMessageRow.text)).all() == [MARKUP]
    engine.dispose()


@pytest.mark.parametrize(
    ("body", "phrase"),
    [
        ({"text": "x" * 301}, "at most 300 characters"),
        ({"text": "   \n\t "}, "empty"),
        ({"text": "ring \x07 the bell"}, "no control characters"),
        ({"text": "nul\x00"}, "no control characters"),
        ({"phrase": "buy-my-stuff"}, "none of the quick phrases"),
        ({"text": "hi", "phrase": "thanks"}, "one of the two"),
        ({}, "one of the two"),
    ],
)
def test_a_message_the_chat_does_not_take_is_refused_and_kept_nowhere(
    tmp_path: Any, body: dict[str, str], phrase: str
) -> None:
    with client_for(tmp_path / "games.sqlite") as client:
        match_id, tokens = online(client)
        refused(write(client, match_id, tokens[0], seat=0, **body), 422, phrase)
        assert said(client, match_id) == []


def test_the_longest_message_and_line_breaks_are_taken(tmp_path: Any) -> None:
    with client_for(tmp_path / "games.sqlite") as client:
        match_id, tokens = online(client)
        assert write(client, match_id, tokens[0], seat=0, text=" y" * 150).status_code == 201
        assert write(client, match_id, tokens[0], seat=0, text="one\ntwo").json()["text"] == (
            "one two")
        # The controls that turn text around are taken out.
        assert write(client, match_id, tokens[0], seat=0, text="\u202eabc").json()["text"] == (
            "abc")


def test_a_flood_is_refused_per_writer_with_a_sentence(database: Settings) -> None:
    # A window longer than any test: the five messages always fall in it.
    with client_for(database, chat_rate="5/day") as client:
        flood(client)


def flood(client: TestClient) -> None:
    match_id, tokens = online(client)
    for number in range(5):
        assert write(client, match_id, tokens[0], seat=0, text=f"m{number}").status_code == 201
    response = write(client, match_id, tokens[0], seat=0, text="one too many")
    refused(response, 429, "Too many chat messages from you: at most 5 a day")
    assert int(response.headers["Retry-After"]) >= 1
    assert len(said(client, match_id)) == 5
    # The other player is another writer.
    assert write(client, match_id, tokens[1], seat=1, text="calm down").status_code == 201


def test_five_messages_in_ten_seconds_is_the_default_limit() -> None:
    assert Settings("sqlite://").chat_rate == "5/10seconds"
    assert Settings.from_env({"BACKGAMMON_CHAT_RATE": "none"}).chat_rate is None


def test_a_player_writes_only_with_their_own_seats_token(client: TestClient) -> None:
    match_id, tokens = online(client)
    refused(write(client, match_id, None, seat=0, text="hi"), 401, "seat token")
    refused(write(client, match_id, "not-a-token", seat=0, text="hi"), 403, "no seat")
    refused(write(client, match_id, tokens[1], seat=0, text="hi"), 403, "not seat 0")
    refused(write(client, match_id, tokens[1], text="hi"), 422, "names their seat")
    other, _ = online(client)
    refused(write(client, other, tokens[0], seat=0, text="hi"), 403, "no seat")
    assert said(client, match_id) == [] and said(client, other) == []
    refused(client.post("/api/matches/none/chat", json={"channel": "players", "text": "x"}),
            404, "no match")


def test_spectators_write_in_their_own_channel_once_signed_in(client: TestClient) -> None:
    match_id, tokens = online(client)
    # A guest: reads, writes in neither channel.
    refused(write(client, match_id, None, channel="spectators", text="hi"), 401, "signed in")
    refused(write(client, match_id, None, seat=0, text="hi"), 401, "seat token")
    # A player: not in the spectators' channel.
    refused(write(client, match_id, tokens[0], channel="spectators", text="hi"), 403,
            "players' channel")
    csrf = sign_up(client, "Carol")
    refused(client.post(f"/api/matches/{match_id}/chat",
                        json={"channel": "players", "seat": 0, "text": "let me play"},
                        headers=csrf), 401, "seat token")
    refused(client.post(f"/api/matches/{match_id}/chat",
                        json={"channel": "spectators", "seat": 0, "text": "hi"}, headers=csrf),
            422, "names no seat")
    assert said(client, match_id) == []
    response = client.post(f"/api/matches/{match_id}/chat",
                           json={"channel": "spectators", "text": "Nice game!"}, headers=csrf)
    assert response.status_code == 201, response.text
    assert response.json()["channel"] == "spectators" and response.json()["seat"] is None
    assert said(client, match_id, tokens[0]) == [("Carol", "Nice game!")]


def test_a_mute_hides_the_other_player_from_that_seat_alone_and_is_kept(
    client: TestClient, database: Settings
) -> None:
    match_id, tokens = online(client)
    csrf = sign_up(client, "Dave")
    client.post(f"/api/matches/{match_id}/chat",
                json={"channel": "spectators", "text": "go Ann"}, headers=csrf)
    client.cookies.clear()
    write(client, match_id, tokens[0], seat=0, text="hello")
    write(client, match_id, tokens[1], seat=1, text="you will lose")
    mute = f"/api/matches/{match_id}/chat/mute"
    refused(client.put(mute, json={"seat": 0, "muted": True}), 401, "seat token")
    refused(client.put(mute, json={"seat": 0, "muted": True}, headers=bearer(tokens[1])), 403,
            "not seat 0")
    assert read(client, match_id, tokens[0])["muted"] is False
    response = client.put(mute, json={"seat": 0, "muted": True}, headers=bearer(tokens[0]))
    assert response.status_code == 200 and response.json() == {"seat": 0, "muted": True}
    muted = read(client, match_id, tokens[0])
    assert muted["muted"] is True and muted["seat"] == 0
    assert said(client, match_id, tokens[0]) == [("Dave", "go Ann"), ("Ann", "hello")]
    # The other seat and the spectators read everything; the muted player may still write.
    everything = [("Dave", "go Ann"), ("Ann", "hello"), ("Bob", "you will lose")]
    assert said(client, match_id, tokens[1]) == everything == said(client, match_id)
    assert write(client, match_id, tokens[1], seat=1, text="sorry").status_code == 201
    assert said(client, match_id, tokens[0])[-1] == ("Ann", "hello")
    # Kept on the server: after a restart the mute holds, until lifted.
    with client_for(database) as restarted:
        assert said(restarted, match_id, tokens[0])[-1] == ("Ann", "hello")
        lifted = restarted.put(mute, json={"seat": 0, "muted": False}, headers=bearer(tokens[0]))
        assert lifted.json() == {"seat": 0, "muted": False}
        assert said(restarted, match_id, tokens[0])[-1] == ("Bob", "sorry")


@pytest.mark.parametrize("opponent", ["computer", "human"])
def test_matches_against_the_computer_or_at_one_screen_have_no_chat(
    client: TestClient, opponent: str
) -> None:
    created = client.post("/api/matches", json={"opponent": opponent}).json()
    match_id, token = created["id"], created["token"]
    refused(write(client, match_id, token, seat=0, text="hi"), 403, "online matches")
    refused(client.get(f"/api/matches/{match_id}/chat"), 403, "online matches")
    refused(client.put(f"/api/matches/{match_id}/chat/mute", json={"seat": 0, "muted": True},
                       headers=bearer(token)), 403, "online matches")
    refused(client.post(f"/api/matches/{match_id}/chat/1/report", json={"seat": 0},
                        headers=bearer(token)), 403, "online matches")


def test_a_report_keeps_a_copy_of_the_message_for_the_site(
    client: TestClient, database: Settings, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    match_id, tokens = online(client)
    mine = write(client, match_id, tokens[0], seat=0, text="good luck").json()
    theirs = write(client, match_id, tokens[1], seat=1, text=MARKUP).json()
    path = f"/api/matches/{match_id}/chat/{theirs['id']}/report"
    refused(client.post(path, json={"seat": 0}), 401, "seat token")
    refused(client.post(path, json={"seat": 0}, headers=bearer(tokens[1])), 403, "not seat 0")
    refused(client.post(f"/api/matches/{match_id}/chat/{mine['id']}/report", json={"seat": 0},
                        headers=bearer(tokens[0])), 409, "not their own")
    refused(client.post(f"/api/matches/{match_id}/chat/{theirs['id'] + 99}/report",
                        json={"seat": 0}, headers=bearer(tokens[0])), 404, "no message")
    other, other_tokens = online(client)
    refused(client.post(f"/api/matches/{other}/chat/{theirs['id']}/report", json={"seat": 0},
                        headers=bearer(other_tokens[0])), 404, "no message")
    response = client.post(path, json={"seat": 0}, headers=bearer(tokens[0]))
    assert response.status_code == 201 and response.json() == {"message": theirs["id"],
                                                               "new": True}
    again = client.post(path, json={"seat": 0}, headers=bearer(tokens[0]))
    assert again.status_code == 200 and again.json()["new"] is False
    engine = make_engine(database.database_url)
    with Session(engine) as session:
        (report,) = session.scalars(select(ChatReportRow)).all()
        assert (report.match_id, report.message_id, report.reporter, report.seat, report.name,
                report.text) == (match_id, theirs["id"], 0, 1, "Bob", MARKUP)
    engine.dispose()
    # Whoever runs the site reads them.
    monkeypatch.setenv("BACKGAMMON_DATABASE_URL", database.database_url)
    assert main(["reports"]) == 0
    listed = capsys.readouterr().out
    assert match_id in listed and "Bob (seat 1)" in listed and MARKUP in listed
    assert main(["reports", "--json"]) == 0
    assert '"reporter": 0' in capsys.readouterr().out


def test_the_chat_survives_a_restart(database: Settings) -> None:
    with client_for(database) as client:
        match_id, tokens = online(client)
        write(client, match_id, tokens[0], seat=0, phrase="good-luck")
        write(client, match_id, tokens[1], seat=1, text="you too")
    with client_for(database) as restarted:
        assert said(restarted, match_id) == [("Ann", "good-luck"), ("Bob", "you too")]


def test_two_processes_see_each_others_messages(postgres: Any, redis_url: str,
                                                launch: Any) -> None:
    """On PostgreSQL with Redis, a page watching through one process is pushed the messages
    written through the other, each once it is kept; either process lists them all."""
    from test_processes import PATIENCE, Watcher

    shared = Settings(postgres.new_database(), redis_url=redis_url)
    one, other = launch(shared), launch(shared)
    status, created = one.request("POST", "/api/matches",
                                  {"opponent": "online", "names": ["Ann", "Bob"]})
    assert status == 201, created
    status, joined = other.request("POST", "/api/matches/join", {"invite": created["invite"]})
    assert status == 200, joined
    match_id = created["id"]
    tokens = {0: created["token"], 1: joined["token"]}
    watchers = [Watcher(one, match_id), Watcher(other, match_id, "view=1")]
    written = []
    for number in range(8):
        # Each seat writes through each process in turn.
        seat, server = number % 2, (one, other)[number // 2 % 2]
        status, message = server.request(
            "POST", f"/api/matches/{match_id}/chat",
            {"channel": "players", "seat": seat, "text": f"<i>message {number}</i>"},
            tokens[seat])
        assert status == 201, message
        written.append(message)
    for watcher in watchers:
        deadline = time.monotonic() + PATIENCE
        while True:
            pushed = {each["chat"]["id"]: each["chat"] for each in list(watcher.states)
                      if "chat" in each}
            if len(pushed) == len(written):
                break
            assert time.monotonic() < deadline, sorted(pushed)
            time.sleep(0.01)
        assert [pushed[message["id"]] for message in written] == written
        watcher.close()
    for server in (one, other):
        status, listing = server.request("GET", f"/api/matches/{match_id}/chat")
        assert status == 200 and listing["messages"] == written
