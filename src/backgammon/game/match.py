"""A match to N points, or a money session: a series of games with a running score.

RULES.md, Matches: "the first to N points wins"; in the one game after a player first reaches
one point short of the match, no doubling (the Crawford rule); automatic doubles, beavers and
the Jacoby rule do not apply in matches. A session of money games (``length=0``) goes on until
the players stop.

The match's record is the records of its games, in order; replaying them rebuilds the match.

>>> from backgammon.dice import ManualDice
>>> match = Match(length=1, dice=ManualDice(["6 1"]))
>>> match.game.roll(0)                # seat 0 wins the opening roll
>>> match.game.resign(0)
>>> match.game.accept(1)
>>> match.score, match.is_over, match.winner
((0, 1), True, 1)
>>> Match.from_json(match.to_json()).score
(0, 1)
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any, Generic, Self, TypeVar

from ..cube import MAX_MATCH_LENGTH, MatchScore, is_whole
from ..dice import DiceSource, SecureDice, SeededDice
from ..errors import BackgammonError
from ..fairdice import FairDice, FairMatchDice
from ..games import TAVLI, TAVLI_MATCH
from ..position import WinKind
from .backgammon import Game
from .board_game import BoardGame
from .record import SCHEMA_VERSION, load_json
from .rules import Rules, check_seat
from .setup import SetUp

G = TypeVar("G", Game, BoardGame)


class Series(Generic[G]):
    """A match to ``length`` points (0: a money session) between two seats, of games of
    type ``G``: what a match of backgammon (:class:`Match`) and of the other games
    (:class:`BoardMatch`) share."""

    def __init__(
        self,
        length: int = 0,
        rules: Rules | None = None,
        dice: DiceSource | FairMatchDice | None = None,
        *,
        players: tuple[str, str] = ("Player 0", "Player 1"),
        colours: tuple[str, str] = ("white", "black"),
        crawford: bool = True,
        setup: SetUp | None = None,
        score: tuple[int, int] = (0, 0),
        crawford_game: bool = False,
    ) -> None:
        """``setup`` starts the first game in the middle of play (:class:`SetUp`), at
        ``score``; ``crawford_game`` says whether that game is the Crawford game (when a
        player is one point short; if not, the Crawford game has been played)."""
        if not is_whole(length) or not 0 <= length <= MAX_MATCH_LENGTH:
            raise BackgammonError(
                f"A match is played to a whole number of points from 1 to {MAX_MATCH_LENGTH} "
                f"(0 for money); got {length!r}."
            )
        if isinstance(dice, FairDice):
            # One server seed for every game would reveal the next games' dice at the first end.
            raise BackgammonError("A match's fair dice are FairMatchDice: a server seed a game.")
        self.length = length
        self.rules = rules or Rules()
        #: Fair dice (:class:`~backgammon.fairdice.FairMatchDice`) give each game its own.
        self.dice_source: DiceSource | FairMatchDice = dice or SecureDice()
        self.players = players
        self.colours = colours
        self.crawford_rule = crawford
        self.games: list[G] = []
        self.start_score = _start_score(score, length)
        self.score = self.start_score
        self.setup = setup
        self.crawford_game = bool(crawford_game)
        #: The seat that left and lost the match to a claim (RULES.md, Leaving a game).
        self.forfeited: int | None = None
        short = length > 1 and crawford and length - 1 in self.start_score
        if crawford_game and not short:
            raise BackgammonError(
                "Only a game after a player first reaches one point short of the match is "
                "the Crawford game.",
                code="crawford",
            )
        # A match set up one point short of its end is in or past its Crawford game.
        self.crawford_played = short and not crawford_game
        if length:
            # Built once here, so an option that matches do not allow is refused at once.
            self._new_game(0, in_match=True)
        self._next_game()

    @property
    def game(self) -> G:
        """The game being played (the last one, once the match is over)."""
        return self.games[-1]

    @property
    def is_over(self) -> bool:
        """True once a player has reached the match length (never for money play), or the
        match has been claimed from a player who left."""
        return self.forfeited is not None or (bool(self.length) and max(self.score) >= self.length)

    @property
    def winner(self) -> int | None:
        """The seat that won the match, or None while it goes on."""
        if not self.is_over:
            return None
        if self.forfeited is not None:
            return 1 - self.forfeited
        return 0 if self.score[0] >= self.length else 1

    def claim(
        self, seat: int, level: WinKind | int = WinKind.SINGLE, *, whole: bool = False
    ) -> None:
        """Claim the game of an opponent who has left it (:meth:`Game.claim`); ``whole``: the
        match too, which then ends, won by ``seat`` (RULES.md, Leaving a game).

        >>> from backgammon.dice import ManualDice
        >>> match = Match(5, dice=ManualDice(["6 1"]))
        >>> match.game.roll(0)
        >>> match.claim(1, whole=True)
        >>> match.score, match.is_over, match.winner
        ((0, 1), True, 1)
        >>> Match.from_dict(match.to_dict()).winner
        1
        """
        if whole:
            self.forfeited = 1 - check_seat(seat)
        try:
            self.game.claim(seat, level)
        except BackgammonError:
            self.forfeited = None
            raise

    def _next_game(self) -> None:
        crawford = False
        # The Crawford game: the one game after a player first reaches N-1 (so never in a
        # 1-point match, where no game follows).
        if (
            self.length > 1
            and self.crawford_rule
            and not self.crawford_played
            and self.length - 1 in self.score
        ):
            crawford = True
            self.crawford_played = True
        dice = self.dice_source
        index = len(self.games)
        self.games.append(
            self._new_game(
                index,
                dice=dice.for_game(index) if isinstance(dice, FairMatchDice) else dice,
                crawford=crawford,
                in_match=bool(self.length),
                on_over=self._game_over,
                colours=self.colours,
                score=MatchScore(self.length, self.score, crawford) if self.length else None,
            )
        )

    def _new_game(self, index: int, **options: Any) -> G:
        """A subclass's: game ``index`` (from 0) of the match, made with ``options``."""
        raise NotImplementedError

    def _game_over(self, game: G) -> None:
        assert game.result is not None
        score = list(self.score)
        score[game.result.winner] += game.result.points
        self.score = (score[0], score[1])
        if not self.is_over:
            self._next_game()

    def score_for(self, index: int, seat: int) -> MatchScore | None:
        """The match score at the start of game ``index`` (0-based) as ``seat`` sees it
        (their points first), with whether it is the Crawford game; None in a money session.

        >>> match = Match(3)
        >>> match.score_for(0, 1)
        MatchScore(length=3, score=(0, 0), crawford=False)
        """
        score = self.games[index].score
        return score if score is None or check_seat(seat) == 0 else score.flip()

    @property
    def rolls_drawn(self) -> int:
        """How many rolls the match has drawn from its dice source (one per roll recorded)."""
        return sum(game.rolls_drawn for game in self.games)

    def scores_before(self, index: int) -> tuple[int, int]:
        """The score at the start of game ``index`` (0-based)."""
        score = list(self.start_score)
        for game in self.games[:index]:
            if game.result is not None:
                score[game.result.winner] += game.result.points
        return (score[0], score[1])

    # Record and JSON

    def to_dict(self, *, secrets: bool = False) -> dict[str, Any]:
        """The match as plain JSON values: its settings and each game's record, with each
        game's fair dice, if it has them: their server seed once the game is over, or always
        with ``secrets`` (the server's own copy, from which it goes on rolling)."""
        return {
            **self._settings(secrets),
            "games": [[event.to_dict() for event in game.events] for game in self.games],
        }

    def to_json(
        self, *, secrets: bool = False, events: Callable[[G], str] | None = None
    ) -> str:
        """:meth:`to_dict` as compact JSON text (``secrets`` as there), which
        :meth:`from_json` rebuilds exactly. The games' events are written from the texts
        they keep (:attr:`.game.Event.text`), each game's as a JSON array by ``events``
        where given (a caller that writes the record out again and again, as the server
        does at each action, may keep what it wrote: :func:`events_json` by default).

        >>> import json
        >>> from backgammon.dice import ManualDice
        >>> match = Match(3, dice=ManualDice(["6 1"]))
        >>> match.game.roll(0)
        >>> json.loads(match.to_json()) == match.to_dict()
        True
        """
        games = ",".join(map(events or events_json, self.games))
        settings = json.dumps(self._settings(secrets), separators=(",", ":"))
        return f'{settings[:-1]},"games":[{games}]}}'

    def _settings(self, secrets: bool) -> dict[str, Any]:
        """What :meth:`to_dict` holds besides the games' events."""
        fair = [game.dice_source for game in self.games if isinstance(game.dice_source, FairDice)]
        return {
            "schema": SCHEMA_VERSION,
            "length": self.length,
            "crawford": self.crawford_rule,
            "players": list(self.players),
            "colours": list(self.colours),
            "rules": self.rules.to_dict(),
            **(
                {
                    "setup": self.setup.to_dict(),
                    "score": list(self.start_score),
                    "crawford_game": self.crawford_game,
                }
                if self.setup
                else {}
            ),
            **(
                {
                    "dice": [
                        dice.to_dict(reveal=secrets or game.result is not None)
                        for game, dice in zip(self.games, fair, strict=True)
                    ]
                }
                if len(fair) == len(self.games)
                else {}
            ),
            **({"forfeited": self.forfeited} if self.forfeited is not None else {}),
        }

    @classmethod
    def from_dict(
        cls,
        data: dict[str, Any],
        dice: DiceSource | FairMatchDice | None = None,
        *,
        resume: bool = False,
    ) -> Self:
        """Rebuild a match by replaying its record; a clear error for what is malformed.
        Without ``dice``, a record with fair dice goes on with them (each roll numbered by
        its place in the record), one without with secure dice. ``resume``: seeded ``dice``
        (:class:`~backgammon.dice.SeededDice`) go on from where the record's rolls left
        them, as if the match had never stopped; otherwise they start afresh."""
        if not isinstance(data, dict):
            raise BackgammonError("A saved match is a JSON object.")
        if data.get("schema") != SCHEMA_VERSION:
            raise BackgammonError(
                f"This saved match has schema version {data.get('schema')!r}; "
                f"this program reads version {SCHEMA_VERSION}."
            )
        if dice is None and data.get("dice") is not None:
            dice = _fair_dice(data)
        try:
            players = data["players"]
            match = cls(
                data["length"],
                Rules.from_dict(data["rules"]),
                dice,
                players=(str(players[0]), str(players[1])),
                colours=_colours(data.get("colours", ["white", "black"])),
                crawford=bool(data.get("crawford", True)),
                setup=SetUp.from_dict(data["setup"]) if data.get("setup") else None,
                score=tuple(data.get("score", (0, 0))),
                crawford_game=bool(data.get("crawford_game", False)),
                **cls._options_from(data),
            )
            records: Sequence[Sequence[dict[str, Any]]] = data["games"]
            forfeited = data.get("forfeited")
            if forfeited is not None:
                forfeited = check_seat(forfeited)
        except (KeyError, TypeError, IndexError) as exc:
            raise BackgammonError(f"A saved match is missing or garbles {exc}.") from exc
        for number, record in enumerate(records, start=1):
            if number > len(match.games):
                raise BackgammonError(
                    f"The saved match has a game {number} after the match was over."
                )
            if number == len(records):
                # The match was claimed with its last game: that game ends it.
                match.forfeited = forfeited
            match.games[number - 1].apply_record(record, f"game {number} of the saved match")
        if resume and isinstance(match.dice_source, SeededDice):
            match.dice_source.resume(match.rolls_drawn)
        for game in match.games:  # fair dice always stand where the record left them
            if isinstance(game.dice_source, FairDice):
                game.dice_source.resume(game.rolls_drawn)
        return match

    @classmethod
    def from_json(
        cls, text: str, dice: DiceSource | None = None, *, resume: bool = False
    ) -> Self:
        """Rebuild a match from :meth:`to_json` (``resume`` as for :meth:`from_dict`)."""
        return cls.from_dict(load_json(text, "match"), dice, resume=resume)


    @classmethod
    def _options_from(cls, data: dict[str, Any]) -> dict[str, Any]:
        """A subclass's own options in a saved match, as its constructor takes them."""
        return {}


class Match(Series[Game]):
    """A match of backgammon to ``length`` points (0: a money session) between two seats."""

    #: What the match plays, as the lobby, the ratings and the players' pages name it:
    #: backgammon, in any layout (:attr:`BoardMatch.plays` names the other games).
    plays = "backgammon"

    def _new_game(self, index: int, **options: Any) -> Game:
        return Game(self.rules, setup=None if index else self.setup, **options)


class BoardMatch(Series[BoardGame]):
    """A match of one of the other games (:meth:`Rules.for_game`), or of several played in
    turn: ``rotation`` names them, in order, then again from the first (a Tavli match:
    :data:`backgammon.games.TAVLI`, Portes, Plakoto and Fevga).

    >>> from backgammon.dice import ManualDice
    >>> from backgammon.games import TAVLI
    >>> match = BoardMatch(3, rotation=TAVLI, dice=ManualDice(["6 1"]))
    >>> match.game.game.name
    'portes'
    >>> match.game.roll(0); match.game.resign(1); match.game.accept(0)
    >>> match.score, match.game.game.name
    ((1, 0), 'plakoto')
    >>> BoardMatch.from_json(match.to_json()).game.game.name
    'plakoto'
    """

    def __init__(self, length: int = 0, rules: Rules | None = None,
                 dice: DiceSource | FairMatchDice | None = None, *,
                 rotation: Sequence[str] = (), **options: Any) -> None:
        """The match's ``rules`` (its game's; with a ``rotation``, the options every game
        shares: each game takes its own cube and opening from :meth:`Rules.for_game`)."""
        if options.get("setup") is not None:
            raise BackgammonError("Only a backgammon match starts from a set-up position.")
        if isinstance(rotation, str) or not all(isinstance(n, str) for n in rotation):
            raise BackgammonError("A match's games in turn are a list of their names.")
        self.rotation = tuple(Rules.for_game(name).game or name for name in rotation)
        if rules is None and self.rotation:
            rules = Rules.for_game(self.rotation[0])
        if rules is None or rules.game is None:
            raise BackgammonError("A board match plays one of the other games: make its "
                                  "rules with Rules.for_game(name), or name its rotation.")
        super().__init__(length, rules, dice, **options)

    @property
    def plays(self) -> str:
        """What the match plays, as the lobby, the ratings and the players' pages name it:
        its game, or ``tavli`` for Tavli's games in turn (other games in turn: their names
        joined by ``+``).

        >>> BoardMatch(1, Rules.for_game("fevga")).plays, BoardMatch(1, rotation=TAVLI).plays
        ('fevga', 'tavli')
        """
        if not self.rotation:
            return str(self.rules.game)
        return TAVLI_MATCH if self.rotation == TAVLI else "+".join(self.rotation)

    def rules_of(self, index: int) -> Rules:
        """The rules of game ``index`` (from 0): the match's, or those of its game in turn."""
        if not self.rotation:
            return self.rules
        name = self.rotation[index % len(self.rotation)]
        own = Rules.for_game(name)
        return replace(self.rules, game=name, cube=own.cube, opening_reroll=own.opening_reroll)

    def _new_game(self, index: int, **options: Any) -> BoardGame:
        return BoardGame(self.rules_of(index), **options)

    def _settings(self, secrets: bool) -> dict[str, Any]:
        settings = super()._settings(secrets)
        return {**settings, "rotation": list(self.rotation)} if self.rotation else settings

    @classmethod
    def _options_from(cls, data: dict[str, Any]) -> dict[str, Any]:
        return {"rotation": data.get("rotation", ())}


def _fair_dice(data: dict[str, Any]) -> FairMatchDice:
    """The fair dice a match record holds, one set a game."""
    kept, games = data["dice"], data.get("games")
    if not (isinstance(kept, list) and isinstance(games, list) and len(kept) == len(games)):
        raise BackgammonError("A saved match with fair dice holds one set of dice a game.")
    return FairMatchDice([FairDice.from_dict(each) for each in kept])


def _start_score(score: object, length: int) -> tuple[int, int]:
    if not (
        isinstance(score, tuple)
        and len(score) == 2
        and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in score)
    ):
        raise BackgammonError(f"A score is two whole numbers of points; got {score!r}.")
    if length and max(score) >= length:
        raise BackgammonError(
            f"A score of {score[0]}-{score[1]} leaves nothing to play in a {length}-point match.",
            code="score",
        )
    return (score[0], score[1])


def _colours(value: object) -> tuple[str, str]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(c, str) for c in value)):
        raise BackgammonError(f"A saved match names two colours; got {value!r}.")
    return (value[0], value[1])


def events_json(game: Game | BoardGame) -> str:
    """``game``'s events as a compact JSON array of their texts (:attr:`.game.Event.text`).

    >>> from backgammon.dice import ManualDice
    >>> game = Match(3, dice=ManualDice(["6 1"])).game
    >>> events_json(game)
    '[]'
    >>> game.roll(0)
    >>> events_json(game).startswith('[{"action":')
    True
    """
    return f"[{','.join(event.text for event in game.events)}]"
