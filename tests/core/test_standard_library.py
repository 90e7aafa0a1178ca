"""``pip install backgammon`` alone gives the rules, the game, matches and the formats: none of
them imports anything beyond the standard library, at import time or while playing.

A fresh interpreter (no site-packages) is started with every non-standard module refused; it
plays a seeded match to the end and writes and reads it in the formats.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

#: Refuses every import that is neither the standard library nor the package itself.
GUARD = textwrap.dedent(
    """
    import sys

    class Refuse:
        def find_spec(self, name, path=None, target=None):
            top = name.split(".")[0]
            if top in sys.stdlib_module_names or top == "backgammon":
                return None
            raise ModuleNotFoundError(f"{name} is not in the standard library", name=name)

    sys.meta_path.insert(0, Refuse())
    sys.path.insert(0, SRC)
    """
)

PLAY = textwrap.dedent(
    """
    import random

    from backgammon import Position
    from backgammon.dice import SeededDice
    from backgammon.formats.ids import gnubg_id_of, xgid_of
    from backgammon.formats.mat import export_mat, import_mat
    from backgammon.formats.sgf import export_sgf, import_sgf
    from backgammon.game import Act, Action, Phase
    from backgammon.game.match import Match

    choose = random.Random(3)
    match = Match(3, dice=SeededDice(11), players=("Alice", "Bob"))
    while not match.is_over:
        game = match.game
        seat = game.player_to_act
        seat = choose.randrange(2) if seat is None else seat
        if Action.PLAY in game.legal_actions(seat):
            play = choose.choice(game.position.legal_plays(game.dice))
            game.act(seat, Act(Action.PLAY, play=play))
        else:
            game.act(seat, Act(Action.ROLL))
    text = export_mat(match)
    assert export_mat(import_mat(text)) == text
    assert import_sgf(export_sgf(match)).score == match.score
    print(xgid_of(match), gnubg_id_of(match))
    loaded = {name.split(".")[0] for name in sys.modules} - {"__main__"}
    print(sorted(loaded - set(sys.stdlib_module_names)))
    """
)


def run_guarded(code: str) -> subprocess.CompletedProcess[str]:
    """``code`` run in a fresh interpreter that sees the package's sources and the standard
    library alone."""
    return subprocess.run(
        [sys.executable, "-I", "-S", "-c", f"SRC = {str(SRC)!r}" + GUARD + code],
        capture_output=True, text=True, timeout=300,
    )


def test_the_rules_game_and_formats_need_only_the_standard_library() -> None:
    result = run_guarded(PLAY)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == "['backgammon']"


def test_the_guard_refuses_what_is_not_standard() -> None:
    """The check cannot pass vacuously: the same guard stops the bot from importing."""
    result = run_guarded("import backgammon.bot")
    assert result.returncode != 0
    assert "numpy is not in the standard library" in result.stderr


def test_the_command_line_without_the_bot_says_what_to_install() -> None:
    result = run_guarded("import backgammon.cli")
    assert result.returncode == 1
    assert "pip install 'backgammon[bot]'" in result.stderr
    assert "Traceback" not in result.stderr
