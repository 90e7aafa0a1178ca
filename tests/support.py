"""Helpers shared by the tests: random games, and legal plays checked against gnubg_nn."""

from __future__ import annotations

import io
import random
import threading
from collections.abc import Iterator
from typing import Any

import gnubg_nn

from backgammon import Position, Variant
from backgammon.analysis import Analyser
from backgammon.cli.interactive import Session
from backgammon.game import BoardGame, Phase
from backgammon.position import WinKind

Dice = tuple[int, int]


def random_turns(
    seed: int, games: int, variant: Variant | str = Variant.STANDARD
) -> Iterator[tuple[Position, Dice]]:
    """Positions and rolls of random games: a random legal play each turn, a pass on a dance."""
    rng = random.Random(seed)
    for _ in range(games):
        position = Position.initial(variant)
        while not position.is_game_over():
            dice = (rng.randint(1, 6), rng.randint(1, 6))
            yield position, dice
            plays = position.legal_plays(dice)
            position = rng.choice(plays).result if plays else position.flip()


def gnubg_key(result: Position) -> str:
    """gnubg's key of the board after a play: the mover's side second, as gnubg_nn.moves gives."""
    return gnubg_nn.key_of_board([list(result.mine[1:26]), list(result.theirs[1:26])])


def legal(position: Position, dice: Dice) -> set[str]:
    """Our legal plays in notation, after asserting that they are gnubg's plays for the roll."""
    plays = position.legal_plays(dice)
    keys = [gnubg_key(play.result) for play in plays]
    assert len(set(keys)) == len(keys), "two plays reach the same position"
    board = [list(position.theirs[1:26]), list(position.mine[1:26])]
    assert set(keys) == set(gnubg_nn.moves(board, *dice)), "not the plays gnubg finds"
    # The dice are a pair, not a sequence: their order must not matter.
    assert {gnubg_key(play.result) for play in position.legal_plays(dice[::-1])} == set(keys)
    texts = {str(play) for play in plays}
    assert len(texts) == len(plays), "two plays share one notation"
    return texts


def analyser_held_after_one(release: threading.Event) -> type[Analyser]:
    """An Analyser that, after its first decision, waits for ``release`` (at most 30 s) before
    going on: a test sees the progress of an analysis under way."""

    class Held(Analyser):
        def analyse(self, source: Any, progress: Any = None) -> Any:
            def held(done: int, total: int) -> None:
                progress(done, total)
                if done == 1:
                    release.wait(30)

            return super().analyse(source, held)

    return Held


def merged(held: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """A state whose record holds only the ``changes`` since an earlier one (``record_since``),
    laid over the record of ``held``, the state a page holds, as the page does (``api.js``)."""
    if changes["record_since"] is None:
        return changes
    assert held["version"] >= changes["record_since"]
    first = changes["record"][0]["number"]
    record = [game for game in held["record"] if game["number"] < first]
    for game in changes["record"]:
        old = next((each for each in held["record"] if each["number"] == game["number"]), None)
        kept = old["entries"][: game["first_entry"]] if old is not None else []
        record.append({**game, "entries": kept + game["entries"], "first_entry": 0})
    return {**changes, "record": record, "record_since": None}


def next_action(state: dict[str, Any]) -> dict[str, Any]:
    """A poor player's action in an API state: a roll or a confirm where offered, else the
    first step offered (so that an analysis finds mistakes)."""
    seat = state["to_act"] if state["to_act"] is not None else 0
    actions = state["actions"][seat]
    base = {"seat": seat, "version": state["version"]}
    if "roll" in actions:
        return {**base, "action": "roll"}
    if "confirm" in actions:
        return {**base, "action": "confirm"}
    step = state["steps"][0]
    return {**base, "action": "step", "from": step["from"], "to": step["to"]}


def said(table: Session) -> str:
    """Everything a terminal session has written."""
    assert isinstance(table.out, io.StringIO)
    return table.out.getvalue()


def feed(table: Session, script: str) -> str:
    """Hand each line of ``script`` to a terminal session, as its loop does; what it wrote
    for them."""
    before = len(said(table))
    for line in script.splitlines():
        table.handle(line)
    return said(table)[before:]


def play_board_game_at_random(
    game: BoardGame, rng: random.Random, undo: float = 0.0, resign: float = 0.0
) -> None:
    """Play one of the other games to its end at random: whole plays written out half the
    time, else step by step (each step taken back with the chance ``undo``); any double
    named; and with the chance ``resign`` at a roll, a resignation at a level the game
    scores, accepted one time in five."""
    while game.phase is not Phase.OVER:
        seat = game.player_to_act if game.player_to_act is not None else rng.randint(0, 1)
        if game.phase is Phase.RESIGN:
            (game.accept if rng.random() < 0.2 else game.reject)(seat)
        elif game.phase is Phase.ROLL and resign and rng.random() < resign:
            game.resign(seat, rng.choice((WinKind.SINGLE, WinKind.GAMMON)))
        elif game.phase in (Phase.OPENING, Phase.ROLL):
            game.roll(seat)
        elif game.phase is Phase.NAME:
            game.name(seat, rng.randint(1, 6))
        elif game.phase is Phase.MOVE and rng.random() < 0.5:
            assert game.turn is not None
            game.play(seat, str(rng.choice(game.turn.plays)))
        elif game.phase is Phase.MOVE:
            assert game.turn is not None
            game.step(seat, *rng.choice(game.turn.legal_steps()))
            if undo and rng.random() < undo:
                game.undo(seat)
        else:
            game.confirm(seat)
