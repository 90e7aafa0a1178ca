"""The analysis of a finished game or match of the other games (Portes, Tavla, Plakoto,
Fevga, Long Nardy, Acey-deucey, a Tavli match): each decision judged by the game's engine
(:func:`backgammon.bot.games.judge_plays`, :func:`~backgammon.bot.games.judge_doubles`),
its loss in points against the best, and each player's totals.

Definitions, as backgammon's analysis has them where they apply (:mod:`backgammon.analysis`):

* **Decisions**: a play of a roll that had two legal plays or more (forced plays and rolls
  with no play are not decisions), and the double named after an Acey-deucey 1-2. These
  games have no cube (Acey-deucey's, where used, is not judged).
* **Loss**: the best choice's equity less the one made, in points a game for the player who
  made it, without the cube (0 when the choice was the best); the played play is judged as
  deep as the best (at 1-ply it is valued one ply ahead even where the search did not keep
  it). **Marks** are backgammon's: more than 0.04 doubtful, 0.08 bad, 0.16 very bad.
* **Error rate**: a player's total loss over their decisions, in thousandths of a point.

>>> from backgammon.dice import ManualDice
>>> from backgammon.game import BoardGame, Rules
>>> game = BoardGame(Rules.for_game("portes"), ManualDice(["6 5", "3 1"]))
>>> game.roll(0); game.roll(0); game.play(0, "24/21 24/23")
>>> analysis = analyse_board_games([game])
>>> [(d.seat, d.played, d.best, d.mark) for d in analysis.decisions]
[(0, '24/21 24/23', '8/5 6/5', <Mark.BAD: 'bad'>)]
>>> analysis.totals(0).decisions, analysis.totals(1).decisions
(1, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from functools import partial
from typing import Any

from ..bot.games import equity_of, judge_doubles, judge_plays
from ..dice import Dice
from ..game import BoardGame, BoardMatch
from ..games import Board, GamePlay, GameRules
from .decisions import Mark, skill_mark


@dataclass(frozen=True)
class BoardDecision:
    """One decision of a game judged: where it was (the game and the turn, from 1), whose,
    what was chosen and what was best, and what it lost."""

    game: int
    turn: int
    seat: int
    #: "play", or "name" for the double named after a 1-2.
    kind: str
    dice: Dice
    played: str
    best: str
    #: The equities (points for the player deciding) of the choice made and of the best.
    played_equity: float
    best_equity: float
    loss: float
    mark: Mark | None


@dataclass(frozen=True)
class PlayerTotals:
    """A player's decisions, their total loss in points, and its marks."""

    decisions: int
    loss: float
    doubtful: int
    bad: int
    very_bad: int

    @property
    def error_rate(self) -> float:
        """The total loss over the decisions, in thousandths of a point (0 with none)."""
        return 1000 * self.loss / self.decisions if self.decisions else 0.0


#: The players' names where the record gives none: a lone game's colours, as it starts.
COLOUR_NAMES = ("White", "Black")


@dataclass(frozen=True)
class BoardAnalysis:
    """The judged decisions of one or more games, in order, at ``plies``, and the players'
    names (seat 0's first), as backgammon's :class:`~backgammon.analysis.MatchAnalysis`
    names them."""

    plies: int
    decisions: tuple[BoardDecision, ...]
    players: tuple[str, str] = COLOUR_NAMES

    def totals(self, seat: int) -> PlayerTotals:
        """The totals of the player in ``seat``."""
        own = [d for d in self.decisions if d.seat == seat]
        marks = [d.mark for d in own]
        return PlayerTotals(len(own), sum(d.loss for d in own), marks.count(Mark.DOUBTFUL),
                            marks.count(Mark.BAD), marks.count(Mark.VERY_BAD))


def analyse_board_record(record: BoardMatch | BoardGame, plies: int = 0,
                         progress: Callable[[int, int], None] | None = None) -> BoardAnalysis:
    """Every decision of a match's games, or of one game, judged at ``plies``, its players
    named as the record names them (:func:`players_of`).

    >>> from backgammon.game import Rules
    >>> analyse_board_record(BoardMatch(1, Rules.for_game("fevga"), players=("Ann", "Bo")))
    BoardAnalysis(plies=0, decisions=(), players=('Ann', 'Bo'))
    """
    games = record.games if isinstance(record, BoardMatch) else [record]
    return analyse_board_games(games, plies, progress, players_of(record))


def players_of(record: BoardMatch | BoardGame) -> tuple[str, str]:
    """The players' names as ``record`` gives them: a match's players (their names online,
    "Player" and "Computer" against the computer, the colours at one screen); a lone game's
    colours, capitalised.

    >>> from backgammon.game import Rules
    >>> players_of(BoardGame(Rules.for_game("plakoto"), colours=("black", "white")))
    ('Black', 'White')
    """
    if isinstance(record, BoardMatch):
        return record.players
    first, second = record.colours
    return first.capitalize(), second.capitalize()


def analyse_board_games(games: Sequence[BoardGame], plies: int = 0,
                        progress: Callable[[int, int], None] | None = None,
                        players: tuple[str, str] = COLOUR_NAMES) -> BoardAnalysis:
    """Every decision of ``games`` (a match's in order, or one game) judged at ``plies``
    (0 or 1), the players named ``players``. ``progress(done, total)``, where given, is
    called after each decision judged (of all the games' decisions, counted first): what it
    raises stops the analysis."""
    found = [judge for number, game in enumerate(games, 1)
             for judge in _game_decisions(game, number)]
    decisions = []
    for done, judge in enumerate(found, 1):
        decisions.append(judge(plies))
        if progress is not None:
            progress(done, len(found))
    return BoardAnalysis(plies, tuple(decisions), players)


#: A decision found and not yet judged: given the depth, it judges it.
_Judge = Callable[[int], BoardDecision]


def _game_decisions(game: BoardGame, number: int) -> list[_Judge]:
    """The decisions of ``game`` (the ``number``-th), in order, each to be judged."""
    rules = game.game
    found: list[_Judge] = []
    plays = game.plays
    for turn, (seat, dice, play) in enumerate(plays, 1):
        previous = plays[turn - 2] if turn > 1 else None
        if previous is not None and _names(rules, previous, (seat, dice)):
            board = play.board if play is not None else _after(previous[2])
            if board is not None:
                found.append(partial(_naming, rules, board, number, turn, seat, dice[0]))
        if play is not None:
            legal = rules.legal_plays(play.board, dice)
            if len(legal) > 1:
                found.append(partial(_judged_play, rules, legal, play, number, turn, seat,
                                     dice))
    return found


def _names(rules: GameRules, previous: tuple[int, Dice, GamePlay | None],
           now: tuple[int, Dice]) -> bool:
    """Whether the play ``now`` is of a double its player named: after their own 1-2 in
    Acey-deucey (the only game that names one)."""
    seat, dice, _ = previous
    return rules.name == "acey-deucey" and sorted(dice) == [1, 2] and now[0] == seat \
        and now[1][0] == now[1][1]


def _after(play: GamePlay | None) -> Board | None:
    """The board a play leaves, turned back to its player (who names a double on it)."""
    return None if play is None else play.result.flip()


def _judged_play(rules: GameRules, legal: list[GamePlay], play: GamePlay, number: int,
                 turn: int, seat: int, dice: Dice, plies: int) -> BoardDecision:
    ranked = judge_plays(rules, legal, plies=plies)
    best = ranked[0]
    made = next(judged for judged in ranked if judged.play.result == play.result)
    # Judged as deep as the best, where the search left it shallower.
    equity = made.equity if made.plies == best.plies else equity_of(rules, play, plies=plies)
    loss = max(0.0, best.equity - equity)
    return BoardDecision(number, turn, seat, "play", dice, str(play), str(best.play), equity,
                         best.equity, loss, skill_mark(loss))


def _naming(rules: GameRules, board: Board, number: int, turn: int, seat: int, die: int,
            plies: int) -> BoardDecision:
    doubles = judge_doubles(rules, board, plies=plies)
    best = doubles[0]
    made = next(judged for judged in doubles if judged.die == die)
    return BoardDecision(number, turn, seat, "name", (die, die), f"{die}-{die}",
                         f"{best.die}-{best.die}", made.equity, best.equity, made.loss,
                         skill_mark(made.loss))


def board_text_report(analysis: BoardAnalysis) -> str:
    """The analysis in text: each marked decision, then each player's totals, by name.

    >>> print(board_text_report(BoardAnalysis(0, ())), end="")
    Analysis at 0-ply: losses in points a game, without the cube.
    Error rates: thousandths of a point a decision.
    No decision was marked.
    White: 0 decisions, 0.000 points lost, error rate 0.0; 0 doubtful, 0 bad, 0 very bad.
    Black: 0 decisions, 0.000 points lost, error rate 0.0; 0 doubtful, 0 bad, 0 very bad.
    """
    names = analysis.players
    lines = [f"Analysis at {analysis.plies}-ply: losses in points a game, without the cube.",
             "Error rates: thousandths of a point a decision."]
    marked = [d for d in analysis.decisions if d.mark is not None]
    if not marked:
        lines.append("No decision was marked.")
    for d in marked:
        what = "names" if d.kind == "name" else f"plays {d.dice[0]}-{d.dice[1]}:"
        lines.append(f"Game {d.game}, turn {d.turn}: {names[d.seat]} {what} {d.played} "
                     f"({d.played_equity:+.3f}); best {d.best} ({d.best_equity:+.3f}), "
                     f"{d.loss:.3f} lost, {d.mark}.")
    for seat in (0, 1):
        t = analysis.totals(seat)
        lines.append(f"{names[seat]}: {t.decisions} decisions, {t.loss:.3f} points lost, "
                     f"error rate {t.error_rate:.1f}; {t.doubtful} doubtful, {t.bad} bad, "
                     f"{t.very_bad} very bad.")
    return "\n".join(lines) + "\n"


def board_to_json(analysis: BoardAnalysis) -> dict[str, Any]:
    """The analysis as plain values (``backgammon analyse FILE.json --json``, and the
    server's report): the depth, every decision, and each player's name and totals with
    their error rate, as backgammon's :func:`~backgammon.analysis.to_json` has them.

    >>> board_to_json(BoardAnalysis(1, (), ("Ann", "Bo")))["players"][0]
    {'name': 'Ann', 'decisions': 0, 'loss': 0, 'doubtful': 0, 'bad': 0, 'very_bad': 0, \
'error_rate': 0.0}
    """
    return {
        "plies": analysis.plies,
        "decisions": [{**asdict(d), "dice": list(d.dice),
                       "mark": None if d.mark is None else d.mark.value}
                      for d in analysis.decisions],
        "players": [{"name": analysis.players[seat], **asdict(analysis.totals(seat)),
                     "error_rate": analysis.totals(seat).error_rate} for seat in (0, 1)],
    }
