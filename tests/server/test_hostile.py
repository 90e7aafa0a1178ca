"""Hostile input to every endpoint family: integers of thousands of digits, JSON nested
thousands deep, long strings, unknown names and ids. Every route of the app is asked (its
path parameters and query filled with a marker), with and without a match's seat token: no
answer is a 5xx, every refusal says a sentence, and no answer carries back what was sent (the
marker), so that a refusal cannot be made to reflect a script or to grow with its request.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from typing import Any

import pytest

from backgammon.server import Settings, create_app
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

#: What the requests carry, which no answer may hold.
MARK = "zq<script>9"

HOSTILE_BODIES: dict[str, bytes] = {
    "huge integer": b'{"action": "roll", "version": ' + b"9" * 5000 + b"}",
    "huge integer alone": b"1" * 5000,
    "deep nesting": b"[" * 5000 + b"]" * 5000,
    "deep object": b'{"a":' * 3000 + b"1" + b"}" * 3000,
    "unknown action": b'{"action": "' + MARK.encode() + b'"}',
    "unknown field": b'{"' + MARK.encode() + b'": 1}',
    "long string": b'{"action": "play", "play": "' + MARK.encode() * 1000 + b'"}',
    "long names": b'{"names": ["' + MARK.encode() * 20 + b'", "b"], "text": "'
    + MARK.encode() * 50 + b'", "position": "' + MARK.encode() + b'"}',
    "upload": b'{"text": " 3 point match\\n Game 1\\n A : 0  B : 0\\n  1) 31: '
    + MARK.encode() + b'\\n"}',
    "bad position": b'{"position": "' + MARK.encode() + b'", "dice": [3, 1]}',
}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("hostile") / "games.sqlite"
    options = Settings(database_url=sqlite_url(database), computer_pause=0, create_rate=None,
                       hint_rate=None, action_rate=None, upload_rate=None, signin_rate=None)
    with TestClient(create_app(options)) as test_client:
        yield test_client


def _routes(client: TestClient) -> list[tuple[str, str]]:
    """(method, path) of every route the OpenAPI document names, path parameters filled
    with the marker."""
    paths = client.get("/openapi.json").json()["paths"]
    found = [(method.upper(), re.sub(r"\{[^}]+\}", MARK, path))
             for path, operations in paths.items() for method in operations]
    assert ("POST", f"/api/matches/{MARK}/actions") in found
    return found


def _answered(response: Any, what: str) -> None:
    assert response.status_code < 500, (what, response.status_code, response.text[:300])
    assert MARK not in response.text and "zq&lt;script" not in response.text, (
        what, response.text[:300]
    )
    if response.status_code >= 400 and response.headers.get("content-type", "").startswith(
        "application/json"
    ):
        detail = response.json()["detail"]
        assert isinstance(detail, str) and detail.endswith("."), (what, detail)


@pytest.mark.parametrize("kind", sorted(HOSTILE_BODIES))
def test_no_body_makes_an_error_or_an_echo(client: TestClient, kind: str) -> None:
    made = client.post("/api/matches", json={"opponent": "human"}).json()
    token = {"Authorization": f"Bearer {made['token']}"}
    for method, path in _routes(client):
        for real_id in (False, True):
            target = path.replace(MARK, made["id"]) if real_id else path
            if method == "GET":
                answer = client.request(method, target, params={"view": MARK, "lang": MARK},
                                        headers=token)
            else:
                answer = client.request(method, target, content=HOSTILE_BODIES[kind],
                                        headers={**token, "content-type": "application/json"})
            _answered(answer, f"{kind}: {method} {target}")
