"""Migration 0008 on a database that already holds an online match: the chat's tables come
empty, the match's chat works at once, and the way back drops them."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from migrating import back_to, migrated_from
from sqlalchemy import Connection, Engine, inspect
from test_api import client_for

from backgammon.server import Settings

CHAT_TABLES = {"chat_messages", "chat_mutes", "chat_reports"}


@pytest.fixture
def upgraded(database: Settings) -> Iterator[tuple[Engine, str, str]]:
    """A database holding an online match, brought back to revision 0007 (whose matches
    table is the newest's), then migrated to the newest: the engine, the match's id and its
    creator's token."""
    with client_for(database) as client:
        created = client.post("/api/matches", json={"opponent": "online"}).json()
        client.post("/api/matches/join", json={"invite": created["invite"]})

    def fill(connection: Connection) -> None:
        assert not CHAT_TABLES & set(inspect(connection).get_table_names())

    with migrated_from(database.database_url, "0007", fill, down=True) as engine:
        yield engine, created["id"], created["token"]


def test_an_old_match_gets_an_empty_chat_that_works(
    upgraded: tuple[Engine, str, str], database: Settings
) -> None:
    engine, match_id, token = upgraded
    assert set(inspect(engine).get_table_names()) >= CHAT_TABLES
    with client_for(database) as client:
        path = f"/api/matches/{match_id}/chat"
        assert client.get(path).json()["messages"] == []
        written = client.post(path, json={"channel": "players", "seat": 0, "text": "hello"},
                              headers={"Authorization": f"Bearer {token}"})
        assert written.status_code == 201, written.text
        assert [each["text"] for each in client.get(path).json()["messages"]] == ["hello"]


def test_the_way_back_drops_the_chat(upgraded: tuple[Engine, str, str]) -> None:
    tables, _ = back_to(upgraded[0], "0007")
    assert not CHAT_TABLES & tables and "matches" in tables
