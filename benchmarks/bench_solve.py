"""Benchmark of the small boards solved whole: for jar and shax-small, the movement tables
and the placement (with the opening removals) solved afresh, their positions, time and
size, the value of the start with perfect play, and what a probe costs.

    python benchmarks/bench_solve.py                     # both boards, in a fresh folder
    python benchmarks/bench_solve.py --variant jar
    python benchmarks/bench_solve.py --dir DIR           # report (and complete) DIR

Positions are counted up to the board's symmetries: the movement tables' (board and
player due to move), and the placement's (the stones placed so far and who formed the
first jare, with the full boards before the opening removals). The solve of the
placement is a minimax over the movement tables, so its time comes on top of theirs.
Wall-clock seconds are measured here; the tables' own build seconds are read from their
files (a folder built earlier reports those).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.position import Phase, Position
from engine.tables import build, read_info
from engine.tables.solved import SOLVED_BOARDS, open_solved, solve, solved_scores

PROBES = 20_000


def placements(variant: str, count: int, seed: int) -> list[Position]:
    """Random positions of the placement (and the opening removals), none in the movement."""
    rng = random.Random(seed)
    out: list[Position] = []
    while len(out) < count:
        position = Position.initial(variant)
        for _ in range(rng.randrange(2 * position.variant.pieces + 2)):
            if position.phase is Phase.MOVEMENT:
                break
            out.append(position)
            position = position.play(rng.choice(position.legal_actions()))
    return out[:count]


def report(variant: str, directory: Path) -> None:
    start = time.perf_counter()
    build(variant, SOLVED_BOARDS[variant], directory)
    tables_wall = time.perf_counter() - start
    start = time.perf_counter()
    info = solve(variant, directory)
    solve_wall = time.perf_counter() - start
    tables = [i for i in read_info(directory) if i.variant == variant]
    systems = {(min(i.due, i.other), max(i.due, i.other)): i.seconds for i in tables}
    h = info.header
    print(f"== {variant}")
    print(
        f"movement tables: {len(tables)} tables, {sum(i.positions for i in tables):,} positions, "
        f"{sum(i.size for i in tables) / 1e3:,.1f} kB, built in "
        f"{sum(systems.values()):.2f} s "
        f"(this run: {tables_wall:.2f} s wall)"
    )
    print(
        f"placement: {h.positions:,} positions ({h.entries:,} entries), {h.size / 1e3:,.1f} kB, "
        f"solved in {h.seconds:.3f} s ({solve_wall:.3f} s wall, opening the tables included)"
    )
    print(
        f"placement values: {h.wins:,} wins, {h.draws:,} draws, {h.losses:,} losses for the "
        f"player who acts; longest win {h.longest_win} moves, longest loss {h.longest_loss}"
    )
    solved = open_solved(variant, directory)
    assert solved is not None
    first = solved_scores(Position.initial(variant), solved)
    assert first is not None
    drawing = sum(1 for _, value in first if value.result == "draw")
    print(f"with perfect play: {info.verdict}; {drawing} of {len(first)} first stones draw")
    sample = placements(variant, PROBES, 1)
    start = time.perf_counter()
    for position in sample:
        solved.probe(position)
    per = (time.perf_counter() - start) * 1e6 / len(sample)
    print(f"probe from Python: {per:.1f} µs a position")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=tuple(SOLVED_BOARDS), default=None)
    parser.add_argument("--dir", default=None, help="a tables folder (default: a fresh one)")
    args = parser.parse_args()
    boards = [args.variant] if args.variant else list(SOLVED_BOARDS)
    if args.dir:
        for board in boards:
            report(board, Path(args.dir))
        return
    with tempfile.TemporaryDirectory() as folder:
        for board in boards:
            report(board, Path(folder))


if __name__ == "__main__":
    main()
