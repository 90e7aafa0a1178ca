"""An open backgammon system: the rules, a computer player, and the formats other programs speak.

>>> from backgammon import Position
>>> p = Position.initial()
>>> sorted(str(play) for play in p.legal_plays((3, 1)))[:3]
['13/10 6/5', '13/10 8/7', '13/9']
"""

from .dice import ALL_ROLLS, Dice, check_dice
from .errors import (
    BackgammonError,
    IllegalPlayError,
    InvalidDiceError,
    InvalidIdError,
    InvalidPositionError,
)
from .moves import Play, Step
from .position import BAR, OFF, Outcome, Position, Side, WinKind
from .turns import Turn
from .variants import Variant

__all__ = [
    "ALL_ROLLS",
    "BAR",
    "OFF",
    "BackgammonError",
    "Dice",
    "IllegalPlayError",
    "InvalidDiceError",
    "InvalidIdError",
    "InvalidPositionError",
    "Outcome",
    "Play",
    "Position",
    "Side",
    "Step",
    "Turn",
    "Variant",
    "WinKind",
    "check_dice",
]
