"""The page's files as a browser should get them: bundled, compressed, and kept until they
change.

**Bundles.** A page names its style sheets and its ES modules (``/css/style.css``,
``/js/app.js``), and each module imports others, found by the browser one level at a time.
``make bundle`` (``tools/bundle.py``, esbuild) builds, for each page's scripts and for each
page's set of style sheets, one minified file under ``dist/`` whose name carries a hash of its
content, and ``dist/manifest.json``, which says for each bundle the files a page names that it
replaces, the files it was built from and their digest (:func:`sources_digest`). Every page
the server sends (:class:`PageResponse`, and the static pages here) names the bundle in place
of its sources *while that digest matches the sources the server has*: a developer who edits
a module sees the change at the next reload, through the modules themselves, until
``make bundle`` is run again; and a fresh machine, with no npm, still gets the bundles that
are committed.

**Caching.** A bundle's name changes with its content, so it is sent with
``Cache-Control: public, max-age=31536000, immutable``: a browser keeps it and never asks
again. Every other file (the pages, the modules themselves, the catalogues, the fonts) is sent
with ``no-cache`` beside its ETag: the browser keeps it and asks each time whether it changed,
so an unchanged file costs a 304 of no body and a changed one is seen at once.

**Compression.** Each file is sent gzip-compressed where the browser takes it (text only: the
fonts are compressed already). Only the page's own files are compressed here: an answer that
carries a secret beside what a request sent (a token, a session) is never compressed, as
compression would leak its length (BREACH).
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
import os
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from starlette.datastructures import Headers
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import HTMLResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Scope

from ..pages.templates import WEB, own_page

#: Where the bundles are, under the page's files, and the manifest that names them.
DIST = "dist"
MANIFEST = "manifest.json"
#: How hard to compress: level 6 gives nearly all of level 9's saving for a fraction of its CPU.
COMPRESS_LEVEL = 6
#: A file whose name carries its content's hash never changes: the browser keeps it a year.
IMMUTABLE = "public, max-age=31536000, immutable"
#: A file that may change under its name: the browser keeps it and revalidates it at each use.
REVALIDATED = "no-cache"

_log = logging.getLogger(__name__)

# The tags by which a page names its style sheets and its modules, as the pages write them
# (index.html, verify.html, and the templates' shell.html).
_SHEET = re.compile(r'(\s*)<link rel="stylesheet" href="([^"]+)">')
_MODULE = re.compile(r'<script type="module" src="([^"]+)"></script>')


def sources_digest(directory: Path, sources: Iterable[str]) -> str:
    """The digest of the files ``sources`` (paths under ``directory``): SHA-256 over each
    one's path, length and bytes, in the paths' order.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     _ = (Path(folder) / "a.js").write_text("export const a = 1;")
    ...     first = sources_digest(Path(folder), ["a.js"])
    ...     _ = (Path(folder) / "a.js").write_text("export const a = 2;")
    ...     first == sources_digest(Path(folder), ["a.js"]), len(first)
    (False, 64)
    """
    digest = hashlib.sha256()
    for name in sorted(sources):
        data = (directory / name).read_bytes()
        digest.update(f"{name}\n{len(data)}\n".encode())
        digest.update(data)
    return digest.hexdigest()


@dataclass(frozen=True)
class Bundle:
    """One built file: what a page names that it replaces (URL paths: one module, or a
    page's style sheets in their order), its own URL path, and the files it was built from
    (paths under the page's files) with their digest."""

    replaces: tuple[str, ...]
    file: str
    sources: tuple[str, ...]
    digest: str


def _signature(directory: Path, names: Iterable[str]) -> tuple[tuple[str, int, int], ...]:
    """Each file's path, time of change and size: what must change for its bytes to."""
    found = []
    for name in names:
        try:
            status = os.stat(directory / name)
        except OSError:
            return ()  # a file gone: the bundle is stale, and stays so until it is back
        found.append((name, status.st_mtime_ns, status.st_size))
    return tuple(found)


class Bundles:
    """The bundles of ``directory/dist/manifest.json``, each served while its sources are
    the ones it was built from.

    Whether they are is asked at each page: the files' times and sizes are read (a few
    dozen ``stat`` calls), and their digest is computed again only when those changed. The
    answers are kept per bundle; two requests that race compute the same answer twice.
    """

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        # For each bundle (one for each set of files it replaces), its sources' signature
        # when last asked, and whether it was fresh then.
        self._fresh: dict[Bundle, tuple[tuple[tuple[str, int, int], ...], bool]] = {}

    def _bundles(self) -> dict[tuple[str, ...], Bundle]:
        """The manifest's bundles by what they replace, read at each page (a few kB), so
        that ``make bundle`` run beside a running server is seen at once."""
        return self._read(self.directory / DIST / MANIFEST)

    @staticmethod
    def _read(path: Path) -> dict[tuple[str, ...], Bundle]:
        """The bundles ``path`` names; none (with a warning) if it is missing or malformed:
        the pages then name their modules and style sheets themselves, which always works."""
        try:
            data: Any = json.loads(path.read_text(encoding="utf-8"))
            bundles = [
                Bundle(tuple(entry["replaces"]), entry["file"], tuple(entry["sources"]),
                       entry["digest"])
                for entry in data["bundles"]
            ]
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, KeyError, TypeError) as error:
            _log.warning("%s is unreadable (%s): the pages name their sources", path, error)
            return {}
        return {bundle.replaces: bundle for bundle in bundles}

    def fresh(self, bundle: Bundle) -> bool:
        """Whether ``bundle``'s file is here and its sources are those it was built from."""
        signature = _signature(self.directory, [bundle.file.lstrip("/"), *bundle.sources])
        known = self._fresh.get(bundle)
        if known is not None and known[0] == signature:
            return known[1]
        try:
            fresh = bool(signature) and (
                sources_digest(self.directory, bundle.sources) == bundle.digest
            )
        except OSError:
            fresh = False
        self._fresh = {kept: facts for kept, facts in self._fresh.items()
                       if kept.replaces != bundle.replaces}  # a rebuilt one's older self goes
        self._fresh[bundle] = (signature, fresh)
        return fresh

    def stale(self) -> list[str]:
        """The URL paths of the manifest's bundles that are not served now."""
        return [bundle.file for bundle in self._bundles().values() if not self.fresh(bundle)]

    def _served(self, bundles: dict[tuple[str, ...], Bundle], replaced: Sequence[str]
                ) -> str | None:
        """The URL path of the fresh bundle of ``bundles`` in place of ``replaced``, if any."""
        bundle = bundles.get(tuple(replaced))
        return bundle.file if bundle is not None and self.fresh(bundle) else None

    def page(self, html: str) -> str:
        """``html`` naming the fresh bundles in place of what they replace in its head: all
        its style sheets by one, each module by its own.

        >>> Bundles(Path("/nowhere")).page('<head><link rel="stylesheet" href="/a.css">')
        '<head><link rel="stylesheet" href="/a.css">'
        """
        head, end, body = html.partition("</head>")
        bundles = self._bundles()
        sheets = [href for _, href in _SHEET.findall(head)]
        sheet = self._served(bundles, sheets) if sheets else None
        if sheet is not None:
            first = iter([True])  # the first tag names the bundle, the others go

            def one_sheet(match: re.Match[str]) -> str:
                if next(first, False):
                    return f'{match[1]}<link rel="stylesheet" href="{sheet}">'
                return ""

            head = _SHEET.sub(one_sheet, head)

        def module(match: re.Match[str]) -> str:
            served = self._served(bundles, [match[1]])
            return match[0] if served is None else f'<script type="module" src="{served}"></script>'

        return _MODULE.sub(module, head) + end + body

    def hashed(self, path: Path) -> bool:
        """Whether ``path`` is a bundle (or its source map): a name that changes with its
        content."""
        try:
            relative = path.resolve().relative_to(self.directory.resolve())
        except ValueError:
            return False
        return relative.parts[:1] == (DIST,) and relative.name != MANIFEST


@functools.cache
def bundles_of(directory: Path) -> Bundles:
    """The one :class:`Bundles` of the page's files in ``directory``."""
    return Bundles(directory.resolve())


class PageResponse(HTMLResponse):
    """A page of the server's that names the fresh bundles of the page's files in place of
    what they replace."""

    def render(self, content: Any) -> bytes | memoryview:
        if isinstance(content, str):
            content = bundles_of(WEB).page(content)
        return super().render(content)


def page_markup(path: Path) -> str:
    """The page in the file ``path`` as written out: one of the app's own (at the top of
    ``web/``) from its template (:func:`..pages.templates.own_page`), any other as it is."""
    if path.parent.resolve() == WEB:
        return own_page(path.name)
    return path.read_text(encoding="utf-8")


def page_file(path: Path, request: Headers, bundles: Bundles | None = None,
              status_code: int = 200) -> Response:
    """The page in the file ``path``, naming the fresh bundles, with an ETag of what is sent
    (which changes when a bundle goes stale or fresh, not only with the file) and
    ``no-cache``; a 304 with no body where the browser has it already."""
    bundles = bundles or bundles_of(WEB)
    content = bundles.page(page_markup(path)).encode()
    headers = {
        "ETag": f'"{hashlib.sha256(content).hexdigest()[:32]}"',
        "Cache-Control": REVALIDATED,
    }
    sent = [tag.strip().removeprefix("W/") for tag in request.get("if-none-match", "").split(",")]
    if headers["ETag"] in sent:
        return Response(status_code=304, headers=headers)
    return HTMLResponse(content, status_code=status_code, headers=headers)


class _PageFiles(StaticFiles):
    """Static files that a browser keeps: a bundle for ever, the rest revalidated at each
    use; the pages naming the fresh bundles."""

    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory, html=True)
        self.bundles = bundles_of(directory)

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        path = Path(full_path)
        if path.suffix == ".html":
            return page_file(path, Headers(scope=scope), self.bundles, status_code)
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers.setdefault(
            "Cache-Control", IMMUTABLE if self.bundles.hashed(path) else REVALIDATED
        )
        return response


def page_files(directory: Path) -> ASGIApp:
    """The files of ``directory`` (the page; ``index.html`` for a folder), compressed, kept
    and revalidated, the pages naming the fresh bundles."""
    return GZipMiddleware(_PageFiles(directory), compresslevel=COMPRESS_LEVEL)
