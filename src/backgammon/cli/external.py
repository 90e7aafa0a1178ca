"""``backgammon external --port P``: the computer as GNU Backgammon's external player.

GNU Backgammon plays against a program on a socket with ``set player N external HOST:PORT``:
on each of that player's decisions it connects (once, then keeps the connection), writes the
game as a FIBS board line (:mod:`backgammon.formats.fibs`, followed by a newline and a NUL)
and reads one line back. This server answers each line, as gnubg 1.07's ``play.c`` reads it:

* a play in gnubg's notation (``24/18 13/11``, ``bar/22*``, ``6/off``) when the dice are
  rolled, and an empty line when no checker can move;
* ``double`` or ``roll`` before the roll (gnubg rolls for its external player by itself when
  the cube may not be turned, so this comes only when it may);
* ``take``, ``drop`` or (with ``--beavers``, in money play) ``beaver`` when doubled;
* ``Error: ...`` with a sentence for a line it cannot read; gnubg prints it and stops the
  game for the person at its prompt, and the server goes on reading.

Resignations never reach an external player in gnubg 1.07 (gnubg answers an offer to it by
itself), so the server neither offers nor answers one. The match score, the Crawford game and
the cube come from each board line. A 5-point match against gnubg at 0-ply, from a shell::

    backgammon external --port 4321 --plies 0 &
    gnubg -t <<'EOF'
    set player 1 external 127.0.0.1:4321
    set player 0 gnubg
    set player 0 chequerplay evaluation plies 0
    set player 0 cubedecision evaluation plies 0
    new match 5
    export match mat /tmp/vs-gnubg.mat
    EOF

>>> from backgammon import Position
>>> from backgammon.bot.evaluator import FakeEvaluator
>>> player = ExternalPlayer(Bot(evaluator=FakeEvaluator()))
>>> play = player.answer("board:gnubg:root:3:0:0:0:-2:0:0:0:0:5:0:3:0:0:0:-5:5:0:0:0:-3:0:"
...                      "-5:0:0:0:0:2:0:1:6:1:6:1:1:1:1:0:1:-1:0:25:0:0:0:0:0:0:0:1")
>>> play in {str(p) for p in Position.initial().legal_plays((6, 1))}
True
>>> player.answer("board:nonsense")
'Error: A board line has 53 fields separated by colons; got 2.'
"""

from __future__ import annotations

import argparse
import socketserver
import sys
from dataclasses import replace
from typing import TextIO

from ..bot import Bot, CubeAction, CubeResponse, Level
from ..errors import BackgammonError
from ..formats.fibs import BoardState, ScoreOrder, read_board
from .arguments import Argument, arg

SUMMARY = (
    "Play as GNU Backgammon's external player: answer the board lines gnubg sends to "
    "'set player N external HOST:PORT' on a socket."
)

#: The longest line read: a board line is about 150 characters; anything far longer is
#: refused without reading it all into memory.
MAX_LINE = 4096


def _port(text: str) -> int:
    number = int(text) if text.isdigit() else -1
    if not 0 <= number <= 65535:
        raise argparse.ArgumentTypeError(f"a port is a number from 0 to 65535; got {text!r}")
    return number


ARGUMENTS: tuple[Argument, ...] = (
    arg("--host", default="127.0.0.1", help="the address to listen on (default 127.0.0.1)"),
    arg("--port", type=_port, required=True, metavar="P",
        help="the port to listen on (0: any free port, printed at the start)"),
    arg("--level", choices=list(Level), default=None,
        help="the computer's strength by name (default advanced: 0-ply, no noise)"),
    arg("--plies", type=int, default=None, metavar="N",
        help="the depth of the computer's search instead of a level"),
    arg("--beavers", action="store_true",
        help="beaver a double in money play where the computer would (gnubg's 'set beavers' "
        "must allow it)"),
    arg("--verbose", action="store_true", help="print every line read and answered"),
)


class ExternalPlayer:
    """Answers to gnubg's board lines by ``bot`` (``beavers``: answer a double with a
    beaver in money play where the bot would)."""

    def __init__(self, bot: Bot, beavers: bool = False) -> None:
        self.bot = bot
        self.beavers = beavers

    def answer(self, line: str) -> str:
        """The answer to one board line, or an ``Error: ...`` line saying why there is none."""
        try:
            return self._answer(read_board(line, ScoreOrder.GNUBG_EXTERNAL))
        except BackgammonError as exc:
            return f"Error: {exc}"

    def _answer(self, state: BoardState) -> str:
        if state.double_pending:
            # Judged as the doubler's decision, at the cube before the double; the board
            # does not say whether gnubg allows beavers, so --beavers does.
            cube = state.cube
            if self.beavers and cube.money:
                cube = replace(cube, beavers=True)
            decision = self.bot.cube_decision(state.position, cube)
            return {CubeResponse.DROP: "drop", CubeResponse.BEAVER: "beaver"}.get(
                decision.response, "take"
            )
        if state.dice is None:
            if not state.cube.may_double:
                return "roll"
            decision = self.bot.cube_decision(state.position, state.cube)
            return "double" if decision.action is CubeAction.DOUBLE else "roll"
        play = self.bot.best_play(state.position, state.dice, state.cube)
        return "" if play is None else str(play)


class ExternalServer(socketserver.TCPServer):
    """A socket server that answers gnubg's lines with ``player``, one connection at a
    time (gnubg keeps one open for a whole session); ``log`` gets each exchange."""

    allow_reuse_address = True

    def __init__(
        self, address: tuple[str, int], player: ExternalPlayer, log: TextIO | None = None
    ) -> None:
        super().__init__(address, _Handler)
        self.player = player
        self.log = log

    @property
    def port(self) -> int:
        """The port it listens on (the one picked, when asked for port 0)."""
        return int(self.server_address[1])


class _Handler(socketserver.StreamRequestHandler):
    server: ExternalServer

    def handle(self) -> None:
        while True:
            raw = self.rfile.readline(MAX_LINE)
            if not raw:
                return  # gnubg closed the connection
            if not raw.endswith(b"\n") and len(raw) >= MAX_LINE:
                self._skip_rest()
                reply = f"Error: A line is at most {MAX_LINE} characters long."
            else:
                # gnubg ends each line with a NUL, which arrives at the start of the next.
                line = raw.decode("utf-8", errors="replace").strip("\0\r\n\t ")
                if not line:
                    continue
                reply = self.server.player.answer(line)
                if self.server.log is not None:
                    print(f"< {line}\n> {reply}", file=self.server.log, flush=True)
            self.wfile.write(reply.encode() + b"\n")
            self.wfile.flush()

    def _skip_rest(self) -> None:
        """Read and drop the rest of an over-long line."""
        while True:
            chunk = self.rfile.readline(MAX_LINE)
            if not chunk or chunk.endswith(b"\n"):
                return


def make_bot(level: Level | str | None, plies: int | None) -> Bot:
    """The bot of the ``--level`` or ``--plies`` given (not both; neither: advanced)."""
    if level is not None and plies is not None:
        raise BackgammonError("Give the computer's strength by --level or by --plies, not both.")
    if plies is not None:
        return Bot(plies=plies)
    return Bot(level=level or Level.ADVANCED)


def external_command(args: argparse.Namespace) -> int:
    """Serve gnubg's external-player protocol until interrupted."""
    player = ExternalPlayer(make_bot(args.level, args.plies), beavers=args.beavers)
    with ExternalServer((args.host, args.port), player,
                        sys.stderr if args.verbose else None) as server:
        print(f"Listening for GNU Backgammon on {args.host}:{server.port} "
              f"(in gnubg: set player N external {args.host}:{server.port}); Ctrl-C stops it.",
              flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            print("Stopped.")
    return 0
