"""``backgammon external``: the answers to gnubg's board lines, a server that survives bad
input, and whole matches that Debian's gnubg plays against it to the end."""

from __future__ import annotations

import io
import shutil
import socket
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from backgammon import Position
from backgammon.bot import Bot
from backgammon.cli import main
from backgammon.cli.external import MAX_LINE, ExternalPlayer, ExternalServer, make_bot
from backgammon.cube import CubeContext, CubeOwner, MatchScore
from backgammon.errors import BackgammonError
from backgammon.formats.fibs import BoardState, FibsSide, ScoreOrder, write_board
from backgammon.formats.mat import import_mat

GNUBG = shutil.which("gnubg") or "/usr/games/gnubg"
HAVE_GNUBG = Path(GNUBG).exists()


@pytest.fixture(scope="module")
def player() -> ExternalPlayer:
    return ExternalPlayer(Bot(plies=0))


def line(position: Position, dice: tuple[int, int] | None = None,
         cube: CubeContext | None = None, pending: bool = False) -> str:
    """The line gnubg sends its external player 1, on roll (or doubled by player 0)."""
    state = BoardState(position, FibsSide.OPPONENT if pending else FibsSide.PLAYER, dice,
                       cube or CubeContext(), pending)
    return write_board(state, ScoreOrder.GNUBG_EXTERNAL)


# A race the side on roll wins nearly always, and the same seen by its opponent.
AHEAD = Position.from_points({1: 3, 2: 3}, {6: 5, 7: 5, 8: 5}, checkers=15)
RACE = Position.from_points({3: 5, 4: 5, 5: 5}, {3: 5, 4: 5, 6: 5})


def test_a_roll_is_played_by_the_bot_in_gnubg_s_notation(player: ExternalPlayer) -> None:
    answer = player.answer(line(Position.initial(), (3, 1)))
    assert answer == "8/5 6/5"


def test_no_legal_play_is_an_empty_line(player: ExternalPlayer) -> None:
    closed = Position.from_points({"bar": 1, 13: 14}, {p: 2 for p in range(1, 7)} | {19: 3})
    assert player.answer(line(closed, (6, 6))) == ""


def test_the_cube(player: ExternalPlayer) -> None:
    assert player.answer(line(RACE)) == "double"
    assert player.answer(line(RACE, pending=True)) == "take"
    assert player.answer(line(AHEAD, pending=True)) == "drop"
    assert player.answer(line(Position.initial())) == "roll"
    owned = CubeContext(2, CubeOwner.OPPONENT)
    assert player.answer(line(RACE, cube=owned)) == "roll"
    crawford = CubeContext(match=MatchScore(5, (1, 4), crawford=True))
    assert player.answer(line(RACE, cube=crawford)) == "roll"


def test_a_beaver_only_where_allowed() -> None:
    bot = Bot(plies=0)
    # Doubled in a position the taker wins most of: beaver, with --beavers, in money play.
    doubled = line(AHEAD.flip(), pending=True)
    assert ExternalPlayer(bot).answer(doubled) == "take"
    assert ExternalPlayer(bot, beavers=True).answer(doubled) == "beaver"
    match = line(AHEAD.flip(), cube=CubeContext(match=MatchScore(5, (0, 0))), pending=True)
    assert ExternalPlayer(bot, beavers=True).answer(match) == "take"


def test_the_strength_is_a_level_or_plies_not_both() -> None:
    assert make_bot(None, 1).plies == 1
    assert make_bot("expert", None).plies == 1
    with pytest.raises(BackgammonError, match="not both"):
        make_bot("expert", 1)
    with pytest.raises(SystemExit) as exit_:
        main(["external", "--port", "0", "--level", "expert", "--plies", "1"])
    assert exit_.value.code == 2


@contextmanager
def serving(player: ExternalPlayer, log: io.StringIO | None = None) -> Iterator[int]:
    """An external server on a free port, in a thread, for the test's duration."""
    server = ExternalServer(("127.0.0.1", 0), player, log)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.port
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_the_server_answers_bad_lines_with_errors_and_goes_on(player: ExternalPlayer) -> None:
    with (
        serving(player) as port,
        socket.create_connection(("127.0.0.1", port), timeout=30) as client,
        client.makefile("rb") as reader,
    ):
        for sent, says in [
            (b"hello\n", b"Error: A board line has 53 fields"),
            (b"board:\xff:\xfe:" + b"z:" * 49 + b"0\n", b"Error: After the two names"),
            (b"x" * (3 * MAX_LINE) + b"\n", f"Error: A line is at most {MAX_LINE}".encode()),
            (line(Position.initial(), (3, 1)).encode() + b"\n\0", b"8/5 6/5\n"),
            (b"\0\n\n" + line(Position.initial()).encode() + b"\n\0", b"roll\n"),
        ]:
            client.sendall(sent)
            assert reader.readline().startswith(says)
        client.shutdown(socket.SHUT_RDWR)


@pytest.mark.skipif(not HAVE_GNUBG, reason="GNU Backgammon (Debian package gnubg) is missing")
@pytest.mark.parametrize(("seat", "length", "seed"), [(1, 5, 11), (0, 3, 5)])
def test_gnubg_plays_a_whole_match_against_the_external_player(
    player: ExternalPlayer, tmp_path: Path, seat: int, length: int, seed: int
) -> None:
    """gnubg at 0-ply plays a match with the cube against the external player; the match it
    exports replays through our rules (a play gnubg refused would be a dance there, which the
    import refuses where the roll has a legal play) to the winning score."""
    log = io.StringIO()
    exported = tmp_path / "match.mat"
    with serving(player, log) as port:
        script = "\n".join([
            f"set player {seat} external 127.0.0.1:{port}",
            f"set player {1 - seat} gnubg",
            f"set player {1 - seat} chequerplay evaluation plies 0",
            f"set player {1 - seat} cubedecision evaluation plies 0",
            f"set seed {seed}",
            f"new match {length}",
            f"export match mat {exported}",
            "",
        ])
        run = subprocess.run([GNUBG, "-t", "-q"], input=script, capture_output=True,
                             text=True, timeout=300)
    assert "has won the match" in run.stdout
    assert "Warning" not in run.stdout and "Error" not in run.stdout
    answers = [text[2:] for text in log.getvalue().splitlines() if text.startswith("> ")]
    assert not [answer for answer in answers if answer.startswith("Error")]
    assert {"double", "take", "drop"} & set(answers), "no cube decision was played"
    match = import_mat(exported.read_text())
    assert match.is_over and match.length == length and max(match.score) >= length
