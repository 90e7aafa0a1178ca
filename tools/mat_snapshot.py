"""Write, or check, the golden ``.mat`` files: the text the writer gives for seeded matches.

Each case is a match (an N-point match, a money session, or one lone game) played from a seed
by random players through the public Game API: every kind of action the rules allow (doubles,
beavers, takes, drops, resignations accepted and rejected, turns played whole or step by step
with undos), under the options (variants, the Jacoby rule, beavers, a cube limit, no cube, the
opening reroll, automatic plays and rolls, no Crawford rule, automatic doubles). Its golden
file, ``tests/data/mat_golden/<case>.mat``, is what ``export_mat`` wrote for it; a case the
format cannot hold keeps the refusal instead, in ``<case>.txt``. The test
(tests/formats/test_mat_golden.py) plays the same seeds and compares byte for byte, so a change
to the writer (or to the game record it reads) that changes one byte of any file fails it.

The players' choices do not depend on the order in which the core lists plays or steps (both
are sorted first), and the dice come from a generator of this file's own, so the files stay
valid while the core changes inside. Regenerate only when a change of the written text is
intended, and read the diff::

    PYTHONPATH=src .venv/bin/python tools/mat_snapshot.py            # write the files
    PYTHONPATH=src .venv/bin/python tools/mat_snapshot.py --check    # compare, and say what
                                                                      # the cases cover
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from backgammon.dice import Dice
from backgammon.errors import BackgammonError
from backgammon.formats.mat import export_mat
from backgammon.game import Action, Game, Phase, Rules
from backgammon.game.match import Match
from backgammon.position import WinKind
from backgammon.variants import Variant

GOLDEN = Path(__file__).resolve().parent.parent / "tests" / "data" / "mat_golden"
NAMES = ("Ann Lee", "Bob")


class _Dice:
    """Dice from a seed, independent of the package's own seeded source."""

    def __init__(self, seed: int) -> None:
        self._random = random.Random(f"dice {seed}")

    def roll(self) -> Dice:
        return (self._random.randint(1, 6), self._random.randint(1, 6))


@dataclass(frozen=True)
class Case:
    """One seeded match: ``length`` 0 is a money session of ``games`` games; ``cut`` stops
    it after a random number of actions, fewer than ``cut``; ``lone`` plays one Game, not a
    Match."""

    name: str
    seed: int
    length: int = 0
    rules: Rules = field(default_factory=Rules)
    games: int = 3
    cut: int = 0
    double_rate: float = 0.08
    resign_rate: float = 0.005
    crawford: bool = True
    names: tuple[str, str] = NAMES
    lone: bool = False


def _cases() -> list[Case]:
    cases = []
    for seed in range(12):
        length = (1, 3, 5, 7, 9, 11)[seed % 6]
        rate = (0.005, 0.03, 0.1)[seed % 3]
        cases.append(Case(f"match{length}_{seed}", seed, length, cut=1500 * (seed % 4 == 3),
                          double_rate=rate, resign_rate=0.002 * (seed % 3)))
    for seed in range(10):
        rules = Rules(jacoby=seed % 2 == 0, beavers=seed % 4 < 2)
        cases.append(Case(f"money_{seed}", 100 + seed, 0, rules, games=3 + seed % 3,
                          cut=1500 * (seed % 5 == 4), double_rate=(0.02, 0.06, 0.15)[seed % 3]))
    options = {
        "nackgammon": Rules(variant=Variant.NACKGAMMON),
        "hypergammon": Rules(variant=Variant.HYPERGAMMON),
        "reroll": Rules(opening_reroll=True),
        "maxcube4": Rules(max_cube=4),
        "nocube": Rules(cube=False),
        "autoplay": Rules(auto_forced=True, auto_race_roll=True),
    }
    for index, (name, rules) in enumerate(options.items()):
        cases.append(Case(f"{name}_match", 200 + index, 5, rules, double_rate=0.05))
        money = Rules(**{**rules.to_dict(), "jacoby": True, "beavers": True})
        cases.append(Case(f"{name}_money", 300 + index, 0, money, games=2, double_rate=0.1))
    for seed in range(16):
        # Stopped at random moments, so games are left waiting for every kind of action.
        rules = Rules(beavers=True, jacoby=True) if seed % 2 else Rules()
        cases.append(Case(f"cut_{seed}", 500 + seed, 0 if seed % 2 else 3, rules, cut=80,
                          double_rate=0.3, resign_rate=0.1))
    cases += [
        Case("nocrawford", 400, 5, crawford=False, double_rate=0.2),
        Case("names", 401, 3, names=('Ann "A" Lee', "Bob: the\t2nd"), cut=300),
        Case("automatic_ok", 402, 0, Rules(automatic_doubles=1), games=2),
        Case("automatic_refused", 403, 0, Rules(automatic_doubles=2), games=4),
        Case("lone", 404, 0, Rules(jacoby=True, beavers=True), double_rate=0.2, lone=True),
        Case("lone_cut", 405, 0, cut=150, lone=True),
    ]
    return cases


CASES = _cases()


def act(game: Game, rng: random.Random, double_rate: float, resign_rate: float) -> None:
    """One random action that the rules allow, of whoever must act (either seat may resign).

    Rare entries of the format are made likelier: a resignation with one legal play to make
    (written ``???``), beavers, and rejected resignations. Like tests/formats/test_mat.py's random
    player, but frozen: the golden files depend on every choice it makes.
    """
    phase = game.phase
    if phase is Phase.OPENING:
        game.roll(rng.randrange(2))
    elif phase is Phase.ROLL:
        seat = game.on_roll
        chance = rng.random()
        if game.may_double(seat) and chance < double_rate:
            game.double(seat)
        elif chance > 1 - resign_rate:
            game.resign(rng.randrange(2), rng.choice(list(WinKind)))
        else:
            game.roll(seat)
    elif phase is Phase.CUBE:
        assert game.offer is not None
        decider = game.offer.decider
        chance = rng.random()
        if Action.BEAVER in game.legal_actions(decider) and chance < 0.35:
            game.beaver(decider)
        elif chance < 0.7:
            game.take(decider)
        else:
            game.drop(decider)
    elif phase is Phase.MOVE:
        assert game.dice is not None and game.turn is not None
        seat = game.on_roll
        plays = sorted(game.position.legal_plays(game.dice), key=lambda play: play.result.id())
        chance = rng.random()
        if chance < (0.1 if len(plays) == 1 and not game.turn.made else resign_rate):
            game.resign(seat, rng.choice(list(WinKind)))
        elif chance < 0.3 or game.turn.made:
            if game.turn.made and rng.random() < 0.1:
                game.undo(seat)
            else:
                game.step(seat, *rng.choice(sorted(game.turn.legal_steps())))
        else:
            game.play(seat, rng.choice(plays))
    elif phase is Phase.CONFIRM:
        seat = game.on_roll
        (game.undo if rng.random() < 0.1 else game.confirm)(seat)
    elif phase is Phase.RESIGN:
        assert game.resignation is not None
        answer = game.accept if rng.random() < 0.6 else game.reject
        answer(1 - game.resignation.player)


def play(case: Case) -> Match | Game:
    """The case's match (or lone game), played to its end, its games, or its cut."""
    rng = random.Random(case.seed)
    dice = _Dice(case.seed)
    record: Match | Game
    if case.lone:
        record = Game(case.rules, dice)
    else:
        record = Match(case.length, case.rules, dice, players=case.names, crawford=case.crawford)
    actions = rng.randrange(10, case.cut) if case.cut else -1
    while actions:
        if isinstance(record, Game):
            if record.result is not None:
                break
            game = record
        else:
            finished = sum(game.result is not None for game in record.games)
            if record.is_over or (not case.length and finished >= case.games):
                break
            game = record.game
        act(game, rng, case.double_rate, case.resign_rate)
        actions -= 1
    return record


def written(case: Case, record: Match | Game) -> tuple[str, str]:
    """The golden file's name and text for ``case``, played as ``record``: the .mat text, or
    the writer's refusal."""
    try:
        return f"{case.name}.mat", export_mat(record)
    except BackgammonError as exc:
        return f"{case.name}.txt", f"{type(exc).__name__}: {exc}\n"


def coverage(played: Iterable[tuple[Case, Match | Game]]) -> Counter[str]:
    """What the cases hold: the record's actions and the features of the format."""
    seen: Counter[str] = Counter()
    for case, record in played:
        games = [record] if isinstance(record, Game) else record.games
        name, text = written(case, record)
        seen["refused by the writer" if name.endswith(".txt") else "files"] += 1
        for game in games:
            for feature in _features(game):
                seen[feature] += 1
        for word in ("Beavers =>", "???", "Takes", "Drops", "Doubles => 4", "Wins 1 point\n"):
            seen[f"text {word.strip()!r}"] += text.count(word)
    return seen


def _features(game: Game) -> Iterator[str]:
    for event in game.events:
        yield f"{'auto ' if event.auto else ''}{event.action.value}"
    if game.events and game.phase is not Phase.OVER:
        yield f"game left at {game.phase.value}"
    if game.crawford:
        yield "Crawford game"
    if game.rules.opening_reroll and game.events:
        yield "opening reroll game"
    ties = 0
    for event in game.events:
        if event.action is not Action.ROLL or event.dice is None or event.dice[0] != event.dice[1]:
            break
        ties += 1
    if ties:
        yield "tied opening roll"
    if game.result is not None:
        result = game.result
        yield f"won by {result.reason}, {result.kind.name.lower()}"
        if result.points < game.cube_value * int(result.kind):
            yield "gammon counted single (Jacoby)"
        if game.cube_value > 1:
            yield f"won at cube {game.cube_value}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    played = [(case, play(case)) for case in CASES]
    if args.check:
        different = []
        for case, record in played:
            name, text = written(case, record)
            path = GOLDEN / name
            if not path.exists() or path.read_text() != text:
                different.append(name)
        for feature, count in sorted(coverage(played).items()):
            print(f"{count:6d}  {feature}")
        print(f"{len(CASES)} cases, {len(different)} different: {' '.join(different)}")
        return 1 if different else 0
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for old in GOLDEN.iterdir():
        old.unlink()
    for case, record in played:
        name, text = written(case, record)
        (GOLDEN / name).write_text(text)
    print(f"Wrote {len(CASES)} files to {GOLDEN}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
