"""The layers of the package import only downwards (docs/dev/architecture.md), and the core needs
nothing outside the standard library.

Each module's imports are read from its source (``ast``), at any depth (inside functions too,
where the command line imports the server lazily), so a new module is checked as soon as it
exists.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "backgammon"

#: The layers from the bottom up; a module may import its own layer and those below it.
LAYERS = ("core", "game", "formats", "bot", "training", "analysis", "server", "cli")
#: The layers that may import training, beside itself: it is the command line's alone, so that
#: playing, analysing and serving never depend on how the networks were made.
TRAINING_USERS = ("training", "cli")
#: The layers that may import the bot's modules; every other imports its face, the package
#: ``backgammon.bot`` alone, so that what lies behind it can change without touching them.
BOT_INSIDERS = ("bot", "training")

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
               "numpy", "jinja2", "markupsafe"},
    "cli": {"tqdm", "uvicorn", "numpy"},
}


def layer_of(module: str) -> str:
    """The layer of a module named from the package root (``bot.search``, ``game``)."""
    top = module.split(".")[0]
    if top in ("game", "match"):
        return "game"
    if top in ("formats", "bot", "training", "analysis", "server", "cli"):
        return top
    if top == "web":
        return "server"
    return "core"


def modules() -> list[tuple[str, Path]]:
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE).with_suffix("")
        parts = [p for p in relative.parts if p != "__init__"]
        if parts and parts[0] == "server" and "migrations" in parts:
            continue  # Alembic's scripts run under Alembic, not as the package's code
        found.append((".".join(parts) or "__init__", path))
    return found


def imports(name: str, path: Path) -> list[str]:
    """Every module ``path`` imports: package modules by their name from the package root,
    others by their top-level name prefixed with ``!``."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.startswith("backgammon."):
                    names.append(alias.name.removeprefix("backgammon."))
                else:
                    names.append("!" + alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
                names.append(target or "__init__")
            elif node.module and node.module.startswith("backgammon"):
                names.append(node.module.removeprefix("backgammon").lstrip(".") or "__init__")
            elif node.module and node.module != "__future__":
                names.append("!" + node.module.split(".")[0])
    return names


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
        assert not target.startswith("bot.") or layer in BOT_INSIDERS, (
            f"{name} ({layer}) imports {target}: outside the bot, import its face "
            "(backgammon.bot) only"
        )


def test_the_checker_sees_a_layer_violation() -> None:
    """The walk finds relative imports at any depth, so a violation cannot hide."""
    source = PACKAGE / "moves.py"
    found = imports("moves", source)
    assert "position" in found and "dice" in found
    assert layer_of("bot.search") == "bot" and layer_of("match") == "game"
    assert layer_of("training.generations") == "training"
    assert LAYERS.index(layer_of("server.app")) > LAYERS.index(layer_of("position"))
    plays = imports("analysis.reasons.plays", PACKAGE / "analysis" / "reasons" / "plays.py")
    assert "bot" in plays and not any(name.startswith("bot.") for name in plays)


def test_the_server_has_no_import_cycle() -> None:
    """No module of the server imports one that imports it back, however far round: each
    imports the sibling module that defines a name, and a package's ``__init__`` re-exports
    at most (so a module named through its package, ``from ..play import computer``, is the
    module, not the package's ``__init__``)."""
    server = {name: path for name, path in modules() if name.split(".")[0] == "server"}
    graph: dict[str, set[str]] = {}
    for name, path in server.items():
        found = set()
        tree = ast.parse(path.read_text(encoding="utf-8"))
        package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[: len(package) - node.level + 1]
                target = ".".join([*base, node.module] if node.module else base)
                named = {f"{target}.{alias.name}" for alias in node.names} & server.keys()
                found |= named or ({target} & server.keys())
        graph[name] = found
    for start in graph:
        seen: set[str] = set()
        ahead = list(graph[start])
        while ahead:
            name = ahead.pop()
            assert name != start, f"{start} imports itself back, through {sorted(seen)}"
            if name not in seen:
                seen.add(name)
                ahead.extend(graph[name])


#: The most lines a function of the server may have: a longer one is split into named steps.
LONGEST_FUNCTION = 60


def test_no_function_of_the_server_is_longer_than_a_screen() -> None:
    long = []
    for name, path in modules():
        if name.split(".")[0] != "server":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > LONGEST_FUNCTION:
                    long.append(f"{name}.{node.name} ({lines} lines)")
    assert long == []
