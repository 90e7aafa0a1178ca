"""The computer's advice at the terminal: ``hint`` ranks the best plays of the roll, weighs
the cube decision (before the roll, when doubled, when beavered), or says whether to accept an
offer to resign, for the seat the game waits for, each with its reasons in words
(:mod:`backgammon.analysis.reasons`). The bot thinks at :data:`HINT_LEVEL`, as the web app's
hints do; nothing here reads input or changes the game.

In the other games (:class:`~backgammon.game.BoardGame`) the hint ranks the plays by the
game's network one ply ahead (:func:`backgammon.bot.games.judge_plays`), with their
equities in points and their reasons, ranks the doubles to name after an Acey-deucey 1-2,
and answers a resignation as the computer does (:func:`board_hint_lines`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from ..analysis.reasons import (
    answerer_chances,
    board_hints_reasons,
    cube_reasons,
    hints_reasons,
    resignation_reasons,
    say_all,
)
from ..bot import (
    LEVELS,
    Bot,
    CubeAction,
    CubeDecision,
    CubeQuestion,
    Hint,
    Level,
    Probabilities,
    ResignationAnswer,
    ResignationQuestion,
)
from ..bot.games import (
    MOST_PLIES,
    JudgedPlay,
    accepts_resignation,
    judge_doubles,
    judge_plays,
    most_at_stake,
)
from ..dice import Dice
from ..game import Action, BoardGame, Game, Phase
from ..games import GamePlay
from ..moves import Play
from ..position import WinKind
from .display import WIN_NAMES
from .games import title

#: The strength hints think at, as in the web app: 2-ply, under a second a play.
HINT_LEVEL = Level.STRONGEST
HINT_PLIES = LEVELS[HINT_LEVEL][0]
#: The most plays a hint ranks.
HINT_PLAYS = 5
#: The depth of the other games' hints: their deepest search, one ply ahead (about 10 to
#: 30 ms a decision, docs/lab/game-baselines.md).
BOARD_HINT_PLIES = MOST_PLIES


class Hinter:
    """The hints of one table, by a bot made at the first hint, their reasons said in
    ``lang`` (the terminal's English by default)."""

    def __init__(self, lang: str = "en") -> None:
        self._bot: Bot | None = None
        self.lang = lang

    @property
    def bot(self) -> Bot:
        """The bot that hints, at :data:`HINT_LEVEL`."""
        if self._bot is None:
            self._bot = Bot(level=HINT_LEVEL)
        return self._bot

    @staticmethod
    def refusal(game: Game, names: tuple[str, str]) -> str:
        """Why the game holds nothing to hint for the seat it waits for, or '' when it does
        (the game going on: whether it is over is the table's to say)."""
        seat = game.player_to_act
        if seat is None:
            return "the opening roll needs no decision; type roll."
        if game.phase is Phase.ROLL and not game.may_double():
            return (
                f"{names[seat]} may not double, so there is nothing to decide before the "
                "roll; ask again once the dice are in."
            )
        return ""

    def lines(self, game: Game, names: tuple[str, str]) -> list[str]:
        """The hint for the seat ``game`` waits for (where :meth:`refusal` finds one): the
        best plays, the answer to a resignation, or the cube decision (a game of a match
        knows its score)."""
        seat = game.player_to_act
        assert seat is not None  # refusal() refuses the opening roll
        if game.phase in (Phase.MOVE, Phase.CONFIRM):
            return self._plays(game, seat, names[seat])
        if game.phase is Phase.RESIGN:
            return self._resignation(game, seat, names[seat])
        return self._cube(game, seat, names)

    def _plays(self, game: Game, seat: int, name: str) -> list[str]:
        """The best plays of the roll, for the match's score and cube in a match."""
        assert game.dice is not None  # a play is awaited
        cube = game.cube_context(seat)
        hints = self.bot.hints(game.position, game.dice, HINT_PLAYS, cube)
        legal = game.position.legal_plays(game.dice)
        reasons = [say_all(why, self.lang) for why in hints_reasons(hints)]
        lines = play_hint_lines(
            hints, legal, game.dice, name, not cube.money, HINT_PLIES, reasons
        )
        return [*lines, "Type a play (like 8/5 6/5) or its number."]

    def _resignation(self, game: Game, seat: int, name: str) -> list[str]:
        """Whether ``seat`` should accept the offer to resign that waits for its answer."""
        question = ResignationQuestion.of(game, seat)
        assert question is not None  # asked only while an offer waits for the seat
        answer = question.decide(self.bot)
        chances = answerer_chances(question, self.bot.evaluate(question.position))
        reasons = say_all(resignation_reasons(question, answer, chances), self.lang)
        return resignation_hint_lines(
            answer, name, question.level, not question.cube.money, HINT_PLIES, reasons
        )

    def _cube(self, game: Game, seat: int, names: tuple[str, str]) -> list[str]:
        """The cube decision of ``seat``, who may double, or of the double (or beaver) waiting
        for ``seat``'s answer, with the advice for ``seat``."""
        question = CubeQuestion.of(game, seat)
        assert question is not None  # asked only where the seat has a cube decision
        decision = question.decide(self.bot)
        advice = _ADVICE[question.advice(decision)]
        match_play = not question.cube.money
        reasons = say_all(cube_reasons(question, decision), self.lang)
        return cube_hint_lines(
            decision, names[question.doubler], match_play, advice, HINT_PLIES, reasons
        )


def board_refusal(game: BoardGame, names: tuple[str, str]) -> str:
    """Why the other game ``game`` holds nothing to hint for the seat it waits for, or ''
    when it does (the game going on: whether it is over is the table's to say)."""
    seat = game.player_to_act
    if seat is None:
        return "the opening roll needs no decision; type roll."
    if game.phase is Phase.ROLL:
        if game.may_double():
            return (f"the computer does not weigh the cube in {title(game.game.name)}; ask "
                    "again once the dice are in.")
        return (f"{names[seat]} has nothing to decide before the roll; ask again once the "
                "dice are in.")
    return ""


def board_hint_lines(game: BoardGame, names: tuple[str, str], lang: str = "en") -> list[str]:
    """The hint for the seat the other game ``game`` waits for (where :func:`board_refusal`
    finds one): its best plays, the doubles to name after a 1-2, or the answer to an offer
    to resign; reasons in ``lang``."""
    seat = game.player_to_act
    assert seat is not None  # board_refusal() refuses the opening roll
    name = names[seat]
    if game.phase is Phase.NAME:
        doubles = judge_doubles(game.game, game.position, plies=BOARD_HINT_PLIES)
        lines = [f"Hint for {name}'s double to name (the computer at {BOARD_HINT_PLIES}-ply), "
                 "the best first:"]
        for judged in doubles:
            gap = "" if judged is doubles[0] else f"  ({judged.loss:.3f} behind)"
            play = str(judged.play) if judged.play is not None else "no move"
            lines.append(f"  {judged.die}-{judged.die}: {play:<24} {judged.equity:+.3f}{gap}")
        return [*lines, "Each double by its best play; equity: points a game, without the cube.",
                f"Type name {doubles[0].die} to name the best."]
    if game.phase is Phase.RESIGN:
        offer = game.resignation
        assert offer is not None  # the phase waits for the answer to an offer
        most = most_at_stake(game, offer.player)
        accept = accepts_resignation(game)
        return [f"Resignation hint for {name}:",
                f"  The offer gives {WIN_NAMES[offer.level]}; the board can still give "
                f"{WIN_NAMES[most]}.",
                f"Best now: {'accept' if accept else 'reject and play on'}."]
    assert game.turn is not None and game.dice is not None  # a play is awaited
    plays = game.turn.plays
    if not plays:
        return [f"{name} has no legal play of {game.dice[0]}-{game.dice[1]}: the roll passes."]
    ranked = judge_plays(game.game, plays, plies=BOARD_HINT_PLIES)[:HINT_PLAYS]
    reasons = [say_all(why, lang) for why in board_hints_reasons(game.game, ranked)]
    return [*board_play_hint_lines(ranked, plays, game.dice, name, reasons),
            "Type a play (like 8/5 6/5) or its number."]


def board_play_hint_lines(ranked: Sequence[JudgedPlay], legal: Sequence[GamePlay], dice: Dice,
                          name: str, reasons: Sequence[Sequence[str]] = ()) -> list[str]:
    """The best plays of ``dice`` in one of the other games for ``name``, best first, each
    numbered as in the list of ``legal`` plays, with its equity in points, how far it is
    behind the best, and its ``reasons``."""
    numbers = {play.result: number for number, play in enumerate(legal, 1)}
    plies = max(judged.plies for judged in ranked)
    which = "the only play" if len(ranked) == 1 else "the best play first"
    lines = [f"Hint for {name}'s {dice[0]}-{dice[1]} (the computer at {plies}-ply), {which}:"]
    width = max(len(str(judged.play)) for judged in ranked)
    for index, judged in enumerate(ranked):
        gap = "" if index == 0 else f"  ({judged.loss:.3f} behind)"
        number = f"{numbers[judged.play.result]:3d}."
        lines.append(f"  {number} {judged.play!s:<{width}}  {judged.equity:+.3f}{gap}")
        lines.extend(_why(reasons[index] if index < len(reasons) else [], "       "))
    lines.append("Numbers as in the list of legal plays. Equity: points a game, without the "
                 "cube.")
    return lines


#: The words of the cube hint's advice.
_ADVICE = {
    Action.DOUBLE: "double",
    Action.ROLL: "roll without doubling",
    Action.TAKE: "take",
    Action.DROP: "drop",
    Action.BEAVER: "beaver",
}


def percent(chance: float) -> str:
    """A chance as a percentage with one decimal: ``54.5%``."""
    return f"{100 * chance:.1f}%"


def chances_text(chances: Probabilities) -> str:
    """The five chances in a line, gammons (G) and backgammons (BG) counted in the wins and
    losses: ``win 54.5% (G 15.8%, BG 0.7%), lose 45.5% (G 11.2%, BG 0.5%)``."""
    c = chances
    return (
        f"win {percent(c.win)} (G {percent(c.win_gammon)}, BG {percent(c.win_backgammon)}), "
        f"lose {percent(c.lose)} (G {percent(c.lose_gammon)}, BG {percent(c.lose_backgammon)})"
    )


def play_hint_lines(
    hints: Sequence[Hint], legal: Sequence[Play], dice: Dice, name: str, match_play: bool,
    plies: int, reasons: Sequence[Sequence[str]] = (),
) -> list[str]:
    """The best plays of ``dice`` for ``name``, best first, each numbered as in the list of
    ``legal`` plays (so that the number typed makes it), with its equity, how far it is behind
    the best, its chances and its ``reasons`` (a list a play, where given); ``match_play``:
    the equities are a match's; ``plies``: the depth of the search that found them."""
    numbers = {play.result: number for number, play in enumerate(legal, 1)}
    roll = f"{dice[0]}-{dice[1]}"
    which = "the only play" if len(hints) == 1 else "the best play first"
    unit = (
        "the chance of winning the match, scaled to +1 a single game won, -1 lost"
        if match_play
        else "points a game, without the cube"
    )
    lines = [f"Hint for {name}'s {roll} (the computer at {plies}-ply), {which}:"]
    width = max(len(str(hint.play)) for hint in hints)
    best = hints[0].equity
    for index, hint in enumerate(hints):
        gap = "" if hint is hints[0] else f"  ({best - hint.equity:.3f} behind)"
        number = f"{numbers[hint.play.result]:3d}."
        lines.append(f"  {number} {hint.play!s:<{width}}  {hint.equity:+.3f}{gap}")
        lines.append(f"       {chances_text(hint.probabilities)}")
        lines.extend(_why(reasons[index] if index < len(reasons) else [], "       "))
    lines.append(f"Numbers as in the list of legal plays. Equity: {unit}.")
    return lines


#: How the right action with the cube and the right answer to a double are said.
_CUBE_ACTIONS = {
    CubeAction.NO_DOUBLE: "no double",
    CubeAction.DOUBLE: "double",
    CubeAction.TOO_GOOD: "too good to double",
}


def resignation_hint_lines(
    answer: ResignationAnswer, answering: str, level: WinKind, match_play: bool, plies: int,
    reasons: Sequence[str] = (),
) -> list[str]:
    """Whether ``answering`` should accept an offer to resign at ``level``: the value of
    accepting against playing on, the ``reasons`` and the answer; ``plies``: the depth of the
    evaluation."""

    def value(figure: float) -> str:
        return percent(figure) if match_play else f"{figure:+.3f}"

    unit = "the chances of winning the match" if match_play else "points, the cube in"
    return [
        f"Resignation hint for {answering} (the computer at {plies}-ply):",
        f"  Accept {WIN_NAMES[level]:<12} {value(answer.accepting)}",
        f"  Play on             {value(answer.playing_on)}",
        f"Values are {answering}'s, in {unit}, without the cube's future.",
        *_why(reasons, ""),
        f"Best now: {'accept' if answer.accept else 'reject and play on'}.",
    ]


def cube_hint_lines(
    decision: CubeDecision, doubler: str, match_play: bool, advice: str, plies: int,
    reasons: Sequence[str] = (),
) -> list[str]:
    """The cube decision of ``doubler`` (whose equities and chances it gives): the equity of
    each choice, the ``reasons`` (said to the player deciding), the right action and answer,
    and ``advice``, what to do now (``take``, ``roll without doubling``, ...); ``plies``: the
    depth of the evaluation."""

    def equity(value: float) -> str:
        if not math.isfinite(value):
            return "-"  # a choice the rules leave the doubler without
        return percent(value) if match_play else f"{value:+.3f}"

    unit = (
        "the chances of winning the match"
        if match_play
        else "points per unit of the cube before the double"
    )
    right = f"{_CUBE_ACTIONS[decision.action]}, {decision.response.value}"
    return [
        f"Cube hint on {doubler}'s double (the computer at {plies}-ply):",
        f"  No double      {equity(decision.no_double)}",
        f"  Double, take   {equity(decision.double_take)}",
        f"  Double, drop   {equity(decision.double_drop)}",
        f"  Cubeless: {chances_text(decision.probabilities)}",
        f"Equities and chances are {doubler}'s; equities in {unit}.",
        *_why(reasons, ""),
        f"Right cube action: {right}. Best now: {advice}.",
    ]


def _why(reasons: Sequence[str], indent: str) -> list[str]:
    """The reasons on a line: ``Why: makes your 5-point; safe: no blot can be hit.``

    >>> _why(["makes your 5-point", "safe: no blot can be hit"], "  ")
    ['  Why: makes your 5-point; safe: no blot can be hit.']
    """
    return [f"{indent}Why: {'; '.join(reasons)}."] if reasons else []
