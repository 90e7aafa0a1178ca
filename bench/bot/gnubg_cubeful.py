"""Our cubeful rollouts against GNU Backgammon's (Debian's ``gnubg -t``) on a set of positions.

    .venv/bin/python bench/bot/gnubg_cubeful.py [--trials 1296] [--gnubg-trials 1296]
                                            [--seed 1] [--profile-trials 216] [NAMES ...]

Each position (:data:`CASES`: money with the cube centred, owned, a match score, the Crawford
game, a near double and take, a clear pass) is rolled out by both programs with the cube
played in the trials, 0-ply plays and cube decisions, variance reduction and quasi-random
dice. gnubg's ``rollout`` command rolls the position out as it stands, its player on roll
taking no cube action before the first roll; ours lets that player double first. So where
the player on roll may double, gnubg rolls out both branches, as its cube analysis does: no
double (the cube as given) and double and take (the cube doubled, owned by the opponent), and
its value is that of the right action between no double, double and take, and double and
drop (the cube's value, exactly); ours is the rollout of the position with its own cube
action. gnubg prints money equities per unit of the cube in play (so a double and take
counts twice its figure) and, with ``set output mwc on``, chances of winning the match, which
are turned into normalised equity (EMG) at the position's cube as ours are.

The programs differ in their networks (and gnubg chooses its plays cubefully, ours
cubelessly), so a difference beyond the combined error can be the evaluators': a position
agrees when the difference is within the combined 95% interval, or within it widened by the
evaluators' 0-ply difference (each program's 0-ply cubeless equity of the position: ours from
the shipped networks, gnubg's ``eval`` static line). Each line also shows both cubeless
rollout equities (money positions; gnubg's from its no-double rollout) and our share of
trials with a double and ended by a drop.

``--profile-trials N``: the cost of a cubeful rollout against a cubeless one of the same
position (the first case), both of N trials in this process, in CPU seconds, measured twice
in turn, printed as their ratio; ``--profile-only`` runs only that.
"""

from __future__ import annotations

import argparse
import math
import re
import shutil
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from backgammon import Position
from backgammon.bot.kernel import Kernel, boards_of
from backgammon.bot.met import Scale, equity_after
from backgammon.bot.probabilities import EQUITY_WEIGHTS
from backgammon.bot.rollout import RolloutResult, rollout
from backgammon.cube import CubeContext, CubeOwner, MatchScore
from backgammon.formats.matchid import MatchIdState, gnubg_id

sys.path.insert(0, str(Path(__file__).resolve().parent))
from gnubg_rollouts import gnubg_output  # bench/bot/gnubg_rollouts.py, beside this script

GNUBG = "/usr/games/gnubg"


@dataclass(frozen=True)
class Case:
    """A position (player on roll, before rolling) and its cube, as that player sees it."""

    name: str
    position_id: str
    cube: CubeContext


CASES = (
    Case("money centred", "xM8NAyCMtwcBBg", CubeContext()),
    Case("money owned", "tm0LAAY2b+YAAA", CubeContext(value=2, owner=CubeOwner.ON_ROLL)),
    Case("3-away 2-away", "bDsDAE4zfQYBKA", CubeContext(match=MatchScore(5, (2, 3)))),
    Case("Crawford", "tm0LAAY2b+YAAA", CubeContext(match=MatchScore(5, (2, 4), crawford=True))),
    Case("near double", "ZpvgwQDszDEHAA", CubeContext()),
    Case("clear pass", "uJ6DAQyb7UYEAA", CubeContext()),
)

_CURRENT = re.compile(
    r"Current Position:\s+(?:[-\d.]+ ){3}- (?:[-\d.]+ ){3}CL\s+([-+\d.]+)%? CF\s+([-+\d.]+)%?"
    r"\s+\[(?:[-\d.]+ ){3}- (?:[-\d.]+ ){3}CL\s+([-\d.]+)%? CF\s+([-\d.]+)%?\]"
)
# The static (0-ply) line of gnubg's ``eval``: five probabilities first.
_STATIC = re.compile(r"static:\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+([-\d.]+)\s+"
                     r"([-\d.]+)")


def _state(cube: CubeContext) -> MatchIdState:
    """gnubg's Match ID of the cube, player 1 on roll (gnubg's player 0 is the opponent)."""
    owner = {CubeOwner.CENTRE: None, CubeOwner.ON_ROLL: 1, CubeOwner.OPPONENT: 0}[cube.owner]
    match = cube.match
    return MatchIdState(
        cube_value=cube.value, cube_owner=owner, player_on_roll=1, turn=1,
        crawford=match is not None and match.crawford,
        match_length=0 if match is None else match.length,
        score=(0, 0) if match is None else (match.score[1], match.score[0]),
        jacoby=cube.jacoby,
    )


@dataclass(frozen=True)
class GnubgRollout:
    """What gnubg's cubeful rollout of a position printed: the cubeless and cubeful figures
    (money equity per unit of the cube, or in a match chances of winning it) and their
    standard errors, and its 0-ply cubeless money equity."""

    cubeless: float
    cubeless_se: float
    cubeful: float
    cubeful_se: float
    static: float


def gnubg_rollout(position_id: str, cube: CubeContext, trials: int, seed: int) -> GnubgRollout:
    """gnubg's cubeful rollout of the position with ``cube``, as it stands (no cube action
    before the first roll)."""
    state = _state(cube)
    commands = "\n".join((
        "set player 0 human",
        "set player 1 human",
        "set automatic roll off",
        f"set jacoby {'on' if cube.jacoby else 'off'}",
        "new game" if cube.match is None else f"new match {cube.match.length}",
        f"set gnubgid {gnubg_id(Position.from_id(position_id), state)}",
        "set output mwc on",
        "set evaluation chequerplay evaluation plies 0",
        "eval",
        f"set rollout trials {trials}",
        "set rollout varredn on",
        "set rollout cubeful on",
        "set rollout quasirandom on",
        "set rollout chequerplay plies 0",
        "set rollout cubedecision plies 0",
        f"set rollout seed {seed}",
        "rollout",
        "",
    ))
    text = gnubg_output(commands)
    found = _CURRENT.findall(text)
    static = _STATIC.search(text)
    if not found or static is None:
        raise RuntimeError(f"gnubg printed no rollout or evaluation for {position_id}:\n"
                           f"{text[-2000:]}")
    scale = 1.0 if cube.match is None else 100.0
    cl, cf, cl_se, cf_se = (float(v) / scale for v in found[-1])
    chances = np.array([float(v) for v in static.groups()])
    return GnubgRollout(cl, cl_se, cf, cf_se, float(chances @ EQUITY_WEIGHTS) - 1.0)


@dataclass(frozen=True)
class Verdict:
    """gnubg's value of the position with its right cube action, in our units (money per
    unit of the cube, EMG in a match), its standard error, the action, and its rollouts."""

    value: float
    se: float
    action: str
    no_double: GnubgRollout


def gnubg_value(case: Case, trials: int, seed: int) -> Verdict:
    """gnubg's rollouts of the case's branches and the value of the right action."""
    cube = case.cube
    no_double = gnubg_rollout(case.position_id, cube, trials, seed)
    scale = Scale.of(cube) if cube.match is not None else None

    def ours(value: float, se: float) -> tuple[float, float]:
        """A money equity per unit of the cube stays; a chance becomes EMG."""
        return (value, se) if scale is None else (scale.emg(value), se / scale.unit)

    value, se = ours(no_double.cubeful, no_double.cubeful_se)
    if not (cube.may_double and (cube.match is None or cube.match.away > cube.value)):
        return Verdict(value, se, "no cube action", no_double)
    taken = gnubg_rollout(case.position_id, replace(cube.doubled(), owner=CubeOwner.OPPONENT),
                          trials, seed)
    if cube.match is None:
        take, take_se, drop = 2 * taken.cubeful, 2 * taken.cubeful_se, 1.0
    else:
        take, take_se = ours(taken.cubeful, taken.cubeful_se)
        drop = ours(equity_after(cube.match, won=cube.value), 0.0)[0]
    if min(take, drop) <= value:
        return Verdict(value, se, "no double" if take <= drop else "too good", no_double)
    if take < drop:
        return Verdict(take, take_se, "double, take", no_double)
    return Verdict(drop, 0.0, "double, pass", no_double)


def our_static(position: Position) -> float:
    """Our 0-ply cubeless money equity of the position (the shipped networks)."""
    values = Kernel.shipped().evaluate(boards_of([position]))[0]
    return float(np.dot(values, EQUITY_WEIGHTS)) - 1.0


def profile(case: Case, trials: int, seed: int) -> tuple[float, float]:
    """CPU seconds of a cubeless and of a cubeful rollout of the case in this process, each
    the lesser of two runs in turn (CPU time, so that other work on the machine counts
    less)."""
    position = Position.from_id(case.position_id)
    rollout(position, case.cube, trials=36, truncate=2, seed=seed, workers=1, cubeful=True)
    spent: dict[bool, list[float]] = {False: [], True: []}
    for _ in range(2):
        for cubeful in (False, True):
            began = time.process_time()
            rollout(position, case.cube, trials=trials, seed=seed, workers=1, cubeful=cubeful)
            spent[cubeful].append(time.process_time() - began)
    return min(spent[False]), min(spent[True])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="the cases to run (all by default)")
    parser.add_argument("--trials", type=int, default=1296, help="our trials (1296)")
    parser.add_argument("--gnubg-trials", type=int, default=1296, help="gnubg's (1296)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1, help="our processes (1)")
    parser.add_argument("--profile-trials", type=int, default=0,
                        help="measure the cost of cubeful against cubeless (0: not)")
    parser.add_argument("--profile-only", action="store_true", help="only measure the cost")
    args = parser.parse_args()
    if shutil.which("script") is None or not Path(GNUBG).exists():
        raise SystemExit("This needs Debian's gnubg (/usr/games/gnubg) and `script`.")
    cases = [c for c in CASES if not args.names or c.name in args.names]
    if args.profile_only:
        report_profile(cases[0], args.profile_trials or 216, args.seed)
        return
    print(f"{'case':<15}{'position':<16}{'gnubg':>16}  {'action':<15}{'ours':>16}"
          f"{'diff':>8}{'z':>7}{'0-ply diff':>11}{'CL gnubg':>10}{'CL ours':>9}"
          f"{'dbl':>6}{'drop':>6}  agree")
    agree = widened = 0
    gnubg_seconds = ours_seconds = 0.0
    for case in cases:
        # gnubg from a thread (in a process of its own) while ours runs here: a core each.
        began = time.perf_counter()
        with ThreadPoolExecutor(1) as pool:
            theirs = pool.submit(gnubg_value, case, args.gnubg_trials, args.seed)
            position = Position.from_id(case.position_id)
            ours: RolloutResult = rollout(position, case.cube, trials=args.trials,
                                          seed=args.seed, workers=args.workers, cubeful=True)
            ours_seconds += time.perf_counter() - began
            verdict = theirs.result()
        gnubg_seconds += time.perf_counter() - began
        difference = ours.cubeful_equity - verdict.value
        combined = math.hypot(ours.cubeful_se, verdict.se)
        z = difference / combined if combined > 0 else 0.0 if abs(difference) < 1e-9 else math.inf
        static = our_static(position) - verdict.no_double.static
        if abs(z) < 1.96:
            verdict_text = "yes"
            agree += 1
        elif abs(difference) < 1.96 * combined + abs(static):
            verdict_text = "with 0-ply diff"
            widened += 1
        else:
            verdict_text = "no"
        cubeless = (f"{verdict.no_double.cubeless:+10.3f}{ours.equity:+9.3f}"
                    if case.cube.match is None else f"{'':>10}{'':>9}")
        print(f"{case.name:<15}{case.position_id:<16}"
              f"{verdict.value:+8.3f} ± {1.96 * verdict.se:.3f}"
              f"  {verdict.action:<15}{ours.cubeful_equity:+8.3f} ± {1.96 * ours.cubeful_se:.3f}"
              f"{difference:+8.3f}{z:+7.2f}{static:+11.3f}{cubeless}"
              f"{ours.doubled or 0.0:6.2f}{ours.dropped or 0.0:6.2f}  {verdict_text}")
    print(f"{agree} of {len(cases)} cases agree within the combined 95% interval, {widened} "
          f"more within it widened by the 0-ply difference; gnubg {args.gnubg_trials} trials "
          f"a rollout, ours {args.trials}; wall time {gnubg_seconds:.0f} s in all (ours "
          f"{ours_seconds:.0f} s)")
    if args.profile_trials:
        report_profile(cases[0], args.profile_trials, args.seed)


def report_profile(case: Case, trials: int, seed: int) -> None:
    """Print :func:`profile`'s figures."""
    plain, played = profile(case, trials, seed)
    print(f"cost of a cubeful rollout of {case.position_id} ({case.name}), {trials} trials: "
          f"{played:.1f} CPU s against {plain:.1f} cubeless, ratio {played / plain:.2f}")


if __name__ == "__main__":
    main()
