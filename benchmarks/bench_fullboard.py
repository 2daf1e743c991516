"""Benchmark of the full-board values: what building them costs, and what they give
``master``'s search in the placement.

    python benchmarks/bench_fullboard.py                          # shax-small, built afresh
    python benchmarks/bench_fullboard.py --variant shax --dir DIR # shax, as built in DIR

Without ``--dir`` the values are searched now into a temporary directory (shax takes
about 80 minutes of processor time at the default depth: build them once with
``python -m engine.tables full`` and pass ``--dir ~/.cache/shax/tables``). The search
figures come from placements with ``--left`` stones still to place, reached by random
play: each is searched for ``--movetime`` seconds as ``master`` searches, with and
without the values, and the table shows how many of them the search saw to the end of
the placement (every line down to a full board) and how fast.
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.ai import core
from engine.ai.levels import LEVEL_TABLE, weights_for
from engine.position import Position
from engine.tables.fullboard import (
    DEFAULT_DEPTH,
    build_full_board,
    read_full_board_info,
)
from engine.tables.shipping import full_board_values
from engine.variants import get_variant


def placements(variant: str, left: int, count: int, seed: int) -> list[Position]:
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        p = Position.initial(variant)
        while p.in_hand(0) + p.in_hand(1) > left:
            p = p.play(rng.choice(p.legal_actions()))
        out.append(p)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", choices=("shax", "shax-small"), default="shax-small")
    parser.add_argument("--depth", type=int, default=DEFAULT_DEPTH)
    parser.add_argument("--dir", default=None, help="values already built (default: build now)")
    parser.add_argument("--left", type=int, default=None, help="stones left to place")
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--movetime", type=float, default=0.3)
    args = parser.parse_args()
    v = get_variant(args.variant)
    left = args.left if args.left is not None else min(10, 2 * v.pieces - 6)

    with tempfile.TemporaryDirectory(prefix="shax-bench-full-") as scratch:
        directory = Path(args.dir).expanduser() if args.dir else Path(scratch)
        if args.dir is None:
            start = time.perf_counter()
            build_full_board(v, args.depth, directory)
            print(f"searched now in {time.perf_counter() - start:.1f} s")
        info = read_full_board_info(directory, v)
        if info is None or info.stale:
            print(f"no usable {v.id} full-board values in {directory}", file=sys.stderr)
            return 1
        print(
            f"{v.id}: {info.boards:,} boards up to symmetry ({info.entries:,} entries, "
            f"{info.size / 1e6:.1f} MB) at {info.depth} plies; build {info.seconds:.1f} s "
            f"({info.boards / max(info.seconds, 1e-9):,.0f} boards/s); the first remover "
            f"ahead {info.ahead:,}, level {info.even:,}, behind {info.behind:,}"
        )
        values = full_board_values(v, directory)
        assert values is not None
        master = LEVEL_TABLE["master"]
        weights = weights_for(v.id)
        positions = placements(v.id, left, args.positions, 7)
        print(
            f"{len(positions)} placements with {left} stones to place, "
            f"{args.movetime} s each as master searches:"
        )
        print(f"{'':>16} {'to the end':>11} {'mean s':>8} {'nodes/s':>10} {'mean depth':>11}")
        for label, table in (("without values", None), ("with values", values)):
            solved, spent, nodes, depth = 0, 0.0, 0, 0
            for p in positions:
                params = core.make_params(
                    weights,
                    max_depth=99,
                    time_limit=args.movetime,
                    soft_limit=args.movetime * master.soft_fraction,
                    eager_limit=args.movetime * master.eager_fraction,
                    tt_log2=master.tt_log2,
                    full_board=table,
                )
                start = time.perf_counter()
                found = core.c_search(p, params)
                spent += time.perf_counter() - start
                nodes += found.nodes
                depth += found.depth
                solved += found.depth >= left and not found.stopped
            print(
                f"{label:>16} {solved:>5}/{len(positions):<5} {spent / len(positions):>8.3f} "
                f"{nodes / spent:>10,.0f} {depth / len(positions):>11.1f}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
