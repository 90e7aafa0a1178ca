"""``backgammon verify-dice FILE``: recompute every roll of a record with fair dice.

:mod:`backgammon.cli` registers it::

    subcommand("verify-dice", SUMMARY, *ARGUMENTS)(verify_command)

FILE is a match's record (what ``GET /api/matches/{id}/record`` answers, or a match saved
as JSON) or one game's, or ``-`` for the standard input. The exit status is 0 when every
roll of every revealed game matches its seeds, 1 when one does not (the first differing
roll of each game is named), 2 for a file that cannot be checked (with a sentence why).

>>> import argparse, json, tempfile, pathlib
>>> from backgammon.fairdice import FairDice, FairMatchDice
>>> from backgammon.game.match import Match
>>> dice = FairDice(server_seed=bytes(32))  # a fixed seed: its opening roll, 2-4, is no tie
>>> match = Match(1, dice=FairMatchDice([dice]))
>>> match.game.roll(0)
>>> match.game.resign(match.game.on_roll)
>>> match.game.accept(1 - match.game.on_roll)
>>> with tempfile.TemporaryDirectory() as folder:
...     path = pathlib.Path(folder) / "record.json"
...     _ = path.write_text(json.dumps(match.to_dict()))
...     verify_command(argparse.Namespace(file=str(path), json=False))
Game 1: 1 roll, all as derived; the server seed hashes to the commitment.
  server seed 0000000000000000000000000000000000000000000000000000000000000000
  commitment  66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925
  seeds       '' (seat 0), '' (seat 1)
Every roll matches the seeds: 1 roll in 1 game.
0
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..game import load_json
from ..game.verify import NotARecordError, verify_dice
from .arguments import Argument, arg

SUMMARY = (
    "Check the provably fair dice of a finished game: recompute every roll of a record from "
    "its revealed seeds and say whether they all match."
)

ARGUMENTS: tuple[Argument, ...] = (
    arg("file", metavar="FILE",
        help="the record: a match's (as GET /api/matches/<id>/record answers it) or a game's "
        "JSON, or - for the standard input"),
    arg("--json", action="store_true", help="print the check as JSON"),
)


def verify_command(args: argparse.Namespace) -> int:
    """Check the record the arguments name and print the verdict; the exit status."""
    report = verify_dice(load_json(_read(args.file), "record"))
    if args.json:
        print(json.dumps(report.to_dict(), indent=2))
    else:
        print(report.text())
    return 0 if report.ok else 1


def _read(name: str) -> str:
    if name == "-":
        return sys.stdin.read()
    try:
        return Path(name).expanduser().read_text(encoding="utf-8")
    except OSError as exc:
        raise NotARecordError(f"Cannot read {name}: {exc.strerror or exc}.") from exc
    except UnicodeDecodeError as exc:
        raise NotARecordError(f"Cannot read {name}: it is not a text file.") from exc
