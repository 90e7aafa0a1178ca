"""What a view of the front page costs a browser, with the bundles and without: the page's own
files (not the API's answers), counted and measured as they came over the wire.

With the bundles (``make bundle``, web/dist/) a first view loads one style sheet and one
script; without them (every bundle stale, as after an edit to a module) it loads each module,
found one import level at a time. A later view takes the bundles from the browser's cache
without asking. The figures are printed (``pytest -s``) and written in docs/dev/server.md and
CHANGELOG.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import pytest
from browser_support import WEB

from backgammon.server.http.assets import bundles_of


@dataclass
class View:
    """The page's own files a view asked for: how many of each kind, and the bytes each
    took over the wire, headers and body (none for a file the cache gave)."""

    kinds: dict[str, int] = field(default_factory=dict)
    wire: dict[str, int] = field(default_factory=dict)
    body_bytes: int = 0
    header_bytes: int = 0

    @property
    def requests(self) -> int:
        return sum(self.kinds.values())

    def __str__(self) -> str:
        kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(self.kinds.items()))
        return (f"{self.requests} requests ({kinds}), {self.body_bytes:,} bytes of bodies "
                f"and {self.header_bytes:,} of headers")


def views(browser: Any, base: str, count: int = 1) -> list[View]:
    """The front page opened ``count`` times in a browser that kept nothing before, each time
    until it is drawn and the network is idle."""
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        finished: list[Any] = []
        page.on("requestfinished", lambda request: finished.append(request))
        seen: list[View] = []
        for _ in range(count):
            page.goto(f"{base}/")
            page.wait_for_selector("#setup-form")
            page.wait_for_function("document.querySelector('#setup-heading').textContent")
            page.wait_for_load_state("networkidle")
            seen.append(view_of([each for each in finished if each.url.startswith(base)], base))
            finished.clear()
        assert errors == [], errors
        return seen
    finally:
        context.close()


def view_of(requests: list[Any], base: str) -> View:
    """The page's own files among ``requests``, finished."""
    view = View()
    for request in requests:
        path = request.url[len(base):]
        if path.startswith("/api/"):
            continue
        sizes = request.sizes()
        headers, body = sizes["responseHeadersSize"], sizes["responseBodySize"]
        view.kinds[request.resource_type] = view.kinds.get(request.resource_type, 0) + 1
        # A file the cache gave counts its body as minus its headers: nothing came.
        view.wire[path] = headers + body
        view.body_bytes += max(body, 0)
        view.header_bytes += headers + body - max(body, 0)
    return view


@pytest.fixture
def current() -> None:
    """The committed bundles are current: otherwise the pages name their sources, and
    tests/server/test_bundles.py says to run `make bundle` (where esbuild is installed)."""
    stale = bundles_of(WEB).stale()
    if stale:
        pytest.skip(f"stale bundles ({', '.join(stale)}): run `make bundle`")


def test_the_first_view_loads_one_style_sheet_and_one_script(
    browser: Any, server: str, monkeypatch: pytest.MonkeyPatch, current: None
) -> None:
    with monkeypatch.context() as stale:
        # The server as it is when every bundle is stale: the pages name their own sources.
        stale.setattr(bundles_of(WEB), "_bundles", dict)
        [modules] = views(browser, server)
    print(f"\nfirst view, unbundled: {modules}")
    assert modules.kinds.get("script", 0) > 10, modules  # every module, one at a time
    [bundled] = views(browser, server)
    print(f"first view, bundled: {bundled}")
    assert bundled.kinds.get("stylesheet") == 1 and bundled.kinds.get("script") == 1, bundled
    assert bundled.requests == modules.requests - modules.kinds["script"] + 1
    assert sum(bundled.wire.values()) < sum(modules.wire.values())


def test_a_later_view_takes_the_bundles_from_the_cache(
    browser: Any, server: str, current: None
) -> None:
    first, later = views(browser, server, 2)
    bundles = [path for path in first.wire if path.startswith("/dist/")]
    assert len(bundles) == 2 and all(first.wire[path] > 0 for path in bundles), first.wire
    print(f"\nlater view: {later}")
    assert all(later.wire.get(path, 0) == 0 for path in bundles), later.wire
    # The page itself is asked again (a 304 of headers alone: it names the bundles).
    assert 0 < later.wire["/"] < first.wire["/"]
