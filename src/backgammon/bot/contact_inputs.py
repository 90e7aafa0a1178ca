"""The richer contact encoding (version 2) and the choice of encoding by a network's width.

Version 2 is version 1 (:func:`~backgammon.bot.encoding.encode_contact`, :data:`CONTACT_INPUTS`
inputs) followed by :data:`EXTRA_FEATURES` for each side (the player on roll first), of the
kind GNU Backgammon's contact inputs describe: checkers off in three steps, the pips needed to
break contact, anchors, the chance of being hit twice and the pips lost to hits, containment,
mobility, a one-sided moment of the checkers and the chance of staying on the bar. A network
is tied to its encoding by its number of inputs (:func:`contact_encoder`), so that files of
networks trained on version 1 load and play exactly as before.

As in :mod:`.encoding`, everything works on batches of ``(n, 26)`` uint8 count arrays, by
whole-array operations. Each feature is computed in float64 (or integers) and rounded once to
float32, so that the compiled kernel (:mod:`.kernel.evaluate`) gives the same bits.

>>> from backgammon import Position
>>> from .encoding import boards
>>> row = encode_contact_v2(*boards([Position.initial()]))[0]
>>> len(row) == CONTACT_INPUTS_V2
True
>>> float(row[CONTACT_INPUTS + 3])   # pips to break contact at the start: 152 of 152
1.0
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
from numpy.typing import NDArray

from ..errors import BackgammonError
from .encoding import (
    CONTACT_INPUTS,
    ESCAPES,
    ROLL_WEIGHTS,
    Board,
    Inputs,
    SideMasks,
    contact_rows,
    encode_contact,
    side_features,
)

#: The features each side adds in version 2, in order (the scale is in each name).
EXTRA_FEATURES = (
    "checkers off, the first five / 5",
    "checkers off, the next five / 5",
    "checkers off beyond ten / 5",
    "pips past the other side's rearmost checker (to break contact) / 152",
    "highest point made (the rearmost anchor) / 24",
    "most forward anchor on the other side's points 1..6, else 7..12, on its numbering / 6"
    " (2 without one)",
    "rolls on which the other side reaches two blots or more / 36",
    "pips lost to the hit of the farthest-forward blot reached, mean over 36 rolls / 12",
    "containment: 1 - (fewest escapes of a checker on the other side's points 16..24) / 36",
    "the containment squared",
    "containment of the other side's checkers: the same from its point 16 to its rearmost",
    "that containment squared",
    "mobility: sum over checkers on points 7..25 of escapes x (point - 6) / 3600",
    "one-sided moment: mean squared distance above the mean point, of checkers above it / 400",
    "chance that a checker on the bar stays out: (points made in the other home / 6) squared",
)
#: Inputs of the contact encoding, version 2.
CONTACT_INPUTS_V2 = CONTACT_INPUTS + 2 * len(EXTRA_FEATURES)

Encoder = Callable[[Board, Board], Inputs]

_POINTS = np.arange(26, dtype=np.int64)
# The other side's points whose containment is measured: 16..24 (its numbering).
_CONTAIN = np.arange(16, 25, dtype=np.int64)
# Points outside the home board, 7..25 (the bar), whose checkers' escapes make mobility.
_OUTSIDE = np.arange(7, 26, dtype=np.int64)


class EncodingError(BackgammonError):
    """A network whose number of inputs matches no contact encoding."""


def contact_encoder(inputs: int) -> Encoder:
    """The contact encoding of a network taking ``inputs`` inputs.

    >>> contact_encoder(CONTACT_INPUTS) is encode_contact
    True
    """
    if inputs == CONTACT_INPUTS:
        return encode_contact
    if inputs == CONTACT_INPUTS_V2:
        return encode_contact_v2
    raise EncodingError(
        f"A contact network takes {CONTACT_INPUTS} inputs (encoding 1) or {CONTACT_INPUTS_V2} "
        f"(encoding 2); this one takes {inputs}."
    )


def encode_contact_v2(mine: Board, theirs: Board) -> Inputs:
    """The version 2 contact encoding of a batch: ``(n, CONTACT_INPUTS_V2)`` float32."""
    n = len(mine)
    sides = np.concatenate((mine, theirs))
    features, masks = side_features(sides)
    extra = extra_features(sides, masks)
    return np.concatenate((contact_rows(mine, theirs, features), extra[:n], extra[n:]), axis=1)


def _containment(
    made_own: NDArray[np.integer], other_back: NDArray[np.int64]
) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """The two containments of :data:`EXTRA_FEATURES`: 1 - the fewest escapes (of 36 rolls)
    past this side's points of a checker on the other side's points 16..24, and the same
    counted only from its point 16 to its rearmost checker."""
    # Escapes of a checker on the other side's point j past this side's points: bits 25-j.. of
    # this side's mask (encoding._side_features reads the rearmost checker's the same way).
    escapes = ESCAPES[(made_own[:, None] >> (25 - _CONTAIN)) & 0xFFF].astype(np.int64)
    contain = (36 - escapes.min(axis=1)) / 36
    within = _CONTAIN[None, :] <= other_back[:, None]
    fewest = np.where(within, escapes, 36).min(axis=1)
    fewest = np.where(other_back == 25, np.minimum(fewest, ESCAPES[made_own & 0xFFF]), fewest)
    return contain, (36 - fewest) / 36


def extra_features(side: Board, masks: SideMasks) -> Inputs:
    """:data:`EXTRA_FEATURES` of each side of a batch stacked as (players on roll,
    opponents): ``(2n, 15)``, each row's side against the other side of its position;
    ``masks`` are what :func:`~.encoding.side_features` found for the same rows."""
    counts = side.astype(np.int64)
    off = counts[:, 0]
    made, made_own, hits = masks.made, masks.made_own, masks.hits
    other_made_own = made_own[masks.partner]
    other_back = masks.rearmost[masks.partner]

    # Pips to break contact: each checker's distance past the other side's rearmost checker,
    # which stands on this side's point 25 - r.
    front = 25 - other_back
    beyond = np.maximum(_POINTS[None, 1:] - front[:, None], 0)
    break_contact = (counts[:, 1:] * beyond).sum(axis=1)

    highest = np.where(made.any(axis=1), 24 - made[:, ::-1].argmax(axis=1), 0)
    forward = _forward_anchor(made)

    reached = np.bitwise_count(hits)
    double_shots = (reached >= 2) @ ROLL_WEIGHTS
    # A blot on point p is bit 25 - p of the masks: the pips it loses when hit.
    lost = np.where(hits > 0, np.frexp(hits.astype(np.float64))[1] - 1, 0)
    pip_loss = lost @ ROLL_WEIGHTS

    contain, acontain = _containment(made_own, other_back)

    own_escapes = ESCAPES[(other_made_own[:, None] >> (25 - _OUTSIDE)) & 0xFFF].astype(np.int64)
    mobility = (counts[:, 7:26] * own_escapes * (_OUTSIDE - 6)).sum(axis=1)

    moment = _moment(counts)
    closed_home = np.bitwise_count(other_made_own & 0x3F).astype(np.int64)

    features = np.stack(
        (
            np.minimum(off, 5) / 5,
            np.clip(off - 5, 0, 5) / 5,
            np.maximum(off - 10, 0) / 5,
            break_contact / 152,
            highest / 24,
            forward / 6,
            double_shots / 36,
            pip_loss / 432,
            contain,
            contain * contain,
            acontain,
            acontain * acontain,
            mobility / 3600,
            moment / 400,
            closed_home * closed_home / 36,
        ),
        axis=1,
    )
    return features.astype(np.float32)


def _forward_anchor(made: NDArray[np.bool_]) -> NDArray[np.int64]:
    """The other side's number (1..12) of this side's most forward anchor in the other's home
    board (its points 1..6, this side's 19..24), else in its outer board (7..12); 12 without
    one (so that the feature, / 6, is 2)."""
    home = made[:, 18:24]
    outer = made[:, 12:18]
    # The lowest of this side's points made is the other side's highest: 25 - p.
    in_home = 6 - home.argmax(axis=1)
    in_outer = 12 - outer.argmax(axis=1)
    return np.where(home.any(axis=1), in_home, np.where(outer.any(axis=1), in_outer, 12))


def _moment(counts: NDArray[np.int64]) -> NDArray[np.float64]:
    """The mean squared distance above the mean point (bar 25, checkers off left out) of
    the checkers above it; 0 where none is. Computed from integer sums, so that the kernel's
    loop gives the same bits."""
    on_board = counts[:, 1:26]
    points = _POINTS[1:]
    total = on_board.sum(axis=1)
    mean = (on_board @ points) / np.maximum(total, 1)
    above = points[None, :] > mean[:, None]
    many = (on_board * above).sum(axis=1)
    first = (on_board * above) @ points
    second = (on_board * above) @ (points * points)
    spread = second - 2 * mean * first + mean * mean * many
    return np.where(many > 0, spread / np.maximum(many, 1), 0.0)
