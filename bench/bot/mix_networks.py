"""Two networks files mixed into one: their contact networks' weights averaged, or the two
contact networks side by side as one wider network (an ensemble), the race network of the
first file kept.

``average`` ("model soup"): every contact weight is ``(1 - t) * A + t * B``; it needs the two
networks to have the same shape, and it only works where they are close enough (fine-tuned
from the same start, say) for the average to lie between them in quality.

``ensemble``: the hidden units of both, their output weights and biases scaled by ``1 - t``
and ``t``: the outputs are the sigmoid of ``t``-mixed output logits of the two networks, an
exact ensemble that the evaluator and the compiled kernel run as one network of the summed
width (at the summed cost).

Run: ``PYTHONPATH=src python bench/bot/mix_networks.py average A.npz B.npz --t 0.5 --out C.npz``,
then measure ``C.npz`` as any networks file (``bench/bot/decisions.py measure --weights C.npz``).

>>> a, b = Network.create(3, 2, seed=1), Network.create(3, 2, seed=2)
>>> x = np.ones((1, 3), dtype=np.float32)
>>> both = ensemble(a, b, 0.5)
>>> both.hidden
4
>>> def logit(p): return np.log(p / (1 - p))
>>> mixed = (logit(a.forward(x)) + logit(b.forward(x))) / 2
>>> bool(np.allclose(logit(both.forward(x)), mixed, atol=1e-4))
True
>>> bool(np.allclose(average(a, b, 0.0).w1, a.w1))
True
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from backgammon.bot.network import Network, load_networks, save_networks


def _mix(first: np.ndarray, second: np.ndarray, t: float) -> np.ndarray:
    return ((1 - t) * first + t * second).astype(np.float32)


def average(a: Network, b: Network, t: float) -> Network:
    """The network whose every weight is ``(1 - t) * a + t * b``."""
    if a.w1.shape != b.w1.shape:
        sys.exit(f"Networks of different shapes cannot be averaged: {a.w1.shape}, {b.w1.shape}.")
    return Network(_mix(a.w1, b.w1, t), _mix(a.b1, b.b1, t), _mix(a.w2, b.w2, t),
                   _mix(a.b2, b.b2, t))


def ensemble(a: Network, b: Network, t: float) -> Network:
    """``a`` and ``b`` side by side: the output logits are ``(1 - t) * a's + t * b's``."""
    return Network(
        np.concatenate([a.w1, b.w1], axis=1), np.concatenate([a.b1, b.b1]),
        np.concatenate([(1 - t) * a.w2, t * b.w2]).astype(np.float32), _mix(a.b2, b.b2, t),
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("how", choices=("average", "ensemble"))
    parser.add_argument("first", type=Path)
    parser.add_argument("second", type=Path)
    parser.add_argument("--t", type=float, default=0.5, help="the second file's share")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args()
    first = load_networks(args.first, ("contact", "race"))[0]
    second = load_networks(args.second, ("contact",))[0]
    mix = average if args.how == "average" else ensemble
    contact = mix(first["contact"], second["contact"], args.t)
    command = "python bench/bot/mix_networks.py " + " ".join(sys.argv[1:])
    save_networks(args.out, {"contact": contact, "race": first["race"]}, {"command": command})
    print(f"{args.out}: contact {contact.inputs}-{contact.hidden}-5 ({args.how}, t = {args.t})")


if __name__ == "__main__":
    main()
