"""What a first view of the front page costs a browser, with the bundles and without: the
page's own files (not the API's answers), counted and measured as they came over the wire.

With the bundles (``make bundle``, web/dist/) the page loads one style sheet and one script;
without them (every bundle stale, as after an edit to a module) it loads each module, found one
import level at a time. The figures are printed (``pytest -s``) and written in docs/dev/server.md
and CHANGELOG.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from browser_support import WEB

from backgammon.server.http.assets import bundles_of


@dataclass
class FirstView:
    """The page's own files a first view fetched: by kind, and their bytes over the wire."""

    kinds: dict[str, int]
    requests: int
    body_bytes: int
    header_bytes: int

    def __str__(self) -> str:
        kinds = ", ".join(f"{count} {kind}" for kind, count in sorted(self.kinds.items()))
        return (f"{self.requests} requests ({kinds}), {self.body_bytes:,} bytes of bodies "
                f"and {self.header_bytes:,} of headers")


def first_view(browser: Any, base: str) -> FirstView:
    """The front page opened in a browser with nothing kept, until it is drawn and the network
    is idle."""
    context = browser.new_context(viewport={"width": 900, "height": 1000})
    try:
        page = context.new_page()
        page.set_default_timeout(15_000)
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        finished: list[Any] = []
        page.on("requestfinished", lambda request: finished.append(request))
        page.goto(f"{base}/")
        page.wait_for_selector("#setup-form")
        page.wait_for_function("document.querySelector('#setup-heading').textContent !== ''")
        page.wait_for_load_state("networkidle")
        assert errors == [], errors
        own = [request for request in finished
               if request.url.startswith(base) and "/api/" not in request.url]
        kinds: dict[str, int] = {}
        body = headers = 0
        for request in own:
            kinds[request.resource_type] = kinds.get(request.resource_type, 0) + 1
            sizes = request.sizes()
            body += sizes["responseBodySize"]
            headers += sizes["responseHeadersSize"]
        return FirstView(kinds, len(own), body, headers)
    finally:
        context.close()


def test_the_first_view_loads_one_style_sheet_and_one_script(
    browser: Any, server: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    with monkeypatch.context() as stale:
        # The server as it is when every bundle is stale: the pages name their own sources.
        stale.setattr(bundles_of(WEB), "_bundles", dict)
        modules = first_view(browser, server)
    print(f"\nfirst view, unbundled: {modules}")
    assert modules.kinds.get("script", 0) > 10, modules  # every module, one at a time
    unbundled_bytes = modules.body_bytes + modules.header_bytes
    bundled = first_view(browser, server)
    print(f"first view, bundled: {bundled}")
    assert bundled.kinds.get("stylesheet") == 1 and bundled.kinds.get("script") == 1, (
        f"{bundled}: the bundles are stale or missing; run `make bundle`"
    )
    assert bundled.requests == modules.requests - modules.kinds["script"] + 1
    assert bundled.body_bytes + bundled.header_bytes < unbundled_bytes
