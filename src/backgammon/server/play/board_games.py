"""The matches of the other games played on the board (:mod:`backgammon.games`: Portes, Tavla,
Plakoto, Fevga, Long Nardy, Acey-deucey, and Tavli's three in turn): made from a request,
what they refuse, and the computer's actions in them.

They are played against the computer, at one screen and online between people, through the
same routes, store and state as backgammon's matches (their record is the
:class:`~backgammon.game.match.BoardMatch`'s JSON; their ratings are kept per game,
:mod:`..accounts.ratings`). What has a meaning in backgammon alone is refused with a
sentence: a position ID, the cube's options, the tutor, the trainer's cards and exports to
GNU Backgammon's formats. Hints judge their plays in points (:mod:`.board_hints`), and the
analysis of a match its decisions (:func:`backgammon.server.analysis.analyses.board_report`);
neither reaches a player of an online match between people while it is played.
"""

from __future__ import annotations

import random

from fastapi import HTTPException, status

from ...bot import Level
from ...bot.games import accepts_resignation, games_player
from ...dice import DiceSource
from ...errors import BackgammonError
from ...fairdice import FairMatchDice
from ...game import Phase, Rules
from ...game.board_game import BoardGame
from ...game.match import BoardMatch
from ...games import TAVLI, TAVLI_MATCH, TITLES
from ...variants import Variant
from .live import LiveMatch, dice_for, game_name
from .schemas import CreateMatch


def new_board_match(
    request: CreateMatch, players: tuple[str, str], colours: tuple[str, str]
) -> BoardMatch:
    """The match of another game ``request`` asks for (its ``game``), waiting for its
    opening roll; 422 with the reason for what such a match cannot be."""
    assert request.game is not None
    why = _refusal(request, TITLES[request.game])
    if why is not None:
        raise HTTPException(422, why)
    try:
        return board_match(
            request.game,
            request.length,
            dice_for(request.seed),
            players=players,
            colours=colours,
            crawford=request.crawford,
            auto_forced=request.auto_forced,
            auto_race_roll=request.auto_race_roll,
        )
    except BackgammonError as exc:
        raise HTTPException(422, str(exc)) from None


def board_match(
    game: str,
    length: int,
    dice: DiceSource | FairMatchDice,
    *,
    players: tuple[str, str],
    colours: tuple[str, str],
    crawford: bool = True,
    auto_forced: bool = False,
    auto_race_roll: bool = False,
) -> BoardMatch:
    """A match of ``game`` (one of the other games, or ``tavli``: Portes, Plakoto and Fevga
    in turn) to ``length`` points, waiting for its opening roll: a new match's, a
    tournament's. BackgammonError where its rules refuse it.

    >>> board_match("tavli", 5, dice_for(None), players=("A", "B"),
    ...             colours=("white", "black")).plays
    'tavli'
    """
    tavli = game == TAVLI_MATCH
    rules = Rules.for_game(
        TAVLI[0] if tavli else game, auto_forced=auto_forced, auto_race_roll=auto_race_roll
    )
    return BoardMatch(
        length,
        rules,
        dice,
        rotation=TAVLI if tavli else (),
        players=players,
        colours=colours,
        crawford=crawford,
    )


def _refusal(request: CreateMatch, title: str) -> str | None:
    """Why a match of ``title`` cannot be made as ``request`` asks (None: it can)."""
    if request.position is not None:
        return (
            f"A match of {title} starts from its opening: a position ID is backgammon's "
            "(GNU Backgammon's formats have no such games)."
        )
    if request.variant is not Variant.STANDARD:
        return f"{title} has its own starting layout: leave out the variant."
    if request.jacoby or request.beavers or request.automatic_doubles or request.max_cube:
        return f"{title} is played without the cube, so it has no cube options."
    return None


def refuse_other_games(live: LiveMatch, what: str) -> None:
    """409 with a sentence where ``live`` is a match of another game, which ``what`` (the
    plural of a help or a file: "Hints", "Analyses", ".mat files") are not made for."""
    if live.board_game:
        title = TITLES.get(game_name(live.match), game_name(live.match))
        raise HTTPException(
            status.HTTP_409_CONFLICT,
            f"{what} are for backgammon alone: {title} has its own hints and analyses, and "
            "GNU Backgammon's formats have no such games.",
        )


def act_for(game: BoardGame, seat: int, level: Level) -> None:
    """Make ``seat``'s action in ``game``, which waits for it: roll, play (a step at a time,
    then the confirm, as a person does), name a double after a 1-2, or answer a
    resignation. The same game always gets the same action (its rng is seeded by its
    record's length), so a restarted server plans as the stopped one did."""
    player = games_player(game.game.name, level)
    rng = random.Random(len(game.events))
    phase = game.phase
    if phase is Phase.MOVE:
        assert game.turn is not None
        # Steps saved without their confirm are taken back: the play is planned afresh.
        while game.turn is not None and game.turn.made:
            game.undo(seat)
        assert game.turn is not None
        play = player.choose(game.game, game.turn.plays, rng)
        for step in play.steps:
            game.step(seat, step.from_point, step.to_point)
        if game.phase is Phase.CONFIRM:
            game.confirm(seat)
    elif phase is Phase.CONFIRM:
        game.confirm(seat)
    elif phase is Phase.NAME:
        game.name(seat, player.name_double(game.game, game.position, rng))
    elif phase is Phase.RESIGN:
        if accepts_resignation(game):
            game.accept(seat)
        else:
            game.reject(seat)
    else:
        game.roll(seat)
