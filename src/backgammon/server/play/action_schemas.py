"""The bodies of ``POST /api/matches/{id}/actions``: one model an action, told apart by its
``action`` (:data:`ActionRequest`). Point numbers are the moving player's own (1..24, 25 the
bar, 0 off), as in the game's notation.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import ConfigDict, Field, StrictBool, StrictInt

from .schemas import Ascii, RequestBody, Seat


class _Action(RequestBody):
    seat: Seat = Field(description="the seat that acts")
    version: StrictInt = Field(
        ge=0,
        description="the state's version the action was made on (required); a stale one "
        "is refused (409) and changes nothing, so a double click, or the same action sent "
        "twice, acts once",
    )


class Roll(_Action):
    """Roll the dice (the opening roll rolls one die a seat)."""

    action: Literal["roll"]


class Double(_Action):
    """Offer a double before rolling."""

    action: Literal["double"]


class Take(_Action):
    """Take the double offered."""

    action: Literal["take"]


class Drop(_Action):
    """Drop the double offered, conceding the game."""

    action: Literal["drop"]


class Beaver(_Action):
    """Redouble at once, keeping the cube (money play with beavers)."""

    action: Literal["beaver"]


class Step(_Action):
    """Move one checker by one die, on the mover's own point numbers."""

    model_config = ConfigDict(populate_by_name=True)

    action: Literal["step"]
    from_: StrictInt = Field(alias="from", ge=0, le=25, description="25 is the bar")
    to: StrictInt = Field(ge=0, le=25, description="0 is off")


class Undo(_Action):
    """Take back the last step of this turn."""

    action: Literal["undo"]


class Confirm(_Action):
    """End the turn once its steps make a whole play."""

    action: Literal["confirm"]


class Play(_Action):
    """Play a whole turn in notation, such as ``13/7 8/7``."""

    action: Literal["play"]
    play: Ascii = Field(max_length=200)


class Resign(_Action):
    """Offer to resign: 1 a single game, 2 a gammon, 3 a backgammon."""

    action: Literal["resign"]
    level: StrictInt = Field(1, ge=1, le=3)


class Claim(_Action):
    """Claim the game of an opponent who has left an online match (the state's ``claim``
    says from when): it ends as their resignation at ``level`` would; ``match``: the
    whole match too."""

    action: Literal["claim"]
    level: StrictInt = Field(1, ge=1, le=3)
    match: StrictBool = False


class Accept(_Action):
    """Accept the resignation offered."""

    action: Literal["accept"]


class Reject(_Action):
    """Reject the resignation offered; the game goes on."""

    action: Literal["reject"]


class Name(_Action):
    """Acey-deucey, after playing a 1-2: name the double to play (then roll again)."""

    action: Literal["name"]
    die: StrictInt = Field(ge=1, le=6, description="the number of the double: 1 to 6")


ActionRequest = Annotated[
    Roll | Double | Take | Drop | Beaver | Step | Undo | Confirm | Play | Resign | Accept | Reject
    | Claim | Name,
    Field(discriminator="action"),
]
