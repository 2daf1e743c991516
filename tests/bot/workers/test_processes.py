"""Worker processes: below the event loop's priority, replaced when one dies, gone with the bot."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

import pytest

from bot.workers.ai import AIPool, random_chooser
from bot.workers.processes import WorkerProcesses


def worker_pid() -> int:
    return os.getpid()


def worker_niceness() -> int:
    return os.nice(0)


def running(pid: int) -> bool:
    """Whether ``pid`` is a live process (an exited one waiting to be reaped is not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state not in ("Z", "X")


async def test_workers_run_below_the_event_loops_priority() -> None:
    workers = WorkerProcesses(1, niceness=7)
    try:
        assert await workers.run(worker_niceness) == os.nice(0) + 7
        assert await workers.run(worker_pid) != os.getpid()
    finally:
        workers.shutdown()


async def test_a_pool_whose_worker_died_is_replaced_for_the_next_job() -> None:
    workers = WorkerProcesses(1, niceness=0)
    try:
        first = await workers.run(worker_pid)
        os.kill(first, signal.SIGKILL)
        with pytest.raises(BrokenProcessPool):  # the job that finds the worker dead fails...
            await workers.run(worker_pid)
        second = await workers.run(worker_pid)  # ...and the next one has a new worker
    finally:
        workers.shutdown()
    assert second not in (first, os.getpid())


async def test_the_bot_thinks_again_after_its_worker_was_killed() -> None:
    pool = AIPool(1, chooser=random_chooser)
    try:
        await pool.choose("jar", (), "easy", 1)
        (first,) = list(pool.processes.executor()._processes)  # type: ignore[attr-defined]
        os.kill(first, signal.SIGKILL)
        await pool.choose("jar", (), "easy", 2)  # a fallback move, never an error
        await pool.choose("jar", (), "easy", 3)
        (second,) = list(pool.processes.executor()._processes)  # type: ignore[attr-defined]
    finally:
        pool.shutdown()
    assert second != first


WORKERS_SCRIPT = """
import asyncio, multiprocessing.forkserver as fs, os
from bot.workers.ai import AIPool, random_chooser
from bot.workers.pictures import PicturePool

async def main():
    pictures = PicturePool(2)
    pictures.start()
    ai = AIPool(1, chooser=random_chooser)
    await ai.choose("jar", (), "easy", 1)
    await pictures.run(os.getpid)
    pids = [
        *pictures.processes.executor()._processes,
        *ai.processes.executor()._processes,
        fs._forkserver._forkserver_pid,
    ]
    print(" ".join(map(str, pids)), flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def test_worker_processes_end_when_the_bot_is_killed() -> None:
    """SIGKILL gives the bot no chance to stop its pools: the AI and picture workers,
    and their forkserver, must still go (a restarted bot would otherwise pile them up)."""
    bot = subprocess.Popen(
        [sys.executable, "-c", WORKERS_SCRIPT], stdout=subprocess.PIPE, text=True
    )
    try:
        assert bot.stdout is not None
        workers = [int(pid) for pid in bot.stdout.readline().split()]
        assert len(workers) == 4 and all(running(pid) for pid in workers)
        bot.send_signal(signal.SIGKILL)
        bot.wait(10)
        deadline = time.monotonic() + 30
        while any(running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in workers if running(pid)] == []
    finally:
        if bot.poll() is None:
            bot.kill()
