"""Every answer tells the browser not to frame it, not to guess its type and not to send its
address on, under a Content-Security-Policy that admits this site's scripts alone; and the
access log never holds an invite or a token."""

from __future__ import annotations

import logging
import warnings
from collections.abc import Iterator

import pytest

from backgammon.server import Settings, create_app
from backgammon.server.http.headers import MaskedAccessLog
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("headers") / "games.sqlite"
    with TestClient(create_app(Settings(database_url=sqlite_url(database)))) as test_client:
        yield test_client


@pytest.mark.parametrize(
    "path", ["/", "/verify.html", "/help/en/", "/tutorial", "/players", "/api/lobby",
             "/api/matches/none", "/join/abc", "/js/app.js", "/nothing-here"]
)
def test_every_answer_carries_the_security_headers(client: TestClient, path: str) -> None:
    answer = client.get(path)
    policy = answer.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in policy and "script-src 'self';" in policy
    assert "unsafe-inline" not in policy
    assert answer.headers["x-frame-options"] == "DENY"
    assert answer.headers["x-content-type-options"] == "nosniff"
    assert answer.headers["referrer-policy"] == "no-referrer"


def test_the_api_pages_may_load_their_cdn_scripts(client: TestClient) -> None:
    policy = client.get("/docs").headers["content-security-policy"]
    assert "https://cdn.jsdelivr.net" in policy and "frame-ancestors 'none'" in policy


def test_the_access_log_masks_invites_and_tokens(client: TestClient) -> None:
    record = logging.LogRecord(
        "uvicorn.access", logging.INFO, __file__, 1, '%s - "%s %s HTTP/%s" %d',
        ("127.0.0.1:5", "GET", "/join/SeCrEt-InViTe", "1.1", 200), None,
    )
    assert MaskedAccessLog().filter(record)
    assert "SeCrEt" not in record.getMessage() and "/join/…" in record.getMessage()
    record.args = ("127.0.0.1:5", "GET", "/x/updates?view=1&token=abc123&b=2", "1.1", 101)
    MaskedAccessLog().filter(record)
    assert record.getMessage().endswith('"GET /x/updates?view=1&token=…&b=2 HTTP/1.1" 101')
    assert any(isinstance(f, MaskedAccessLog) for f in logging.getLogger("uvicorn.access").filters)
