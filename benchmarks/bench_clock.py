"""Benchmark of master's clock: the time it takes a move at a small budget, by kind of move.

    python benchmarks/bench_clock.py                    # 0.3 s a move, 4 games
    python benchmarks/bench_clock.py --against HEAD~3   # the same positions, then REV's engine
    python benchmarks/bench_clock.py --movetime 1 --games 2

The positions are every position of ``--games`` self-play games of hard at four plies
after a seeded random opening of four plies (so the same positions every run and for
every revision). Master answers each of them in game order at ``--movetime`` seconds, with
its own settings (its table kept from the move before, as in a game). A move is *forced*
when it has one legal action, *decided* when the answer came from the endgame tables or
scores a forced win or loss (both stop early on purpose), and *in doubt* otherwise: the
moves where the clock is spent. For each kind and for all moves the script prints the
count, the mean and the longest time a move, and how many moves took more than twice the
budget (master's most, at ``extend`` 2). Times are wall-clock, so a busy machine stretches
the longest.

``--against REV`` measures the engine of git revision REV too (its tree checked out and
its core built in a temporary folder, as ``python -m engine.arena`` does for a baseline,
and this script run there on the same positions).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OPENING_PLIES = 4
MAX_PLIES = 150
MATE_BOUND = 29000


def game_records(games: int) -> list[list[str]]:
    """The records of every position of ``games`` seeded games (the same every run)."""
    import random

    from engine.ai import choose_action
    from engine.record import replay

    out: list[list[str]] = []
    for game in range(games):
        rng = random.Random(1000 + game)
        record: list[str] = []
        position = replay("shax", record)
        while position.outcome is None and len(record) < MAX_PLIES:
            if len(record) >= OPENING_PLIES:
                out.append(list(record))
                record.append(choose_action("shax", record, "hard", depth=4).action)
            else:
                record.append(rng.choice(position.legal_notations()))
            position = replay("shax", record)
    return out


def measure(records: list[list[str]], movetime: float) -> list[tuple[float, str]]:
    """(seconds, kind) of master's answer to each record, in order."""
    from engine.ai import choose_action, warm_up
    from engine.record import replay

    warm_up(("shax",))
    out = []
    for record in records:
        position = replay("shax", record)
        found = choose_action("shax", record, "master", movetime=movetime)
        if len(position.legal_actions()) == 1:
            kind = "forced"
        elif found.source == "table" or abs(found.score) > MATE_BOUND:
            kind = "decided"
        else:
            kind = "in doubt"
        out.append((found.elapsed, kind))
    return out


def report(name: str, times: list[tuple[float, str]], movetime: float) -> None:
    print(f"{name}, {movetime:g} s a move:")
    for kind in ("in doubt", "decided", "forced", "all"):
        chosen = [t for t, k in times if kind in ("all", k)]
        if not chosen:
            print(f"  {kind:8s}:   0 moves")
            continue
        print(
            f"  {kind:8s}: {len(chosen):3d} moves, mean {statistics.mean(chosen):.3f} s "
            f"({100 * statistics.mean(chosen) / movetime:.0f}% of the budget), "
            f"longest {max(chosen):.3f} s"
        )
    over = sum(t > 2 * movetime for t, _ in times)
    print(f"  moves over twice the budget: {over} of {len(times)}")


def against(revision: str, records: list[list[str]], movetime: float) -> list[tuple[float, str]]:
    """:func:`measure` in the engine of ``revision``, in its own process and tree."""
    from engine.arena import baseline_tree

    with baseline_tree(revision) as tree:
        run = subprocess.run(
            [sys.executable, str(Path(__file__).resolve()), "--measure", str(movetime)],
            input=json.dumps(records),
            cwd=tree,
            env=dict(os.environ, PYTHONPATH=str(tree)),
            capture_output=True,
            text=True,
            check=True,
        )
    return [(float(t), str(k)) for t, k in json.loads(run.stdout)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--movetime", type=float, default=0.3, help="seconds (default 0.3)")
    parser.add_argument("--games", type=int, default=4, help="self-play games (default 4)")
    parser.add_argument("--against", metavar="REV", help="also the engine at git revision REV")
    parser.add_argument("--measure", type=float, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.measure is not None:  # in another revision's tree: records in, times out
        print(json.dumps(measure(json.loads(sys.stdin.read()), args.measure)))
        return
    records = game_records(args.games)
    print(f"{len(records)} positions of {args.games} games (shax)")
    report("this tree", measure(records, args.movetime), args.movetime)
    if args.against:
        report(args.against, against(args.against, records, args.movetime), args.movetime)


if __name__ == "__main__":
    if "--measure" not in sys.argv:  # another revision's tree comes first on its own path
        sys.path.insert(0, str(ROOT))
    main()
