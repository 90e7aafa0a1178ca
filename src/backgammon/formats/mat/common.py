"""What the ``.mat`` reader and writer share: the error, and the names of the variants."""

from __future__ import annotations

from ...errors import BackgammonError
from ...variants import Variant


class MatFormatError(BackgammonError):
    """A ``.mat`` file that cannot be read, or whose match the rules do not allow.

    ``line`` is the number of the line at fault (1 for the first), or None when the fault
    is not on one line (or when writing).
    """

    def __init__(self, line: int | None, message: str) -> None:
        super().__init__(f"Line {line}: {message}" if line is not None else message)
        self.line = line


#: What follows the points of a game won by a claim (``Wins 1 point (claimed)``): the other
#: player had left, and the game was scored as their resignation would have been.
CLAIMED = "(claimed)"

#: The variants as the ``[Variation]`` header names them (GNU Backgammon's words).
VARIATION_NAMES = {
    Variant.STANDARD: "Backgammon",
    Variant.NACKGAMMON: "NackGammon",
    Variant.HYPERGAMMON: "HyperGammon (3)",
}

#: What a reader takes for each variant: the names, in any case, and what other programs write.
VARIATIONS = {
    **{name.lower(): variant for variant, name in VARIATION_NAMES.items()},
    "standard": Variant.STANDARD,
    "hypergammon": Variant.HYPERGAMMON,
}
