"""A subcommand's arguments, declared as data: the subcommands' modules build their lists with
:func:`arg`, and :func:`backgammon.cli.subcommand` registers them.

A module of its own, below the package's ``__init__``, so that the subcommands' modules need
not import the package that imports them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Argument:
    """One ``add_argument`` call of a subcommand: its names or flags and its options."""

    flags: tuple[str, ...]
    options: dict[str, Any] = field(default_factory=dict)


def arg(*flags: str, **options: Any) -> Argument:
    """An argument of a subcommand, given as to :meth:`argparse.ArgumentParser.add_argument`."""
    return Argument(flags, options)
