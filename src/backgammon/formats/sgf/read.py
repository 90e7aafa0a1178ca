"""Reading an ``.sgf`` file: its game trees replayed through a
:class:`~backgammon.game.match.Match`, so that the rules check every roll, play and cube action
(see the package's notes)."""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field

from ...cube import is_cube_value
from ...dice import ManualDice
from ...errors import BackgammonError
from ...game import Game, Phase, Rules
from ...game.match import Match
from ...moves import Step
from ...position import WinKind
from ...variants import Variant
from .common import VARIANT_RULES, Node, SgfFormatError
from .parse import parse_sgf

#: Properties of a node that set up a position or the cube, which a played match never has.
_SET_UP = {"AE", "AB", "AW", "CP", "CV"}


def import_sgf(text: str) -> Match:
    """The match an ``.sgf`` text records, rebuilt move by move through the rules.

    Refuses, with :class:`SgfFormatError` naming the game and node, a file that is not SGF,
    holds no backgammon game, sets up a position or dice instead of playing from the start,
    plays a variant this program does not have, or makes a move or cube action the rules do
    not allow.

    >>> import_sgf("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0]RE[W+1R];W[31hefe])").score
    (1, 0)
    >>> import_sgf("(;FF[4]GM[6]MI[length:1][game:0][ws:0][bs:0];W[31hefd])")
    Traceback (most recent call last):
    ...
    backgammon.formats.sgf.SgfFormatError: Game 1, node 2: White cannot play 8/5 6/4 with 3-1: ...
    """
    if not isinstance(text, str):
        raise SgfFormatError(f"An .sgf file is read as text; got {type(text).__name__}.")
    games = [_GameText.of(number, nodes) for number, nodes in enumerate(parse_sgf(text), 1)]
    return _Replay(games).match


def read_sgf(path: str | os.PathLike[str]) -> Match:
    """The match recorded in the ``.sgf`` file at ``path`` (UTF-8, as gnubg writes it; see
    :func:`import_sgf`)."""
    with open(path, "rb") as file:
        data = file.read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("latin-1")
    return import_sgf(text)


@dataclass
class _GameText:
    """One game tree, its root read."""

    number: int
    root: Node
    moves: list[tuple[int, Node]]
    length: int = 0
    score: tuple[int, int] = (0, 0)
    names: tuple[str, str] = ("", "")
    rules: set[str] = field(default_factory=set)
    automatic: int = 0
    result: tuple[int, int] | None = None

    @classmethod
    def of(cls, number: int, nodes: list[Node]) -> _GameText:
        root = nodes[0]
        if root.get("GM", ["1"])[0].strip() != "6":
            raise SgfFormatError("This is not a backgammon game (its root lacks GM[6]).", number)
        game = cls(number, root, list(enumerate(nodes[1:], 2)))
        info: dict[str, str] = {}
        for item in root.get("MI", []):
            key, _, value = item.partition(":")
            info[key.strip()] = value.strip()
        game.length = game._number(info.get("length", "0"), "the match length")
        game.score = (
            game._number(info.get("ws", "0"), "White's score"),
            game._number(info.get("bs", "0"), "Black's score"),
        )
        game.names = (root.get("PW", [""])[0].strip(), root.get("PB", [""])[0].strip())
        game.rules = {rule for value in root.get("RU", []) for rule in value.split(":") if rule}
        if "CV" in root:
            cube = game._number(root["CV"][0], "the cube value (CV)")
            if not is_cube_value(cube):
                raise SgfFormatError(f"CV is a power of two; got {cube}.", number, 1)
            game.automatic = cube.bit_length() - 1
        if "RE" in root:
            game.result = game._result(root["RE"][0])
        return game

    def _number(self, text: str, what: str) -> int:
        if not text.isascii() or not text.isdigit():
            raise SgfFormatError(f"{what} is a whole number; got {text!r}.", self.number, 1)
        return int(text)

    def _result(self, text: str) -> tuple[int, int] | None:
        """``RE``: the winner and the points (None: no result). Its ``R`` (the loser
        resigned) is not needed: a game the moves do not end was ended by a resignation."""
        text = text.strip()
        if not text or text[0].upper() not in "WB" or text[1:2] != "+":
            return None  # "?", "0", "Void": no winner to check
        digits = "".join(c for c in text[2:] if c.isdigit())
        return (0 if text[0].upper() == "W" else 1, max(int(digits or "1"), 1))


_COLOURS = ("White", "Black")


class _Replay:
    """Plays the games of a file through a :class:`Match`, node by node."""

    def __init__(self, games: list[_GameText]) -> None:
        first = games[0]
        self.dice = ManualDice()
        money = first.length == 0
        variant = next(
            (variant for variant, name in VARIANT_RULES.items() if name in first.rules),
            Variant.STANDARD,
        )
        if first.rules & {"Hypergammon1", "Hypergammon2"}:
            raise SgfFormatError(
                "Hypergammon with one or two checkers is not a variant this program plays.", 1, 1
            )
        moves = [node for game in games for _, node in game.moves]
        rules = Rules(
            variant=variant,
            cube="NoCube" not in first.rules,
            jacoby=money and "Jacoby" in first.rules,
            beavers=money and _shows_beaver(moves),
            automatic_doubles=max(game.automatic for game in games) if money else 0,
            opening_reroll=any(_fresh_opening_roll(game) for game in games),
        )
        names = tuple(name or f"Player {seat}" for seat, name in enumerate(first.names))
        if first.score != (0, 0):
            raise SgfFormatError(
                f"The first game starts at {first.score[0]}-{first.score[1]}; a file must "
                "hold the match from its first game.",
                1,
                1,
            )
        try:
            self.match = Match(
                first.length,
                rules,
                self.dice,
                players=(names[0], names[1]),
                crawford="Crawford" in first.rules or first.length == 0,
            )
        except BackgammonError as exc:
            raise SgfFormatError(str(exc), 1, 1) from exc
        for index, game_text in enumerate(games):
            if index >= len(self.match.games):
                raise SgfFormatError(
                    f"The match is over at {self._score()}, but the file goes on.", index + 1
                )
            game = self.match.games[index]
            if game_text.score != self.match.score or game_text.length != first.length:
                raise SgfFormatError(
                    f"The game is of a {game_text.length}-point match at "
                    f"{game_text.score[0]}-{game_text.score[1]}, but the games before it make "
                    f"a {first.length}-point match at {self._score()}.",
                    game_text.number,
                    1,
                )
            self._play(game, game_text, last=index == len(games) - 1)

    def _score(self) -> str:
        return f"{self.match.score[0]}-{self.match.score[1]}"

    def _play(self, game: Game, text: _GameText, last: bool) -> None:
        for number, node in text.moves:
            try:
                self._node(game, text, number, node)
            except SgfFormatError:
                raise
            except BackgammonError as exc:
                raise SgfFormatError(str(exc), text.number, number) from exc
        self._end(game, text, last)

    def _node(self, game: Game, text: _GameText, number: int, node: Node) -> None:
        set_up = sorted(_SET_UP & node.keys())
        if set_up:
            raise SgfFormatError(
                f"The node sets up {', '.join(set_up)}; only matches played from the start "
                "are read.",
                text.number,
                number,
            )
        if "DI" in node:
            # gnubg's record of dice rolled and never played (the player resigned): the
            # player to act (PL) and the dice (DI).
            player = node.get("PL", ["W" if game.on_roll == 0 else "B"])[0].strip().upper()
            self._roll(game, 0 if player == "W" else 1, node["DI"][0].strip(), text, number)
            return
        if "PL" in node:
            raise SgfFormatError(
                "The node sets up the player on roll; only matches played from the start are "
                "read.",
                text.number,
                number,
            )
        colours = [name for name in ("W", "B") if name in node]
        if not colours:
            return  # a comment or analysis alone
        seat = 0 if colours[0] == "W" else 1
        value = node[colours[0]][0].strip()
        if game.phase is Phase.OVER:
            raise SgfFormatError(f"{value!r} comes after the game is over.", text.number, number)
        if value == "double":
            if game.offer is not None and seat == game.offer.decider:
                game.beaver(seat)  # gnubg's record of a beaver: the taker doubles again
            else:
                self._open(game, seat, text.automatic)
                game.double(seat)
        elif value == "take":
            game.take(seat)
        elif value in ("drop", "pass"):
            game.drop(seat)
        else:
            self._roll(game, seat, value, text, number)

    def _open(self, game: Game, seat: int, ties: int) -> None:
        """The opening roll, if the game waits for it: ``ties`` tied rolls (the automatic
        doubles), then one that ``seat`` wins, with its dice where the winner plays them."""
        if game.phase is not Phase.OPENING:
            return
        self._ties(game, ties)
        # The file does not keep the opening dice here: any two that make ``seat`` the winner.
        self.dice.enter((2, 1) if seat == 0 else (1, 2))
        game.roll(seat)

    def _ties(self, game: Game, ties: int) -> None:
        """The tied opening rolls that made the game's automatic doubles."""
        for _ in range(ties):
            self.dice.enter((1, 1))
            game.roll(0)

    def _roll(self, game: Game, seat: int, value: str, text: _GameText, number: int) -> None:
        colour = _COLOURS[seat]
        if len(value) < 2 or not all(c in "123456" for c in value[:2]) or len(value) % 2:
            raise SgfFormatError(
                f"{colour}'s move {value!r} is not two dice and pairs of points.",
                text.number,
                number,
            )
        dice = (int(value[0]), int(value[1]))
        high, low = max(dice), min(dice)
        if game.phase is Phase.OPENING and not game.rules.opening_reroll:
            # (A first roll of doubles made the rules give the winner a fresh roll.) The
            # opening roll is one die each, (seat 0's, seat 1's): the mover's was higher.
            self._ties(game, text.automatic)
            self.dice.enter((high, low) if seat == 0 else (low, high))
        else:
            self._open(game, seat, text.automatic)
            self.dice.enter(dice)
        game.roll(seat)
        steps = [_step(value[i : i + 2], seat) for i in range(2, len(value), 2)]
        if None in steps:
            raise SgfFormatError(
                f"{colour}'s move {value!r} names a point outside a..z.", text.number, number
            )
        play = " ".join(f"{step.from_point}/{step.to_point}" for step in steps if step)
        if game.phase is not Phase.MOVE:
            if play:
                raise SgfFormatError(
                    f"{high}-{low} has no legal move here, but {colour} plays {play}.",
                    text.number,
                    number,
                )
            return
        if play:
            try:
                game.play(seat, play)
            except BackgammonError as exc:
                raise SgfFormatError(
                    f"{colour} cannot play {play} with {dice[0]}-{dice[1]}: {exc}",
                    text.number,
                    number,
                ) from exc
        # No steps where the roll has a play: the player rolled, then resigned (the result
        # says so), or the file stops here.

    def _end(self, game: Game, text: _GameText, last: bool) -> None:
        """Check the game's end against ``RE``, or end it so where the loser resigned."""
        result = text.result
        if result is None:
            if game.result is None and not last:
                raise SgfFormatError(
                    "The game has no result (RE) and is not finished, yet another follows.",
                    text.number,
                    1,
                )
            return
        winner, points = result
        if game.result is None:
            level = next((k for k in WinKind if game.points_for(k) == points), None)
            if level is None:
                raise SgfFormatError(
                    f"{_COLOURS[winner]} cannot win {points} points with the cube at "
                    f"{game.cube_value}.",
                    text.number,
                    1,
                )
            try:
                self._open(game, 1 - winner, text.automatic)
                game.resign(1 - winner, level)
                game.accept(winner)
            except BackgammonError as exc:
                raise SgfFormatError(
                    f"{_COLOURS[1 - winner]} cannot resign here: {exc}", text.number, 1
                ) from exc
            return
        ended = game.result
        # A result may give the game its plain worth where the Jacoby rule made it a single
        # game (gnubg's .mat files do so); the points the rules give are kept.
        worth = (ended.points, game.cube_value * int(ended.kind))
        if ended.winner != winner or points not in worth:
            raise SgfFormatError(
                f"The result says {_COLOURS[winner]} won {points}, but by the moves "
                f"{_COLOURS[ended.winner]} won {ended.points}.",
                text.number,
                1,
            )


def _step(pair: str, seat: int) -> Step | None:
    """A checker step from two letters, on the mover's own point numbers (25 the bar, 0 off);
    None for a letter outside ``a``..``z``."""
    points = []
    for letter in pair:
        if letter == "y":
            points.append(25)
        elif letter == "z":
            points.append(0)
        elif "a" <= letter <= "x":
            index = ord(letter) - ord("a")
            points.append(index + 1 if seat == 0 else 24 - index)
        else:
            return None
    return Step(points[0], points[1])


def _shows_beaver(nodes: list[Node]) -> bool:
    """Whether the moves hold a beaver: a double answered by the other player's double."""
    moves = [
        (colour, node[colour][0].strip())
        for node in nodes
        for colour in ("W", "B")
        if colour in node
    ]
    return any(
        first[1] == second[1] == "double" and first[0] != second[0]
        for first, second in itertools.pairwise(moves)
    )


def _fresh_opening_roll(game: _GameText) -> bool:
    """Whether the game shows that the opening roll's winner rolls afresh: only then can its
    first move be doubles, or a double come before it."""
    for _, node in game.moves:
        for name in ("W", "B"):
            if name in node:
                value = node[name][0].strip()
                doubles = len(value) >= 2 and value[0] == value[1] and value[0] in "123456"
                return doubles or value == "double"
    return False
