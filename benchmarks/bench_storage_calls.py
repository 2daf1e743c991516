"""Processor time of a move's storage calls: ``python benchmarks/bench_storage_calls.py
[--baseline REV] [--moves N] [--rounds R] [--database sqlite|postgresql]``.

A move reads its game (``storage.games.get_game``), stores it (``update_game``) and reads
what its board shows beside it (``beside_board``). Each measurement is a fresh process
on a fresh database with one game: a few moves to warm up, then N moves, timed with
``time.process_time()`` (every thread of the process, the database driver's included).

``--baseline REV`` measures that git revision too (checked out in a temporary worktree,
``git worktree add``), its rounds interleaved with this tree's (a busy spell of a shared
machine falls on both alike), and prints the ratio of the medians, this tree's over the
baseline's. ``--database postgresql`` needs ``SHAX_BENCH_POSTGRES`` (a server's URL; each
measurement makes a schema of its own on it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from datetime import UTC, datetime
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


async def measure(target: str, moves: int) -> dict[str, float]:
    """In the child process: ``moves`` moves' storage calls on ``target``."""
    from bot.storage import NewGame, Storage

    storage = await Storage.open(target)
    try:
        now = datetime.now(UTC)
        new = NewGame(
            guild_id=1,
            channel_id=7,
            parent_channel_id=None,
            variant="jar",
            white_id=11,
            white_name="Amina",
            black_id=12,
            black_name="Bashir",
        )
        game = await storage.games.create_game(new, now)
        record: list[str] = []

        async def move() -> None:
            row = await storage.games.get_game(game.id)
            assert row is not None
            record.append("a1")
            changed = await storage.games.update_game(
                row.id, row.version, record=record, draw_offered_by=None, now=now, new_turn=True
            )
            assert changed is not None
            await storage.games.beside_board(1, ("11", "12"), [11, 12], ("jar", [11, 12]))

        for _ in range(30):
            await move()
        cpu, wall = time.process_time(), time.perf_counter()
        for _ in range(moves):
            await move()
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    finally:
        await storage.close()
    return {"cpu_us": cpu / moves * 1e6, "wall_us": wall / moves * 1e6}


def target_for(database: str, folder: Path) -> str:
    if database == "sqlite":
        return str(folder / "bench.db")
    import asyncpg

    url = os.environ["SHAX_BENCH_POSTGRES"]
    name = f"bench_{os.getpid()}_{time.monotonic_ns()}"

    async def make() -> None:
        admin = await asyncpg.connect(url)
        try:
            await admin.execute(f"CREATE SCHEMA {name}")
        finally:
            await admin.close()

    asyncio.run(make())
    joiner = "&" if "?" in url else "?"
    return f"{url}{joiner}search_path={name}"


def child(tree: Path, database: str, moves: int) -> dict[str, float]:
    """One measurement, in a fresh process importing the bot from ``tree``."""
    with tempfile.TemporaryDirectory() as folder:
        target = target_for(database, Path(folder))
        env = {**os.environ, "PYTHONPATH": str(tree)}
        done = subprocess.run(
            [sys.executable, __file__, "--child", target, "--moves", str(moves)],
            env=env,
            cwd=tree,
            capture_output=True,
            text=True,
            check=True,
        )
    figures: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", help="a git revision to compare with")
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--database", choices=("sqlite", "postgresql"), default="sqlite")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child is not None:
        print(json.dumps(asyncio.run(measure(args.child, args.moves))))
        return
    trees = {"this tree": HERE}
    worktree = None
    if args.baseline:
        worktree = Path(tempfile.mkdtemp(prefix="shax-bench-")) / "base"
        subprocess.run(
            ["git", "worktree", "add", "--detach", str(worktree), args.baseline],
            cwd=HERE,
            check=True,
            capture_output=True,
        )
        trees = {args.baseline: worktree, "this tree": HERE}
    cpu: dict[str, list[float]] = {name: [] for name in trees}
    try:
        for round_ in range(args.rounds):
            for name, tree in trees.items():
                figures = child(tree, args.database, args.moves)
                cpu[name].append(figures["cpu_us"])
                print(
                    f"round {round_ + 1} {name}: {figures['cpu_us']:.0f} µs CPU a move "
                    f"({figures['wall_us']:.0f} µs wall)",
                    flush=True,
                )
    finally:
        if worktree is not None:
            subprocess.run(
                ["git", "worktree", "remove", "--force", str(worktree)], cwd=HERE, check=False
            )
    medians = {name: statistics.median(values) for name, values in cpu.items()}
    for name, value in medians.items():
        print(f"median {name}: {value:.0f} µs CPU a move ({args.moves} moves, {args.database})")
    if args.baseline:
        ratio = medians["this tree"] / medians[args.baseline]
        print(f"this tree / {args.baseline}: {ratio:.3f}")


if __name__ == "__main__":
    main()
