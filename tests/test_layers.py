"""The layers of the package import only downwards (docs/dev/architecture.md), and the core needs
nothing outside the standard library.

Each module's imports are read from its source (``ast``), at any depth (inside functions too,
where the command line imports the server lazily), so a new module is checked as soon as it
exists.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "backgammon"

#: The layers from the bottom up; a module may import its own layer and those below it.
LAYERS = ("core", "game", "formats", "bot", "training", "analysis", "server", "cli")
#: The layers that may import training, beside itself: it is the command line's alone, so that
#: playing, analysing and serving never depend on how the networks were made.
TRAINING_USERS = ("training", "cli")
#: The layers that may import the bot's modules; every other imports its faces alone, so that
#: what lies behind them can change without touching them.
BOT_INSIDERS = ("bot", "training")
#: The bot's faces: ``backgammon.bot``, backgammon's engine, and ``backgammon.bot.games``,
#: the computer players of the other games (:mod:`backgammon.games`).
BOT_FACES = ("bot", "bot.games")

#: What each layer may import from outside the standard library.
THIRD_PARTY = {
    "core": set(),
    "game": set(),
    "formats": set(),
    "bot": {"numpy", "numba", "tqdm", "ray"},
    "training": {"numpy", "numba", "tqdm"},
    "analysis": {"numpy", "tqdm"},
    "server": {"fastapi", "pydantic", "pydantic_core", "starlette", "uvicorn", "sqlalchemy",
               "alembic", "limits", "slowapi", "argon2", "redis", "psycopg", "psycopg_pool",
               "numpy", "jinja2", "markupsafe", "fsrs"},
    "cli": {"tqdm", "uvicorn", "numpy"},
}


def layer_of(module: str) -> str:
    """The layer of a module named from the package root (``bot.search``, ``game``)."""
    top = module.split(".")[0]
    if top == "game":
        return "game"
    if top in ("formats", "bot", "training", "analysis", "server", "cli"):
        return top
    if top == "web":
        return "server"
    return "core"


def modules(root: Path = PACKAGE) -> list[tuple[str, Path]]:
    """Every module under ``root``, named from it (``game.record``; ``__init__`` for the root)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        relative = path.relative_to(root).with_suffix("")
        parts = [p for p in relative.parts if p != "__init__"]
        if parts and parts[0] == "server" and "migrations" in parts:
            continue  # Alembic's scripts run under Alembic, not as the package's code
        found.append((".".join(parts) or "__init__", path))
    return found


def imports(name: str, path: Path) -> list[str]:
    """Every module ``path`` imports: package modules by their name from the package root,
    others by their top-level name prefixed with ``!``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = _package_of(name, path)
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("backgammon."):
                    names.append(alias.name.removeprefix("backgammon."))
                else:
                    names.append("!" + alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            source = _source_of(node, package)
            if source is not None:
                names.append(source)
            elif node.module and node.module != "__future__":
                names.append("!" + node.module.split(".")[0])
    return names


def _package_of(name: str, path: Path) -> list[str]:
    """The package a module's relative imports start from: itself when it is an ``__init__``."""
    return name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]


def _source_of(node: ast.ImportFrom, package: list[str]) -> str | None:
    """The package module a ``from ... import`` reads from, named from the package root, or
    None when it is outside the package."""
    if node.level:
        base = package[: len(package) - node.level + 1]
        return ".".join([*base, node.module] if node.module else base) or "__init__"
    if node.module and node.module.startswith("backgammon"):
        return node.module.removeprefix("backgammon").lstrip(".") or "__init__"
    return None


@pytest.mark.parametrize(("name", "path"), modules(), ids=[name for name, _ in modules()])
def test_imports_go_down(name: str, path: Path) -> None:
    if name == "__init__":
        return  # the flat public API re-exports the core
    layer = layer_of(name)
    for target in imports(name, path):
        if target.startswith("!"):
            top = target[1:]
            if top in sys.stdlib_module_names or top == "backgammon":
                continue
            assert top in THIRD_PARTY[layer], f"{name} ({layer}) imports {top}"
            continue
        if target == "__init__":
            continue
        assert LAYERS.index(layer_of(target)) <= LAYERS.index(layer), (
            f"{name} ({layer}) imports {target} ({layer_of(target)}), a layer above it"
        )
        assert layer_of(target) != "training" or layer in TRAINING_USERS, (
            f"{name} ({layer}) imports {target}: training is the command line's alone"
        )
        assert not target.startswith("bot.") or target in BOT_FACES \
            or layer in BOT_INSIDERS, (
            f"{name} ({layer}) imports {target}: outside the bot, import its faces "
            "(backgammon.bot, backgammon.bot.games) only"
        )


def test_the_checker_sees_a_layer_violation() -> None:
    """The walk finds relative imports at any depth, so a violation cannot hide."""
    source = PACKAGE / "moves.py"
    found = imports("moves", source)
    assert "position" in found and "dice" in found
    assert layer_of("bot.search") == "bot" and layer_of("game.match") == "game"
    assert layer_of("training.generations") == "training"
    assert LAYERS.index(layer_of("server.app")) > LAYERS.index(layer_of("position"))
    plays = imports("analysis.reasons.plays", PACKAGE / "analysis" / "reasons" / "plays.py")
    assert "bot" in plays and not any(name.startswith("bot.") for name in plays)



# Import cycles. A cycle among the imports that run when a module is first imported makes the
# result depend on which module is imported first (a name read from a half-run module is not
# there yet), so none may exist; a function's own imports run later and are how one is broken.


def _run_on_import(body: list[ast.stmt]) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements of ``body`` that run when the module is imported: at the top level
    and in its blocks (``try``, ``if``, class bodies), not in functions, and not under ``if
    TYPE_CHECKING:``, which only type checkers read."""
    for node in body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from _run_on_import(node.orelse)
        else:
            for block in ("body", "orelse", "finalbody", "handlers"):
                yield from _run_on_import(getattr(node, block, []))


def _ancestors(name: str) -> list[str]:
    """The packages that importing ``name`` runs first, outermost first (the root, ``__init__``,
    always)."""
    parts = name.split(".") if name != "__init__" else []
    return ["__init__", *(".".join(parts[:i]) for i in range(1, len(parts)))]


def imports_on_import(name: str, path: Path, known: set[str]) -> set[str]:
    """The package modules that importing module ``name`` imports in turn (names as
    ``modules()`` gives them; ``known`` is the set of them).

    ``from pkg import sub`` imports the submodule ``pkg.sub``, and reads ``pkg`` itself only
    for names that are not submodules. Importing ``a.b`` runs ``a`` first, except where ``a``
    encloses ``name``: Python has begun it before ``name``, so that is no edge back.
    """
    package = _package_of(name, path)
    targets: set[str] = set()
    for node in _run_on_import(ast.parse(path.read_text(encoding="utf-8")).body):
        if isinstance(node, ast.Import):
            targets.update(alias.name.removeprefix("backgammon.") for alias in node.names
                           if alias.name.startswith("backgammon."))
            continue
        source = _source_of(node, package)
        if source is None:
            continue
        prefix = "" if source == "__init__" else source + "."
        submodules = {prefix + alias.name for alias in node.names} & known
        targets |= submodules
        if len(submodules) < len(node.names):
            targets.add(source)
    enclosing = set(_ancestors(name))
    implied = {a for target in targets for a in _ancestors(target) if a not in enclosing}
    return (targets | implied) - {name}


def import_graph(root: Path = PACKAGE) -> dict[str, set[str]]:
    """Each module under ``root`` and the modules it imports as it is imported."""
    found = modules(root)
    known = {name for name, _ in found}
    return {name: imports_on_import(name, path, known) & known for name, path in found}


def import_cycles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of ``graph`` with more than one module (each holds at
    least one cycle), by Tarjan's algorithm."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[set[str]] = []

    def visit(module: str) -> None:
        order[module] = low[module] = len(order)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in order:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], order[target])
        if low[module] == order[module]:
            component: set[str] = set()
            while not component or module not in component:
                component.add(stack.pop())
            if len(component) > 1:
                cycles.append(component)

    for module in sorted(graph):
        if module not in order:
            visit(module)
    return cycles


def test_no_import_cycles() -> None:
    cycles = [sorted(cycle) for cycle in import_cycles(import_graph())]
    assert not cycles, f"modules that import each other as they are imported: {cycles}"


def test_the_checker_sees_an_import_cycle(tmp_path: Path) -> None:
    """A cycle through a sibling is found; imports in functions or under TYPE_CHECKING are not
    part of one, and neither is a submodule's own package."""
    (tmp_path / "__init__.py").write_text("from .a import A\n")
    (tmp_path / "a.py").write_text("from .b import B\nA = 1\n")
    (tmp_path / "b.py").write_text("from . import a\nB = 2\n")
    (tmp_path / "c.py").write_text(
        "from typing import TYPE_CHECKING\nfrom .a import A\n"
        "if TYPE_CHECKING:\n    from .d import D\n"
    )
    (tmp_path / "d.py").write_text("def f():\n    from .c import C\nD = 4\n")
    graph = import_graph(tmp_path)
    assert graph["c"] == {"a"} and graph["d"] == set()
    assert import_cycles(graph) == [{"a", "b"}]


#: The most lines a function may have: a longer one is split into named steps.
LONGEST_FUNCTION = 60
#: Compiled kernels kept whole: split into helpers, even inlined ones, move generation ran
#: slower, backgammon's about 15% and the other games' (boards._generate) 30-50% (the
#: comments above them say how).
LONG_KERNELS = {"bot.kernel.movegen._doubles", "bot.kernel.movegen._non_doubles",
                "bot.kernel.boards._generate"}


def test_no_function_is_longer_than_a_screen() -> None:
    long = []
    for name, path in modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > LONGEST_FUNCTION and f"{name}.{node.name}" not in LONG_KERNELS:
                    long.append(f"{name}.{node.name} ({lines} lines)")
    assert long == []


#: The most lines a module may have, the package's and the page's scripts alike (docs: "split
#: past ~600"): a longer one is split into modules named for what they hold, as app.js and
#: editor.js were.
LONGEST_MODULE = 600
PAGE_SCRIPTS = PACKAGE / "web" / "js"


def test_no_module_is_longer_than_the_bar() -> None:
    scripts = sorted(PAGE_SCRIPTS.glob("*.js"))
    assert scripts, f"no page scripts found in {PAGE_SCRIPTS}"
    long = []
    for path in scripts + [path for _, path in modules()]:
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > LONGEST_MODULE:
            long.append(f"{path.relative_to(PACKAGE)} ({lines} lines)")
    assert long == []
