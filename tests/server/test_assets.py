"""The page's files are sent compressed and kept by the browser until they change: gzip where
the browser takes it (not the fonts, compressed already), an ETag, ``Cache-Control: no-cache``,
and a 304 with no body for a file the browser has; answers that carry secrets are never
compressed."""

from __future__ import annotations

import gzip
import re
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

from backgammon.server import Settings, create_app
from backgammon.server.pages.templates import own_page
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

WEB = Path(__file__).resolve().parents[2] / "src" / "backgammon" / "web"
PLAIN = {"Accept-Encoding": "identity"}
GZIP = {"Accept-Encoding": "gzip"}


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("assets") / "games.sqlite"
    with TestClient(create_app(Settings(database_url=sqlite_url(database)))) as test_client:
        yield test_client


def page_assets() -> list[str]:
    """The scripts and style sheets the page names, and the modules they import in turn."""
    page = own_page("index.html")
    found = re.findall(r'(?:src|href)="/?((?:js|css)/[^"]+)"', page)
    modules = {name for name in found if name.startswith("js/")}
    ahead = list(modules)
    while ahead:
        text = (WEB / ahead.pop()).read_text(encoding="utf-8")
        for name in re.findall(r'from "\./([a-z_]+\.js)"', text):
            if f"js/{name}" not in modules:
                modules.add(f"js/{name}")
                ahead.append(f"js/{name}")
    return sorted(set(found) | modules)


@pytest.mark.parametrize("path", ["/", "/js/app.js", "/css/style.css", "/messages/km.json"])
def test_text_comes_compressed_and_revalidated(client: TestClient, path: str) -> None:
    plain = client.get(path, headers=PLAIN)
    packed = client.get(path, headers=GZIP)
    assert plain.status_code == packed.status_code == 200
    assert "content-encoding" not in plain.headers
    assert packed.headers["content-encoding"] == "gzip"
    assert packed.content == plain.content  # the client unpacks what the server packed
    assert packed.headers["cache-control"] == "no-cache"
    etag = plain.headers["etag"]
    again = client.get(path, headers={**GZIP, "If-None-Match": etag})
    assert again.status_code == 304 and again.content == b""


def test_fonts_are_not_compressed_twice(client: TestClient) -> None:
    font = next((WEB / "fonts").glob("*.woff2")).name
    answer = client.get(f"/fonts/{font}", headers=GZIP)
    assert answer.status_code == 200 and "content-encoding" not in answer.headers
    assert answer.headers["cache-control"] == "no-cache" and answer.headers["etag"]


def test_answers_with_secrets_are_not_compressed(client: TestClient) -> None:
    created = client.post("/api/matches", json={"opponent": "human"}, headers=GZIP)
    assert created.status_code in (200, 201) and "token" in created.text
    assert "content-encoding" not in created.headers


def test_the_first_view_is_smaller_by_half(client: TestClient) -> None:
    """The page, its scripts and style sheets: what a first view transfers, packed and not."""
    paths = ["/", *(f"/{name}" for name in page_assets())]
    assert len(paths) > 10
    plain = sum(len(client.get(path, headers=PLAIN).content) for path in paths)
    packed = 0
    for path in paths:
        answer = client.get(path, headers=GZIP)
        # The bytes on the wire: httpx hands back the unpacked body, so pack it again as sent.
        if answer.headers.get("content-encoding") == "gzip":
            packed += len(gzip.compress(answer.content, compresslevel=6))
        else:
            packed += len(answer.content)
    assert packed < plain / 2
