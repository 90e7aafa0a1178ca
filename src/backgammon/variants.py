"""The variants: standard backgammon, Nackgammon and Hypergammon.

The rules are the same in all three; only the starting position and the number of checkers
change. Each layout is a mapping of the player's own point numbers to checker counts, the same
for both players (RULES.md: "mirrored for the opponent").

>>> Variant("nackgammon").checkers
15
>>> Variant.HYPERGAMMON.layout
{24: 1, 23: 1, 22: 1}
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from .errors import BackgammonError


class Variant(StrEnum):
    """A variant of backgammon, selected by name."""

    STANDARD = "standard"
    NACKGAMMON = "nackgammon"
    HYPERGAMMON = "hypergammon"

    @classmethod
    def _missing_(cls, value: object) -> Variant:
        if isinstance(value, str):
            for member in cls:
                if member.value == value.strip().lower():
                    return member
        names = ", ".join(member.value for member in cls)
        raise BackgammonError(f"Unknown variant {value!r}: choose one of {names}.")

    @property
    def layout(self) -> dict[int, int]:
        """The starting checkers of each player: own point number -> count."""
        return dict(_LAYOUTS[self])

    @property
    def checkers(self) -> int:
        """How many checkers each player has in this variant."""
        return sum(_LAYOUTS[self].values())


_LAYOUTS: Mapping[Variant, Mapping[int, int]] = MappingProxyType(
    {
        # RULES.md, Board and equipment: 2 on the 24, 5 on the 13, 3 on the 8, 5 on the 6.
        Variant.STANDARD: MappingProxyType({24: 2, 13: 5, 8: 3, 6: 5}),
        # 2 on the 24, 2 on the 23, 4 on the 13, 3 on the 8, 4 on the 6.
        Variant.NACKGAMMON: MappingProxyType({24: 2, 23: 2, 13: 4, 8: 3, 6: 4}),
        # 3 checkers: one each on the 24, 23 and 22.
        Variant.HYPERGAMMON: MappingProxyType({24: 1, 23: 1, 22: 1}),
    }
)
