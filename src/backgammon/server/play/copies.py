"""Bringing a process's copy of a match up to date with what other processes saved, where
several serve the same matches (a database they share): from the news of their saves, told
through the relay (:func:`take_news`), or from the events of the row's record that the copy
lacks (:func:`catch_up`), each event applied and shown to the watching pages in turn
(:func:`apply_events`). :meth:`.store.MatchStore.current` decides which; in one process on
SQLite none of this runs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ...dice import SeededDice
from ...errors import BackgammonError
from .live import LiveMatch, fair_dice_of
from .news import News

#: What shows the pages the state a copy has come to (:attr:`.store.MatchStore.shown`).
Shown = Callable[[LiveMatch, Mapping[int | None, str], bool], None]


def may_hold(live: LiveMatch) -> bool:
    """Whether ``live`` can take news (:meth:`.store.MatchStore.hold`) rather than be read
    from its row: a copy whose save failed, a match unheld or waiting for its opponent
    (whose seats may have been taken elsewhere) are read."""
    return not (live.stale or live.seating.unheld or live.seating.invite is not None)


def take_news(live: LiveMatch, news: Sequence[News], shown: Shown) -> bool:
    """Apply to ``live`` the events of the ``news`` (:func:`.news.read_news`, in the order
    they were told) that it lacks, each shown; False where they do not go on from it (a
    notice lost), and ``live`` marked stale (to be read whole) if one cannot be applied."""
    if not may_hold(live):
        return False
    for told in news:
        before, games, events = told.before, told.games, told.events
        if before + len(events) <= live.version:
            continue  # taken already, from the row
        if before != live.version or games != len(live.match.games):
            return False
        # What the copy makes of the events must be what the process that told made;
        # the state it told is shown after the last.
        shared: dict[int | None, str] = {} if told.shared is None else {before: told.shared}
        if (not apply_events(live, [(games - 1, event) for event in events], shown, shared)
                or told.score != list(live.match.score) or live.match.game.result is not None):
            live.stale = True
            return False
    return True


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
    if not apply_events(live, missing, shown):
        return False
    # The row's dice are the match's, and a match claimed whole is over there too.
    return (record.get("dice") == fair_dice_of(live.match)
            and record.get("forfeited") == live.match.forfeited)


def apply_events(
    live: LiveMatch,
    missing: list[tuple[int, dict[str, Any]]],
    shown: Shown,
    shared: Mapping[int | None, str] | None = None,
) -> bool:
    """Apply the events ``missing`` (each with its game's index, the game in play's) to
    ``live`` one at a time, each shown (the last with the texts ``shared``, made by the
    process that told them); False if one cannot be (the copy is then to be read
    whole)."""
    try:
        for number, (index, event) in enumerate(missing, 1):
            if index != len(live.match.games) - 1:
                return False
            # A player's seed is an event too, so the dice have it before they roll.
            live.match.game.apply_record([event], f"game {index + 1}")
            shown(live, shared if shared and number == len(missing) else {}, False)
    except BackgammonError:
        return False
    # Seeded dice go on from the rolls the record has drawn, as they would have.
    if isinstance(live.match.dice_source, SeededDice):
        live.match.dice_source.resume(live.match.rolls_drawn)
    return True
