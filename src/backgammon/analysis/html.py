"""The analysis as one self-contained HTML page: no script, no file or network beside it.

The page has the match's statistics, the equity graph (inline SVG: seat 0's chance of winning
the match after each checker play, or its equity in points in money play; each point links to
its decision where that decision is marked), and for each game its statistics and its marked
and rolled-out decisions, each with its board drawn by
:func:`backgammon.formats.svg.board_svg` and the choices the analysis weighed (a rollout's
with their standard errors).
"""

from __future__ import annotations

from html import escape

from ..formats.svg import BoardLabels, board_svg
from .analyser import MatchAnalysis
from .decisions import Alternative, Decision, Kind
from .report import graph, statistics_rows
from .statistics import PlayerStatistics

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1.5rem auto; max-width: 60rem;
       padding: 0 1rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1.5rem; }
th, td { padding: 0.15rem 0.8rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
tr.section th { text-align: left; padding-top: 0.8rem; border-bottom: 1px solid #999; }
.decision { border-top: 1px solid #ccc; padding: 0.5rem 0; }
.decision svg.backgammon-board { width: 24rem; max-width: 100%; height: auto; }
.graph { width: 100%; height: auto; }
.mark-doubtful { color: #8a6d00; } .mark-bad { color: #b35900; }
.mark-very-bad { color: #b00020; }
"""

# The graph's drawing area, in user units.
_WIDTH, _HEIGHT, _MARGIN = 800, 240, 36


def html_report(analysis: MatchAnalysis, title: str | None = None) -> str:
    """The page of ``analysis``."""
    names = analysis.players
    money = not analysis.length
    what = "money session" if money else f"{analysis.length}-point match"
    heading = title or f"{names[0]} against {names[1]}: a {what}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        f"<title>{escape(heading)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(heading)}</h1>",
        f"<p>Analysed at {analysis.plies}-ply. Errors and luck in EMG (equity normalised to "
        f"money), rates in thousandths (mEMG).</p>",
        "<h2>The match</h2>",
        _statistics_table(names, analysis.statistics, money),
        "<h2>Equity graph</h2>",
        _graph_svg(analysis),
    ]
    index = 0
    for game in analysis.games:
        score = "" if money else f" (score {game.score[0]}-{game.score[1]})"
        parts.append(f'<h2 id="game-{game.number}">Game {game.number}{escape(score)}</h2>')
        parts.append(_statistics_table(names, game.statistics, money))
        for decision in game.decisions:
            if decision.mark is not None or decision.rollout is not None:
                parts.append(_decision_html(names, decision, index))
            index += 1
    parts.append("</body></html>")
    return "\n".join(parts)


def _statistics_table(
    names: tuple[str, str], stats: tuple[PlayerStatistics, PlayerStatistics], money: bool
) -> str:
    rows = [f"<tr><th>Player</th><th>{escape(names[0])}</th><th>{escape(names[1])}</th></tr>"]
    for row in statistics_rows(stats, money):
        if isinstance(row, str):
            rows.append(f'<tr class="section"><th colspan="3">{escape(row)}</th></tr>')
        else:
            rows.append("<tr>" + "".join(f"<td>{escape(cell)}</td>" for cell in row) + "</tr>")
    return "<table>" + "".join(rows) + "</table>"


def _decision_html(names: tuple[str, str], decision: Decision, index: int) -> str:
    mark = decision.mark.value if decision.mark else ""
    who = names[decision.seat]
    dice = f" with {decision.dice[0]}-{decision.dice[1]}" if decision.dice else ""
    labels = BoardLabels(player=names[decision.viewer], opponent=names[1 - decision.viewer])
    board = board_svg(
        decision.position,
        labels=labels,
        dice=decision.dice,
        cube=decision.cube.value,
        cube_owner=decision.cube.owner,
    )
    rows = "".join(
        f"<tr><td>{escape(a.text)}</td><td>{a.equity:+.3f}</td>"
        f"<td>{_depth(decision, a)}</td></tr>"
        for a in decision.alternatives
    )
    what = "Checker play" if decision.kind is Kind.CHECKER else decision.kind.value.capitalize()
    return (
        f'<section class="decision" id="decision-{index}">'
        f"<h3>Game {decision.game}, move {decision.move_number}: {escape(who)}{dice}</h3>"
        f'<p>{escape(what)}: played <strong>{escape(decision.played)}</strong>, best '
        f"<strong>{escape(decision.best)}</strong>; lost {decision.equity_loss:.3f} EMG "
        f'<span class="mark-{mark.replace(" ", "-")}">({escape(mark)})</span>.</p>'
        f"<p>{escape(decision.position_id)}:{escape(decision.match_id)}</p>"
        f"{board}"
        f"<table><tr><th>Choice</th><th>Equity</th><th>Depth</th></tr>{rows}</table>"
        "</section>"
    )


def _depth(decision: Decision, alternative: Alternative) -> str:
    """How an alternative was judged: its search's depth, or the rollout and its error."""
    if decision.rollout is not None:
        truncate = decision.rollout.truncate
        cut = f", truncated at {truncate}" if truncate else ""
        return f"rollout ({decision.rollout.trials} trials{cut}) ± {alternative.se or 0.0:.3f}"
    return "" if alternative.plies is None else f"{alternative.plies}-ply"


def _graph_svg(analysis: MatchAnalysis) -> str:
    points = graph(analysis)
    marked = {i for i, d in enumerate(analysis.decisions) if d.mark is not None}
    if not points:
        return "<p>No checker play to draw.</p>"
    values = [p["value"] for p in points]
    if analysis.length:
        low, high = 0.0, 1.0
    else:
        high = max(1.0, max(abs(v) for v in values))
        low = -high
    span_x = max(len(points) - 1, 1)

    def x(i: int) -> float:
        return _MARGIN + (_WIDTH - 2 * _MARGIN) * i / span_x

    def y(v: float) -> float:
        return _HEIGHT - _MARGIN - (_HEIGHT - 2 * _MARGIN) * (v - low) / (high - low)

    middle = (low + high) / 2
    label = "seat 0's chance of winning the match" if analysis.length else "seat 0's equity"
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="graph" role="img" '
        f'viewBox="0 0 {_WIDTH} {_HEIGHT}" aria-label="{escape(label)} after each checker '
        f'play">',
        f'<rect width="{_WIDTH}" height="{_HEIGHT}" fill="#fafafa"/>',
        f'<line x1="{_MARGIN}" x2="{_WIDTH - _MARGIN}" y1="{y(middle):.1f}" '
        f'y2="{y(middle):.1f}" stroke="#bbb" stroke-dasharray="4 4"/>',
        f'<text x="4" y="{y(high) + 4:.1f}" font-size="11">{high:g}</text>',
        f'<text x="4" y="{y(low):.1f}" font-size="11">{low:g}</text>',
    ]
    previous = None
    for i, point in enumerate(points):
        if point["game"] != previous:
            parts.append(
                f'<line x1="{x(i):.1f}" x2="{x(i):.1f}" y1="{_MARGIN / 2}" '
                f'y2="{_HEIGHT - _MARGIN / 2}" stroke="#ddd"/>'
                f'<text x="{x(i) + 3:.1f}" y="{_MARGIN / 2 + 10}" font-size="11">'
                f"game {point['game']}</text>"
            )
            previous = point["game"]
    path = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
    parts.append(f'<polyline fill="none" stroke="#1f5fa8" stroke-width="2" points="{path}"/>')
    for i, point in enumerate(points):
        tip = (f"game {point['game']}, move {point['move_number']}: "
               f"{point['value']:.3f}")
        circle = (f'<circle cx="{x(i):.1f}" cy="{y(point["value"]):.1f}" r="'
                  f'{5 if point["decision"] in marked else 2.5}" fill="'
                  f'{"#b00020" if point["decision"] in marked else "#1f5fa8"}">'
                  f"<title>{escape(tip)}</title></circle>")
        if point["decision"] in marked:
            circle = f'<a href="#decision-{point["decision"]}">{circle}</a>'
        parts.append(circle)
    parts.append("</svg>")
    return "".join(parts)
