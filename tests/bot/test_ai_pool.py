"""The AI pool: a move's time budget is spent thinking, never waiting for a worker."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

from bot.ai_pool import GRACE_SECONDS, AIPool

THINK = 0.2


def slow_chooser(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
    time.sleep(THINK)
    return f"thought-{seed}"


async def test_games_queued_behind_one_worker_all_get_their_full_budget() -> None:
    # Six games share one worker: the last waits 5 × THINK, longer than its budget
    # of 1 s (budget + grace), yet it still gets its own searched move.
    with ThreadPoolExecutor(max_workers=1) as executor:
        pool = AIPool(
            1, chooser=slow_chooser, executor=executor, budget=lambda level: 1.0 - GRACE_SECONDS
        )
        moves = await asyncio.gather(*(pool.choose("jar", (), "hard", seed) for seed in range(6)))
    assert moves == [f"thought-{seed}" for seed in range(6)]


async def test_a_search_that_overruns_falls_back_to_a_legal_action() -> None:
    with ThreadPoolExecutor(max_workers=1) as executor:
        pool = AIPool(
            1, chooser=slow_chooser, executor=executor, budget=lambda level: 0.05 - GRACE_SECONDS
        )
        move = await pool.choose("jar", ("a1",), "hard", 3)
    assert move in {"a2", "a3", "b1", "b2", "b3", "c1", "c2", "c3"}


def test_workers_run_below_the_event_loops_priority() -> None:
    import os
    import subprocess
    import sys

    code = (
        "import os; from bot.ai_pool import _lower_priority; "
        "before = os.nice(0); _lower_priority(); print(os.nice(0) - before)"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ},
    )
    assert int(out.stdout) > 0


WORKERS_SCRIPT = """
import asyncio, multiprocessing.forkserver as fs, os
from bot.ai_pool import AIPool, random_chooser
from bot.pictures import PicturePool

async def main():
    pictures = PicturePool(2)
    pictures.start()
    ai = AIPool(1, chooser=random_chooser)
    await ai.choose("jar", (), "easy", 1)
    await pictures.run(os.getpid)
    pids = [*pictures._pool()._processes, *ai._pool()._processes, fs._forkserver._forkserver_pid]
    print(" ".join(map(str, pids)), flush=True)
    await asyncio.sleep(3600)

asyncio.run(main())
"""


def _running(pid: int) -> bool:
    """Whether ``pid`` is a live process (an exited one waiting to be reaped is not)."""
    import os
    from pathlib import Path

    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True
    return state not in ("Z", "X")


def test_worker_processes_end_when_the_bot_is_killed() -> None:
    """SIGKILL gives the bot no chance to stop its pools: the AI and picture workers,
    and their forkserver, must still go (a restarted bot would otherwise pile them up)."""
    import signal
    import subprocess
    import sys

    bot = subprocess.Popen(
        [sys.executable, "-c", WORKERS_SCRIPT], stdout=subprocess.PIPE, text=True
    )
    try:
        assert bot.stdout is not None
        workers = [int(pid) for pid in bot.stdout.readline().split()]
        assert len(workers) == 4 and all(_running(pid) for pid in workers)
        bot.send_signal(signal.SIGKILL)
        bot.wait(10)
        deadline = time.monotonic() + 30
        while any(_running(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert [pid for pid in workers if _running(pid)] == []
    finally:
        if bot.poll() is None:
            bot.kill()
