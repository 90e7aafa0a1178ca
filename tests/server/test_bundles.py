"""The pages name the bundles of their scripts and styles (web/dist/, built by tools/bundle.py)
only while the bundles were built from the sources the server has; the bundles are kept a year,
everything else revalidated; and the committed bundles are those ``make bundle`` builds now.

The tests of the mechanism run on a folder of their own, with a manifest made here, and need no
bundler; the check of the committed bundles needs esbuild (``npm ci --prefix tests/web``) and is
skipped, saying so, without it."""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from backgammon.server import Settings, create_app
from backgammon.server.http.assets import IMMUTABLE, bundles_of, page_files, sources_digest
from backgammon.server.settings import sqlite_url

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "backgammon" / "web"
TOOL = ROOT / "tools" / "bundle.py"
STALE = "The committed bundles are stale: run `make bundle` and commit src/backgammon/web/dist/"

PAGE = """<!doctype html>
<html lang="en">
<head>
  <link rel="stylesheet" href="/css/a.css">
  <link rel="stylesheet" href="/css/b.css">
  <script type="module" src="/js/a.js"></script>
</head>
<body><link rel="stylesheet" href="/css/a.css"></body>
</html>
"""


def names(html: str) -> list[str]:
    """The style sheets and modules a page's head names, in order."""
    head = html.partition("</head>")[0]
    return re.findall(r'<(?:link rel="stylesheet" href|script type="module" src)="([^"]+)"', head)


def write_manifest(web: Path) -> None:
    """The manifest of the folder's two bundles, as built from its sources now."""
    bundles = [
        {"replaces": ["/js/a.js"], "file": "/dist/a-HASH1.js", "sources": ["js/a.js", "js/b.js"]},
        {"replaces": ["/css/a.css", "/css/b.css"], "file": "/dist/ab-HASH2.css",
         "sources": ["css/a.css", "css/b.css"]},
    ]
    for bundle in bundles:
        bundle["digest"] = sources_digest(web, bundle["sources"])
    (web / "dist" / "manifest.json").write_text(json.dumps({"bundles": bundles}))


@pytest.fixture
def web(tmp_path: Path) -> Path:
    """A page with two sheets and a module that imports another, and their bundles."""
    for name, text in {
        "index.html": PAGE,
        "js/a.js": 'import { b } from "./b.js";\nb();\n',
        "js/b.js": "export function b() {}\n",
        "css/a.css": "body { margin: 0; }\n",
        "css/b.css": "p { color: red; }\n",
        "dist/a-HASH1.js": "(function(){})();\n",
        "dist/ab-HASH2.css": "body{margin:0}p{color:red}\n",
    }.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    write_manifest(tmp_path)
    return tmp_path


@pytest.fixture
def files(web: Path) -> TestClient:
    return TestClient(page_files(web))  # no lifespan: the files alone


def test_a_fresh_bundle_replaces_what_it_was_built_from(files: TestClient) -> None:
    page = files.get("/")
    assert page.status_code == 200
    assert names(page.text) == ["/dist/ab-HASH2.css", "/dist/a-HASH1.js"]
    assert '<body><link rel="stylesheet" href="/css/a.css"></body>' in page.text  # head only
    assert page.headers["cache-control"] == "no-cache"
    again = files.get("/", headers={"If-None-Match": page.headers["etag"]})
    assert again.status_code == 304 and again.content == b""


def test_an_edited_source_is_served_itself_until_the_bundle_is_rebuilt(
    files: TestClient, web: Path
) -> None:
    before = files.get("/")
    # An edit to a module that the entry imports: the page names its modules again, at once.
    (web / "js" / "b.js").write_text("export function b() { return 1; }\n")
    edited = files.get("/", headers={"If-None-Match": before.headers["etag"]})
    assert edited.status_code == 200, "the page changed: the browser's copy is not current"
    assert names(edited.text) == ["/dist/ab-HASH2.css", "/js/a.js"]
    assert bundles_of(web).stale() == ["/dist/a-HASH1.js"]
    assert files.get("/js/b.js").text.endswith("return 1; }\n")
    write_manifest(web)  # what `make bundle` does, short of bundling
    assert names(files.get("/").text) == ["/dist/ab-HASH2.css", "/dist/a-HASH1.js"]
    assert bundles_of(web).stale() == []


def test_a_bundle_whose_file_or_source_is_missing_is_not_named(
    files: TestClient, web: Path
) -> None:
    (web / "dist" / "ab-HASH2.css").unlink()
    (web / "js" / "b.js").unlink()
    assert names(files.get("/").text) == ["/css/a.css", "/css/b.css", "/js/a.js"]


@pytest.mark.parametrize("manifest", [None, "{not json", '{"bundles": [{"file": 3}]}'])
def test_without_a_readable_manifest_the_page_names_its_sources(
    files: TestClient, web: Path, manifest: str | None
) -> None:
    path = web / "dist" / "manifest.json"
    if manifest is None:
        path.unlink()
    else:
        path.write_text(manifest)
    assert names(files.get("/").text) == ["/css/a.css", "/css/b.css", "/js/a.js"]


def test_bundles_are_kept_a_year_and_the_rest_revalidated(files: TestClient) -> None:
    for path in ("/dist/a-HASH1.js", "/dist/ab-HASH2.css"):
        answer = files.get(path, headers={"Accept-Encoding": "gzip"})
        assert answer.status_code == 200 and answer.headers["cache-control"] == IMMUTABLE
    for path in ("/dist/manifest.json", "/js/a.js", "/css/a.css"):
        assert files.get(path).headers["cache-control"] == "no-cache"


# The committed bundles, checked against the sources by building them again.


def bundle_tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bundle", TOOL)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bundle"] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def tool() -> ModuleType:
    module = bundle_tool()
    if not module.ESBUILD.exists():
        pytest.skip("esbuild is not installed: run `npm ci --prefix tests/web` (make bundle does)")
    return module


def committed() -> dict[str, Any]:
    manifest: dict[str, Any] = json.loads((WEB / "dist" / "manifest.json").read_text())
    return manifest


def test_the_committed_bundles_were_built_from_the_sources(tool: ModuleType) -> None:
    for bundle in committed()["bundles"]:
        assert sources_digest(WEB, bundle["sources"]) == bundle["digest"], (
            f"{bundle['file']} was built from other versions of its sources. "
            + STALE
        )


def test_the_committed_bundles_are_what_make_bundle_builds(
    tool: ModuleType, tmp_path: Path
) -> None:
    copy = tmp_path / "web"
    shutil.copytree(WEB, copy, ignore=shutil.ignore_patterns("fonts", "messages", "tutorial"))
    tool.build(copy)
    built = {path.name: path.read_bytes() for path in (copy / "dist").iterdir()}
    kept = {path.name: path.read_bytes() for path in (WEB / "dist").iterdir()}
    assert sorted(built) == sorted(kept), STALE
    for name, data in built.items():
        assert data == kept[name], f"dist/{name} differs from what is built now. {STALE}"


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    database = tmp_path_factory.mktemp("bundles") / "games.sqlite"
    with TestClient(create_app(Settings(database_url=sqlite_url(database)))) as test_client:
        yield test_client


@pytest.mark.parametrize("path", [
    "/", "/verify.html", "/join/an-invite", "/tutorial/en", "/account", "/help/en/",
    "/help/en/rules", "/players/nobody", "/tournaments", "/tournaments/nosuch", "/editor",
    "/trainer",
])
def test_every_page_names_bundles_alone(tool: ModuleType, app: TestClient, path: str) -> None:
    """One style sheet and at most one script, each a bundle the server sends for a year."""
    named = names(app.get(path).text)
    unbundled = [name for name in named if not name.startswith("/dist/")]
    assert not unbundled, (
        f"{path} names {', '.join(unbundled)}: a page entry missing from tools/bundle.py's "
        f"SCRIPTS or STYLES, or stale bundles. Add it there and run `make bundle`."
    )
    assert sum(name.endswith(".css") for name in named) == 1
    assert sum(name.endswith(".js") for name in named) <= 1
    for name in named:
        answer = app.get(name)
        assert answer.status_code == 200 and answer.headers["cache-control"] == IMMUTABLE
