"""Bringing a process's copy of a match up to its row, where several processes serve the same
matches (a database they share): the events of the row's record that the copy lacks, each
applied and shown to the watching pages in turn (:func:`catch_up`). The row is the only
truth; :meth:`.store.MatchStore.current` reads it, and in one process on SQLite none of this
runs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ...dice import SeededDice
from ...errors import BackgammonError
from .live import LiveMatch, fair_dice_of

#: What shows the pages the state a copy has come to (:attr:`.store.MatchStore.shown`).
Shown = Callable[[LiveMatch, bool], None]


def catch_up(live: LiveMatch, record: dict[str, Any], shown: Shown) -> bool:
    """Apply to ``live`` the events of ``record`` (its row's, ``Match.to_dict()``) that it
    lacks, one at a time, each shown; False, and ``live`` to be read again whole, where
    the record does not go on from it."""
    have = live.match.games
    games: list[list[dict[str, Any]]] = record.get("games", [])
    missing: list[tuple[int, dict[str, Any]]] = []
    for index, events in enumerate(games):
        start = len(have[index].events) if index < len(have) else 0
        missing.extend((index, event) for event in events[start:])
    if sum(map(len, games)) - live.version != len(missing) or not missing:
        return False  # a game of this copy's is longer than the row's
    if len(games) != len(have):
        # A new game's fair dice were drawn by the process that started it: only the
        # row's are the match's.
        return False
    if not _apply_events(live, missing, shown):
        return False
    # The row's dice are the match's, and a match claimed whole is over there too.
    return (record.get("dice") == fair_dice_of(live.match)
            and record.get("forfeited") == live.match.forfeited)


def _apply_events(
    live: LiveMatch, missing: list[tuple[int, dict[str, Any]]], shown: Shown
) -> bool:
    """Apply the events ``missing`` (each with its game's index, the game in play's) to
    ``live`` one at a time, each shown; False if one cannot be (the copy is then to be read
    whole)."""
    try:
        for index, event in missing:
            if index != len(live.match.games) - 1:
                return False
            # A player's seed is an event too, so the dice have it before they roll.
            live.match.game.apply_record([event], f"game {index + 1}")
            shown(live, False)
    except BackgammonError:
        return False
    # Seeded dice go on from the rolls the record has drawn, as they would have.
    if isinstance(live.match.dice_source, SeededDice):
        live.match.dice_source.resume(live.match.rolls_drawn)
    return True
