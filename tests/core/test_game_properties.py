"""Properties of games and matches played by random legal actions, checked with hypothesis.

A driver plays each example: at every point it asks the game for ``legal_actions`` of the seat
it waits for (either seat at the opening roll) and picks one uniformly, with a random step,
play (as a Play or in notation) or resignation level where the action needs one. The rules are
drawn too (every option, every variant, a few hand-set start positions), and the dice are
seeded. "Patient" examples never resign or drop, so that games run to a bear-off.

After every action the state must be one the rules allow (checkers conserved, the phase
consistent with the fields, the right seat to act, the cube a power of two, scores that only
grow, an append-only record); at a random point and at the end, replaying the record and the
JSON round trip must rebuild the same game, and the rebuilt game's JSON must equal the
original's.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backgammon import Position, Side, Variant, WinKind
from backgammon.dice import SeededDice
from backgammon.game import Action, Event, Game, IllegalActionError, Phase, Rules
from backgammon.game.match import Match

# Modest example counts: the file runs in well under 40 s.
SETTINGS = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
MATCH_SETTINGS = settings(SETTINGS, max_examples=25)

# The most actions an example plays (a patient standard game may be cut short by it).
MAX_ACTIONS = 300

# The actions that end a game at once; a patient example leaves them out when it can.
ENDING = {Action.RESIGN, Action.DROP, Action.ACCEPT}

# Standard start positions, seen from seat 0, besides the usual one: both sides bearing off;
# seat 0 on the bar against a closed board (so it dances: automatic passes); a pure race.
STARTS = [
    None,
    Position.from_points({1: 2, 2: 1, 4: 2}, {1: 1, 3: 2, 6: 2}),
    Position.from_points({"bar": 1, 13: 4, 8: 2}, {1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 6: 2, 13: 1}),
    Position.from_points({6: 4, 5: 3, 9: 2}, {6: 3, 4: 4, 10: 2}),
]


@st.composite
def game_rules(draw: st.DrawFn, *, in_match: bool) -> Rules:
    """Any options a game may have; in a match, none of those that matches do not allow."""
    max_cube = draw(st.none() | st.sampled_from([1, 2, 4, 64]))
    automatic = 0 if in_match else draw(st.integers(0, 2))
    beavers = not in_match and draw(st.booleans())
    return Rules(
        variant=draw(st.sampled_from(list(Variant))),
        cube=draw(st.booleans()),
        jacoby=not in_match and draw(st.booleans()),
        beavers=beavers,
        automatic_doubles=automatic,
        max_cube=max_cube,
        opening_reroll=draw(st.booleans()),
        auto_forced=draw(st.booleans()),
        auto_race_roll=draw(st.booleans()),
    )


def act(game: Game, data: st.DataObject, patient: bool) -> None:
    """Make one legal action, chosen uniformly, in ``game``."""
    seat = game.player_to_act
    if seat is None:
        assert game.phase is Phase.OPENING
        seat = data.draw(st.sampled_from((0, 1)))
    elif not patient and data.draw(st.integers(0, 30)) == 0:
        # Now and then the other seat claims the game, as if the seat awaited had left: at
        # a level the position may refuse, which then changes nothing.
        level = data.draw(st.sampled_from(list(WinKind)))
        record = game.to_json()
        try:
            game.claim(1 - seat, level)
            return
        except IllegalActionError:
            assert game.to_json() == record  # and the seat awaited acts after all
    actions = game.legal_actions(seat)
    assert actions, f"no legal action for seat {seat} in {game!r}"
    if patient:
        actions = [action for action in actions if action not in ENDING] or actions
    action = data.draw(st.sampled_from(actions))
    if action is Action.STEP:
        assert game.turn is not None
        game.step(seat, *data.draw(st.sampled_from(game.turn.legal_steps())))
    elif action is Action.PLAY:
        assert game.dice is not None
        play = data.draw(st.sampled_from(game.position.legal_plays(game.dice)))
        game.play(seat, str(play) if data.draw(st.booleans()) else play)
    elif action is Action.RESIGN:
        game.resign(seat, data.draw(st.sampled_from(list(WinKind))))
    else:
        getattr(game, action.value)(seat)


def check_state(game: Game) -> None:
    """Assert that ``game`` is in a state the rules allow."""
    rules, position = game.rules, game.position
    # Checkers are conserved and the board is a valid position.
    assert sum(position.mine) == sum(position.theirs) == game.start.checkers
    assert Position(position.mine, position.theirs) == position
    assert game.position_for(game.on_roll) == position
    assert game.position_for(1 - game.on_roll) == position.flip()
    assert game.on_roll in (0, 1)
    # The cube: a power of two, within the cap, centred or owned after a take.
    cube = game.cube_value
    assert cube >= 1 and cube & (cube - 1) == 0
    assert rules.max_cube is None or cube <= rules.max_cube
    assert game.cube_owner in (None, 0, 1)
    assert 0 <= game.automatic_doubles <= rules.automatic_doubles
    if not game.cube_turned:
        assert game.cube_owner is None and cube == 2**game.automatic_doubles
    if not rules.cube:
        assert (cube, game.cube_turned) == (1, False)
    if game.crawford:
        assert not game.cube_turned
    # The phase and the fields agree, and the right seat is to act.
    phase = game.phase
    moving = phase in (Phase.MOVE, Phase.CONFIRM) or (
        phase is Phase.RESIGN
        and game.resignation is not None
        and game.resignation.resume in (Phase.MOVE, Phase.CONFIRM)
    )
    if phase is not Phase.OVER:
        assert (game.dice is not None) == moving == (game.turn is not None)
        assert game.result is None
    assert (game.offer is not None) == (phase is Phase.CUBE)
    assert (game.resignation is not None) == (phase is Phase.RESIGN)
    if moving:
        assert game.turn is not None and game.dice is not None
        assert (game.turn.position, game.turn.dice) == (position, game.dice)
        if phase is Phase.MOVE or (game.resignation and game.resignation.resume is Phase.MOVE):
            # A turn waiting for steps has some to offer: a dance has been passed already.
            assert not game.turn.is_complete and game.turn.legal_steps()
        else:
            assert game.turn.is_complete and game.turn.made
    expected: int | None = None
    if phase is Phase.OPENING:
        assert all(
            e.action is Action.ROLL and e.dice and e.dice[0] == e.dice[1] for e in game.events
        )
        assert position == game.start and game.plays == []
    elif phase in (Phase.ROLL, Phase.MOVE, Phase.CONFIRM):
        expected = game.on_roll
    elif phase is Phase.CUBE:
        offer = game.offer
        assert offer is not None and offer.decider == 1 - offer.player
        assert offer.value == cube * (4 if offer.beavered else 2)
        assert game.on_roll == (offer.decider if offer.beavered else offer.player)
        expected = offer.decider
    elif phase is Phase.RESIGN:
        resignation = game.resignation
        assert resignation is not None
        assert resignation.resume in (Phase.ROLL, Phase.MOVE, Phase.CONFIRM)
        expected = 1 - resignation.player
    else:
        check_result(game)
    assert game.player_to_act == expected
    if expected is not None:
        # The seat that is not to act may do nothing, except offer to resign or claim.
        assert set(game.legal_actions(1 - expected)) <= {Action.RESIGN, Action.CLAIM}
        assert Action.CLAIM not in game.legal_actions(expected)


def check_result(game: Game) -> None:
    """Assert that a finished game's result is the one its end and its cube make."""
    result = game.result
    assert result is not None and result.winner in (0, 1)
    assert (game.offer, game.resignation, game.turn) == (None, None, None)
    assert game.legal_actions(0) == game.legal_actions(1) == []
    last = game.events[-1]
    single = game.rules.jacoby and not game.in_match and not game.cube_turned
    multiple = 1 if single else int(result.kind)
    if result.reason == "drop":
        assert last.action is Action.DROP and last.player == 1 - result.winner
        assert result.kind is WinKind.SINGLE
        # A dropped double pays the cube; a dropped beaver pays twice the cube.
        beavered = game.events[-2].action is Action.BEAVER
        assert result.points == game.cube_value * (2 if beavered else 1)
    elif result.reason == "resign":
        assert last.action is Action.ACCEPT and last.player == result.winner
        assert result.points == game.cube_value * multiple
    elif result.reason == "claim":
        # A claim scores as the absent side's resignation at its level would.
        assert last.action is Action.CLAIM and last.player == result.winner
        assert last.level == result.kind and result.points == game.cube_value * multiple
    else:
        assert result.reason == "bear off"
        outcome = game.position.outcome()
        assert outcome is not None and outcome.winner is Side.OPPONENT
        assert (result.winner, result.kind) == (1 - game.on_roll, outcome.kind)
        assert result.points == game.cube_value * multiple


def same_game(rebuilt: Game, game: Game) -> None:
    """Assert that ``rebuilt`` is the same game as ``game``."""

    def state(g: Game) -> tuple[Any, ...]:
        return (
            g.position,
            g.phase,
            g.on_roll,
            g.dice,
            g.turn.made if g.turn else None,
            g.cube_value,
            g.cube_owner,
            g.cube_turned,
            g.automatic_doubles,
            g.offer,
            g.resignation,
            g.result,
            g.plays,
            g.events,
            g.crawford,
            g.in_match,
            g.start,
        )

    assert state(rebuilt) == state(game)
    assert rebuilt.to_json() == game.to_json()


def check_replay(game: Game, *, every_way: bool = True) -> None:
    """The JSON round trip (and, ``every_way``, Game.replay and Game.copy) rebuild ``game``
    exactly. Mid-game checks use the JSON round trip only: rebuilding costs as much as
    playing."""
    same_game(Game.from_json(game.to_json()), game)
    if every_way:
        replayed = Game.replay(
            game.rules,
            game.events,
            crawford=game.crawford,
            in_match=game.in_match,
            start=game.start,
        )
        same_game(replayed, game)
        same_game(game.copy(), game)
        assert [Event.from_dict(event.to_dict()) for event in game.events] == game.events


@SETTINGS
@given(
    data=st.data(),
    rules=game_rules(in_match=False),
    start=st.sampled_from(STARTS),
    seed=st.integers(0, 2**32 - 1),
    patient=st.booleans(),
)
def test_random_legal_games_stay_valid_and_replay_exactly(
    data: st.DataObject, rules: Rules, start: Position | None, seed: int, patient: bool
) -> None:
    """A game played by random legal actions never reaches an invalid state, its record only
    grows, its result never changes once set, and it replays exactly."""
    if rules.variant is not Variant.STANDARD:
        start = None
    game = Game(rules, SeededDice(seed), start=start)
    check_state(game)
    checkpoint = data.draw(st.integers(0, MAX_ACTIONS))
    for number in range(MAX_ACTIONS):
        if game.phase is Phase.OVER:
            break
        events, result = list(game.events), game.result
        act(game, data, patient)
        assert game.events[: len(events)] == events and len(game.events) > len(events)
        assert result is None or game.result == result
        check_state(game)
        if number == checkpoint:
            check_replay(game, every_way=False)
    check_replay(game)


def expected_crawford(match: Match) -> list[bool]:
    """Which games of ``match`` are Crawford games by the rule: the first game that starts
    with a player one point short of the match, if any, and no other (none in a 1-point
    match, where no game follows a player reaching N-1)."""
    flags = [False] * len(match.games)
    if match.length > 1 and match.crawford_rule:
        for index in range(len(match.games)):
            if match.length - 1 in match.scores_before(index):
                flags[index] = True
                break
    return flags


def check_match(match: Match, score: tuple[int, int]) -> None:
    """Assert that ``match`` is consistent and its score has not gone down from ``score``."""
    assert match.score[0] >= score[0] and match.score[1] >= score[1]
    finished = [game for game in match.games if game.phase is Phase.OVER]
    totals = [0, 0]
    for game in finished:
        assert game.result is not None
        totals[game.result.winner] += game.result.points
    assert tuple(totals) == match.score == match.scores_before(len(match.games))
    assert all(game.phase is Phase.OVER for game in match.games[:-1])
    if finished:
        # The last game to end (the earlier ones were checked when they ended).
        check_result(finished[-1])
    over = bool(match.length) and max(match.score) >= match.length
    assert match.is_over == over
    assert (match.game.phase is Phase.OVER) == over
    assert match.winner == ((0 if match.score[0] >= match.length else 1) if over else None)
    assert [game.crawford for game in match.games] == expected_crawford(match)
    assert match.crawford_played == any(game.crawford for game in match.games)
    assert all(game.in_match == bool(match.length) for game in match.games)
    check_state(match.game)


def check_match_replay(match: Match) -> None:
    """The JSON round trip rebuilds ``match`` exactly, game by game."""
    rebuilt = Match.from_json(match.to_json())
    assert (rebuilt.score, rebuilt.is_over, rebuilt.winner) == (
        match.score,
        match.is_over,
        match.winner,
    )
    assert (rebuilt.length, rebuilt.players, rebuilt.rules, rebuilt.crawford_played) == (
        match.length,
        match.players,
        match.rules,
        match.crawford_played,
    )
    assert len(rebuilt.games) == len(match.games)
    for copy, game in zip(rebuilt.games, match.games, strict=True):
        same_game(copy, game)
    assert rebuilt.to_json() == match.to_json()


@MATCH_SETTINGS
@given(
    data=st.data(),
    length=st.sampled_from([0, 1, 2, 3, 5, 7]),
    crawford=st.booleans(),
    seed=st.integers(0, 2**32 - 1),
    patient=st.booleans(),
)
def test_random_legal_matches_keep_score_and_replay_exactly(
    data: st.DataObject, length: int, crawford: bool, seed: int, patient: bool
) -> None:
    """A match played by random legal actions keeps a score that only grows and equals its
    games' results, starts a new game after each one until a player reaches the length, has
    exactly the Crawford game the rule names, and rebuilds exactly from its JSON."""
    rules = data.draw(game_rules(in_match=bool(length)))
    match = Match(length, rules, SeededDice(seed), players=("Ann", "Bob"), crawford=crawford)
    # A money session goes on for ever: it stops after a few games.
    most_games = data.draw(st.integers(1, 6))
    checkpoint = data.draw(st.integers(0, MAX_ACTIONS))
    score = match.score
    for number in range(MAX_ACTIONS):
        if match.is_over or len(match.games) > most_games:
            break
        act(match.game, data, patient)
        check_match(match, score)
        score = match.score
        if number == checkpoint:
            check_match_replay(match)
    check_match_replay(match)
