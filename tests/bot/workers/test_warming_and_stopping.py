"""Worker processes just after the start and at the end: a picture asked for while the
workers still warm up is drawn at once in this process, and stopping the workers never
waits for a job under way (a search of master's) or a warm-up."""

from __future__ import annotations

import asyncio
import functools
import os
import threading
import time
from pathlib import Path

from bot.workers.pictures import PicturePool
from bot.workers.processes import WorkerProcesses
from tests.bot.workers.test_processes import running, worker_pid

LIMIT = 30.0
"""How long a step may take before the test gives up (a limit, not a measurement)."""


def wait_for_file(path: str) -> None:
    """A warm-up (or a job) that lasts until ``path`` exists, or well past the test's
    limit (so that stopping cannot just wait for it)."""
    deadline = time.monotonic() + 3 * LIMIT
    while not os.path.exists(path) and time.monotonic() < deadline:
        time.sleep(0.05)


def slow_pictures(gate: Path) -> PicturePool:
    pool = PicturePool(1)
    pool.processes = WorkerProcesses(
        1, niceness=0, warm_up=functools.partial(wait_for_file, str(gate))
    )
    return pool


def pids(workers: WorkerProcesses) -> list[int]:
    return list(workers.executor()._processes)  # type: ignore[attr-defined]


def stopped_within_limit(workers: WorkerProcesses) -> bool:
    """Stop ``workers`` in a thread; whether that returned within the test's limit."""
    stopper = threading.Thread(target=workers.shutdown, daemon=True)
    stopper.start()
    stopper.join(LIMIT)
    return not stopper.is_alive()


async def test_a_picture_asked_for_while_the_workers_warm_up_is_drawn_here(
    tmp_path: Path,
) -> None:
    gate = tmp_path / "warm"
    pool = slow_pictures(gate)
    pool.start()
    try:
        assert pool.processes.warming
        assert await pool.run(worker_pid) == os.getpid()  # no wait for the warm-up
        gate.touch()
        deadline = time.monotonic() + LIMIT
        while pool.processes.warming and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert not pool.processes.warming
        assert await pool.run(worker_pid) != os.getpid()  # warm now: in the worker
    finally:
        pool.shutdown()


async def test_stopping_during_the_warm_up_ends_the_workers_at_once(tmp_path: Path) -> None:
    pool = slow_pictures(tmp_path / "never")
    pool.start()
    workers = pids(pool.processes)
    assert stopped_within_limit(pool.processes)
    assert [pid for pid in workers if running(pid)] == []


async def test_stopping_abandons_a_job_under_way(tmp_path: Path) -> None:
    workers = WorkerProcesses(1, niceness=0)
    job = asyncio.ensure_future(workers.run(wait_for_file, str(tmp_path / "never")))
    deadline = time.monotonic() + LIMIT
    while not pids(workers) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    await asyncio.sleep(0.2)  # the job has reached the worker
    started = pids(workers)
    assert stopped_within_limit(workers)
    assert [pid for pid in started if running(pid)] == []
    job.cancel()
