"""Benchmark of the Shax AI: search speed and time per move.

    python benchmarks/bench_ai.py            # nodes/s per variant, then time per move per level
    python benchmarks/bench_ai.py --quick    # smaller depths, two levels only
    python benchmarks/bench_ai.py --tables-max 5 --tables-dir ~/.cache/shax/tables
    python benchmarks/bench_ai.py --clock 40      # master's time use only, 40 positions
    python benchmarks/bench_ai.py --against HEAD  # nodes/s of this core against HEAD's
    python benchmarks/bench_ai.py --against 977c696 --core /tmp/other.so --rounds 3

After the search it builds the endgame tables (``--tables-max`` stones a side, into a
fresh directory unless ``--tables-dir`` names one to reuse) and prints their build and
probe times (``bench_tables.py``), then times the review of a 150-action game on two AI
worker processes (``bench_review.py``).

Nodes are the positions the search visits (interior, quiescence and terminal); the
reference is a strong C++ mill engine set to Shax rules, measured at about 5.8 million
nodes per second on this machine (2 cores). Time per move shows how much of each level's
budget the time management spends (it stops early on a settled or forced move).

``--clock N`` times master at 0.3 s and 1 s a move on N positions of self-play games
(every placement, removal and movement), with its clock and with the clock before
``extend`` (a move's budget its limit): mean, median, 90th percentile and longest
time per move, the share of moves past the budget, and how often the two clocks chose
another action.

``--against REV`` builds ``engine/ai/_core.c`` of git revision REV (with this machine's
flags, into a temporary folder) and searches the speed positions with it and with this
core (the installed one, or the build ``--core`` names) alternately, position by position,
``--rounds`` times: the nodes per CPU second of each, their ratio, and on how many positions
the two found the same action, score, depth and node count. Both must have this
``CORE_ABI``.
"""

from __future__ import annotations

import argparse
import asyncio
import ctypes
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_review
import bench_tables

from engine.ai import DEFAULT_MOVETIME, LEVELS, choose_action, core, warm_up
from engine.ai.levels import LEVEL_TABLE, WEIGHTS
from engine.ai.player import choose_for_position
from engine.analysis import REVIEW_DEPTH
from engine.build_flags import compile_cached
from engine.record import replay

REFERENCE_NPS = 5_800_000
REFERENCE = f"{REFERENCE_NPS / 1e6:.1f} M reference"

# Two self-play games per board (medium level, fixed seeds): records cut at the plies listed.
GAMES = {
    "shax": [
        "b4 e4 c5 f6 b6 f2 b2 d2 g4 f4 a4 d6 g7 a7 c4 c3 a1 e3 d7 d3 d5 g1 e5 d1 xa7 xg7 d7-g7 "
        "d6-d7 a4-a7 f6-d6 b4-a4 xd6 f4-f6 a4-b4 xf6 d7-d6 b4-a4 xd6 f2-f4 a7-d7 d2-f2 c4-b4 xf2 "
        "d3-d2 b6-d6 xd2 c3-c4 d7-a7 xd1 c4-c3 c5-c4 xe4 g1-d1 d6-d7 xc3 d1-d2 d5-d6 d2-d3 d6-d5",
        "d5 d7 e5 c5 f2 g7 a7 c4 c3 a4 b4 g4 g1 f4 e4 d2 d6 e3 d1 b6 d3 a1 b2 f6 xd6 xe3 d7-d6 "
        "xd3 c3-d3 d6-d7 d5-d6 c4-c3 d3-e3 xb6 c5-d5 e3-d3 c3-c4 d3-e3 xd2 d5-c5 e3-d3 c4-c3 "
        "b2-d2 xf4 g4-f4 d6-b6 c5-d5 d2-b2 xd5 g7-g4 b2-d2 xa1 f6-d6 d2-b2 xd6 f4-f6 f2-d2 xd7",
    ],
    "shax-small": [
        "a3 c1 d2 a5 c5 b3 d4 d3 b4 c4 e3 e1 e5 b2 a1 c2 xb4 xc4 b3-b4 a3-b3 b4-c4 b3-b4 b2-b3 "
        "a1-a3 c1-a1 b3-b2 b4-b3 c2-c1 xd2 b3-b4 c1-c2 b4-b3 d3-d2 xc5 e5-c5 c2-c1 xa3",
        "c5 a3 e3 a5 a1 e1 b2 b3 c2 d2 b4 d3 d4 c1 e5 c4 xa1 xc1 a3-a1 c2-c1 b3-a3 xc1 b2-c2 "
        "a1-c1 b4-b3 c1-a1 xc2 b3-b2 a1-c1 b2-b3 c1-a1 xd4",
    ],
    "jar": [
        "b2 b1 c2 a2 a1 b3 b3-c3 b2-b3 a2-a3 a1-a2",
        "a2 b2 c2 a1 b1 c3 c3-b3 c2-c3 b2-c2 a2-a3",
    ],
}
CUTS = {
    "shax": [[4, 12, 20, 24, 30, 44], [8, 18, 25, 40, 55]],
    "shax-small": [[4, 10, 16, 22, 30], [6, 12, 17, 26]],
    "jar": [[0, 3, 6, 10], [2, 5, 8]],
}
DEPTHS = {"shax": 13, "shax-small": 17, "jar": 60}


def bench_positions(variant: str) -> list[tuple[str, list[str]]]:
    out = []
    for game, cuts in zip(GAMES[variant], CUTS[variant], strict=True):
        actions = game.split()
        for cut in cuts:
            out.append((variant, actions[:cut]))
    return out


def bench_speed(variant: str, depth: int) -> tuple[int, float]:
    nodes, seconds = 0, 0.0
    for v, record in bench_positions(variant):
        position = replay(v, record)
        params = core.make_params(WEIGHTS, max_depth=depth, tt_log2=20)
        t0 = time.perf_counter()
        found = core.search(position, params)
        seconds += time.perf_counter() - t0
        nodes += found.nodes
    return nodes, seconds


def revision_core(revision: str, folder: Path) -> Path:
    """``engine/ai/_core.c`` of a git revision, built with this machine's flags in ``folder``."""
    root = Path(__file__).resolve().parents[1]
    source = subprocess.run(
        ["git", "show", f"{revision}:engine/ai/_core.c"], cwd=root, check=True, capture_output=True
    ).stdout
    path = folder / "_core.c"
    path.write_bytes(source)
    return compile_cached(path, core.compile_flags(), "shax-bench-core")


def bench_against(cores: dict[str, ctypes.CDLL], quick: bool, rounds: int) -> None:
    """Nodes per second of two cores on the speed positions, searched alternately."""
    this, other = cores
    print(f"search speed, {this} against {other} (fixed depth, table 2**20 buckets, {rounds}x):")
    totals = {this: [0, 0.0], other: [0, 0.0]}
    same = count = 0
    for variant, depth in DEPTHS.items():
        d = depth - 3 if quick else depth
        sums = {this: [0, 0.0], other: [0, 0.0]}
        for _ in range(rounds):
            for i, (v, record) in enumerate(bench_positions(variant)):
                position = replay(v, record)
                found = {}
                order = [this, other] if i % 2 == 0 else [other, this]
                for name in order:
                    params = core.make_params(WEIGHTS, max_depth=d, tt_log2=20)
                    t0 = time.process_time()  # CPU time: the machine may be shared
                    found[name] = core.c_search(position, params, cores[name])
                    sums[name][1] += time.process_time() - t0
                    sums[name][0] += found[name].nodes
                a, b = found[this], found[other]
                same += (a.action, a.score, a.depth, a.nodes) == (
                    b.action,
                    b.score,
                    b.depth,
                    b.nodes,
                )
                count += 1
        rate = {name: nodes / seconds for name, (nodes, seconds) in sums.items()}
        for name, (nodes, seconds) in sums.items():
            totals[name][0] += nodes
            totals[name][1] += seconds
        print(
            f"  {variant:10s} depth {d:2d}: {this} {rate[this] / 1e6:5.2f} M nodes/s, "
            f"{other} {rate[other] / 1e6:5.2f} M nodes/s: {rate[this] / rate[other]:.2f}x"
        )
    rate = {name: nodes / seconds for name, (nodes, seconds) in totals.items()}
    print(
        f"  all: {this} {rate[this] / 1e6:.2f} M nodes/s, {other} {rate[other] / 1e6:.2f} M "
        f"nodes/s: {rate[this] / rate[other]:.2f}x; the same action, score, depth and nodes "
        f"on {same} of {count} searches"
    )


def bench_levels(levels: list[str], variant: str) -> None:
    positions = bench_positions(variant)
    for level in levels:
        times, depths = [], []
        for i, (v, record) in enumerate(positions):
            r = choose_action(v, record, level, seed=i)
            times.append(r.elapsed)
            depths.append(r.depth)
        budget = DEFAULT_MOVETIME[level]
        mean = statistics.mean(times)
        print(
            f"  {level:7s} budget {budget:.2f} s: mean {mean:.3f} s "
            f"({100 * mean / budget:.0f}% of budget), median {statistics.median(times):.3f} s, "
            f"max {max(times):.3f} s ({100 * max(times) / budget:.1f}% of budget), "
            f"depth {min(depths)}-{max(depths)}"
        )


def clock_positions(count: int) -> list[list[str]]:
    """``count`` records from self-play games of hard at four plies (a fixed seed): the
    positions master meets, placements, removals and movements alike."""
    import random

    rng = random.Random(7)
    out: list[list[str]] = []
    while len(out) < count:
        record: list[str] = []
        position = replay("shax", record)
        for _ in range(4):  # a random opening, then the search
            record.append(rng.choice(position.legal_notations()))
            position = replay("shax", record)
        while position.outcome is None and len(record) < 200 and len(out) < count:
            if rng.random() < 0.25:
                out.append(list(record))
            record.append(choose_action("shax", record, "hard", depth=4).action)
            position = replay("shax", record)
    return out


def bench_clock(count: int) -> None:
    from dataclasses import replace

    master = LEVEL_TABLE["master"]
    records = clock_positions(count)
    positions = [replay("shax", r) for r in records]
    for budget in (0.3, 1.0):
        chosen: dict[float, list[str]] = {}
        for extend in (master.extend, 1.0):
            level = replace(master, extend=extend, keep_tt=False)  # no help from the other
            times, actions = [], []
            for position in positions:
                found = choose_for_position(position, level, movetime=budget)
                times.append(found.elapsed)
                actions.append(found.action)
            chosen[extend] = actions
            times.sort()
            name = "master's clock" if extend != 1.0 else "the budget as the limit"
            over = sum(t > budget for t in times) / len(times)
            print(
                f"  {budget:.1f} s, {name:24s}: mean {statistics.mean(times):.3f} s "
                f"({100 * statistics.mean(times) / budget:.0f}%), median "
                f"{statistics.median(times):.3f}, 90% {times[int(0.9 * len(times))]:.3f}, "
                f"longest {times[-1]:.3f} s; {100 * over:.0f}% of moves past the budget"
            )
        differ = sum(a != b for a, b in zip(*chosen.values(), strict=True))
        print(f"  {budget:.1f} s: the two clocks chose another action in {differ} of {count}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--tables-max", type=int, default=4, help="stones a side (default 4)")
    parser.add_argument("--tables-dir", type=Path, default=None, help="reuse this directory")
    parser.add_argument("--clock", type=int, default=0, help="only master's time use, on N")
    parser.add_argument("--against", metavar="REV", help="only nodes/s against REV's core")
    parser.add_argument("--core", type=Path, default=None, help="with --against: this build")
    parser.add_argument("--rounds", type=int, default=1, help="with --against: repetitions")
    args = parser.parse_args()
    if args.against:
        with tempfile.TemporaryDirectory(prefix="shax-bench-core-") as scratch:
            other = core.load_core(revision_core(args.against, Path(scratch)))
            this = core.library() if args.core is None else core.load_core(args.core)
            label = "this core" if args.core is None else str(args.core)
            bench_against({label: this, args.against: other}, args.quick, args.rounds)
        return
    if args.clock:
        warm_up()
        print(f"master's time per move on {args.clock} positions of self-play (shax):")
        bench_clock(args.clock)
        return
    t0 = time.perf_counter()
    warm_up()
    print(f"core loaded in {time.perf_counter() - t0:.3f} s")
    print("search speed (fixed depth per variant, transposition table 2**20 buckets):")
    total_nodes, total_s = 0, 0.0
    for variant, depth in DEPTHS.items():
        d = depth - 3 if args.quick else depth
        nodes, seconds = bench_speed(variant, d)
        total_nodes += nodes
        total_s += seconds
        nps = nodes / seconds
        print(
            f"  {variant:10s} depth {d:2d}: {nodes:>11,d} nodes in {seconds:6.2f} s = "
            f"{nps / 1e6:5.2f} M nodes/s ({nps / REFERENCE_NPS:.2f}x the {REFERENCE})"
        )
    nps = total_nodes / total_s
    print(f"  all: {nps / 1e6:.2f} M nodes/s ({nps / REFERENCE_NPS:.2f}x the {REFERENCE})")
    print("time per move (default budgets, shax bench positions):")
    bench_levels(["easy", "hard"] if args.quick else list(LEVELS), "shax")
    print("endgame tables (build and probe):")
    if args.tables_dir is not None:
        bench_tables.report("shax", args.tables_max, args.tables_dir)
    else:
        with tempfile.TemporaryDirectory(prefix="shax-bench-tables-") as scratch:
            bench_tables.report("shax", args.tables_max, Path(scratch))
    print("review of a 150-action game (the Review button):")
    asyncio.run(bench_review.main(2, 1 if args.quick else 3, REVIEW_DEPTH))


if __name__ == "__main__":
    main()
