"""Writing a match as ``.mat`` text, in the dialect GNU Backgammon 1.07 writes (see the
package's notes on the format, and on what it cannot hold)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import assert_never

from ...game import (
    Beavered,
    Doubled,
    Dropped,
    Game,
    GameEnded,
    GameEntry,
    OpeningRoll,
    ResignationAccepted,
    ResignationOffered,
    ResignationRejected,
    Rolled,
    Rules,
    Taken,
    TurnPlayed,
    begun,
)
from ...game.match import Match
from ...moves import Play
from ...position import Position
from .common import CLAIMED, VARIATION_NAMES, MatFormatError

# GNU Backgammon's columns: "%3d) %-27s " and then the right-hand entry, so that column
# starts at character 33; the score line is " %-31s%s".
_LEFT_WIDTH = 27
_SCORE_WIDTH = 31


@dataclass
class _Entry:
    """One entry of a move line: whose column, its text, and whether it gets a number."""

    seat: int
    text: str
    numbered: bool = True


def export_mat(match: Match | Game) -> str:
    """The match (or one game, as a one-game money session) as ``.mat`` text.

    Every game is written, the last one as far as it has gone; the rules go into header
    comments. Raises :class:`MatFormatError` for what the format cannot hold: a game set up
    from another position than the variant's start, or one with an automatic double.

    >>> from backgammon.dice import ManualDice
    >>> game = Game(dice=ManualDice(["6 1"]))
    >>> game.roll(0)
    >>> game.play(0, "13/7 8/7")
    >>> game.resign(1)
    >>> game.accept(0)
    >>> print(export_mat(game))  # doctest: +NORMALIZE_WHITESPACE
    ; [Player 1 "Player 0"]
    ; [Player 2 "Player 1"]
    ; [Variation "Backgammon"]
    ; [Jacoby "Off"]
    ; [Beaver "Off"]
    <BLANKLINE>
     0 point match
    <BLANKLINE>
     Game 1
     Player 0 : 0                   Player 1 : 0
      1) 61: 13/7 8/7
          Wins 1 point
    <BLANKLINE>
    """
    if isinstance(match, Game):
        games, length, rules = [match], 0, match.rules
        players: tuple[str, str] = ("Player 0", "Player 1")
        crawford = False
    else:
        games, length, rules = match.games, match.length, match.rules
        players, crawford = match.players, match.crawford_rule
    names = (_score_name(players[0], 0), _score_name(players[1], 1))
    out = _header(players, length, rules, crawford)
    out += ["", f" {length} point match", ""]
    score = [0, 0]
    for number, game in enumerate(games, start=1):
        if not begun(game) and number > 1:
            continue  # the empty game a session opens after each finished one
        if game.setup is not None or game.start != Position.initial(game.rules.variant):
            raise MatFormatError(
                None,
                f"Game {number} starts from a set-up position; a .mat file records only "
                "games from the variant's starting position.",
            )
        left = f"{names[0]} : {score[0]}"
        out += [f" Game {number}", f" {left:<{_SCORE_WIDTH - 1}} {names[1]} : {score[1]}"]
        out += _lines(_entries(game, number))
        out.append("")
        if game.result is not None:
            score[game.result.winner] += game.result.points
    return "\n".join(out) + "\n"


def _header(
    players: tuple[str, str], length: int, rules: Rules, crawford: bool
) -> list[str]:
    lines = [
        f'; [Player 1 "{_header_value(players[0])}"]',
        f'; [Player 2 "{_header_value(players[1])}"]',
        f'; [Variation "{VARIATION_NAMES[rules.variant]}"]',
    ]
    if length:
        lines.append(f'; [Crawford "{_on(crawford)}"]')
    else:
        lines.append(f'; [Jacoby "{_on(rules.jacoby)}"]')
        lines.append(f'; [Beaver "{_on(rules.beavers)}"]')
    if not rules.cube:
        # GNU Backgammon reads a cube limit of 1 as "no cube".
        lines.append('; [CubeLimit "1"]')
    elif rules.max_cube is not None:
        lines.append(f'; [CubeLimit "{rules.max_cube}"]')
    if rules.opening_reroll:
        lines.append('; [OpeningReroll "On"]')
    return lines


def _on(flag: bool) -> str:
    return "On" if flag else "Off"


def _header_value(name: str) -> str:
    return " ".join(name.replace('"', "'").split())


def _score_name(name: str, seat: int) -> str:
    # A score line is "name : score"; a colon in a name would end it early, and GNU
    # Backgammon turns every blank into a space.
    cleaned = " ".join(name.replace(":", ".").split())
    return cleaned or f"Player {seat}"


def _entries(game: Game, number: int) -> list[_Entry]:
    """The entries of one game, in order, from its history."""
    history = _kept(game)
    entries: list[_Entry] = []
    # The roll whose play is still to be written, and its entry.
    rolled: tuple[Rolled[Position], _Entry] | None = None
    for index, entry in enumerate(history):
        match entry:
            case OpeningRoll(automatic_double=True):
                raise MatFormatError(
                    None,
                    f"Game {number} has an automatic double, which a .mat file cannot record.",
                )
            case OpeningRoll() | ResignationOffered() | ResignationAccepted():
                # The opening roll is its winner's first roll, and an accepted resignation
                # the winner's "Wins" line.
                pass
            case ResignationRejected():
                pass  # left out by _kept
            case Rolled():
                # The opening roll's winner makes the first entry, with both dice.
                rolled = (entry, _Entry(entry.seat, f"{max(entry.dice)}{min(entry.dice)}:"))
                entries.append(rolled[1])
            case TurnPlayed():
                if entry.play.steps and rolled is not None:
                    rolled[1].text += " " + _play_text(entry.play)
                rolled = None
            case Doubled() | Beavered() | Taken() | Dropped():
                cube = _cube_entry(history, index)
                if cube is not None:
                    entries.append(cube)
            case GameEnded():
                plural = "" if entry.points == 1 else "s"
                # A claim is scored as the absent side's resignation would be; the words
                # after the points say so, and GNU Backgammon reads past them.
                claimed = f" {CLAIMED}" if entry.reason == "claim" else ""
                entries.append(
                    _Entry(entry.winner, f" Wins {entry.points} point{plural}{claimed}", False)
                )
            case _:
                assert_never(entry)
    if rolled is not None and len(rolled[0].position.legal_plays(rolled[0].dice)) == 1:
        # Rolled, then resigned or stopped: eXtreme Gammon's "???" says no play follows,
        # where a reader would otherwise make the one legal play (as gnubg does).
        rolled[1].text += " ???"
    return entries


def _kept(game: Game) -> list[GameEntry]:
    """The history a .mat file keeps: no resignation that was rejected (or is still pending),
    and of a turn only its play."""
    return [
        entry
        for entry in game.history()
        if not isinstance(entry, ResignationRejected)
        and not (isinstance(entry, ResignationOffered) and not entry.accepted)
    ]


def _cube_entry(history: list[GameEntry], index: int) -> _Entry | None:
    """The entry of the double, beaver, take or drop ``history[index]``; None for a take
    that a beaver's entry says already."""
    entry = history[index]
    following = [type(later) for later in history[index + 1 : index + 3]]
    if isinstance(entry, Doubled):
        return _Entry(entry.seat, f" Doubles => {entry.value}")
    if isinstance(entry, Beavered):
        # GNU Backgammon takes the doubler's roll after "Beavers" as the take, and loses its
        # way on a "Takes" or "Drops" written there (its ParseMatMove keeps the beaver
        # pending, for the rest of the file); so a beaver that no roll takes is written as
        # the second double it is in gnubg's own record, which reads right.
        word = "Beavers" if following == [Taken, Rolled] else "Doubles"
        return _Entry(entry.seat, f" {word} => {entry.value}")
    if isinstance(entry, Taken):
        if isinstance(history[index - 1], Beavered) and following[:1] == [Rolled]:
            return None
        return _Entry(entry.seat, " Takes")
    assert isinstance(entry, Dropped)
    return _Entry(entry.seat, " Drops")


def _play_text(play: Play) -> str:
    # GNU Backgammon writes every checker step on its own, the bar as 25 and off as 0.
    return " ".join(
        f"{step.from_point}/{step.to_point}{'*' if step.hit else ''}" for step in play.steps
    )


def _lines(entries: list[_Entry]) -> list[str]:
    """Lay the entries out in two columns: a seat-0 entry starts a line, seat 1 ends it."""
    lines: list[str] = []
    left: _Entry | None = None
    right: _Entry | None = None
    number = 0

    def flush() -> None:
        nonlocal left, right, number
        if left is None and right is None:
            return
        if (left and left.numbered) or (right and right.numbered):
            number += 1
            prefix = f"{number:3d}) "
        else:
            prefix = " " * 5
        text = left.text if left else ""
        if right is not None:
            text = f"{text:<{_LEFT_WIDTH}} {right.text}"
        lines.append((prefix + text).rstrip())
        left = right = None

    for entry in entries:
        if entry.seat == 0:
            flush()
            left = entry
        else:
            right = entry
            flush()
    flush()
    return lines
