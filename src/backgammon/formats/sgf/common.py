"""What the ``.sgf`` reader and writer share: the error, a node's shape, the variants' rules."""

from __future__ import annotations

from ...errors import BackgammonError
from ...variants import Variant

#: The variants as ``RU`` names them (gnubg's Hypergammon with three checkers is ours).
VARIANT_RULES = {Variant.NACKGAMMON: "Nackgammon", Variant.HYPERGAMMON: "Hypergammon3"}


class SgfFormatError(BackgammonError):
    """An ``.sgf`` file that cannot be read, or whose match the rules do not allow; the
    message names the game (from 1) and the node (from 1, the root) at fault."""

    def __init__(self, message: str, game: int | None = None, node: int | None = None) -> None:
        where = ""
        if game is not None:
            where = f"Game {game}" + (f", node {node}" if node is not None else "") + ": "
        super().__init__(where + message)
        self.game = game
        self.node = node


Node = dict[str, list[str]]

