"""Benchmark of a game's review: every action of a 150-action shax game scored beside the best.

    python benchmarks/bench_review.py               # 2 worker processes, 3 runs
    python benchmarks/bench_review.py --workers 1   # one core, for comparison

The review is what the Review button runs (``bot.service.teacher``): the searches are shared
out in chunks to the AI worker processes (``bot.workers.ai.AIPool``, started and warmed up
before the clock starts), then the plot and the three turning points are drawn. The target
is under 5 s on 2 cores, off the event loop. Other work on the machine slows it down
(the workers run at the lowest priority), so the searches' CPU time, measured in this
process, is printed too.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import renderer
from bot.service.teacher import analyse_game
from bot.workers.ai import AIPool
from engine.analysis import (
    POSITION_SECONDS,
    REVIEW_DEPTH,
    assess_record,
    evaluation_curve,
    turning_points,
)
from engine.record import replay

TARGET_SECONDS = 5.0
# Self-play at the medium level (depth 4, seed 12): the first 150 actions, the game still on.
RECORD = (
    "b4 b6 f4 d5 f2 f6 d6 c5 e5 e4 d2 e3 c3 g4 d3 g7 g1 a4 d7 d1 b2 a1 c4 a7 xd1 xe5 d2-d1 "
    "d5-e5 xf4 d3-d2 xb6 f6-f4 xd6 c3-d3 xa1 e5-d5 b4-b6 e4-e5 xb6 d1-a1 e5-e4 xg1 a1-d1 "
    "xd5 e4-e5 d1-g1 f4-e4 xd3 d2-d3 e4-f4 c4-b4 c5-c4 d7-d6 e3-e4 xb2 g1-d1 g7-d7 f2-d2 "
    "xg4 d7-g7 d6-b6 g7-g4 xb4 d2-f2 g4-g7 f2-d2 xg7 a4-b4 d1-g1 a7-a4 xd2 d3-e3 c4-c3 "
    "e3-d3 e4-e3 g1-g4 e5-e4 b6-d6 f4-f6 d6-d7 b4-b2 g4-g7 b2-b4 g7-g4 b4-b6 g4-g7 c3-c4 "
    "d7-a7 e4-f4 g7-d7 b6-d6 d7-g7 c4-b4 d3-d2 a4-a1 g7-g4 e3-e4 g4-g1 d6-b6 g1-g4 b4-a4 "
    "d2-d3 b6-d6 a7-d7 e4-e5 d7-a7 a4-b4 a7-d7 e5-d5 g4-g7 a1-d1 d3-e3 d1-a1 g7-g4 f4-f2 "
    "g4-f4 d5-e5 d7-a7 f2-d2 f4-f2 d2-b2 e3-e4 a1-a4 e4-e3 b4-c4 e3-e4 f6-f4 e4-e3 e5-d5 "
    "e3-e4 b2-d2 e4-e3 d6-d7 e3-e4 d5-e5 e4-e3 c4-c5 e3-e4 d2-d3 f2-d2 d3-c3 d2-f2 a4-a1 "
    "f2-d2 e5-d5 a7-a4 d5-d6 e4-e5 d6-d5 e5-e4"
)
GAME = RECORD.split()


def draw_pictures(record: list[str], reviews: list) -> int:  # type: ignore[type-arg]
    """The review's pictures, as the service draws them; returns their bytes in all."""
    values = evaluation_curve(reviews)
    turning = turning_points(reviews)
    size = len(renderer.render_evaluation(values, [t + 1 for t in turning]))
    for ply in turning:
        best = next(r.best for r in reviews if r.ply == ply)
        view = renderer.BoardView(suggestion=best, caption=f"Action {ply + 1}: better {best}")
        size += len(renderer.render_board("shax", record[:ply], view))
    return size


async def review_once(pool: AIPool, depth: int) -> tuple[float, float, int]:
    start = time.perf_counter()
    reviews = await analyse_game(pool, "shax", GAME, depth, POSITION_SECONDS)
    searched = time.perf_counter()
    await asyncio.to_thread(draw_pictures, GAME, reviews)
    drawn = time.perf_counter()
    return searched - start, drawn - searched, len(reviews)


async def main(workers: int, runs: int, depth: int) -> float:
    """Prints each run and the verdict; returns the median review time in seconds."""
    replay("shax", GAME)  # the record is legal
    renderer.warm_up(("shax",), ("sand",))
    pool = AIPool(workers)
    try:
        pool.processes.start()
        await pool.assess("shax", GAME[:2], [0, 1], 2, None)  # every worker up and warm
        await asyncio.gather(*(pool.assess("shax", [], [0], 2, None) for _ in range(workers)))
        totals = []
        for run in range(1, runs + 1):
            search, pictures, actions = await review_once(pool, depth)
            totals.append(search + pictures)
            print(
                f"run {run}: {actions} actions searched in {search:.2f} s, "
                f"pictures {pictures:.2f} s, review {search + pictures:.2f} s"
            )
    finally:
        pool.shutdown()
    cpu = time.process_time()
    assess_record("shax", GAME, range(len(GAME)), depth=depth)  # in this process, no cap
    cpu = time.process_time() - cpu
    print(
        f"the searches' CPU time in one process: {cpu:.2f} s "
        f"(the work a review shares out: {cpu / 2:.2f} s each on 2 free cores)"
    )
    median = statistics.median(totals)
    verdict = "under" if median < TARGET_SECONDS else "OVER"
    print(
        f"review of a {len(GAME)}-action shax game, depth {depth} "
        f"(at most {POSITION_SECONDS} s a position), {workers} worker(s): "
        f"median {median:.2f} s — {verdict} the {TARGET_SECONDS:.0f} s target"
    )
    return median


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--depth", type=int, default=REVIEW_DEPTH)
    args = parser.parse_args()
    asyncio.run(main(args.workers, args.runs, args.depth))
