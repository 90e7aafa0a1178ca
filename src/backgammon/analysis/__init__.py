"""Analysis of games and matches: every decision judged, statistics per player, reports.

:class:`Analyser` judges a game or a match (our own record, or one read from a ``.mat`` file)
with the bot at a chosen depth (0 plies is quick, 2 the default), reading each game's one
typed walk over its record (``Game.history()``); :class:`MatchAnalysis` holds each game's
:class:`Decision` s and gives each player's :class:`PlayerStatistics`;
:mod:`.report` writes text and JSON, :mod:`.html` a self-contained page; :mod:`.rollout`
re-judges chosen checker decisions by rollouts (``with_rollouts``).

Definitions (GNU Backgammon's, from its ``analysis.c`` and ``formatgs.c``; the figures are
the bot's):

* **EMG**, equity normalised to money: in money play, the equity per unit of the cube; in a
  match, the chance of winning the match ``m`` as ``2 (m - L) / (W - L) - 1``, where ``W``
  and ``L`` are the chances after winning and losing a single game at the present cube and
  score, so a single game won is +1 and lost is -1 at any score. An error or a roll's luck
  is a difference of EMG; its **cost** is the same in chances of winning the match (EMG
  times ``(W - L) / 2``) or, in money play, in points (EMG times the cube's value). Errors
  and luck are positive magnitudes (gnubg prints errors negative).
* **Checker play**: every turn is a move (a forced play, and a roll with no legal move,
  too); a move is **unforced** when the roll had two legal plays or more, and only unforced
  moves are decisions. The played play is judged against the bot's best play at the
  analysing depth (the played one judged as deep as the best, as gnubg keeps it through its
  move filters); plays are ranked as the bot ranks them, by the cubeless equity at the score.
* **Cube decisions**: each turn (but the game's first) on which the player on roll could
  double a live cube (theirs or centred, not in the Crawford game, and in a match not from a
  score that one game at the cube already wins), each double, each take and drop, and the
  doubler's take or drop of a beaver (a beaver itself is not judged, as in gnubg). The
  equities of no double, double/take and double/drop are the bot's cubeful ones
  (``Bot.cube_decision``). A missed double loses no double's equity against the best
  action's, and is "above CP" when the opponent should have dropped; a wrong double loses the
  double's equity (the lesser of take and drop) against no double's, and is "above TG" when
  the player was too good to double; a wrong take or pass loses the difference of take and
  drop. A cube decision is **close** when it is an actual double, take or drop, or when
  doubling would have lost less than 0.16 (the best action's equity less the lesser of
  double/take and 1).
* **Marks**: an error of more than 0.04 EMG is doubtful, of more than 0.08 bad, of more than
  0.16 very bad.
* **Luck** of a roll: the equity (0 plies, as gnubg judges luck at any depth) after the best
  play of the roll rolled, less the average over the 36 rolls of the equity after each
  roll's best play. The game's first roll is weighed against the 30 rolls that could have
  opened it, either player's. More than 0.3 EMG is lucky, more than 0.6 very lucky; as much
  below, unlucky and very unlucky.
* **Resignations**: an offer loses what the opponent gains by accepting over playing on, an
  acceptance what playing on was worth over it, a refusal the reverse; resignations are
  marked but not counted in the statistics (as in gnubg).
* **Error rate**: the checker error total over the unforced moves; the cube error total over
  the close cube decisions; overall, both totals over both counts; in mEMG (thousandths).
  **Snowie error rate**: the overall error total over the moves of both players. **PR**
  (eXtreme Gammon's performance rating): 500 times the overall error per decision.
  **Luck rate**: the luck total over the moves.
* **Rating estimate** (a match to N points): gnubg's, after Kees van den Doel,
  ``2050 - checker rate x (8798 + 25526 / N) - cube rate x (863 - 519 / N)`` with the rates
  in EMG per decision; and gnubg's names for the rates (under 0.002 Supernatural, 0.005 World
  class, 0.008 Expert, 0.012 Advanced, 0.018 Intermediate, 0.026 Casual player, 0.035
  Beginner, else Awful!).
* **Actual result**: the points won (money), or the chance of winning the match the games
  moved. **Luck-adjusted result**: the actual result less the player's luck plus the
  opponent's (their cost). **Luck-based FIBS rating difference** (a match): the FIBS rating
  difference ``-2000 / sqrt(N) x log10(1 / p - 1)`` of ``p = 0.5 +`` the luck-adjusted result.

>>> from backgammon.bot.evaluator import FakeEvaluator
>>> from backgammon.dice import ManualDice
>>> from backgammon.game import Game
>>> game = Game(dice=ManualDice(["3 1"]))
>>> game.roll(0)
>>> game.play(0, "8/5 6/5")
>>> analysis = Analyser(plies=0, evaluator=FakeEvaluator()).analyse(game)
>>> [(d.kind.value, d.played, d.unforced) for d in analysis.decisions]
[('checker', '8/5 6/5', True)]
>>> analysis.statistics[0].unforced_moves, analysis.statistics[1].total_moves
(1, 0)
"""
from ..bot import Scale
from .analyser import Analyser, AnalysisError, GameAnalysis, MatchAnalysis, Progress
from .decisions import (
    Alternative,
    CubeError,
    Decision,
    Kind,
    Luck,
    LuckMark,
    Mark,
    Rollout,
)
from .statistics import PlayerStatistics

__all__ = [
    "Alternative",
    "Analyser",
    "AnalysisError",
    "CubeError",
    "Decision",
    "GameAnalysis",
    "Kind",
    "Luck",
    "LuckMark",
    "Mark",
    "MatchAnalysis",
    "PlayerStatistics",
    "Progress",
    "Rollout",
    "Scale",
]
