"""What a process tells the others of a save (through the relay), and how it is read back.

A save's news is its new events with the score they make, as one JSON line, and after a
player's action the new state on lines of its own: the part every page shares, then each
seat's side (:meth:`.views.Shown.told`). The other processes push that state to their pages
and take the events into their copies (:meth:`.store.MatchStore.current`) instead of reading
the row.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from ...game.match import Match

#: The most events a save's news carries (:func:`news_of`); more are read from the row.
NEWS_EVENTS = 64


def news_of(match: Match, before: int, version: int, state: str | None = None) -> str | None:
    """What a save of ``match`` from version ``before`` to ``version`` added to its record,
    as text for the other processes: the events, when they are all of the game in play,
    which is not over (an ending changes more than the record's events: the score, the next
    game's fair dice, a match claimed), and not too many; else None. The score goes with
    them, for the other process to check its copy against, and, on lines of their own, the
    ``state`` the pages that saw version ``before`` are to be shown where it is given
    (:meth:`.views.Shown.told`): that process pushes it rather than making it again.

    >>> from backgammon.dice import ManualDice
    >>> from backgammon.game import Act, Action
    >>> match = Match(3, dice=ManualDice(["6 1"]))
    >>> match.game.act(0, Act(Action.ROLL))
    >>> read_news(news_of(match, 0, 1, '{"id":"x"}')).events[0]["dice"]
    [6, 1]
    >>> news_of(match, 0, 2) is None  # more events than the game has: another game's too
    True
    """
    added, events = version - before, match.game.events
    if not 0 < added <= min(len(events), NEWS_EVENTS) or match.game.result is not None:
        return None
    told = json.dumps({"before": before, "games": len(match.games), "score": list(match.score)},
                      separators=(",", ":"))
    # The events' texts are made once (Event.text), for the record's saves too.
    text = f'{told[:-1]},"events":[{",".join(event.text for event in events[-added:])}]}}'
    # JSON texts hold no line break of their own.
    return text if state is None else f"{text}\n{state}"


class News(NamedTuple):
    """A save's news as read (:func:`read_news`): the version it went on from, the number of
    games then, the score and the events it made, and the state told, if any: its shared
    part's text (its record the changes since ``before``) and each seat's side's."""

    before: int
    games: int
    score: Any
    events: list[dict[str, Any]]
    shared: str | None
    sides: tuple[str, str] | None


def read_news(text: str) -> News | None:
    """The news of ``text`` (:func:`news_of`); None where it is not news this process
    understands (another version's, say: the row is read instead).

    >>> read_news('{"before":4,"games":1,"score":[0,0],"events":[{}]}\\n{"id":"x"}\\n"a"\\n"b"')
    News(before=4, games=1, score=[0, 0], events=[{}], shared='{"id":"x"}', sides=('"a"', '"b"'))
    >>> read_news('{"before":"4","games":1,"score":[0,0],"events":[{}]}') is None
    True
    """
    lines = text.split("\n")
    try:
        told = json.loads(lines[0])
        news = News(told["before"], told["games"], told["score"], told["events"],
                    lines[1] if len(lines) > 1 else None,
                    (lines[2], lines[3]) if len(lines) == 4 else None)
    except (ValueError, TypeError, KeyError):
        return None
    if not (isinstance(news.before, int) and isinstance(news.games, int)
            and isinstance(news.events, list) and news.events):
        return None
    return news
