"""Build the page's bundles (``make bundle``): for each page's scripts, and for each page's set
of style sheets, one minified file under ``src/backgammon/web/dist/``, named by its content's
hash, and the manifest the server reads (``backgammon.server.http.assets``).

The bundler is esbuild, from npm at the version ``tests/web/package-lock.json`` pins
(``npm ci --prefix tests/web``, which ``make bundle`` runs). Each script bundle is an ES module
with its source map (which names the modules themselves, served beside it); each style bundle
is the page's sheets in their order, minified. The manifest says, for each bundle, what a page
names that it replaces, the files it was built from and their digest: the server names a
bundle only while that digest matches the files it has, so a bundle left stale by an edit is
never served, only slower modules. Run it after changing a module or a style sheet, and commit
``dist/`` with the change; tests/server/test_bundles.py fails, where esbuild is installed,
while the committed bundles are stale.

A new page entry (a module a page names, or a page's new set of sheets) goes in
:data:`SCRIPTS` or :data:`STYLES`; a module a page imports needs nothing here.

    PYTHONPATH=src .venv/bin/python tools/bundle.py
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from backgammon.server.http.assets import DIST, MANIFEST, sources_digest
from backgammon.server.pages.templates import WEB

ROOT = Path(__file__).resolve().parents[1]
ESBUILD = ROOT / "tests" / "web" / "node_modules" / ".bin" / "esbuild"

#: The modules the pages name, each bundled with every module it imports: the board page
#: (index.html, and /join/...), the verifier (verify.html), the tutorial, the account and
#: players' pages, the position editor.
SCRIPTS = {
    "app": "/js/app.js",
    "verify": "/js/verify.js",
    "tutorial": "/js/tutorial.js",
    "account": "/js/account.js",
    "tournament": "/js/tournament.js",
    "editor": "/js/editor.js",
    "trainer": "/js/trainer.js",
}
#: The style sheets the pages name, in their order: the board page and the verifier, the
#: tutorial, the account and players' pages, the help, the tournaments' pages, the position
#: editor, the trainer.
STYLES = {
    "style": ("/css/style.css",),
    "tutorial": ("/css/style.css", "/css/tutorial.css"),
    "account": ("/help/help.css", "/css/account.css"),
    "help": ("/help/help.css",),
    "tournament": ("/help/help.css", "/css/account.css", "/css/tournament.css"),
    "editor": ("/css/style.css", "/css/editor.css"),
    "trainer": ("/css/style.css", "/css/trainer.css"),
}
#: The files the style sheets name in ``url()``, left for the browser to fetch as they are.
EXTERNAL = ("/fonts/*",)
#: What esbuild does to every bundle: one minified file, and its source map naming the files
#: without their text (the server sends them).
COMMON = [
    "--bundle", "--minify", "--sourcemap", "--sources-content=false",
    "--entry-names=[name]-[hash]", "--log-level=warning", "--charset=utf8",
    *(f"--external:{path}" for path in EXTERNAL),
]


class BundleError(Exception):
    """The bundles could not be built; the message says why and what to do."""


def esbuild_version(esbuild: Path = ESBUILD) -> str:
    """The version of the installed esbuild; a :class:`BundleError` if there is none."""
    if not esbuild.exists():
        raise BundleError(
            f"esbuild is not installed at {esbuild}: run `npm ci --prefix tests/web` "
            "(make bundle does)"
        )
    return subprocess.run(
        [str(esbuild), "--version"], check=True, capture_output=True, text=True
    ).stdout.strip()


def _esbuild(esbuild: Path, web: Path, entry: str, name: str, extra: list[str]) -> dict[str, Any]:
    """One bundle of ``entry`` built into ``web/dist``: its output and the files it read."""
    with tempfile.TemporaryDirectory() as scratch:
        meta = Path(scratch) / "meta.json"
        done = subprocess.run(
            [str(esbuild), entry, *COMMON, *extra, f"--outdir={DIST}", f"--metafile={meta}"],
            cwd=web, capture_output=True, text=True,
        )
        if done.returncode != 0:
            raise BundleError(f"esbuild failed on {name}:\n{done.stderr}")
        outputs: dict[str, Any] = json.loads(meta.read_text())["outputs"]
    for output, facts in outputs.items():
        if "entryPoint" in facts:
            file = Path(os.path.normpath(web / output))
            sources = sorted(
                path for path in facts["inputs"]
                if not path.startswith("..") and (web / path).is_file()
            )
            return {"file": "/" + file.relative_to(web).as_posix(), "sources": sources}
    raise BundleError(f"esbuild wrote no bundle for {name}")


def build(web: Path = WEB, esbuild: Path = ESBUILD) -> dict[str, Any]:
    """Build every bundle of the page's files in ``web`` into ``web/dist`` (emptied first),
    write its manifest, and return it."""
    version = esbuild_version(esbuild)
    dist = web / DIST
    shutil.rmtree(dist, ignore_errors=True)
    dist.mkdir()
    bundles = []
    for name, module in SCRIPTS.items():
        built = _esbuild(esbuild, web, module.lstrip("/"), name, ["--format=esm"])
        bundles.append({"replaces": [module], **built})
    with tempfile.TemporaryDirectory() as scratch:
        for name, sheets in STYLES.items():
            # One entry that imports the page's sheets in their order, named for the bundle.
            entry = Path(scratch) / f"{name}.css"
            entry.write_text("".join(
                f"@import {json.dumps(os.path.relpath(web / sheet.lstrip('/'), scratch))};\n"
                for sheet in sheets
            ))
            built = _esbuild(esbuild, web, str(entry), name, [])
            bundles.append({"replaces": list(sheets), **built})
    for bundle in bundles:
        bundle["digest"] = sources_digest(web, bundle["sources"])
    manifest = {
        "about": (
            f"Built by `make bundle` (tools/bundle.py) with esbuild {version}; the server "
            "names a bundle in place of what it replaces while its sources' digest matches."
        ),
        "bundles": bundles,
    }
    (dist / MANIFEST).write_text(json.dumps(manifest, indent=2) + "\n", encoding="utf-8")
    return manifest


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--web", type=Path, default=WEB, help="the page's files")
    parser.add_argument("--esbuild", type=Path, default=ESBUILD, help="the esbuild to run")
    options = parser.parse_args(argv)
    try:
        manifest = build(options.web, options.esbuild)
    except BundleError as error:
        print(f"bundle: {error}", file=sys.stderr)
        return 1
    for bundle in manifest["bundles"]:
        size = (options.web / bundle["file"].lstrip("/")).stat().st_size
        print(f"{bundle['file']:32} {size:7,} bytes  <- {', '.join(bundle['replaces'])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
