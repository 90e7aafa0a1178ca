"""The server's views of a match, without the web: the dice as the page marks them, the steps
on each side's board, and the record's entries read from the game's history."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from backgammon import BackgammonError
from backgammon.dice import ManualDice, SeededDice
from backgammon.game import Act, Action, Rules
from backgammon.game.match import Match
from backgammon.position import WinKind
from backgammon.server.db import now
from backgammon.server.play.live import LiveMatch, SeatSettings
from backgammon.server.play.views import state_of, step_view


def live(match: Match) -> LiveMatch:
    return LiveMatch("test", match, (SeatSettings("human"), SeatSettings("human")), None, now())


def test_a_step_on_each_sides_board() -> None:
    assert step_view(13, 7, mover=0, view=0).board_from == 13
    seen = step_view(13, 7, mover=0, view=1)
    assert (seen.from_, seen.to, seen.board_from, seen.board_to) == (13, 7, 12, 18)
    bar = step_view(25, 20, mover=1, view=0)
    assert (bar.board_from, bar.board_to) == (25, 5)  # the bar is the mover's on every board


def test_the_dice_marked_as_the_steps_use_them() -> None:
    match = Match(0, Rules(), ManualDice(["3 3"]))
    match.game.roll(0)  # a tie: both roll again
    state = state_of(live(match), 0)
    assert state.phase == "opening" and state.opening_tie == [3, 3]
    match = Match(0, Rules(), ManualDice(["6 1"]))
    match.game.roll(0)
    match.game.step(0, 13, 7)
    dice = [(die.value, die.used) for die in state_of(live(match), 0).dice]
    assert dice == [(6, True), (1, False)]


def test_the_record_from_the_history() -> None:
    match = Match(0, Rules(), ManualDice(["6 1", "5 2"]))
    game = match.game
    game.roll(0)
    game.play(0, "13/7 8/7")
    game.double(1)
    game.take(0)
    game.roll(1)
    game.resign(1, 2)
    game.reject(0)
    entries = [(e.seat, e.kind, e.dice, e.play, e.value, e.level)
               for e in state_of(live(match), 0).record[0].entries]
    assert entries == [
        (0, "opening", [6, 1], None, None, None),
        (0, "play", [6, 1], "13/7 8/7", None, None),
        (1, "double", None, None, 2, None),
        (0, "take", None, None, None, None),
        (1, "resign", None, None, None, 2),
        (0, "reject", None, None, None, None),
    ]


def test_a_plays_steps_in_the_record_mark_the_hit() -> None:
    # White's 13/7 6/5 leaves a blot on its 7-point, black's 18: black's 6-5 hits it on the way.
    match = Match(0, Rules(), ManualDice(["6 1", "6 5"]))
    game = match.game
    game.roll(0)
    game.play(0, "13/7 6/5")
    game.roll(1)
    game.play(1, "24/18* 18/13")
    entries = state_of(live(match), 0).record[0].entries
    steps = [[(s.from_, s.to, s.hit) for s in e.steps or []] for e in entries]
    assert steps == [[], [(13, 7, False), (6, 5, False)], [(24, 18, True), (18, 13, False)]]
    assert entries[2].play == "24/18*/13"
    assert entries[0].steps is None


def merged(held: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """A state with its record of changes (``record_since``) laid over the whole record of a
    state held, as a client does (the page's ``api.js``, ``withRecord``)."""
    assert held["version"] >= changes["record_since"]
    record = [game for game in held["record"] if game["number"] < changes["record"][0]["number"]]
    for game in changes["record"]:
        old = next((each for each in held["record"] if each["number"] == game["number"]), None)
        kept = old["entries"][: game["first_entry"]] if old is not None else []
        record.append({**game, "entries": kept + game["entries"], "first_entry": 0})
    return {**changes, "record": record, "record_since": None}


def test_a_record_of_changes_extends_every_state_since_its_version() -> None:
    """Over a match of several games, each with plays, a double, steps and a resignation, the
    changes after any earlier version laid over that version's whole state (or any later
    one's) make the whole state, and carry only the entries made after that version."""
    match = Match(5, Rules(), SeededDice(3))
    shown = live(match)
    states = {shown.version: state_of(shown, 1).model_dump()}
    turns = 0
    while not match.is_over:
        game = match.game
        seat = game.player_to_act if game.player_to_act is not None else 0
        offered = game.legal_actions(seat)
        if Action.ACCEPT in offered:
            act = Act(Action.ACCEPT)
        elif Action.TAKE in offered:
            act = Act(Action.TAKE)
        elif turns % 7 == 6 and Action.RESIGN in offered:
            act = Act(Action.RESIGN, level=WinKind.SINGLE)
        elif turns % 7 == 2 and Action.DOUBLE in offered:
            act = Act(Action.DOUBLE)
        elif Action.STEP in offered and game.turn is not None and game.turn.legal_steps():
            act = Act(Action.STEP, step=game.turn.legal_steps()[0])
        else:
            act = Act(next(a for a in offered if a in (Action.ROLL, Action.CONFIRM)))
            turns += act.action is Action.CONFIRM
        game.act(seat, act)
        states[shown.version] = state_of(shown, 1).model_dump()
    versions = sorted(states)
    assert len(match.games) > 1 and len(versions) > 40
    last = versions[-1]
    for since in versions[::3]:
        changes = state_of(shown, 1, since).model_dump()
        assert changes["record_since"] == since
        for held in (since, (since + last) // 2):
            if held in states:
                assert merged(states[held], changes) == states[last]
        entries = sum(len(game["entries"]) for game in changes["record"])
        assert entries == sum(len(game["entries"]) for game in states[last]["record"]) - sum(
            len(game["entries"]) for game in states[since]["record"]
            if game["number"] < changes["record"][0]["number"]
        ) - changes["record"][0]["first_entry"]
    assert state_of(shown, 1, last + 1).model_dump() == states[last]  # a version not reached


def test_the_ids_kept_between_states_are_the_games_own() -> None:
    """state_of makes a game's IDs again only after an event other than a step or an undo
    (views._ids): at every action of whole matches, with undos, doubles and resignations,
    they are the IDs the game has."""
    from backgammon.formats.ids import gnubg_id_of, xgid_of

    def made(encode: Any) -> str | None:
        try:
            return str(encode(match))
        except BackgammonError:
            return None  # a game the format cannot express

    chooser = random.Random(7)
    for seed in range(6):
        match = Match(3, Rules(), SeededDice(seed))
        watched = live(match)
        for _ in played_at_random(match, chooser, resigning=0.02):
            state = state_of(watched, 0)
            assert (state.gnubg_id, state.xgid) == (made(gnubg_id_of), made(xgid_of))


def test_the_texts_shown_are_the_states() -> None:
    """An action's answer and pushes are :class:`Shown`'s texts, made of the part every seat
    shares and each seat's side: at every action of whole matches (the fair dice's, with
    doubles, steps and undos), from both sides and with the record's changes since several
    versions, they read as :func:`state_of`'s states."""
    import json

    from backgammon.fairdice import FairDice, FairMatchDice
    from backgammon.server.play.views import Shown

    chooser = random.Random(11)
    for seed in range(3):
        match = Match(3, Rules(), FairMatchDice([FairDice(bytes([seed]) * 32)]))
        watched = live(match)
        for _ in played_at_random(match, chooser):
            shown, version = Shown(watched), watched.version
            for since in (None, version - 1, version - 5, version + 1):
                for view in (0, 1):
                    state = state_of(watched, view, since).model_dump_json(by_alias=True)
                    assert json.loads(shown.text(view, since)) == json.loads(state)


def played_at_random(
    match: Match, chooser: random.Random, resigning: float = 0.0
) -> Iterator[None]:
    """Play ``match`` to its end by ``chooser``'s choices among the actions on offer (steps,
    undos, doubles and their answers, rolls, confirmations; a resignation at a rate of
    ``resigning`` of the other actions where one is offered), pausing after each."""
    while not match.is_over:
        game = match.game
        seat = game.player_to_act if game.player_to_act is not None else 0
        offered = [action for action in game.legal_actions(seat)
                   if action not in (Action.RESIGN, Action.CLAIM, Action.PLAY)]
        action = chooser.choice(offered)
        if action is Action.STEP:
            game.act(seat, Act(action, step=chooser.choice(game.turn.legal_steps())))
        elif (resigning and chooser.random() < resigning
              and Action.RESIGN in game.legal_actions(seat)):
            game.act(seat, Act(Action.RESIGN, level=WinKind.SINGLE))
        else:
            game.act(seat, Act(action))
        yield
