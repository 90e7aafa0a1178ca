"""The analysis as text for people and as JSON for programs.

The text gives, for each game and for the whole match, each player's statistics in the rows
of GNU Backgammon's ``show statistics match`` (errors and luck as positive magnitudes, rates
in mEMG, the match's chances in per cent) and the marked decisions. The JSON
(:func:`to_json`) holds the same figures, every decision and the equity graph:

* ``players``: a list, seat 0 first, each with ``name``, ``checker`` {``moves``,
  ``unforced``, ``unmarked``, ``doubtful``, ``bad``, ``very_bad``, ``error_total_emg``,
  ``error_total``, ``error_rate_memg``, ``error_rate``, ``rating``}, ``cube`` {``decisions``,
  ``close``, ``doubles``, ``takes``, ``passes``, ``errors`` (by gnubg's six kinds, each
  ``count``, ``emg``, ``cost``), ``error_total_emg``, ``error_total``, ``error_rate_memg``,
  ``error_rate``, ``rating``}, ``luck`` {the roll counts by mark, ``total_emg``, ``total``,
  ``rate_memg``, ``rate``, ``rating``} and ``overall`` {``error_total_emg``, ``error_total``,
  ``error_rate_memg``, ``error_rate``, ``snowie_error_rate`` (mEMG), ``pr``, ``rating_name``,
  ``rating``, ``actual_result``, ``luck_adjusted_result``, ``luck_rating_difference``};
  the figures without ``emg`` in their name are in ``cost_unit``: ``"mwc"`` (chances of
  winning the match, 0 to 1) in a match, ``"points"`` in money play;
* ``games``: each game's ``number``, ``score`` at its start, ``winner``, ``points``,
  ``claimed`` (the winner claimed it: the other player had left) and its own ``players``
  statistics;
* ``decisions``: each with ``game``, ``move_number``, ``player`` (the seat, an index into
  ``players``), ``kind`` (checker, cube, take, resign, answer), ``dice`` (or null), ``played``,
  ``best``, ``equity_loss`` (EMG), ``cost``, ``mark`` (or null), ``position_id``,
  ``match_id``, ``alternatives`` (``text``, ``equity``, ``plies``), ``unforced``, ``close``,
  ``cube_error``, ``luck`` (``emg``, ``cost``, ``mark``; checker plays only) and ``equity``;
  a decision rolled out (:mod:`.rollout`) has the rollouts' figures there, and ``rollout``
  {``trials``, ``truncate``, ``seed``, ``alternatives`` (``text``, ``equity``, ``se``: its
  standard error)};
* ``graph``: after each checker play, ``value``: seat 0's chance of winning the match (its
  equity in points in money play), by the analysis.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..bot import Scale
from .analyser import GameAnalysis, MatchAnalysis
from .decisions import CubeError, Decision, Kind, LuckMark, Mark
from .statistics import PlayerStatistics

#: The version of the JSON's layout.
SCHEMA = 1


def graph(analysis: MatchAnalysis) -> list[dict[str, Any]]:
    """The equity graph: after each checker play, seat 0's chance of winning the match (or
    equity in points), with where it was."""
    points = []
    for index, decision in enumerate(analysis.decisions):
        if decision.kind is not Kind.CHECKER or decision.equity is None:
            continue
        value = Scale.of(decision.cube).chance(decision.equity)
        if decision.seat == 1:
            value = 1.0 - value if analysis.length else -value
        points.append({"game": decision.game, "move_number": decision.move_number,
                       "player": decision.seat, "decision": index, "value": value})
    return points


def to_json(analysis: MatchAnalysis) -> dict[str, Any]:
    """The whole analysis as plain JSON values (see the module's text)."""
    return {
        "schema": SCHEMA,
        "length": analysis.length,
        "plies": analysis.plies,
        "cost_unit": "mwc" if analysis.length else "points",
        "players": _players(analysis.players, analysis.statistics),
        "games": [
            {
                "number": game.number,
                "score": list(game.score),
                "winner": game.winner,
                "points": game.points,
                "claimed": game.claimed,
                "players": _players(analysis.players, game.statistics),
            }
            for game in analysis.games
        ],
        "decisions": [decision_json(d) for d in analysis.decisions],
        "graph": graph(analysis),
    }


def decision_json(decision: Decision) -> dict[str, Any]:
    """One decision as plain JSON values."""
    luck = decision.luck
    return {
        "game": decision.game,
        "move_number": decision.move_number,
        "player": decision.seat,
        "kind": decision.kind.value,
        "dice": None if decision.dice is None else list(decision.dice),
        "played": decision.played,
        "best": decision.best,
        "equity_loss": decision.equity_loss,
        "cost": decision.cost,
        "mark": _value(decision.mark),
        "position_id": decision.position_id,
        "match_id": decision.match_id,
        "alternatives": [
            {"text": a.text, "equity": a.equity, "plies": a.plies}
            for a in decision.alternatives
        ],
        "unforced": decision.unforced,
        "close": decision.close,
        "cube_error": _value(decision.cube_error),
        "luck": None if luck is None else {
            "emg": luck.emg, "cost": luck.cost, "mark": _value(luck.mark)},
        "equity": decision.equity,
    } | ({} if decision.rollout is None else {"rollout": _rollout_json(decision)})


def _rollout_json(decision: Decision) -> dict[str, Any]:
    """How a rolled-out decision was rolled out, and each play's equity and standard error."""
    assert decision.rollout is not None
    return {
        "trials": decision.rollout.trials,
        "truncate": decision.rollout.truncate,
        "seed": decision.rollout.seed,
        "alternatives": [{"text": a.text, "equity": a.equity, "se": a.se}
                         for a in decision.alternatives],
    }


def _players(
    names: tuple[str, str], stats: tuple[PlayerStatistics, PlayerStatistics]
) -> list[dict[str, Any]]:
    return [_player(name, s) for name, s in zip(names, stats, strict=True)]


def _player(name: str, s: PlayerStatistics) -> dict[str, Any]:
    return {
        "name": name,
        "checker": {
            "moves": s.total_moves,
            "unforced": s.unforced_moves,
            "unmarked": s.marks[None],
            "doubtful": s.marks[Mark.DOUBTFUL],
            "bad": s.marks[Mark.BAD],
            "very_bad": s.marks[Mark.VERY_BAD],
            "error_total_emg": s.checker_error,
            "error_total": s.checker_cost,
            "error_rate_memg": 1000 * s.checker_rate,
            "error_rate": s.checker_cost_rate,
            "rating": s.checker_rating_name,
        },
        "cube": {
            "decisions": s.total_cube,
            "close": s.close_cube,
            "doubles": s.doubles,
            "takes": s.takes,
            "passes": s.passes,
            "errors": {
                kind.value: {"count": e.count, "emg": e.emg, "cost": e.cost}
                for kind, e in s.cube_errors.items()
            },
            "error_total_emg": s.cube_error,
            "error_total": s.cube_cost,
            "error_rate_memg": 1000 * s.cube_rate,
            "error_rate": s.cube_cost_rate,
            "rating": s.cube_rating_name,
        },
        "luck": {
            **{(m.value if m else "unmarked").replace(" ", "_"): n
               for m, n in s.luck_marks.items()},
            "total_emg": s.luck,
            "total": s.luck_cost,
            "rate_memg": 1000 * s.luck_rate,
            "rate": s.luck_cost_rate,
            "rating": s.luck_rating_name,
        },
        "overall": {
            "error_total_emg": s.error_total,
            "error_total": s.error_cost,
            "error_rate_memg": 1000 * s.error_rate,
            "error_rate": s.error_cost_rate,
            "snowie_error_rate": 1000 * s.snowie_error_rate,
            "pr": s.pr,
            "rating_name": s.rating_name,
            "rating": s.rating,
            "actual_result": s.actual_result,
            "luck_adjusted_result": s.luck_adjusted_result,
            "luck_rating_difference": s.luck_rating_difference,
        },
    }


def _value(item: Mark | LuckMark | CubeError | None) -> str | None:
    return None if item is None else item.value


# Text

_ROW = "{:<40} {:>18} {:>18}"


def text_report(analysis: MatchAnalysis) -> str:
    """The statistics of each game and of the match, and each game's marked decisions."""
    blocks = []
    money = not analysis.length
    what = "money session" if money else f"{analysis.length}-point match"
    blocks.append(f"Analysis of a {what} at {analysis.plies}-ply: "
                  f"{analysis.players[0]} against {analysis.players[1]}.")
    for game in analysis.games:
        blocks.append(_game_heading(analysis, game))
        blocks.append(statistics_text(analysis.players, game.statistics, money))
        marked = [d for d in game.decisions if d.mark is not None]
        if marked:
            blocks.append("Marked decisions\n\n" + "\n".join(
                marked_line(analysis.players, d) for d in marked))
        rolled = [d for d in game.decisions if d.rollout is not None]
        if rolled:
            blocks.append("Rolled out\n\n" + "\n\n".join(
                rollout_text(analysis.players, d) for d in rolled))
    blocks.append(f"The whole {what}")
    blocks.append(statistics_text(analysis.players, analysis.statistics, money))
    return "\n\n".join(blocks) + "\n"


def _game_heading(analysis: MatchAnalysis, game: GameAnalysis) -> str:
    score = "" if not analysis.length else f" (score {game.score[0]}-{game.score[1]})"
    if game.winner is None:
        end = "unfinished"
    else:
        plural = "s" if game.points != 1 else ""
        end = f"{analysis.players[game.winner]} won {game.points} point{plural}"
        if game.claimed:
            end += f", claimed ({analysis.players[1 - game.winner]} had left)"
    return f"Game {game.number}{score}: {end}"


def marked_line(players: tuple[str, str], decision: Decision) -> str:
    """One marked decision in a line: where, who, what was played, what was best, the loss."""
    dice = f" {decision.dice[0]}{decision.dice[1]}" if decision.dice else ""
    mark = decision.mark.value if decision.mark else ""
    return (f"  move {decision.move_number:>3} {players[decision.seat]}{dice}: "
            f"{decision.played} (best {decision.best}) lost {decision.equity_loss:.3f} "
            f"EMG, {mark}")


def rollout_text(players: tuple[str, str], decision: Decision) -> str:
    """A rolled-out decision: how it was rolled out, then each play's equity and its
    standard error, best first."""
    assert decision.rollout is not None
    dice = f" {decision.dice[0]}{decision.dice[1]}" if decision.dice else ""
    trials, truncate = decision.rollout.trials, decision.rollout.truncate
    depth = f", truncated after {truncate} turns" if truncate else ""
    lines = [f"  move {decision.move_number:>3} {players[decision.seat]}{dice}: "
             f"{trials} trials{depth}, seed {decision.rollout.seed}; played "
             f"{decision.played}, lost {decision.equity_loss:.3f} EMG"
             + (f", {decision.mark.value}" if decision.mark else "")]
    lines += [f"    {a.text:<24} {a.equity:+.3f} ± {a.se or 0.0:.3f}"
              for a in decision.alternatives]
    return "\n".join(lines)


_CUBE_ERROR_LABELS = {
    CubeError.MISSED_DOUBLE_BELOW_CP: "Missed doubles below CP",
    CubeError.MISSED_DOUBLE_ABOVE_CP: "Missed doubles above CP",
    CubeError.WRONG_DOUBLE_BELOW_DP: "Wrong doubles below DP",
    CubeError.WRONG_DOUBLE_ABOVE_TG: "Wrong doubles above TG",
    CubeError.WRONG_TAKE: "Wrong takes",
    CubeError.WRONG_PASS: "Wrong passes",
}

#: A row of the statistics: a label and each player's figure, or a section's title alone.
Row = tuple[str, str, str] | str


def statistics_text(
    players: tuple[str, str], stats: tuple[PlayerStatistics, PlayerStatistics], money: bool
) -> str:
    """Both players' statistics, in gnubg's rows."""
    lines = [_ROW.format("Player", *players)]
    for row in statistics_rows(stats, money):
        lines += ["", row, ""] if isinstance(row, str) else [_ROW.format(*row).rstrip()]
    return "\n".join(lines)


def statistics_rows(
    stats: tuple[PlayerStatistics, PlayerStatistics], money: bool
) -> list[Row]:
    """Both players' statistics as rows, in gnubg's order, with section titles between."""
    figures = _Figures(stats, money)
    return [
        "Checker play", *_checker_rows(figures),
        "Luck", *_luck_rows(figures),
        "Cube", *_cube_rows(figures),
        "Overall", *_overall_rows(figures),
    ]


_Pick = Callable[[PlayerStatistics], object]
_Amount = Callable[[PlayerStatistics], float]


class _Figures:
    """Rows of both players' figures, with costs in points for money, in match winning
    chances for a match."""

    def __init__(self, stats: tuple[PlayerStatistics, PlayerStatistics], money: bool) -> None:
        self.stats = stats
        self.money = money
        self.unit = "points" if money else "MWC"

    def cost(self, value: float) -> str:
        return f"{value:+.3f}" if self.money else f"{100 * value:+.3f}%"

    def row(self, label: str, pick: _Pick) -> Row:
        return (label, str(pick(self.stats[0])), str(pick(self.stats[1])))

    def rating(self, label: str, pick: Callable[[PlayerStatistics], str | None]) -> Row:
        return self.row(label, lambda s: pick(s) or "n/a")

    def errors(self, total: _Amount, total_cost: _Amount, rate: _Amount,
               rate_cost: _Amount) -> list[Row]:
        """The error total and the error rate (a thousandth of the total per decision) of a
        kind of decision, each in equity (EMG) and in cost."""
        return [
            self.row(f"Error total EMG ({self.unit})",
                     lambda s: f"{total(s):.3f} ({self.cost(total_cost(s))})"),
            self.row(f"Error rate mEMG ({self.unit})",
                     lambda s: f"{1000 * rate(s):.1f} ({self.cost(rate_cost(s))})"),
        ]


def _checker_rows(figures: _Figures) -> list[Row]:
    row = figures.row
    return [
        row("Total moves", lambda s: s.total_moves),
        row("Unforced moves", lambda s: s.unforced_moves),
        row("Unmarked moves", lambda s: s.marks[None]),
        row("Moves marked doubtful", lambda s: s.marks[Mark.DOUBTFUL]),
        row("Moves marked bad", lambda s: s.marks[Mark.BAD]),
        row("Moves marked very bad", lambda s: s.marks[Mark.VERY_BAD]),
        *figures.errors(lambda s: s.checker_error, lambda s: s.checker_cost,
                        lambda s: s.checker_rate, lambda s: s.checker_cost_rate),
        figures.rating("Checker play rating", lambda s: s.checker_rating_name),
    ]


def _luck_rows(figures: _Figures) -> list[Row]:
    row, cost, unit = figures.row, figures.cost, figures.unit
    rows = []
    for mark in figures.stats[0].luck_marks:
        label = f"Rolls marked {mark.value}" if mark else "Rolls unmarked"
        rows.append(row(label, _luck_count(mark)))
    return [
        *rows,
        row(f"Luck total EMG ({unit})", lambda s: f"{s.luck:+.3f} ({cost(s.luck_cost)})"),
        row(f"Luck rate mEMG ({unit})",
            lambda s: f"{1000 * s.luck_rate:+.1f} ({cost(s.luck_cost_rate)})"),
        figures.rating("Luck rating", lambda s: s.luck_rating_name),
    ]


def _cube_rows(figures: _Figures) -> list[Row]:
    row = figures.row
    return [
        row("Total cube decisions", lambda s: s.total_cube),
        row("Close or actual cube decisions", lambda s: s.close_cube),
        row("Doubles", lambda s: s.doubles),
        row("Takes", lambda s: s.takes),
        row("Passes", lambda s: s.passes),
        *(row(f"{label} (EMG)", _cube_errors(kind)) for kind, label in _CUBE_ERROR_LABELS.items()),
        *figures.errors(lambda s: s.cube_error, lambda s: s.cube_cost,
                        lambda s: s.cube_rate, lambda s: s.cube_cost_rate),
        figures.rating("Cube decision rating", lambda s: s.cube_rating_name),
    ]


def _overall_rows(figures: _Figures) -> list[Row]:
    row, cost = figures.row, figures.cost
    rows = [
        *figures.errors(lambda s: s.error_total, lambda s: s.error_cost,
                        lambda s: s.error_rate, lambda s: s.error_cost_rate),
        row("Snowie error rate", lambda s: f"{1000 * s.snowie_error_rate:.1f}"),
        row("PR", lambda s: f"{s.pr:.2f}"),
        figures.rating("Overall rating", lambda s: s.rating_name),
        row("Actual result", lambda s: cost(s.actual_result)),
        row("Luck adjusted result", lambda s: cost(s.luck_adjusted_result)),
    ]
    if not figures.money:
        rows += [
            row("Luck based FIBS rating diff.",
                lambda s: _number(s.luck_rating_difference, "{:+.2f}")),
            row("Error based abs. FIBS rating", lambda s: _number(s.rating, "{:.1f}")),
        ]
    return rows


def _luck_count(mark: LuckMark | None) -> Callable[[PlayerStatistics], int]:
    return lambda s: s.luck_marks[mark]


def _cube_errors(kind: CubeError) -> Callable[[PlayerStatistics], str]:
    return lambda s: f"{s.cube_errors[kind].count} ({s.cube_errors[kind].emg:.3f})"


def _number(value: float | None, form: str) -> str:
    return "n/a" if value is None else form.format(value)
