"""The bot's thinking, off the event loop: a process pool running ``engine.ai.choose_action``.

:class:`AIPool` owns the executor (a ``ProcessPoolExecutor`` started with
``forkserver`` or ``spawn``, which are safe next to a running asyncio loop; a
forked child would inherit the loop's threads and locks). Tests inject an
in-thread executor and a fixed-depth chooser.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import select
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor

log = logging.getLogger(__name__)

Chooser = Callable[[str, tuple[str, ...], str, int], str]
"""``(variant, record, level, seed) -> action``: top-level, so it pickles into a process."""

GRACE_SECONDS = 5.0
"""How much longer than a level's time budget to wait before playing a fallback move."""

WORKER_NICENESS = 19
"""Workers think at a lower priority than the bot's event loop, which must answer
Discord within 3 seconds however many games are thinking."""


def _lower_priority(niceness: int = WORKER_NICENESS) -> None:
    """Yield the CPU to the event loop's process."""
    with contextlib.suppress(OSError, AttributeError):
        os.nice(niceness)


def exit_with(pid: int) -> None:
    """End this worker process when process ``pid`` (the bot) ends, however it ends.

    A pool's workers wait for work on a queue whose writing end they hold themselves,
    so a bot killed with SIGKILL would leave them (and their forkserver) running for
    good. A daemon thread waits on a pidfd of the bot (polls where there is none) and
    exits the worker as soon as the bot is gone.
    """

    def watch() -> None:
        try:
            fd = os.pidfd_open(pid)
        except (AttributeError, OSError):  # not Linux 5.3+, or the bot is gone already
            while _alive(pid):
                time.sleep(1.0)
        else:
            select.select([fd], [], [])
        os._exit(0)

    threading.Thread(target=watch, name=f"exit-with-{pid}", daemon=True).start()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _start_worker(bot_pid: int, niceness: int) -> None:
    """Process-pool initializer: end with the bot, think at a lower priority, and load
    the search core before the first move so that no move pays for it."""
    exit_with(bot_pid)
    _lower_priority(niceness)
    from engine.ai import warm_up

    warm_up()


def engine_chooser(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
    """The engine's AI at ``level`` with its default time budget."""
    from engine.ai import choose_action

    return choose_action(variant, list(record), level=level, seed=seed).action


def fixed_depth_chooser(depth: int) -> Chooser:
    """A chooser that searches to a fixed depth (deterministic; for tests)."""
    import functools

    return functools.partial(_depth_choose, depth)


def _depth_choose(depth: int, variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
    from engine.ai import choose_action

    return choose_action(variant, list(record), level=level, seed=seed, depth=depth).action


def random_chooser(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
    """A seeded random legal action (fast; for tests of game flow)."""
    from engine import replay

    return random.Random(seed).choice(replay(variant, record).legal_notations())


def time_budget(level: str) -> float:
    """Seconds the engine may think at ``level``."""
    from engine.ai import DEFAULT_MOVETIME

    return DEFAULT_MOVETIME.get(level, max(DEFAULT_MOVETIME.values()))


def pool_context() -> multiprocessing.context.BaseContext:
    """``forkserver`` where the platform has it, else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


class AIPool:
    """Computes the bot's actions in worker processes (or an injected executor)."""

    def __init__(
        self,
        workers: int = 2,
        *,
        chooser: Chooser = engine_chooser,
        executor: Executor | None = None,
        budget: Callable[[str], float] = time_budget,
    ) -> None:
        self.workers = workers
        self.chooser = chooser
        self._executor = executor
        self._owns_executor = executor is None
        self._budget = budget
        # One search per worker at a time: a move's time budget starts when its
        # search starts, not while it waits behind other games' searches.
        self._slots = asyncio.Semaphore(workers)

    def _pool(self) -> Executor:
        # Created on first use, so a console that never plays the bot starts no process.
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=pool_context(),
                initializer=_start_worker,
                initargs=(os.getpid(), WORKER_NICENESS),
            )
        return self._executor

    async def choose(self, variant: str, record: Sequence[str], level: str, seed: int) -> str:
        """The bot's action after ``record``, within the level's time budget.

        If the worker overruns the budget (plus a grace period) or fails, a seeded
        random legal action is played instead, so a game never hangs on the bot.
        """
        loop = asyncio.get_running_loop()
        args = (variant, tuple(record), level, seed)
        async with self._slots:
            future = loop.run_in_executor(self._pool(), self.chooser, *args)
            try:
                return await asyncio.wait_for(future, self._budget(level) + GRACE_SECONDS)
            except Exception as exc:  # a timeout, a crashed worker: play on rather than hang
                log.warning("AI failed at %s (%r); playing a random legal action", level, exc)
                return random_chooser(*args)

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers (only an executor this pool created)."""
        if self._executor is not None and self._owns_executor:
            self._executor.shutdown(wait=wait, cancel_futures=True)
            self._executor = None
