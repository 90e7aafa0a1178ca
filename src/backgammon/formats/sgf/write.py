"""Writing a match as the ``.sgf`` text GNU Backgammon writes and loads (see the package's
notes on the format, and on what it cannot hold)."""

from __future__ import annotations

from typing import assert_never

from ...game import (
    Beavered,
    Doubled,
    Dropped,
    Game,
    GameEnded,
    OpeningRoll,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Taken,
    TurnPlayed,
    begun,
)
from ...game.match import Match
from ...position import Position
from .common import VARIANT_RULES, SgfFormatError


def export_sgf(match: Match | Game) -> str:
    """The match (or one game, as a one-game money session) as an ``.sgf`` text that GNU
    Backgammon loads with ``load match``: a game tree a game, the last one as far as it has
    gone. Raises :class:`SgfFormatError` for a game set up from another position than the
    variant's start, which a played match's record cannot hold.

    >>> from backgammon.dice import ManualDice
    >>> game = Game(dice=ManualDice(["6 1", "5 5"]))
    >>> game.roll(0); game.play(0, "13/7 8/7")
    >>> game.double(1); game.take(0); game.roll(1); game.resign(1); game.accept(0)
    >>> text = export_sgf(game)
    >>> print(text[:51])
    (;FF[4]GM[6]CA[UTF-8]AP[backgammon]MI[length:0][gam
    >>> print(text[text.index("[game"):])
    [game:0][ws:0][bs:0]PW[Player 0]PB[Player 1]RE[W+2R]
    ;W[61mghg]
    ;B[double]
    ;W[take]
    ;PL[B]DI[55])
    <BLANKLINE>
    """
    if isinstance(match, Game):
        games, length, players, crawford = [match], 0, ("Player 0", "Player 1"), False
    else:
        games, length = match.games, match.length
        players, crawford = match.players, match.crawford_rule and match.length > 1
    trees: list[str] = []
    score = [0, 0]
    for index, game in enumerate(games):
        if not begun(game) and index > 0:
            continue  # the empty game a session opens after each finished one
        if game.setup is not None or game.start != Position.initial(game.rules.variant):
            raise SgfFormatError(
                "The game starts from a set-up position; an .sgf match file records games "
                "from the variant's starting position.",
                index + 1,
            )
        root = (
            f"(;FF[4]GM[6]CA[UTF-8]AP[backgammon]MI[length:{length}][game:{len(trees)}]"
            f"[ws:{score[0]}][bs:{score[1]}]PW[{_escape(players[0])}]PB[{_escape(players[1])}]"
        )
        trees.append(root + _root_rules(game, crawford) + "".join(_nodes(game)) + ")\n")
        if game.result is not None:
            score[game.result.winner] += game.result.points
    return "".join(trees)


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("]", "\\]")


def _root_rules(game: Game, crawford: bool) -> str:
    """The rest of the root: ``RU``, ``CV`` (the automatic doubles) and ``RE``."""
    rules = game.rules
    names = []
    if not rules.cube:
        names.append("NoCube")
    if crawford:
        names.append("Crawford")
    if game.crawford:
        names.append("CrawfordGame")
    if rules.jacoby and not game.in_match:
        names.append("Jacoby")
    if rules.variant in VARIANT_RULES:
        names.append(VARIANT_RULES[rules.variant])
    out = f"RU[{':'.join(names)}]" if names else ""
    doubles = sum(
        1 for entry in game.history() if isinstance(entry, OpeningRoll) and entry.automatic_double
    )
    if doubles:
        out += f"CV[{1 << doubles}]"
    result = game.result
    if result is not None:
        # A claim is scored as the absent side's resignation would be.
        resigned = "R" if result.reason in ("resign", "claim") else ""
        out += f"RE[{'WB'[result.winner]}+{result.points}{resigned}]"
    return out


def _nodes(game: Game) -> list[str]:
    """A node for each play and cube action of the game, from its history."""
    nodes = []
    history = list(game.history())
    for index, entry in enumerate(history):
        colour = "WB"[entry.seat]
        match entry:
            case Rolled():
                later = (e for e in history[index + 1 :] if isinstance(e, (Rolled, TurnPlayed)))
                if not isinstance(next(later, None), TurnPlayed):
                    # Rolled and never played (the player resigned): gnubg's set-dice node.
                    nodes.append(f"\n;PL[{colour}]DI[{entry.dice[0]}{entry.dice[1]}]")
            case TurnPlayed():
                dice = f"{entry.dice[0]}{entry.dice[1]}"
                steps = "".join(_letter(p, entry.seat) for s in entry.play.steps for p in s[:2])
                nodes.append(f"\n;{colour}[{dice}{steps}]")
            case Doubled() | Beavered():
                nodes.append(f"\n;{colour}[double]")  # gnubg's record of a beaver: a double
            case Taken():
                nodes.append(f"\n;{colour}[take]")
            case Dropped():
                nodes.append(f"\n;{colour}[drop]")
            case (OpeningRoll() | ResignationOffered() | ResignationAccepted()
                  | ResignationRejected() | GameEnded()):
                pass  # the game's root node holds the result; the rest has no node
            case _:
                assert_never(entry)
    return nodes


def _letter(point: int, seat: int) -> str:
    """A point of the mover's (25 the bar, 0 off) as the file's letter."""
    if point == 25:
        return "y"
    if point == 0:
        return "z"
    return chr(ord("a") + (point - 1 if seat == 0 else 24 - point))
