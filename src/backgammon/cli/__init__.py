"""The console script ``backgammon``: one command, with a subcommand for each task.

::

    backgammon                          money play at the terminal (as ``backgammon play``)
    backgammon play --match-length 5 --names Alice Bob
    backgammon play --variant nackgammon --jacoby --beavers --seed 7
    backgammon play --manual-dice       type the numbers of physical dice
    backgammon play --computer expert --colour black   against the computer, at 1-ply
    backgammon play --position 4HPwATDgc/ABMA   play from a position (or a gnubg ID, an XGID)
    backgammon play --game plakoto --computer   another game: Tavla, Tavli's, Nardy, Acey-deucey
    backgammon play --game tavli --match-length 5   a Tavli match: Portes, Plakoto, Fevga
    backgammon moves 4HPwATDgc/ABMA 31  the board and the numbered legal plays of a roll
    backgammon train --games 400000     train the computer player by self-play
    backgammon train --stage rollout --resume --generations 12   on rollouts of its positions
    backgammon serve                    play in the browser at http://127.0.0.1:8000
    backgammon reports                  the chat messages players reported (for site admins)
    backgammon --version

A subcommand is one function, registered with :func:`subcommand`: it takes the parsed
arguments and returns the exit status. Bad input ends with one line on standard error and
status 2, never a traceback.

>>> main(["moves", "4HPwATDgc/ABMA", "2-1"])  # doctest: +ELLIPSIS
 +13-14-15-16-17-18-+---+19-20-21-22-23-24-+
...
Legal plays of 2-1 (15):
  1. ...
 15. ...
0
"""

from __future__ import annotations

import os

# The bot's matrices are small and its batches many: OpenBLAS's threads only fight each other
# and the processes of rollouts and analyses (3 to 6 times slower here). Set before numpy
# loads, so the imports below come after it.
# ruff: noqa: E402
for _threads in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

import argparse
import sys
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version

try:
    from ..bot import Level
except ModuleNotFoundError as missing:  # the package installed without its "bot" extra
    raise SystemExit(
        f"The command line needs the computer player's libraries ({missing.name} is missing): "
        "pip install 'backgammon[bot]'."
    ) from None
from ..dice import DiceSource, ManualDice, SecureDice, SeededDice, parse_dice
from ..errors import BackgammonError
from ..formats.ids import setup_from_id
from ..game import Rules
from ..games import TAVLI, TAVLI_MATCH
from ..position import MAX_CHECKERS, Position
from ..variants import Variant
from . import analyse as _analyse
from . import engine_tools as _engine_tools
from . import external as _external
from . import reports as _reports
from . import rollout as _rollout
from . import truth as _truth
from . import verify as _verify
from .arguments import Argument, arg
from .display import format_plays, outcome_text
from .games import OTHER_GAMES
from .interactive import run
from .setup import PlayerKind, SessionOptions, default_names

#: What a subcommand does with its parsed arguments: the exit status.
Handler = Callable[[argparse.Namespace], int]


@dataclass(frozen=True)
class _Subcommand:
    summary: str
    arguments: tuple[Argument, ...]
    handler: Handler


_SUBCOMMANDS: dict[str, _Subcommand] = {}

#: The subcommand run when the command line names none.
DEFAULT_SUBCOMMAND = "play"


def subcommand(name: str, summary: str, *arguments: Argument) -> Callable[[Handler], Handler]:
    """Register the decorated function as the subcommand ``name`` of ``backgammon``."""

    def register(handler: Handler) -> Handler:
        _SUBCOMMANDS[name] = _Subcommand(summary, arguments, handler)
        return handler

    return register


def build_parser() -> argparse.ArgumentParser:
    """The parser of the whole command line, with every registered subcommand."""
    parser = argparse.ArgumentParser(
        prog="backgammon",
        description="Backgammon: play, study positions, and more.",
        epilog=f"With no command, {DEFAULT_SUBCOMMAND!r} is run.",
        allow_abbrev=False,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {_version()}")
    commands = parser.add_subparsers(title="commands", metavar="COMMAND", dest="command")
    for name, command in _SUBCOMMANDS.items():
        sub = commands.add_parser(name, help=command.summary, description=command.summary)
        for argument in command.arguments:
            sub.add_argument(*argument.flags, **argument.options)
        sub.set_defaults(handler=command.handler)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the ``backgammon`` command; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    # Options with no subcommand before them belong to the default one: `backgammon --variant
    # nackgammon` plays Nackgammon. The parser's own options stay with it.
    if not args or (args[0].startswith("-") and args[0] not in ("-h", "--help", "--version")):
        args.insert(0, DEFAULT_SUBCOMMAND)
    parser = build_parser()
    namespace = parser.parse_args(args)
    namespace.argv = args  # the command as given, for runs that record what made them
    handler: Handler = namespace.handler
    try:
        return handler(namespace)
    except BackgammonError as exc:
        parser.exit(2, f"backgammon {namespace.command}: error: {exc}\n")


def _version() -> str:
    try:
        return version("backgammon")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"


def _checker_count(text: str) -> int:
    number = int(text) if text.isdigit() else 0
    if not 1 <= number <= MAX_CHECKERS:
        raise argparse.ArgumentTypeError(f"a side has from 1 to {MAX_CHECKERS} checkers")
    return number


def _level(text: str) -> Level:
    try:
        return Level(text.lower())
    except ValueError:
        levels = ", ".join(Level)
        raise argparse.ArgumentTypeError(
            f"the computer's levels are {levels}; got {text!r}"
        ) from None


def _count(text: str) -> int:
    number = int(text) if text.isdigit() else -1
    if number < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number, 0 or more; got {text!r}")
    return number


@subcommand(
    "play",
    "Play a match, or money games, at the terminal: two people at one keyboard, or a person "
    "against the computer (--computer); of backgammon, or of another game (--game).",
    arg("--match-length", type=_count, default=0, metavar="N",
        help="play a match to N points (default 0: money play, game after game)"),
    arg("--variant", choices=[variant.value for variant in Variant], default="standard",
        help="the variant to play (default: standard)"),
    arg("--game", choices=(*OTHER_GAMES, TAVLI_MATCH), metavar="GAME",
        help="play another game instead, by its own rules: "
        f"{', '.join(OTHER_GAMES)}, or {TAVLI_MATCH} (Portes, Plakoto and Fevga in turn); "
        "the options of backgammon's rules do not apply"),
    arg("--cube", action=argparse.BooleanOptionalAction, default=None,
        help="play with the doubling cube (default: on)"),
    arg("--jacoby", action="store_true",
        help="money play: gammons count single unless the cube was turned"),
    arg("--beavers", action="store_true",
        help="money play: a doubled player may redouble at once, keeping the cube"),
    arg("--automatic-doubles", type=_count, default=0, metavar="N",
        help="money play: a tied opening roll doubles the stake, at most N times a game"),
    arg("--max-cube", type=_count, metavar="N", help="the highest cube value (a power of 2)"),
    arg("--opening-reroll", action="store_true",
        help="the opening roll's winner rolls both dice afresh"),
    arg("--auto-forced", action="store_true", help="make forced plays automatically"),
    arg("--auto-race-roll", action="store_true",
        help="roll automatically in a pure race when there is no cube action"),
    arg("--no-crawford", action="store_true", help="a match without the Crawford rule"),
    arg("--computer", nargs="?", type=_level, const=Level.INTERMEDIATE, metavar="LEVEL",
        help="play against the computer, at LEVEL: beginner, casual, intermediate (the default), "
        "advanced, expert (1-ply), strongest (2-ply) or world-class (3-ply)"),
    arg("--colour", choices=("white", "black"),
        help="with --computer: the colour you play (default white, the first seat)"),
    arg("--names", nargs=2, metavar=("FIRST", "SECOND"),
        help="the players' names (default: White Black, or Computer for the computer's seat); "
        "FIRST plays white"),
    arg("--seed", metavar="S",
        help="seeded dice (and the computer's choices), to play the same game again"),
    arg("--manual-dice", action="store_true",
        help="type the numbers of physical dice instead of rolling"),
    arg("--position", metavar="ID",
        help="start from this position: a gnubg Position ID (white to roll), a full gnubg ID "
        "or an XGID (these give the dice, the cube, and the match length and score too)"),
)
def _play(args: argparse.Namespace) -> int:
    if args.seed is not None and args.manual_dice:
        raise BackgammonError("--seed and --manual-dice do not go together: choose one.")
    dice: DiceSource
    if args.manual_dice:
        dice = ManualDice()
    elif args.seed is not None:
        # A number seeds as a number, so `--seed 7` repeats what SeededDice(7) rolls.
        dice = SeededDice(int(args.seed) if args.seed.lstrip("-").isdigit() else args.seed)
    else:
        dice = SecureDice()
    start = None
    rotation: tuple[str, ...] = ()
    if args.game is not None:
        rules, rotation = _game_rules(args)
    else:
        variant = Variant(args.variant)
        rules = Rules(
            variant,
            cube=args.cube is not False,
            jacoby=args.jacoby,
            beavers=args.beavers,
            automatic_doubles=args.automatic_doubles,
            max_cube=args.max_cube,
            opening_reroll=args.opening_reroll,
            auto_forced=args.auto_forced,
            auto_race_roll=args.auto_race_roll,
        )
        if args.position is not None:
            start = setup_from_id(args.position, checkers=variant.checkers)
    players = _players(args)
    names = default_names(players) if args.names is None else (args.names[0], args.names[1])
    options = SessionOptions(
        length=args.match_length,
        rules=rules,
        names=names,
        crawford=not args.no_crawford,
        start=start,
        players=players,
        level=args.computer or Level.INTERMEDIATE,
        # The dice's seed seeds the computer's noise too, so that a game can be replayed.
        seed=None if args.seed is None else zlib.crc32(args.seed.encode()),
        rotation=rotation,
    )
    return run(dice_source=dice, options=options)


#: The options of ``play`` that belong to backgammon's rules, with the value that leaves each
#: out: another game (--game) is played by its own rules, without the cube.
_BACKGAMMON_ONLY = {
    "--variant": "standard", "--cube": None, "--jacoby": False,
    "--beavers": False, "--automatic-doubles": 0, "--max-cube": None,
    "--opening-reroll": False, "--auto-race-roll": False, "--no-crawford": False,
    "--position": None,
}


def _game_rules(args: argparse.Namespace) -> tuple[Rules, tuple[str, ...]]:
    """The rules of the game ``--game`` names, and the games in turn of a Tavli match;
    BackgammonError for an option of backgammon's given with it."""
    given = [flag for flag, unset in _BACKGAMMON_ONLY.items()
             if getattr(args, flag[2:].replace("-", "_")) != unset]
    if given:
        raise BackgammonError(
            f"--game {args.game} is played by its own rules: "
            f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} backgammon's. "
            "Leave them out."
        )
    if args.game == TAVLI_MATCH:
        return Rules.for_game(TAVLI[0], auto_forced=args.auto_forced), TAVLI
    return Rules.for_game(args.game, auto_forced=args.auto_forced), ()


def _players(args: argparse.Namespace) -> tuple[PlayerKind, PlayerKind]:
    """Who plays each seat: two people, or a person and the computer (--computer, --colour)."""
    if args.computer is None:
        if args.colour is not None:
            raise BackgammonError("--colour chooses your colour against the computer: "
                                  "add --computer.")
        return "human", "human"
    if args.colour == "black":
        return "computer", "human"
    return "human", "computer"


@subcommand(
    "moves",
    "Print the board and the numbered legal plays of a position and a roll.",
    arg("id", metavar="ID", help="a gnubg Position ID, the player on roll's view"),
    arg("dice", metavar="DICE", nargs="+", help="the roll: 31, 3-1 or 3 1"),
    arg(
        "--checkers",
        type=_checker_count,
        default=MAX_CHECKERS,
        metavar="N",
        help="checkers a side, to count those borne off (default 15; 3 for Hypergammon)",
    ),
)
def _moves(args: argparse.Namespace) -> int:
    position = Position.from_id(args.id, checkers=args.checkers)
    dice = parse_dice(" ".join(args.dice))
    print(position)
    outcome = position.outcome()
    if outcome is not None:
        # The position has no colours: the player on roll is drawn as O.
        print(f"The game is over: {outcome_text(outcome, 'O')}")
        return 0
    plays = position.legal_plays(dice)
    roll = f"{dice[0]}-{dice[1]}"
    if not plays:
        print(f"No legal play with {roll}: the player on roll dances.")
        return 0
    print(f"Legal plays of {roll} ({len(plays)}):")
    print(format_plays(plays))
    return 0


@subcommand(
    "train",
    "Train the computer player's networks, with checkpoints: by self-play TD(lambda) "
    "(--stage td), on targets from the bot's own search (--stage search), or on rollouts of "
    "its own positions, in generations (--stage rollout).",
    arg("--stage", choices=("td", "search", "rollout"), default="td",
        help="td: self-play TD(lambda) from random weights; search: supervised on the n-ply "
        "values of the networks given with --from; rollout: generations of rollout-labelled "
        "positions, kept in --out (default td)"),
    arg("--games", type=int, default=400_000, help="td: games in the whole run (400000)"),
    arg("--out", default=None,
        help="folder of checkpoints (default data/training, or data/training-search)"),
    arg("--resume", action="store_true", help="go on from the checkpoint in --out"),
    arg("--seed", type=int, default=1, help="seed of the weights and dice (default 1)"),
    arg("--from", dest="start", default="src/backgammon/bot/weights/td.npz", metavar="FILE",
        help="search: the networks to start from (default the shipped ones)"),
    arg("--plies", type=int, default=1, help="search: the depth of the labelling search (1)"),
    arg("--positions", type=int, default=20_000,
        help="search, rollout: positions labelled each round or generation (20000)"),
    arg("--generations", type=int, default=1,
        help="rollout: generations in the whole run, those already in --out included (1)"),
    arg("--trials", type=int, default=36,
        help="rollout: trials of each position's rollout (36; a multiple of 36)"),
    arg("--truncate", type=int, default=9,
        help="rollout: turns of each trial before the network's value stands in (9)"),
    arg("--no-luck", dest="luck", action="store_false",
        help="rollout: no luck adjustment of the trials (cheaper, noisier labels)"),
    arg("--workers", type=int, default=1, help="rollout: processes that label (1)"),
    arg("--save-minutes", type=float, default=3.0, metavar="M",
        help="rollout: save the labels of the generation in progress every M minutes (3)"),
    arg("--rounds", type=int, default=10, help="search: rounds (10)"),
    arg("--explore", type=float, default=0.1,
        help="search: chance of a random play in the games that give the positions (0.1)"),
    arg("--epochs", type=int, default=None,
        help="search, rollout: passes over the positions each round or generation (2; 4)"),
    arg("--hidden", type=int, default=None,
        help="hidden units of the contact network (td: 80; rollout: those of --from, and more "
        "widen it)"),
    arg("--race-hidden", type=int, default=40, help="hidden units of the race network (40)"),
    arg("--lam", type=float, default=0.7, help="TD(lambda)'s lambda (default 0.7)"),
    arg("--lr", type=float, default=None,
        help="learning rate (td: at the start, default 0.03; search: 0.0005; rollout: 0.001)"),
    arg("--lr-end", type=float, default=0.006, help="td: learning rate at the end (0.006)"),
    arg("--parallel", type=int, default=32, help="games played at once (default 32)"),
    arg("--eval-every", type=int, default=10_000, metavar="N",
        help="duel pubeval and write the checkpoint every N games (default 10000; 0: never)"),
    arg("--eval-games", type=int, default=None,
        help="games of each duel (default 200; rollout: 400)"),
    arg("--checkpoint-minutes", type=float, default=10.0, metavar="M",
        help="keep a copy of the checkpoint every M minutes (default 10)"),
    arg("--no-progress", action="store_true", help="no progress bar"),
)
def _train(args: argparse.Namespace) -> int:
    # Training runs one process on one core: OpenBLAS's threads only fight over the cores for
    # batches this small. The variable is read when numpy loads, so it is set before.
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    if args.stage == "rollout":
        return _train_generations(args)
    eval_games = 200 if args.eval_games is None else args.eval_games
    if args.stage == "search":
        return _train_search(args, eval_games)
    return _train_td(args, eval_games)


def _train_generations(args: argparse.Namespace) -> int:
    """``train --stage rollout``: generations of networks fitted to rollouts."""
    import shlex
    from pathlib import Path

    from ..training import generations

    defaults = generations.Settings()
    return generations.train(
        generations.Settings(
            out=Path(args.out or defaults.out),
            start=Path(args.start),
            generations=args.generations,
            positions=args.positions,
            trials=args.trials,
            truncate=args.truncate,
            luck=args.luck,
            hidden=args.hidden or defaults.hidden,
            explore=args.explore,
            workers=args.workers,
            seed=args.seed,
            epochs=args.epochs or defaults.epochs,
            lr=defaults.lr if args.lr is None else args.lr,
            eval_games=defaults.eval_games if args.eval_games is None else args.eval_games,
            save_minutes=args.save_minutes,
            resume=args.resume,
            progress=not args.no_progress,
            command=shlex.join(["backgammon", *args.argv]),
        )
    )


def _train_search(args: argparse.Namespace, eval_games: int) -> int:
    """``train --stage search``: rounds of networks fitted to their own deeper search."""
    from pathlib import Path

    from ..training import supervised

    return supervised.train(
        supervised.Settings(
            start=Path(args.start),
            plies=args.plies,
            positions=args.positions,
            rounds=args.rounds,
            seed=args.seed,
            explore=args.explore,
            epochs=args.epochs or supervised.Settings.epochs,
            lr=supervised.Settings.lr if args.lr is None else args.lr,
            parallel=args.parallel,
            eval_games=eval_games,
            out=Path(args.out or "data/training-search"),
            resume=args.resume,
            progress=not args.no_progress,
        )
    )


def _train_td(args: argparse.Namespace, eval_games: int) -> int:
    """``train`` (the first stage): TD(lambda) self-play."""
    from pathlib import Path

    from ..training.train import Settings, train

    return train(
        Settings(
            games=args.games,
            seed=args.seed,
            hidden=args.hidden or Settings.hidden,
            race_hidden=args.race_hidden,
            lam=args.lam,
            lr=Settings.lr if args.lr is None else args.lr,
            lr_end=args.lr_end,
            parallel=args.parallel,
            eval_every=args.eval_every,
            eval_games=eval_games,
            checkpoint_minutes=args.checkpoint_minutes,
            out=Path(args.out or "data/training"),
            resume=args.resume,
            progress=not args.no_progress,
        )
    )


@subcommand(
    "bearoff",
    "Build the one-sided bearoff table (15 checkers on the home points) into a .npz file.",
    arg("--out", default="bearoff.npz", help="the file to write (default bearoff.npz)"),
)
def _bearoff(args: argparse.Namespace) -> int:
    import time

    from ..bot import build_table

    started = time.monotonic()
    table = build_table()
    table.save(args.out)
    print(f"Wrote the bearoff table ({len(table.off)} positions) to {args.out} "
          f"in {time.monotonic() - started:.1f} s.")
    return 0


@subcommand(
    "selfplay",
    "Let the computer play itself and write the games (or a match) as a .mat file.",
    arg("--games", type=int, default=10, help="games of the money session (default 10)"),
    arg("--match-length", type=int, default=0, metavar="L",
        help="play one match to L points instead (default 0: a money session)"),
    arg("--seed", type=int, default=None, help="seed of the dice and the bots' noise"),
    arg("--level", type=_level, choices=list(Level), default=Level.ADVANCED,
        help="the strength of both bots (default advanced: 0-ply)"),
    arg("--out", required=True, metavar="FILE.mat", help="the .mat file to write"),
)
def _selfplay(args: argparse.Namespace) -> int:
    from pathlib import Path

    from ..bot import Bot
    from ..formats.mat import export_mat
    from ..training.selfplay import selfplay

    if args.games < 1 or args.match_length < 0:
        raise BackgammonError("Play at least one game, and a match of 0 points or more.")
    bots = (Bot(level=args.level, seed=args.seed),) * 2
    names = (f"Bot {args.level.value} 0", f"Bot {args.level.value} 1")
    match = selfplay(args.games, args.match_length, args.seed, bots, names)
    Path(args.out).write_text(export_mat(match))
    played = sum(game.result is not None for game in match.games)
    print(f"Wrote {played} games to {args.out}; the score is {match.score[0]}-{match.score[1]}.")
    return 0


@subcommand(
    "serve",
    "Play in the browser: start the web app (http://127.0.0.1:8000 unless told otherwise).",
    arg("--host", help="the address to listen on (default: $BACKGAMMON_HOST or 127.0.0.1)"),
    arg("--port", type=int, help="the port to listen on (default: $BACKGAMMON_PORT or 8000)"),
)
def _serve(args: argparse.Namespace) -> int:
    from dataclasses import replace

    try:
        import uvicorn

        from ..server import Settings, create_app
        from ..server.protocol import TimedHttp
    except ImportError as exc:
        raise BackgammonError(
            f"The web app needs the server extra: pip install -e '.[server]' ({exc})."
        ) from exc
    settings = Settings.from_env()
    settings = replace(settings, host=args.host or settings.host, port=args.port or settings.port)
    print(f"Backgammon: open http://{settings.host}:{settings.port}/ (Ctrl-C stops it).")
    # The WebSockets' pushes go uncompressed (docs/guide/http-api.md, "Live updates"): a push is a
    # kilobyte or two, and compressing it cost each action more CPU than the rest of its push.
    # TimedHttp: a request must arrive whole within a deadline (a half-sent one holds no
    # connection for long).
    uvicorn.run(create_app(settings), host=settings.host, port=settings.port,
                ws_per_message_deflate=False, http=TimedHttp)
    return 0


# Subcommands with modules of their own, registered once the registry above exists.
subcommand("rollout", _rollout.SUMMARY, *_rollout.ARGUMENTS)(_rollout.rollout_command)
subcommand("analyse", _analyse.SUMMARY, *_analyse.ARGUMENTS)(_analyse.analyse_command)
subcommand("external", _external.SUMMARY, *_external.ARGUMENTS)(_external.external_command)
subcommand("hint", _engine_tools.HINT_SUMMARY, *_engine_tools.HINT_ARGUMENTS)(
    _engine_tools.hint_command
)
subcommand("eval", _engine_tools.EVAL_SUMMARY, *_engine_tools.EVAL_ARGUMENTS)(
    _engine_tools.eval_command
)
subcommand("truth", _truth.SUMMARY, *_truth.ARGUMENTS)(_truth.truth_command)
subcommand("verify-dice", _verify.SUMMARY, *_verify.ARGUMENTS)(_verify.verify_command)
subcommand("reports", _reports.SUMMARY, *_reports.ARGUMENTS)(_reports.reports_command)
