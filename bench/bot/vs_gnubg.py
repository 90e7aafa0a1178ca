"""Strength against GNU Backgammon itself: cubeless money games (or matches with the cube)
between our bot and Debian's ``gnubg`` (1.07), which answers through its own ``external``
server at any depth.

gnubg is started as ``gnubg -t`` with its evaluation depth set (``--gnubg-plies``) and told
``external localhost:PORT``: it listens there and answers each FIBS board line
(:mod:`backgammon.formats.fibs`, in gnubg's external convention) with its play in its own
notation, or ``double``/``roll`` and ``take``/``drop``. Our :class:`~backgammon.game.Game`
(in a :class:`~backgammon.game.match.Match` for ``--match-length``) runs every game: gnubg is sent
the board of each of its decisions (rolls with two or more legal plays, cube actions where it
may double or is doubled; forced plays and passes are made by the game) and its answer is
replayed through our rules. An answer our rules refuse is counted, printed with its board
line, and replaced by our bot's decision, never accepted; a run with refusals exits with
status 1.

Games come in pairs with the same seeded dice, each side taking each seat once (the opening
roll decides who starts, so the seats swap who moves first). The figure is our bot's points a
game (or share of matches won) with the standard error of the mean over the pairs (the pairs
are independent; the two games of a pair are not), as in ``bench/bot/strength.py``.

Run: ``PYTHONPATH=src python bench/bot/vs_gnubg.py --games 200 --plies 0 --gnubg-plies 0``
(``--seconds S``: no new pair after S seconds; ``--match-length 5``: 5-point matches).
"""

from __future__ import annotations

import argparse
import math
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from types import TracebackType

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # one thread: small matrices, shared cores

from backgammon.bot import Bot
from backgammon.bot.cube import CubeAction, CubeResponse
from backgammon.dice import SeededDice
from backgammon.errors import BackgammonError
from backgammon.formats.fibs import BoardState, FibsSide, ScoreOrder, write_board
from backgammon.game import Game, Rules
from backgammon.game.match import Match
from backgammon.game.rules import Phase
from backgammon.moves import Play

#: Where Debian installs gnubg.
GNUBG = "/usr/games/gnubg"
#: Seconds to wait for gnubg to listen, and for one answer (a deep search takes a while).
START_TIMEOUT = 30.0
ANSWER_TIMEOUT = 600.0
#: The names on the board lines (gnubg's side first).
NAMES = ("gnubg", "bot")
#: The rules of the cubeless money games (forced plays made by the game, for both sides).
CUBELESS = Rules(cube=False, auto_forced=True)


class GnubgError(BackgammonError):
    """gnubg could not be started or stopped answering."""


class Gnubg:
    """A ``gnubg -t`` process serving its ``external`` protocol on a free local port, its
    chequer play (cubeful or cubeless) and cube decisions at ``plies``. Use it as a context
    manager."""

    def __init__(self, plies: int = 0, program: str = GNUBG, cubeful: bool = False) -> None:
        self.plies = plies
        # gnubg's terminal output, kept for the error messages; closed by close().
        self._log = tempfile.TemporaryFile("w+")  # noqa: SIM115
        port = _free_port()
        commands = (
            f"set evaluation chequerplay evaluation plies {plies}\n"
            f"set evaluation chequerplay evaluation cubeful {'on' if cubeful else 'off'}\n"
            f"set evaluation cubedecision evaluation plies {plies}\n"
            f"external localhost:{port}\n"
        )
        self._process = subprocess.Popen(
            [program, "-t", "-q"], stdin=subprocess.PIPE, stdout=self._log,
            stderr=subprocess.STDOUT, text=True,
        )
        assert self._process.stdin is not None
        self._process.stdin.write(commands)
        self._process.stdin.flush()
        self._socket = self._connect(port)
        self._reader = self._socket.makefile("rb")

    def _connect(self, port: int) -> socket.socket:
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            try:
                connection = socket.create_connection(("127.0.0.1", port), timeout=1.0)
            except OSError as exc:
                if self._process.poll() is not None or time.monotonic() > deadline:
                    printed = self.output()
                    self.close()
                    raise GnubgError(f"gnubg did not listen on port {port}: {printed}") from exc
                time.sleep(0.1)
                continue
            connection.settimeout(ANSWER_TIMEOUT)
            return connection

    def ask(self, line: str) -> str:
        """gnubg's answer to one line, stripped of the spaces (and any NUL) it adds."""
        try:
            self._socket.sendall(line.encode() + b"\n")
            answer = self._reader.readline()
        except OSError as exc:
            raise GnubgError(f"gnubg stopped answering: {exc}. {self.output()}") from exc
        if not answer:
            raise GnubgError(f"gnubg closed the connection. {self.output()}")
        return answer.decode("utf-8", errors="replace").strip("\0\r\n\t ")

    def output(self) -> str:
        """The end of what gnubg printed on its terminal."""
        self._log.seek(0)
        return self._log.read()[-2000:]

    def close(self) -> None:
        """End the external session and gnubg."""
        if hasattr(self, "_socket"):
            self._reader.close()
            self._socket.close()
        # After a connection closes gnubg waits for the next one and reads no command, so
        # it is stopped by a signal rather than by 'quit'.
        self._process.terminate()
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        assert self._process.stdin is not None
        self._process.stdin.close()
        self._log.close()

    def __enter__(self) -> Gnubg:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()


def _free_port() -> int:
    """A local port free now (gnubg binds it a moment later)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Tally:
    """What the games gave: our bot's points in each game, or +1/-1 for each match won or
    lost (pairs in order), the decisions sent to gnubg and its answers our rules refused
    (the board line and the answer)."""

    points: list[int] = field(default_factory=list)
    asked: int = 0
    refused: list[tuple[str, str]] = field(default_factory=list)

    def summary(self) -> tuple[float, float]:
        """The mean of :attr:`points` and its standard error, over the pairs."""
        pairs = [sum(self.points[i:i + 2]) / 2 for i in range(0, len(self.points) - 1, 2)]
        mean = sum(pairs) / len(pairs)
        variance = sum((p - mean) ** 2 for p in pairs) / max(len(pairs) - 1, 1)
        return mean, math.sqrt(variance / len(pairs))


def _refuse(tally: Tally, line: str, answer: str, why: str) -> None:
    tally.refused.append((line, answer))
    print(f"refused gnubg answer {answer!r} ({why}) to {line}", file=sys.stderr)


def _ask(gnubg: Gnubg, state: BoardState, tally: Tally) -> tuple[str, str]:
    """The board line of ``state`` (gnubg the player, the side to act) and gnubg's answer."""
    line = write_board(state, ScoreOrder.GNUBG_EXTERNAL)
    tally.asked += 1
    return line, gnubg.ask(line)


def gnubg_play(gnubg: Gnubg, game: Game, tally: Tally, bot: Bot) -> Play:
    """gnubg's play at ``game``'s move, checked by our rules; a refused answer is recorded
    in ``tally`` and replaced by ``bot``'s play."""
    assert game.dice is not None
    cube = game.cube_context(game.on_roll)
    state = BoardState(game.position, FibsSide.PLAYER, game.dice, cube, names=NAMES)
    line, answer = _ask(gnubg, state, tally)
    try:
        return game.position.parse_play(answer, game.dice)
    except BackgammonError as exc:
        _refuse(tally, line, answer, str(exc))
        play = bot.best_play(game.position, game.dice, cube)
        assert play is not None  # asked only with two or more legal plays
        return play


def gnubg_doubles(gnubg: Gnubg, game: Game, tally: Tally, bot: Bot) -> bool:
    """Whether gnubg, on roll and free to double, doubles (a refused answer: ``bot``'s)."""
    cube = game.cube_context(game.on_roll)
    state = BoardState(game.position, FibsSide.PLAYER, None, cube, names=NAMES)
    line, answer = _ask(gnubg, state, tally)
    if answer in ("double", "roll"):
        return answer == "double"
    _refuse(tally, line, answer, "not 'double' or 'roll'")
    return bot.cube_decision(game.position, cube).action is CubeAction.DOUBLE


def gnubg_takes(gnubg: Gnubg, game: Game, tally: Tally, bot: Bot) -> bool:
    """Whether gnubg, doubled, takes (a refused answer: ``bot``'s)."""
    cube = game.cube_context(game.on_roll)  # the doubler's, before the double
    state = BoardState(game.position, FibsSide.OPPONENT, None, cube, double_pending=True,
                       names=NAMES)
    line, answer = _ask(gnubg, state, tally)
    if answer in ("take", "drop"):
        return answer == "take"
    _refuse(tally, line, answer, "not 'take' or 'drop'")
    return bot.cube_decision(game.position, cube).response is not CubeResponse.DROP


def play_game(gnubg: Gnubg, bot: Bot, gnubg_seat: int, game: Game, tally: Tally) -> int:
    """``game`` played to its end, gnubg in ``gnubg_seat``: the points our bot wins
    (negative when it loses)."""
    while game.result is None:
        if game.phase is Phase.OPENING:
            game.roll(0)
            continue
        seat = game.player_to_act
        assert seat is not None
        ours = seat != gnubg_seat
        if game.phase is Phase.ROLL:
            if game.may_double(seat):
                cube = game.cube_context(seat)
                doubles = (bot.cube_decision(game.position, cube).action is CubeAction.DOUBLE
                           if ours else gnubg_doubles(gnubg, game, tally, bot))
                if doubles:
                    game.double(seat)
                    continue
            game.roll(seat)
        elif game.phase is Phase.CUBE:
            cube = game.cube_context(game.on_roll)
            takes = (bot.cube_decision(game.position, cube).response is not CubeResponse.DROP
                     if ours else gnubg_takes(gnubg, game, tally, bot))
            if takes:
                game.take(seat)
            else:
                game.drop(seat)
        elif game.phase is Phase.MOVE:
            assert game.dice is not None
            if ours:
                best = bot.best_play(game.position, game.dice, game.cube_context(seat))
                assert best is not None  # the game passes a roll with no legal play itself
                play = best
            else:
                play = gnubg_play(gnubg, game, tally, bot)
            game.play(seat, play)
        else:
            raise BackgammonError(f"A game against gnubg waits for {game.phase}: not expected.")
    result = game.result
    return -result.points if result.winner == gnubg_seat else result.points


def play_match(gnubg: Gnubg, bot: Bot, gnubg_seat: int, length: int, seed: int,
               tally: Tally) -> int:
    """One match to ``length`` with the cube (Crawford rule), dice from ``seed``: 1 when our
    bot wins it, -1 when gnubg does (cubeless money: one game, the points our bot wins)."""
    dice = SeededDice(seed)
    if not length:
        return play_game(gnubg, bot, gnubg_seat, Game(CUBELESS, dice), tally)
    match = Match(length, Rules(auto_forced=True), dice)
    while not match.is_over:
        play_game(gnubg, bot, gnubg_seat, match.game, tally)
    return -1 if match.winner == gnubg_seat else 1


def run(games: int, plies: int, gnubg_plies: int, seed: int, program: str = GNUBG,
        seconds: float | None = None, length: int = 0) -> Tally:
    """``games`` cubeless money games, or matches to ``length`` with the cube (rounded up to
    pairs), or as many pairs as start within ``seconds``."""
    bot = Bot(plies=plies)
    tally = Tally()
    start = time.perf_counter()
    with Gnubg(gnubg_plies, program, cubeful=bool(length)) as gnubg:
        for pair in range((games + 1) // 2):
            if seconds is not None and time.perf_counter() - start > seconds:
                break
            dice_seed = seed * 1_000_003 + pair
            for gnubg_seat in (1, 0):
                tally.points.append(play_match(gnubg, bot, gnubg_seat, length, dice_seed, tally))
    return tally


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games, in pairs (default 200)")
    parser.add_argument("--seconds", type=float, default=None,
                        help="start no new pair after this many seconds")
    parser.add_argument("--plies", type=int, default=0, help="our bot's depth (default 0)")
    parser.add_argument("--gnubg-plies", type=int, default=0, help="gnubg's depth (default 0)")
    parser.add_argument("--match-length", type=int, default=0, metavar="L",
                        help="play matches to L points with the cube instead (--games: matches)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--gnubg", default=GNUBG, help=f"gnubg's program (default {GNUBG})")
    args = parser.parse_args(argv)
    if shutil.which(args.gnubg) is None:
        print(f"gnubg is not installed at {args.gnubg}", file=sys.stderr)
        return 2
    start = time.perf_counter()
    tally = run(args.games, args.plies, args.gnubg_plies, args.seed, args.gnubg, args.seconds,
                args.match_length)
    elapsed = time.perf_counter() - start
    mean, error = tally.summary()
    count, pairs = len(tally.points), len(tally.points) // 2
    if args.match_length:
        # Each match counts +1 or -1: the share won is (mean + 1) / 2.
        figure = (f"{args.match_length}-point matches: wins {(mean + 1) / 2:.3f} ± "
                  f"{error / 2:.3f} of {count} matches")
    else:
        figure = f"cubeless money: {mean:+.3f} ± {error:.3f} points a game in {count} games"
    unit = "matches" if args.match_length else "games"
    print(
        f"bot {args.plies}-ply vs gnubg {args.gnubg_plies}-ply, {figure} ({pairs} pairs, "
        f"seed {args.seed}), {count / elapsed:.2f} {unit}/s; {tally.asked} gnubg decisions, "
        f"{len(tally.refused)} refused",
        flush=True,
    )
    return 1 if tally.refused else 0


if __name__ == "__main__":
    sys.exit(main())
