"""What a computer seat does when the game waits for it: the bot's own action (the seam
:func:`backgammon.bot.act`), made in a worker thread on a shadow copy of the match.

The real match changes only on the event loop, so a page that reads its state while the
computer thinks never sees it half-changed: the bot acts on the shadow, and the events it
adds there are then applied to the real match (:func:`think` returns them).
"""

from __future__ import annotations

import threading
from typing import Any

from ..bot import Bot, Level
from ..bot import act as bot_act
from ..match import Match

_bots: dict[Level, Bot] = {}
# One bot a level, shared by every match; its search is not known to be thread-safe.
_lock = threading.Lock()


def _bot(level: Level) -> Bot:
    bot = _bots.get(level)
    if bot is None:
        bot = _bots[level] = Bot(level=level)
    return bot


def think(shadow: Match, seat: int, level: Level) -> list[dict[str, Any]]:
    """Let the computer make ``seat``'s action on ``shadow``; the events it added, as
    :meth:`backgammon.game.Event.to_dict` writes them."""
    game = shadow.game
    before = len(game.events)
    with _lock:
        bot_act(_bot(level), game, seat, shadow)
    return [event.to_dict() for event in game.events[before:]]
