"""Benchmark of the pure-Python search against the compiled core.

    python benchmarks/bench_python_search.py             # speeds, depths per level, a match
    python benchmarks/bench_python_search.py --games 0   # speeds and depths only
    python benchmarks/bench_python_search.py --a hard --b medium --games 8

1. Nodes per second of both backends at the same fixed depth on the positions of
   ``bench_ai.py`` (both visit exactly the same nodes), and the ratio.
2. The depth each level completes in its time budget, with each backend.
3. A short match between two levels, both thinking with the Python search
   (``SHAX_AI_BACKEND=python`` in the match's worker processes).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_ai import bench_positions  # benchmarks/ is the script's own folder

from engine.ai import LEVELS, core, python_search
from engine.ai.common import WEIGHT_NAMES
from engine.ai.levels import LEVEL_TABLE, weights_for
from engine.ai.player import choose_for_position
from engine.arena import Player, elo, run_match, summarize
from engine.record import replay

DEPTHS = {"shax": 5, "shax-small": 8, "jar": 10}
"""Fixed depths at which the Python search takes a few seconds per board."""


def bench_speed(variant: str, depth: int) -> tuple[int, float, float]:
    """Nodes, C seconds and Python seconds over the bench positions of a variant."""
    nodes, c_seconds, py_seconds = 0, 0.0, 0.0
    weights = weights_for(variant)
    vector = [weights[n] for n in WEIGHT_NAMES]
    for v, record in bench_positions(variant):
        position = replay(v, record)
        if position.outcome is not None:
            continue
        t0 = time.perf_counter()
        c = core.c_search(position, core.make_params(weights, max_depth=depth, tt_log2=20))
        c_seconds += time.perf_counter() - t0
        t0 = time.perf_counter()
        p = python_search.search(position, vector, max_depth=depth, tt_log2=20)
        py_seconds += time.perf_counter() - t0
        if (p.action, p.score, p.nodes) != (c.action, c.score, c.nodes):
            raise SystemExit(f"the backends disagree on {v} {' '.join(record)}: {c} != {p}")
        nodes += c.nodes
    return nodes, c_seconds, py_seconds


def depths_in_budget(level: str, backend: str) -> list[int]:
    """The depth the level completes in its budget on the shax bench positions."""
    os.environ[core.BACKEND_ENV] = backend
    core.backend_choice.cache_clear()
    depths = []
    for i, (v, record) in enumerate(bench_positions("shax")):
        position = replay(v, record)
        if position.outcome is None:
            depths.append(choose_for_position(position, LEVEL_TABLE[level], seed=i).depth)
    return depths


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=8, help="match games (0: no match)")
    parser.add_argument("--variant", default="shax-small", help="the match's board")
    parser.add_argument("--a", default="medium", choices=LEVELS, help="the stronger level")
    parser.add_argument("--b", default="easy", choices=LEVELS, help="the weaker level")
    parser.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) // 2))
    args = parser.parse_args()
    core.warm_up()

    print("search speed, both backends at the same fixed depth (the same nodes):")
    for variant, depth in DEPTHS.items():
        nodes, c_s, py_s = bench_speed(variant, depth)
        c_nps, py_nps = nodes / c_s, nodes / py_s
        print(
            f"  {variant:10s} depth {depth}: {nodes:>9,d} nodes; C {c_nps / 1e6:6.2f} M nodes/s, "
            f"Python {py_nps / 1e3:6.1f} k nodes/s; C is {c_nps / py_nps:5.0f}x faster"
        )

    print("depth completed in each level's budget (shax bench positions, min-median-max):")
    for level in LEVELS:
        row = []
        for backend in core.BACKENDS:
            d = depths_in_budget(level, backend)
            row.append(f"{backend} {min(d)}-{statistics.median(d):g}-{max(d)}")
        budget = LEVEL_TABLE[level].movetime
        print(f"  {level:7s} ({budget:.1f} s): {', '.join(row)}")

    if args.games > 0:
        os.environ[core.BACKEND_ENV] = "python"  # the match's worker processes inherit it
        core.backend_choice.cache_clear()
        a, b = Player(args.a), Player(args.b)
        print(f"match on {args.variant}, both levels on the Python search:")
        results = run_match(args.variant, a, b, args.games, 1, args.workers, 2, 4, verbose=False)
        print("  " + summarize(a, b, results).replace("\n", "\n  "))
        score = statistics.mean(r.a_score for r in results)
        print(f"  {a.label} scored {100 * score:.0f}% ({elo(score):+.0f} Elo) against {b.label}")


if __name__ == "__main__":
    main()
