"""Rollout labels for the networks of the other games, and their supervised refit
(docs/lab/game-rollouts.md).

    .venv/bin/python bench/bot/games_rollouts.py speed [--games fevga ...] [--seconds 20]
    .venv/bin/python bench/bot/games_rollouts.py luck [--games fevga ...] [--positions 200]
        [--trials 72]
    .venv/bin/python bench/bot/games_rollouts.py label --game fevga [--positions 3000]
        [--trials 72] [--probability 0.05] [--chunk 100] [--minutes 35] [--out DIR] [--luck]
    .venv/bin/python bench/bot/games_rollouts.py refit --game fevga [--out DIR]
        [--rate 0.001] [--patience 30] [--epochs 5000] [--save refit.npz] [--match-games 4000]

``speed`` measures, in one process, the kernel's TD self-play (``players.train``) and its
rollout trials from self-play positions, each in games a second of process time, and
prints their ratio (the machine is shared: the ratio is the figure, not the rates).

``luck`` rolls out the same positions of each game's self-play (one board in twenty) with
the same dice with and without the luck adjustment, and prints a trial's spread (the
stratified standard error × √trials, rms over the positions) and the process time a trial
of each, and the means' difference against its standard error (the adjustment is unbiased).

``--network`` names the network to label with or to refit, the shipped one by default.

``label`` samples positions from the network's self-play (every board where a
player is about to throw, after the first throw, kept with ``--probability``; the games
seeded by ``--seed``), takes the first ``--positions`` of them in order, and rolls each out
with ``--trials`` trials (the shipped network at 0-ply for both sides; with ``--luck``,
each throw's luck taken out), in chunks of ``--chunk`` positions written as
``chunk-NNNN.jsonl.gz`` under ``--out`` (by default
``data/games-labels/<game>``) with ``meta.json`` (the command's settings and the network's
digest). A chunk already written is skipped: the command run again goes on where it
stopped, and gives the same labels (each position's dice come from its number).

``refit`` trains the shipped network on the labels (the mean points over the game's
largest score, the network's scale): a tenth of the positions held out, Adam on the mean
squared error in full batches from the shipped weights, stopped when the held-out error has
not improved for ``--patience`` epochs (the best epoch's weights kept), then measures the
refit against the shipped network in ``compiled_match`` (``--match-games`` duplicate-dice
games, seed 1; none with ``--match-games 0``) and saves it to ``--save``.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import io
import json
import time
from importlib import resources
from pathlib import Path

import numpy as np

from backgammon.bot.games.compiled import compiled_match
from backgammon.bot.games.shipped import SHIPPED, shipped_network
from backgammon.bot.games.td import Network, TDPlayer
from backgammon.bot.kernel import boards as kb
from backgammon.bot.kernel import game_rollouts as gr
from backgammon.bot.kernel import players as kp
from backgammon.games import rules_for


def _arrays(net: Network) -> tuple[np.ndarray, ...]:
    return net.w1, net.b1, net.w2, np.array([net.b2])


def _network(game: str, path: Path | None) -> tuple[Network, str, str]:
    """The network to label with or to refit (``path``, or the shipped one), its file's
    name and the first 16 hex digits of the file's sha256."""
    if path is None:
        data = (resources.files("backgammon.bot") / "weights" / SHIPPED[game]).read_bytes()
        name = SHIPPED[game]
    else:
        data, name = path.read_bytes(), path.name
    return Network.load(io.BytesIO(data)), name, hashlib.sha256(data).hexdigest()[:16]


def speed(games: list[str], seconds: float) -> None:
    """Self-play training against rollout trials, in games a second of process time; and
    from the positions rolled out, a trial's spread and the shipped network's error."""
    for game in games:
        rules, code, net = rules_for(game), kb.game_code(game), shipped_network(game)
        start = kb.board_array(rules.initial())
        w1, b1, w2, b2 = _arrays(net)
        positions, _ = kp_positions(code, start, net, 60)
        gr.rollouts(code, positions[:1], w1, b1, w2, b2, 72, 7, 0, False)  # compiled first
        kp.train(code, start, w1.copy(), b1.copy(), w2.copy(), b2.copy(), 1, 7, 0, 0.0, 0.7)
        trained, began = 0, time.process_time()
        while time.process_time() - began < seconds:
            kp.train(code, start, w1.copy(), b1.copy(), w2.copy(), b2.copy(), 20, 7, trained,
                     0.1, 0.7)
            trained += 20
        train_rate = trained / (time.process_time() - began)
        means, errors, throws, began = [], [], 0, time.process_time()
        while time.process_time() - began < 3 * seconds and len(means) < len(positions):
            i = len(means)
            mean, error, played = gr.rollouts(code, positions[i:i + 1], w1, b1, w2, b2, 72, 7,
                                              i, False)
            means.append(mean[0])
            errors.append(error[0])
            throws += int(played.sum())
        rate = 72 * len(means) / (time.process_time() - began)
        top = float(kp.TOP[code])
        labels, noise = np.array(means) / top, np.array(errors) / top
        values = kp.values(code, positions[:len(means)], w1, b1, w2, b2)
        squared = float(np.mean((values - labels) ** 2) - np.mean(noise ** 2))
        print(f"{game}: train {train_rate:.0f} games/s, rollout {rate:.0f} trials/s "
              f"({throws / 72 / len(means):.0f} throws a trial), ratio "
              f"{rate / train_rate:.2f}; {len(means)} positions: a trial's spread "
              f"{np.sqrt(np.mean(noise ** 2) * 72):.3f}, the network's rms error "
              f"{np.sqrt(max(squared, 0.0)):.3f} (net scale)", flush=True)


def luck(games: list[str], count: int, trials: int) -> None:
    """A trial's spread and process time with and without the luck adjustment, on the same
    positions and dice."""
    for game in games:
        rules, code, net = rules_for(game), kb.game_code(game), shipped_network(game)
        start = kb.board_array(rules.initial())
        arrays = _arrays(net)
        positions, _ = kp_positions(code, start, net, max(10, count // 2))
        while len(positions) < count:
            positions, _ = kp_positions(code, start, net, 2 * len(positions) + 10)
        positions = positions[:count]
        gr.rollouts(code, positions[:1], *arrays, 72, 7, 0, True)  # compiled first
        gr.rollouts(code, positions[:1], *arrays, 72, 7, 0, False)
        found = {}
        for adjusted in (False, True):
            began = time.process_time()
            means, errors, _ = gr.rollouts(code, positions, *arrays, trials, 7, 0, adjusted)
            spent = time.process_time() - began
            found[adjusted] = (means, errors, spent / (count * trials))
        (plain, plain_e, plain_t), (means, errors, t) = found[False], found[True]
        spread = float(np.sqrt(np.mean(plain_e ** 2) * trials))
        adjusted_spread = float(np.sqrt(np.mean(errors ** 2) * trials))
        difference = float(np.mean(means - plain))
        error = float(np.sqrt(np.sum(errors ** 2 + plain_e ** 2))) / count
        print(f"{game}: {count} positions x {trials} trials: a trial's spread "
              f"{spread:.3f} -> {adjusted_spread:.3f} points ({spread / adjusted_spread:.2f}x"
              f", trials for one error / {(spread / adjusted_spread) ** 2:.1f}); "
              f"{1e3 * plain_t:.2f} -> {1e3 * t:.2f} ms a trial ({t / plain_t:.1f}x); "
              f"mean difference {difference:+.4f} ± {error:.4f}; net gain "
              f"{(spread / adjusted_spread) ** 2 / (t / plain_t):.2f}x", flush=True)


def kp_positions(code: int, start: np.ndarray, net: Network,
                 games: int) -> tuple[np.ndarray, np.ndarray]:
    """Positions of ``games`` self-play games, one board in twenty."""
    return gr.self_play_positions(code, start, *_arrays(net), games, 7, 0.05)


def label(args: argparse.Namespace) -> None:
    """Roll out the positions in chunks, skipping the chunks written."""
    rules, code = rules_for(args.game), kb.game_code(args.game)
    net, name, digest = _network(args.game, args.network)
    out: Path = args.out or Path("data/games-labels") / args.game
    out.mkdir(parents=True, exist_ok=True)
    meta = {"game": args.game, "network": name, "sha256_16": digest,
            "seed": args.seed, "probability": args.probability, "trials": args.trials,
            "positions": args.positions, "chunk": args.chunk, "luck": args.luck,
            "command": f"python bench/bot/games_rollouts.py label --game {args.game} "
                       f"--positions {args.positions} --trials {args.trials} "
                       f"--probability {args.probability} --chunk {args.chunk} "
                       f"--seed {args.seed}{' --luck' if args.luck else ''}"}
    meta_path = out / "meta.json"
    if meta_path.exists():
        written = json.loads(meta_path.read_text())
        written.setdefault("luck", False)  # the sets labelled before the luck adjustment
        same = [k for k in meta if k not in ("command", "network")]
        if {k: written[k] for k in same} != {k: meta[k] for k in same}:
            raise SystemExit(f"{meta_path} was written with other settings: {written}")
        meta["network"] = written["network"]
    meta_path.write_text(json.dumps(meta, indent=1) + "\n")
    arrays = _arrays(net)
    start = kb.board_array(rules.initial())
    games = max(10, int(2 * args.positions / (args.probability * 60)))
    positions, origin = gr.self_play_positions(code, start, *arrays, games, args.seed,
                                               args.probability)
    while len(positions) < args.positions:
        games *= 2
        positions, origin = gr.self_play_positions(code, start, *arrays, games, args.seed,
                                                   args.probability)
    began = time.perf_counter()
    for c in range(0, args.positions, args.chunk):
        path = out / f"chunk-{c // args.chunk:04d}.jsonl.gz"
        if path.exists():
            continue
        if time.perf_counter() - began > 60 * args.minutes:
            print("time is up; run the same command again to go on", flush=True)
            return
        block = positions[c:c + args.chunk]
        started = time.process_time()
        means, errors, throws = gr.rollouts(code, block, *arrays, args.trials, args.seed, c,
                                            args.luck)
        spent = time.process_time() - started
        lines = [json.dumps({"i": c + k, "game": int(origin[c + k]),
                             "board": block[k].tolist(), "points": round(float(means[k]), 5),
                             "se": round(float(errors[k]), 5), "trials": args.trials})
                 for k in range(len(block))]
        partial = path.with_suffix(".part")
        with gzip.open(partial, "wt") as file:
            file.write("\n".join(lines) + "\n")
        partial.rename(path)
        print(f"{path.name}: {len(block)} positions, {len(block) * args.trials / spent:.0f} "
              f"trials/s, {throws.sum() / len(block) / args.trials:.0f} throws a trial, "
              f"mean s.e. {errors.mean():.3f} points, {time.perf_counter() - began:.0f} s",
              flush=True)


def load_labels(folder: Path) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The boards ``(n, 4, 26)``, mean points and standard errors of a label folder."""
    boards, points, errors = [], [], []
    for path in sorted(folder.glob("chunk-*.jsonl.gz")):
        with gzip.open(path, "rt") as file:
            for line in file:
                record = json.loads(line)
                boards.append(record["board"])
                points.append(record["points"])
                errors.append(record["se"])
    return np.array(boards, dtype=np.int8), np.array(points), np.array(errors)


def _forward(net: Network, inputs: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    hidden = 1 / (1 + np.exp(-(inputs @ net.w1 + net.b1)))
    return hidden, np.tanh(hidden @ net.w2 + net.b2)


def _error(net: Network, inputs: np.ndarray, targets: np.ndarray) -> float:
    return float(np.mean((_forward(net, inputs)[1] - targets) ** 2))


def fit(net: Network, inputs: np.ndarray, targets: np.ndarray, held_inputs: np.ndarray,
        held_targets: np.ndarray, rate: float, patience: int,
        most: int = 5000) -> tuple[Network, int]:
    """Full-batch Adam on the mean squared error from ``net``'s weights; the weights of the
    epoch with the lowest held-out error (0: the start) and that epoch."""
    params = [net.w1.copy(), net.b1.copy(), net.w2.copy(), np.array([net.b2])]
    moments = [np.zeros_like(p) for p in params]
    squares = [np.zeros_like(p) for p in params]
    best, best_epoch = _error(net, held_inputs, held_targets), 0
    kept = [p.copy() for p in params]
    for epoch in range(1, most + 1):
        w1, b1, w2, b2 = params
        hidden = 1 / (1 + np.exp(-(inputs @ w1 + b1)))
        out = np.tanh(hidden @ w2 + b2[0])
        d_out = 2 * (out - targets) * (1 - out * out) / len(targets)
        d_hidden = np.outer(d_out, w2) * hidden * (1 - hidden)
        grads = [inputs.T @ d_hidden, d_hidden.sum(0), hidden.T @ d_out,
                 np.array([d_out.sum()])]
        for p, g, m, v in zip(params, grads, moments, squares, strict=True):
            m[:] = 0.9 * m + 0.1 * g
            v[:] = 0.999 * v + 0.001 * g * g
            p -= rate * (m / (1 - 0.9 ** epoch)) / (np.sqrt(v / (1 - 0.999 ** epoch)) + 1e-8)
        candidate = Network(params[0], params[1], params[2], float(params[3][0]))
        held = _error(candidate, held_inputs, held_targets)
        if held < best:
            best, best_epoch, kept = held, epoch, [p.copy() for p in params]
        elif epoch - best_epoch >= patience:
            break
    return Network(kept[0], kept[1], kept[2], float(kept[3][0])), best_epoch


def refit(args: argparse.Namespace, boards: np.ndarray, points: np.ndarray,
          errors: np.ndarray) -> None:
    """Fit the shipped network to the labels, held-out tenth and early stopping; measure it
    against the shipped one in the kernel."""
    rules, code = rules_for(args.game), kb.game_code(args.game)
    shipped = _network(args.game, args.network)[0]
    top = float(kp.TOP[code])
    inputs = np.array([kp.encode_dense(code, b) for b in boards])
    targets, noise = points / top, errors / top
    order = np.random.default_rng(args.seed).permutation(len(targets))
    held, train_rows = order[:len(order) // 10], order[len(order) // 10:]
    print(f"{len(targets)} labels; label noise (rms s.e.) {np.sqrt(np.mean(noise ** 2)):.4f}"
          f"; the shipped network's rms error on them: all "
          f"{np.sqrt(_error(shipped, inputs, targets)):.4f}, held out "
          f"{np.sqrt(_error(shipped, inputs[held], targets[held])):.4f}", flush=True)
    net, epoch = fit(shipped, inputs[train_rows], targets[train_rows], inputs[held],
                     targets[held], args.rate, args.patience, args.epochs)
    print(f"refit: best epoch {epoch}; rms error train "
          f"{np.sqrt(_error(net, inputs[train_rows], targets[train_rows])):.4f}, held out "
          f"{np.sqrt(_error(net, inputs[held], targets[held])):.4f}", flush=True)
    save = args.save or Path(f"{args.game}-refit.npz")
    net.save(save)
    if not args.match_games:
        return
    refitted = TDPlayer(Network.load(save), name="refit")  # measured as saved: float32
    match = compiled_match(rules, refitted, TDPlayer(shipped, name="shipped"),
                           args.match_games, seed=1)
    print(f"{args.game}: refit against shipped, {match.games} games: "
          f"{match.points_per_game:+.3f} ± {match.standard_error:.3f} "
          f"({100 * match.wins:.1f}% wins)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("speed", "luck", "label", "refit"))
    parser.add_argument("--game", default="fevga")
    parser.add_argument("--games", nargs="*", default=list(kb.GAME_CODES))
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--positions", type=int, default=3000)
    parser.add_argument("--trials", type=int, default=72)
    parser.add_argument("--probability", type=float, default=0.05)
    parser.add_argument("--chunk", type=int, default=100)
    parser.add_argument("--minutes", type=float, default=35)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--save", type=Path)
    parser.add_argument("--network", type=Path,
                        help="label with or refit this network (by default the shipped one)")
    parser.add_argument("--luck", action="store_true",
                        help="take each throw's luck out of the trials (label; it costs "
                             "more than it saves)")
    parser.add_argument("--match-games", type=int, default=4000)
    parser.add_argument("--patience", type=int, default=30)
    parser.add_argument("--rate", type=float, default=1e-3)
    parser.add_argument("--epochs", type=int, default=5000, help="the most epochs")
    args = parser.parse_args()
    if args.command == "speed":
        speed(args.games, args.seconds)
    elif args.command == "luck":
        luck(args.games, args.positions, args.trials)
    elif args.command == "label":
        label(args)
    else:
        refit(args, *load_labels(args.out or Path("data/games-labels") / args.game))


if __name__ == "__main__":
    main()
