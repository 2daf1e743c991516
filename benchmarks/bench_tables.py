"""Benchmark of the endgame tables: per material, positions, size, build time, probe time
and the win/draw/loss counts.

    python benchmarks/bench_tables.py --max 5              # build shax up to 5 v 5 afresh
    python benchmarks/bench_tables.py --max 6 --max-total 11 --dir DIR   # the default six
    python benchmarks/bench_tables.py --max 6 --max-total 11 --dir DIR --check 300
    python benchmarks/bench_tables.py --max 5 --dir DIR    # report (and complete) DIR
    python benchmarks/bench_tables.py --variant shax-small --max 8

Positions are counted up to the board's symmetries (board and player due to move);
wins, draws and losses are for the player who acts. The build time is the system's (a
table and its mirror are solved together), as recorded in the files, and for the systems
built now the CPU seconds they took (on a shared machine, CPU seconds / cores is what
an idle one would take). A table holds a byte per position where every distance is
below 128, else two. Probes are timed in C on random boards of the material (what the
search pays) and through Python. ``--check N`` searches N random positions of each
material 7 plies deep (``--depth``) and compares every win or loss the search proves
with the tables (:mod:`engine.tables.verify`).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engine.position import Step
from engine.tables import build, open_tables, read_info
from engine.tables.__main__ import Meter
from engine.tables.verify import check_against_search, random_positions
from engine.variants import VARIANT_IDS, get_variant

PROBES = 200_000


def python_probe_us(variant: str, directory: Path, due: int, other: int) -> float:
    """Microseconds per Tables.probe_board from Python (random boards of the material)."""
    tables = open_tables(variant, directory)
    assert tables is not None
    v = get_variant(variant)
    rng = random.Random(1)
    boards = []
    for _ in range(20_000):
        points = rng.sample(range(v.size), due + other)
        due_mask = sum(1 << p for p in points[:due])
        other_mask = sum(1 << p for p in points[due:])
        boards.append((due_mask, other_mask))
    start = time.perf_counter()
    for due_mask, other_mask in boards:
        tables.probe_board(due_mask, other_mask, 0, Step.MOVE)
    return (time.perf_counter() - start) * 1e6 / len(boards)


def report(
    variant: str,
    max_stones: int,
    directory: Path,
    threads: int | None = None,
    max_total: int | None = None,
) -> None:
    """Builds what ``directory`` lacks of ``variant`` up to ``max_stones`` a side and prints,
    per material, positions, size, build and probe times and the win/draw/loss counts."""
    start = time.perf_counter()
    meter = Meter(sys.stderr)
    cpu: dict[str, float] = {}
    mark = time.process_time()

    def built_one(name: str, seconds: float) -> None:
        nonlocal mark
        now = time.process_time()
        cpu[name] = now - mark
        mark = now
        meter.built(name, seconds)

    built = build(variant, max_stones, directory, threads, meter, built_one, max_total)
    wall = time.perf_counter() - start
    tables = open_tables(variant, directory)
    assert tables is not None
    lib = tables._lib
    infos = [
        i
        for i in read_info(directory)
        if i.variant == variant
        and max(i.due, i.other) <= max_stones
        and (max_total is None or i.due + i.other <= max_total)
    ]
    print(f"{variant} endgame tables up to {max_stones} stones a side ({directory})")
    head = (
        f"{'material':>8} {'positions':>12} {'MB':>7} {'B/pos':>5} {'build s':>8} {'probe ns':>9} "
        f"{'py µs':>6} {'wins':>11} {'draws':>10} {'losses':>11} {'longest':>7}"
    )
    print(head)
    for i in infos:
        ns = lib.tables_bench_probe(tables.handle, i.due, i.other, PROBES, 12345)
        py = python_probe_us(variant, directory, i.due, i.other)
        longest = max(i.longest_win, i.longest_loss)
        width = (i.size - 128) / max(i.entries, 1)
        print(
            f"{i.material:>8} {i.positions:>12,} {i.size / 1e6:>7.1f} {width:>5.0f} "
            f"{i.seconds:>8.1f} {ns:>9.0f} {py:>6.1f} {i.wins:>11,} {i.draws:>10,} {i.losses:>11,} "
            f"{longest:>7}"
        )
    total_mb = sum(i.size for i in infos) / 1e6
    systems = {(min(i.due, i.other), max(i.due, i.other)): i.seconds for i in infos}
    print(
        f"total: {sum(i.positions for i in infos):,} positions, {total_mb:.1f} MB, "
        f"build {sum(systems.values()):.1f} s as recorded"
        + (f" ({len(built)} systems built now in {wall:.1f} s)" if built else "")
    )
    for name, seconds in built:
        print(f"built now: {name} in {seconds:.1f} s, {cpu[name]:.1f} s of CPU")


def check(
    variant: str, directory: Path, materials: list[tuple[int, int]], count: int, depth: int
) -> bool:
    """Compares the tables with a deep search on ``count`` random positions a material."""
    tables = open_tables(variant, directory)
    assert tables is not None
    print(f"checked against a {depth}-ply search, {count} random positions a material")
    print(f"{'material':>8} {'wins':>6} {'losses':>6} {'unproved':>8} {'disagree':>8}")
    agree = True
    for white, black in materials:
        positions = random_positions(variant, [(white, black)], count, seed=white * 10 + black)
        found = check_against_search(tables, positions, depth)
        print(
            f"{white}v{black:<6} {found.wins:>6} {found.losses:>6} {found.unproved:>8} "
            f"{len(found.disagreements):>8}"
        )
        for position in found.disagreements[:3]:
            print(f"  disagrees: {position}")
        agree = agree and not found.disagreements
    return agree


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--variant", choices=VARIANT_IDS, default="shax")
    parser.add_argument("--max", type=int, default=4, help="stones a side")
    parser.add_argument("--dir", default=None, help="default: a fresh temporary directory")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--max-total", type=int, default=None, help="stones in all")
    parser.add_argument("--check", type=int, default=0, help="positions a material to check")
    parser.add_argument("--depth", type=int, default=7, help="plies of the checking search")
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="shax-bench-tables-") as scratch:
        directory = Path(args.dir) if args.dir else Path(scratch)
        report(args.variant, args.max, directory, args.threads, args.max_total)
        if args.check:
            materials = sorted(
                {(i.due, i.other) for i in read_info(directory) if i.variant == args.variant},
                key=lambda m: (m[0] + m[1], m),
            )
            if not check(args.variant, directory, materials, args.check, args.depth):
                return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
