"""Reading a ``.mat`` file: its entries (:mod:`.parse`) replayed through a
:class:`~backgammon.game.match.Match`, so that the rules check every move and cube action, and what
the headers leave out inferred from the games (see the package's notes)."""

from __future__ import annotations

import itertools
import os
from dataclasses import dataclass

from ...dice import ManualDice
from ...errors import BackgammonError
from ...game import Game, Phase, Rules
from ...game.match import Match
from ...position import WinKind
from ...variants import Variant
from .common import VARIATIONS, MatFormatError
from .parse import Cell, GameText, MatText, parse

_ON = {
    **dict.fromkeys(("on", "yes", "true", "1"), True),
    **dict.fromkeys(("off", "no", "false", "0"), False),
}


@dataclass(frozen=True)
class MatWarning:
    """Something in a ``.mat`` file that is wrong but that the moves make good: a game's
    points that the rules do not give (the rules' value is used). ``line`` is the line at
    fault (1 for the first)."""

    line: int
    message: str

    def __str__(self) -> str:
        return f"Line {self.line}: {self.message}"


class _JacobyRetry(Exception):
    """The points written fit the other setting of the Jacoby rule, which no header names:
    read the file again with it."""

    def __init__(self, jacoby: bool) -> None:
        super().__init__(jacoby)
        self.jacoby = jacoby


def import_mat(text: str, warnings: list[MatWarning] | None = None) -> Match:
    """The match a ``.mat`` text records, rebuilt move by move through the rules.

    Reads what GNU Backgammon, Jellyfish and eXtreme Gammon write: header comments in any
    order or none, Windows line ends, blank lines, names with spaces, ``bar``/``25`` and
    ``off``/``0``, hits marked or not, a checker's moves chained (``13/8/5``) or one die at a
    time, a turn's two entries on one line or on lines of their own, and games without their
    closing ``Wins`` line. Anything it cannot read, or that the rules refuse, raises
    :class:`MatFormatError` naming the line.

    It reads the online sites' dialects too. Backgammon Galaxy's ``Losses N points`` in the
    loser's column (beside the ``Wins`` line, after the last move, or on a line of its own)
    says who won where no ``Wins`` line does and is checked against it where one does. A
    game's points written capped at what ended the match (a gammon worth 8 written 7 when 7
    points won it), as Galaxy and Backgammon Studio write them, are the sites' convention and
    are read silently. Other points that the rules do not give (``Wins 4016 points``) are
    read past, the rules' value used, with a :class:`MatWarning` appended to ``warnings``
    where a list is given.

    >>> match = import_mat('''
    ...  1 point match
    ...
    ...  Game 1
    ...  Ann Lee : 0                    Bob : 0
    ...   1) 31: 8/5 6/5                 42: 8/4 6/4
    ...                                   Wins 1 point
    ... ''')
    >>> match.players, match.score, match.game.result.reason
    (('Ann Lee', 'Bob'), (0, 1), 'resign')
    >>> import_mat(" 3 point match\\n Game 1\\n A : 0  B : 0\\n  1) 31: 8/4 6/5\\n")
    Traceback (most recent call last):
    ...
    backgammon.formats.mat.MatFormatError: Line 4: seat 0 cannot play '8/4 6/5' with 3-1: ...
    """
    if not isinstance(text, str):
        raise MatFormatError(None, f"A .mat file is read as text; got {type(text).__name__}.")
    parsed = parse(text)
    try:
        replay = _Replay(parsed, jacoby=None)
    except _JacobyRetry as retry:
        replay = _Replay(parsed, jacoby=retry.jacoby)
    if warnings is not None:
        warnings.extend(replay.warnings)
    return replay.match


def read_mat(
    path: str | os.PathLike[str], warnings: list[MatWarning] | None = None
) -> Match:
    """The match recorded in the ``.mat`` file at ``path`` (see :func:`import_mat`; its
    warnings go to ``warnings``).

    The file is read as UTF-8 (a byte order mark is skipped), or as Windows-1252 where it is
    not UTF-8, as older programs wrote it.

    >>> import tempfile, pathlib
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = pathlib.Path(folder) / "m.mat"
    ...     _ = path.write_bytes(b" 0 point match\\r\\n\\r\\n Game 1\\r\\n A : 0  B : 0\\r\\n")
    ...     read_mat(path).length
    0
    """
    with open(path, "rb") as file:
        data = file.read()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252", errors="replace")
    return import_mat(text, warnings)



def _rules(parsed: MatText, jacoby: bool | None) -> tuple[Rules, bool]:
    """The rules and the Crawford setting that the headers name or the games show."""
    headers = parsed.headers
    money = parsed.length == 0

    def flag(name: str, default: bool) -> bool:
        if name not in headers:
            return default
        line, value = headers[name]
        if value.lower() not in _ON:
            raise MatFormatError(line, f"[{name}] should be \"On\" or \"Off\"; got {value!r}.")
        return _ON[value.lower()]

    variant = Variant.STANDARD
    if "variation" in headers:
        line, value = headers["variation"]
        name = " ".join(value.lower().split())
        if name not in VARIATIONS:
            raise MatFormatError(
                line, f"The variation {value!r} is not one this program plays."
            )
        variant = VARIATIONS[name]
    cube, max_cube = True, None
    if "cubelimit" in headers:
        line, value = headers["cubelimit"]
        if not value.isdigit() or int(value) < 1:
            raise MatFormatError(line, f"The cube limit should be a number; got {value!r}.")
        cube = int(value) > 1
        max_cube = int(value) if cube else None
    firsts = [game.cells[0] for game in parsed.games if game.cells]
    # Only a fresh roll by the opening roll's winner can be doubles, or follow a double or a
    # resignation: the winner of a plain opening roll plays its two numbers at once.
    reroll = flag("openingreroll", False) or any(
        cell.kind in ("double", "win") or (cell.dice is not None and cell.dice[0] == cell.dice[1])
        for cell in firsts
    )
    # eXtreme Gammon writes [Beaver], others [Beavers]; without either, a beaver in the
    # games shows them on: "Beavers", or a double answered by a double (gnubg's record).
    named = [name for name in ("beaver", "beavers") if name in headers]
    if named:
        beavers = money and flag(named[0], False)
    else:
        beavers = money and any(_shows_beaver(game.cells) for game in parsed.games)
    # Without a header, first as GNU Backgammon plays money by default: with the rule.
    use_jacoby = money and (flag("jacoby", True) if jacoby is None else jacoby)
    try:
        rules = Rules(
            variant=variant,
            cube=cube,
            jacoby=use_jacoby,
            beavers=beavers,
            max_cube=max_cube,
            opening_reroll=reroll,
        )
    except BackgammonError as exc:
        at = headers["cubelimit"][0] if "cubelimit" in headers else None
        raise MatFormatError(at, str(exc)) from exc
    return rules, flag("crawford", True)


def _shows_beaver(cells: list[Cell]) -> bool:
    return any(cell.kind == "beaver" for cell in cells) or any(
        first.kind == second.kind == "double" for first, second in itertools.pairwise(cells)
    )


class _Replay:
    """Plays a parsed file's games through a :class:`Match`, entry by entry."""

    def __init__(self, parsed: MatText, jacoby: bool | None) -> None:
        self.parsed = parsed
        # The Jacoby rule may be inferred (and the file read again) only when no header says.
        self.jacoby_unknown = jacoby is None and parsed.length == 0 and (
            "jacoby" not in parsed.headers
        )
        rules, crawford = _rules(parsed, jacoby)
        self.warnings: list[MatWarning] = []
        self.dice = ManualDice()
        first = parsed.games[0] if parsed.games else None
        players = self._players(first)
        if first is not None and first.score != (0, 0):
            raise MatFormatError(
                first.score_line,
                f"The first game starts at {first.score[0]}-{first.score[1]}; matches here "
                "start at 0-0, so a file must hold the match from its first game.",
            )
        self.match = Match(parsed.length, rules, self.dice, players=players, crawford=crawford)
        for index, game_text in enumerate(parsed.games):
            if index >= len(self.match.games):
                if self.match.is_over and (max(game_text.score) >= parsed.length):
                    break  # GNU Backgammon too skips the games after the match is over
                raise MatFormatError(
                    game_text.line,
                    f"The match is over at {self._score()}, but the file goes on with "
                    "another game.",
                )
            self._check_score(game_text)
            # What the game starts at, and the score line after it: what its points are read by.
            self.start = self.match.score
            following = parsed.games[index + 1] if index + 1 < len(parsed.games) else None
            self.next_score = following.score if following is not None else None
            self._play_game(self.match.games[index], game_text)
            if index + 1 < len(parsed.games):
                self._close(self.match.games[index], game_text, parsed.games[index + 1])

    def _players(self, first: GameText | None) -> tuple[str, str]:
        names = []
        for seat in (0, 1):
            name = first.names[seat] if first is not None else ""
            if not name:
                name = self.parsed.headers.get(f"player {seat + 1}", (0, ""))[1]
            names.append(name or f"Player {seat}")
        return (names[0], names[1])

    def _score(self) -> str:
        return f"{self.match.score[0]}-{self.match.score[1]}"

    def _check_score(self, game_text: GameText) -> None:
        if game_text.score != self.match.score:
            raise MatFormatError(
                game_text.score_line,
                f"This game starts at {game_text.score[0]}-{game_text.score[1]}, but the "
                f"games before it make the score {self._score()}.",
            )

    def _close(self, game: Game, game_text: GameText, following: GameText) -> None:
        """End a game the file leaves unfinished, from the score the next game starts at."""
        gained = [following.score[seat] - game_text.score[seat] for seat in (0, 1)]
        if game.result is None:
            if sorted(gained) != [0, max(gained)] or max(gained) == 0:
                raise MatFormatError(
                    following.score_line,
                    "The game before this one is not finished, and this score does not say "
                    "who won it.",
                )
            winner = 0 if gained[0] else 1
            self._award(game, winner, gained[winner], following.score_line)
        elif following.score != self.match.score:
            self._jacoby_hint(game, gained[game.result.winner])
            self._check_score(following)

    def _play_game(self, game: Game, game_text: GameText) -> None:
        cells = game_text.cells
        # A "Losses" entry may stand before the winner's last move on its line: it is read
        # once the moves are played, at the "Wins" entry or at the end of the game.
        losses: list[Cell] = []
        for index, cell in enumerate(cells):
            following = cells[index + 1] if index + 1 < len(cells) else None
            if cell.kind == "loss":
                losses.append(cell)
                continue
            self._guarded(game, cell, following)
            if cell.kind == "win":
                for loss in losses:
                    self._guarded(game, loss, None)
                losses.clear()
        for loss in losses:
            self._guarded(game, loss, None)

    def _guarded(self, game: Game, cell: Cell, following: Cell | None) -> None:
        """Apply ``cell``, a refusal by the rules named with its line."""
        try:
            self._apply(game, cell, following)
        except MatFormatError:
            raise
        except BackgammonError as exc:
            seat = self._seat(game, cell)
            raise MatFormatError(
                cell.line, f"seat {seat} cannot {self._describe(cell)}: {exc}"
            ) from exc

    @staticmethod
    def _describe(cell: Cell) -> str:
        if cell.kind == "roll":
            assert cell.dice is not None
            roll = f"{cell.dice[0]}-{cell.dice[1]}"
            return f"play {cell.play!r} with {roll}" if cell.play else f"roll {roll}"
        return {
            "double": "double",
            "beaver": "beaver",
            "take": "take",
            "drop": "drop",
            "win": "win here",
        }.get(cell.kind, cell.kind)

    @staticmethod
    def _seat(game: Game, cell: Cell) -> int:
        """Whose entry: its column on a full line; for a lone entry, whoever must act."""
        if cell.seat is not None:
            return cell.seat
        phase = game.phase
        if cell.kind in ("roll", "double") and phase in (Phase.ROLL, Phase.CUBE):
            return game.on_roll
        if cell.kind in ("beaver", "take", "drop") and game.offer is not None:
            return game.offer.decider
        if cell.kind == "win" and game.result is not None:
            return game.result.winner
        if cell.kind == "loss" and game.result is not None:
            return 1 - game.result.winner
        return 1 if cell.right else 0

    def _apply(self, game: Game, cell: Cell, following: Cell | None) -> None:
        seat = self._seat(game, cell)
        if cell.kind == "resign":
            return  # the "Wins" line that follows tells the result
        if cell.kind in ("win", "loss"):
            assert cell.value is not None
            winner = seat if cell.kind == "win" else 1 - seat
            self._win(game, winner, cell.value, cell.line, claimed=cell.claimed)
            return
        if game.phase is Phase.OVER:
            raise MatFormatError(cell.line, f"{cell.text!r} comes after the game is over.")
        if cell.kind == "roll":
            self._roll(game, seat, cell, following)
        elif cell.kind == "double" and game.offer is not None and seat == game.offer.decider:
            game.beaver(seat)  # how GNU Backgammon records a beaver: a second double
            self._check_value(game, cell)
        elif cell.kind == "double":
            self._open(game, seat, cell)
            game.double(seat)
            self._check_value(game, cell)
        elif cell.kind == "beaver":
            game.beaver(seat)
            self._check_value(game, cell)
        elif cell.kind == "take":
            game.take(seat)
        elif cell.kind == "drop":
            game.drop(seat)

    def _open(self, game: Game, seat: int, cell: Cell) -> None:
        """Where the rules give the opening roll's winner a fresh roll, make ``seat`` it."""
        if game.phase is Phase.OPENING and game.rules.opening_reroll:
            # The file does not keep the opening dice: any two that make ``seat`` the winner.
            self.dice.enter((2, 1) if seat == 0 else (1, 2))
            game.roll(seat)

    def _check_value(self, game: Game, cell: Cell) -> None:
        assert game.offer is not None
        if cell.value is not None and cell.value != game.offer.value:
            raise MatFormatError(
                cell.line,
                f"{cell.text!r} puts the cube at {cell.value}, but by the entries before it "
                f"the cube goes to {game.offer.value}.",
            )

    def _roll(self, game: Game, seat: int, cell: Cell, following: Cell | None) -> None:
        assert cell.dice is not None
        high, low = max(cell.dice), min(cell.dice)
        self._open(game, seat, cell)
        if game.phase is Phase.OPENING:
            if high == low:
                raise MatFormatError(cell.line, "The opening roll cannot be doubles.")
            # The opening roll is one die each, dice given as (seat 0's, seat 1's): the
            # player whose entry comes first had the higher one.
            self.dice.enter((high, low) if seat == 0 else (low, high))
            game.roll(seat)
        else:
            if game.phase is Phase.CUBE and seat == game.on_roll and game.offer is not None:
                # A roll straight after a double (or a beaver) means it was taken.
                game.take(game.offer.decider)
            self.dice.enter(cell.dice)
            game.roll(seat)
        if game.phase is not Phase.MOVE:
            if cell.play:
                raise MatFormatError(
                    cell.line,
                    f"{high}-{low} has no legal move here, but the file plays {cell.play!r}.",
                )
            return
        if cell.play:
            game.play(seat, cell.play)
            return
        assert game.dice is not None
        plays = game.position.legal_plays(game.dice)
        if len(plays) == 1 and not cell.held:
            game.play(seat, plays[0])  # a forced play, which some programs leave out
            return
        if cell.held or following is None or following.kind in ("win", "loss"):
            return  # rolled, then resigned, or the file stops here
        raise MatFormatError(
            cell.line,
            f"No play is written for {high}-{low}, but there are {len(plays)} legal plays.",
        )

    def _win(
        self, game: Game, seat: int, points: int, line: int, *, claimed: bool = False
    ) -> None:
        if game.result is None:
            self._award(game, seat, points, line, claimed=claimed)
        elif game.result.winner != seat:
            raise MatFormatError(
                line, f"Seat {game.result.winner} won this game, not seat {seat}."
            )
        elif game.result.points != points and not (
            # GNU Backgammon writes what the board is worth, the Jacoby rule left out, while
            # its score lines keep to the rule: the next game's score line checks it.
            game.result.reason == "bear off"
            and points == game.cube_value * int(game.result.kind)
        ):
            self._mismatch(game, points, line)

    def _award(
        self, game: Game, winner: int, points: int, line: int, *, claimed: bool = False
    ) -> None:
        """End the game with ``points`` to ``winner``: a drop, the loser resigning, or,
        ``claimed``, the winner claiming the game of a loser who had left."""
        try:
            if game.phase is Phase.CUBE and game.offer and game.offer.player == winner:
                game.drop(game.offer.decider)
            else:
                if game.phase is Phase.OPENING:
                    if not game.rules.opening_reroll:
                        raise MatFormatError(line, "A game cannot end before its first move.")
                    self.dice.enter((2, 1) if winner == 1 else (1, 2))
                    game.roll(1 - winner)
                level = _resign_level(game, points)
                if level is None and self.jacoby_unknown and game.rules.jacoby:
                    # More than the cube for a resignation: the Jacoby rule is off.
                    raise _JacobyRetry(False)
                if level is None:
                    level = self._odd_resignation(game, winner, points, line)
                if claimed:
                    game.claim(winner, level)
                else:
                    game.resign(1 - winner, level)
                    game.accept(winner)
                return  # the points are those of a level, or an odd figure already told
        except MatFormatError:
            raise
        except BackgammonError as exc:
            raise MatFormatError(line, f"Seat {winner} cannot win here: {exc}") from exc
        assert game.result is not None
        if game.result.points != points:
            self._mismatch(game, points, line)

    def _jacoby_hint(self, game: Game, points: int) -> None:
        """Read the file again under the other setting of the Jacoby rule, where no header
        names it and that setting explains the file's ``points`` for a gammon or backgammon
        won with the cube not turned."""
        result = game.result
        if not (
            self.jacoby_unknown
            and result is not None
            and result.reason == "bear off"
            and result.kind is not WinKind.SINGLE
            and not game.cube_turned
        ):
            return
        if game.rules.jacoby and points == game.cube_value * int(result.kind):
            raise _JacobyRetry(False)
        if not game.rules.jacoby and points == game.cube_value:
            raise _JacobyRetry(True)

    def _needed(self, winner: int) -> int | None:
        """The points ``winner`` needed at the game's start to win the match (None: money)."""
        return self.parsed.length - self.start[winner] if self.parsed.length else None

    def _odd_resignation(self, game: Game, winner: int, points: int, line: int) -> WinKind:
        """The resignation a game ended by with ``points`` that no level gives exactly: the
        match's end capped (silently), else what the next score line shows, else a single
        game (with a warning)."""
        needed = self._needed(winner)
        if needed is not None and self.next_score is None and points >= needed:
            # The match ended here: the least resignation that ends it.
            level = next((kind for kind in WinKind if game.points_for(kind) >= needed), None)
            if level is not None:
                if points > needed:
                    self._warn(line, f"the file gives {points} points for this game, more "
                               f"than the {needed} that won the match; read as {needed}.")
                return level
        if self.next_score is not None:
            gained = self.next_score[winner] - self.start[winner]
            level = _resign_level(game, gained)
            if level is not None:
                self._warn(line, f"the file gives {points} points for this game, but the next "
                           f"score line shows {gained}; read as {gained}.")
                return level
        self._warn(line, f"seat {winner} cannot win {points} points with the cube at "
                   f"{game.cube_value}; read as a single game resigned, "
                   f"{game.points_for(WinKind.SINGLE)} points.")
        return WinKind.SINGLE

    def _warn(self, line: int, message: str) -> None:
        self.warnings.append(MatWarning(line, message[0].upper() + message[1:]))

    def _mismatch(self, game: Game, points: int, line: int) -> None:
        assert game.result is not None
        result = game.result
        self._jacoby_hint(game, points)
        if points == self._needed(result.winner) and points < result.points:
            return  # capped at what ended the match: the online sites' convention
        self._warn(
            line,
            f"the file gives {points} points for this game, but by the rules it is worth "
            f"{result.points} (a {result.kind.name.lower()} with the cube at "
            f"{game.cube_value}"
            + (", Jacoby rule on" if game.rules.jacoby else "")
            + f"); read as {result.points}.",
        )


def _resign_level(game: Game, points: int) -> WinKind | None:
    """The resignation that gives ``points``: the lowest level worth that much."""
    return next((kind for kind in WinKind if game.points_for(kind) == points), None)
