"""Writing a match as ``.mat`` text, in the dialect GNU Backgammon 1.07 writes (see the
package's notes on the format, and on what it cannot hold)."""

from __future__ import annotations

from dataclasses import dataclass

from ...dice import Dice
from ...game import Action, Event, Game, Rules
from ...match import Match
from ...moves import Play
from ...position import Position
from .common import VARIATION_NAMES, MatFormatError

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
        if not game.events and number > 1:
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
    """The entries of one game, in order, from its record."""
    if game.automatic_doubles:
        raise MatFormatError(
            None, f"Game {number} has an automatic double, which a .mat file cannot record."
        )
    entries: list[_Entry] = []
    plays = iter(game.plays)
    opening = True
    roll: _Entry | None = None  # the roll whose play is still to be written
    dice: Dice = (1, 1)
    cube = 1
    offered = 1
    # The actions a .mat file keeps: no resignation that was rejected (or is still pending).
    events = [
        event
        for index, event in enumerate(game.events)
        if event.action is not Action.REJECT
        and not (
            event.action is Action.RESIGN
            and (index + 1 == len(game.events) or game.events[index + 1].action is Action.REJECT)
        )
    ]
    for index, event in enumerate(events):
        action = event.action
        if action is Action.ROLL:
            assert event.dice is not None
            dice = event.dice
            high, low = max(dice), min(dice)
            if opening:
                first, second = dice
                if first == second:
                    continue
                opening = False
                if game.rules.opening_reroll:
                    continue  # the winner now rolls both dice afresh
                roll = _Entry(0 if first > second else 1, f"{high}{low}:")
            else:
                roll = _Entry(event.player, f"{high}{low}:")
            entries.append(roll)
        elif action in (Action.PLAY, Action.PASS, Action.CONFIRM):
            _seat, _dice, play = next(plays)
            if play is not None and roll is not None:
                roll.text += " " + _play_text(play)
            roll = None
        elif action is Action.DOUBLE:
            offered = cube * 2
            entries.append(_Entry(event.player, f" Doubles => {offered}"))
        elif action is Action.BEAVER:
            offered *= 2
            # GNU Backgammon takes the doubler's roll after "Beavers" as the take, and loses
            # its way on a "Takes" or "Drops" written there (its ParseMatMove keeps the beaver
            # pending, for the rest of the file); so a beaver that no roll takes is written as
            # the second double it is in gnubg's own record, which reads right.
            taken_by_roll = _actions(events, index, 3) == _BEAVER_TAKEN
            word = "Beavers" if taken_by_roll else "Doubles"
            entries.append(_Entry(event.player, f" {word} => {offered}"))
        elif action is Action.TAKE:
            cube = offered
            if _actions(events, index - 1, 3) != _BEAVER_TAKEN:
                entries.append(_Entry(event.player, " Takes"))
        elif action is Action.DROP:
            entries.append(_Entry(event.player, " Drops"))
        # Steps, undos and resignations leave no entry of their own: a turn is written as
        # its play, and an accepted resignation as the winner's "Wins" line below.
    if roll is not None and len(game.position.legal_plays(dice)) == 1:
        # Rolled, then resigned or stopped: eXtreme Gammon's "???" says no play follows,
        # where a reader would otherwise make the one legal play (as gnubg does).
        roll.text += " ???"
    result = game.result
    if result is not None:
        plural = "" if result.points == 1 else "s"
        entries.append(_Entry(result.winner, f" Wins {result.points} point{plural}", False))
    return entries


_BEAVER_TAKEN = [Action.BEAVER, Action.TAKE, Action.ROLL]


def _actions(events: list[Event], start: int, count: int) -> list[Action]:
    return [event.action for event in events[max(start, 0) : start + count]]


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
