"""The browser tests' fixtures: a live server for each test module, Debian's chromium through
Playwright (skipped, with the reason, where it is missing), and a fresh page for each test that
fails the test on any script error."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from browser_support import CHROMIUM, CHROMIUM_ARGS, Running, open_page


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    running = Running(tmp_path_factory.mktemp("browser") / "games.sqlite")
    yield running.url
    running.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    if not Path(CHROMIUM).exists() or shutil.which(CHROMIUM) is None:
        pytest.skip(f"Debian's chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        # The tests wait for conditions written as JavaScript strings, which Playwright
        # evaluates with eval: the pages' Content-Security-Policy forbids that, so the tests'
        # contexts bypass it unless they ask not to (test_csp_browser.py holds the pages to
        # it).
        opened = launched.new_context

        def new_context(**options: Any) -> Any:
            return opened(**{"bypass_csp": True, **options})

        launched.new_context = new_context
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    yield from open_page(browser)

