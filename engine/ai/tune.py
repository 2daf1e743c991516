"""Tuning the evaluation weights from self-play games (a developer tool, not used in play).

    python -m engine.ai.tune games --variant shax --games 3000 --out /tmp/shax.jsonl
    python -m engine.ai.tune games --variant shax --games 500 --seed 2 --out /tmp/held.jsonl
    python -m engine.ai.tune games --movetime 0.05 --games 1500 --out /tmp/timed.jsonl
    python -m engine.ai.tune fit /tmp/shax.jsonl --holdout /tmp/held.jsonl

``games`` plays the engine against itself at a fixed depth (or, with ``--movetime``, for
a fixed time a move: deeper where the search is quick) from random openings and
writes, for every position where a player places or moves, the evaluation's features
and the game's result for the player to act. ``fit`` finds the weights of a logistic
model of the result (Texel's method) by Newton's method, rescaled so that a stone is
worth 100, prints the log loss on the training samples and on held-apart games (other
seeds: positions of one game are alike, so the games, not the positions, are held apart)
next to a model that knows only the average result, and prints the weights as a
``WEIGHTS`` table for :mod:`engine.ai.levels` (plain Python: the engine needs no
libraries).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Iterator, Mapping
from concurrent.futures import ProcessPoolExecutor

from engine.ai import core
from engine.ai.common import FSCALE, PHASE_CODE, PHASES, STEP_CODE, STEPS, WEIGHT_NAMES
from engine.ai.levels import weights_for
from engine.position import Position, Step
from engine.variants import VARIANT_IDS, Color, get_variant

Sample = tuple[list[int], float]
"""A position as ``[white, black, hand_white, hand_black, turn, phase, step, first_jare,
clock]`` and the game's result for the player to act (1, 0.5 or 0)."""


def pack(position: Position) -> list[int]:
    return [
        position.white,
        position.black,
        *position.hand,
        position.turn,
        PHASE_CODE[position.phase],
        STEP_CODE[position.step],
        position.first_jare_index,
        position.clock,
    ]


def unpack(variant: str, packed: list[int]) -> Position:
    white, black, hw, hb, turn, phase, step, first, clock = packed
    return Position(
        get_variant(variant),
        white,
        black,
        (hw, hb),
        turn,
        PHASES[phase],
        STEPS[step],
        first,
        clock,
    )


def self_play(
    variant: str,
    seed: int,
    depth: int,
    weights: Mapping[str, int],
    movetime: float | None = None,
) -> list[Sample]:
    """One game, searched to ``depth`` (or for ``movetime`` seconds a move, when given); each
    placing or moving position and the result for its player to act."""
    params = (
        core.make_params(weights, max_depth=depth, tt_log2=18)
        if movetime is None
        else core.make_params(
            weights, max_depth=99, tt_log2=20, time_limit=movetime, eager_limit=movetime
        )
    )
    rng = random.Random(seed)
    position = Position.initial(variant)
    for _ in range(rng.randint(1, 8)):
        position = position.play(rng.choice(position.legal_actions()))
        if position.outcome is not None:
            return []
    samples: list[tuple[list[int], int]] = []
    while position.outcome is None:
        if position.step is not Step.REMOVE:
            samples.append((pack(position), position.turn))
        found = core.search(position, params)
        action = found.action
        if len(found.root) > 1 and position.clock < 20 and rng.random() < 0.08:
            action = found.root[1][0]  # a little variety: the second choice now and then
        position = position.play(action)
    winner = position.outcome.winner
    out = []
    for packed, turn in samples:
        result = 0.5 if winner is None else 1.0 if winner is Color(turn) else 0.0
        out.append((packed, result))
    return out


def _game_job(args: tuple[str, int, int, dict[str, int], float | None]) -> list[Sample]:
    return self_play(*args)


def games(
    variant: str,
    count: int,
    depth: int,
    seed: int,
    out: str,
    workers: int,
    movetime: float | None = None,
) -> None:
    weights = dict(weights_for(variant))
    jobs = [(variant, seed * 1_000_003 + i, depth, weights, movetime) for i in range(count)]
    n = 0
    with open(out, "a") as fh, ProcessPoolExecutor(max_workers=workers) as pool:
        for i, samples in enumerate(pool.map(_game_job, jobs, chunksize=4)):
            for packed, result in samples:
                fh.write(json.dumps([variant, packed, result]) + "\n")
                n += 1
            if (i + 1) % 100 == 0:
                print(f"{i + 1} games, {n} positions", file=sys.stderr, flush=True)


def read_samples(path: str) -> Iterator[tuple[list[int], float]]:
    """The features (recomputed, so old games serve new features) and result of each sample."""
    with open(path) as fh:
        for line in fh:
            row = json.loads(line)
            if len(row) == 2:  # features stored directly (older files)
                yield row[0], row[1]
            else:
                variant, packed, result = row
                yield core.features(unpack(variant, packed)), result


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (``a`` is small)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(col + 1, n):
            f = m[r][col] / m[col][col]
            if f:
                for c in range(col, n + 1):
                    m[r][c] -= f * m[col][c]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][c] * x[c] for c in range(r + 1, n))) / m[r][r]
    return x


def _sigmoid(z: float) -> float:
    return 1.0 / (1.0 + math.exp(-max(-60.0, min(60.0, z))))


def load(paths: list[str]) -> tuple[list[list[float]], list[float]]:
    """The scaled features and results of the samples in ``paths``."""
    rows: list[list[float]] = []
    labels: list[float] = []
    for path in paths:
        for feats, result in read_samples(path):
            rows.append([f / FSCALE for f in feats])
            labels.append(float(result))
    return rows, labels


def log_loss(rows: list[list[float]], labels: list[float], w: list[float]) -> float:
    """Mean log loss of the logistic model with weights ``w`` (over all features)."""
    loss = 0.0
    for x, y in zip(rows, labels, strict=True):
        p = _sigmoid(sum(a * b for a, b in zip(x, w, strict=True)))
        loss -= y * math.log(p + 1e-12) + (1 - y) * math.log(1 - p + 1e-12)
    return loss / max(1, len(labels))


def constant_loss(labels: list[float]) -> float:
    """Log loss of always predicting the average result (what features must beat)."""
    if not labels:
        return 0.0
    m = min(max(sum(labels) / len(labels), 1e-6), 1 - 1e-6)
    return -sum(y * math.log(m) + (1 - y) * math.log(1 - m) for y in labels) / len(labels)


def fit(
    paths: list[str], l2: float, iterations: int, holdout: list[str] | None = None
) -> dict[str, int]:
    """Logistic regression of the results on the features (Newton's method, L2-regularised),
    scaled so that one stone of material is 100; with ``holdout``, the loss on those
    samples too."""
    rows, labels = load(paths)
    width = len(WEIGHT_NAMES)
    used = [j for j in range(width) if any(row[j] for row in rows)]
    xs = [[row[j] for j in used] for row in rows]
    k = len(used)
    w = [0.0] * k
    for _ in range(iterations):
        grad = [l2 * wj for wj in w]
        hess = [[l2 if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in zip(xs, labels, strict=True):
            p = _sigmoid(sum(a * b for a, b in zip(x, w, strict=True)))
            d, h = p - y, p * (1 - p)
            for i in range(k):
                if x[i]:
                    grad[i] += x[i] * d
                    hx = h * x[i]
                    row = hess[i]
                    for j in range(k):
                        row[j] += hx * x[j]
        step = _solve(hess, grad)
        w = [a - b for a, b in zip(w, step, strict=True)]
    full = [0.0] * width
    for j, wj in zip(used, w, strict=True):
        full[j] = wj
    loss = log_loss(rows, labels, full)
    names = WEIGHT_NAMES
    mat = full[names.index("mat")]
    scale = 100.0 / mat if mat > 0 else 1.0
    print(
        f"{len(labels)} positions, log loss {loss:.4f}; one stone = {mat:.3f} logits "
        f"(so 100 centi-stones = {1 / (1 + math.exp(-mat)):.0%} to win)",
        file=sys.stderr,
    )
    print(f"train: log loss {loss:.4f} (average result alone: {constant_loss(labels):.4f})")
    if holdout:
        held_rows, held_labels = load(holdout)
        print(
            f"held out: {len(held_labels)} positions, log loss "
            f"{log_loss(held_rows, held_labels, full):.4f} "
            f"(average result alone: {constant_loss(held_labels):.4f})"
        )
    return {name: round(full[i] * scale) for i, name in enumerate(names)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.ai.tune", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    g = sub.add_parser("games", help="self-play games to a JSON-lines file of samples")
    g.add_argument("--variant", choices=VARIANT_IDS, default="shax")
    g.add_argument("--games", type=int, default=1000)
    g.add_argument("--depth", type=int, default=6)
    g.add_argument(
        "--movetime", type=float, default=None, help="seconds a move instead of a fixed depth"
    )
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--workers", type=int, default=2)
    g.add_argument("--out", required=True)
    f = sub.add_parser("fit", help="fit the weights to sample files")
    f.add_argument("paths", nargs="+")
    f.add_argument("--l2", type=float, default=1.0)
    f.add_argument("--iterations", type=int, default=12)
    f.add_argument("--holdout", nargs="+", default=None, help="sample files of other games")
    args = parser.parse_args(argv)
    if args.command == "games":
        games(
            args.variant, args.games, args.depth, args.seed, args.out, args.workers, args.movetime
        )
    else:
        weights = fit(args.paths, args.l2, args.iterations, args.holdout)
        print(json.dumps(weights, indent=4))
    return 0


if __name__ == "__main__":
    sys.exit(main())
