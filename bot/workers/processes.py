"""Worker processes for the bot's CPU work (the AI's search, the pictures).

:class:`WorkerProcesses` is a ``ProcessPoolExecutor`` with what the bot needs around it:

* started with ``forkserver`` (or ``spawn``), which is safe next to a running asyncio
  loop (a forked child would inherit the loop's threads and locks), on first use or
  at once with :meth:`~WorkerProcesses.start`;
* each worker at a lower priority than the event loop, which must answer Discord
  within 3 seconds whatever the workers are doing, and warmed up (caches filled)
  before its first job;
* each worker ends with the bot, however the bot ends (see :func:`exit_with`), and at
  once when the bot stops them (a search under way is abandoned, not waited for);
* a pool whose worker died (killed, out of memory) is replaced, so that one crash
  does not break every later job.

Tests inject an in-thread executor instead.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import select
import threading
import time
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

T = TypeVar("T")

STOP_SECONDS = 1.0
"""How long stopping the pool waits for a terminated worker to be gone."""


def pool_context() -> multiprocessing.context.BaseContext:
    """``forkserver`` where the platform has it, else ``spawn``."""
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")


def lower_priority(niceness: int) -> None:
    """Raise this process's niceness by ``niceness`` (where the platform allows)."""
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


def _start_worker(bot_pid: int, niceness: int, warm_up: Callable[[], None] | None) -> None:
    """Process-pool initializer: end with the bot, a lower priority, warm caches."""
    exit_with(bot_pid)
    lower_priority(niceness)
    if warm_up is not None:
        warm_up()


def _ready() -> None:
    """Nothing: submitted by :meth:`WorkerProcesses.start` to bring a worker up."""


class WorkerProcesses:
    """``workers`` processes at ``niceness``, each running ``warm_up`` (a top-level
    function, so it pickles) before its first job; or an injected ``executor``."""

    def __init__(
        self,
        workers: int,
        *,
        niceness: int,
        warm_up: Callable[[], None] | None = None,
        executor: Executor | None = None,
    ) -> None:
        self.workers = workers
        self.niceness = niceness
        self._warm_up = warm_up
        self._executor = executor
        self._owns_executor = executor is None
        self._warming: list[Future[None]] = []

    def executor(self) -> Executor:
        """The pool, created on first use."""
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=pool_context(),
                initializer=_start_worker,
                initargs=(os.getpid(), self.niceness, self._warm_up),
            )
        return self._executor

    def start(self) -> None:
        """Bring the workers up now, in the background (they otherwise start with the
        first job, which then waits for them)."""
        pool = self.executor()
        self._warming = [pool.submit(_ready) for _ in range(self.workers)]

    @property
    def warming(self) -> bool:
        """Whether workers :meth:`start` brought up are still starting or warming up (a
        job sent now would wait for them)."""
        return any(not started.done() for started in self._warming)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker. If a worker of the pool died, this job raises
        ``BrokenProcessPool`` and the next one gets a new pool."""
        pool = self.executor()
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, fn, *args)
        except BrokenProcessPool:
            if self._owns_executor and self._executor is pool:
                self.shutdown(wait=False)
            raise

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers (only an executor created here) at once: a job under way (a
        search of master's, a warm-up) is abandoned rather than waited for, so a bot or
        console that stops ends within a moment. ``wait``: until the processes are gone."""
        pool = self._executor
        if pool is None or not self._owns_executor:
            return
        self._executor = None
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            with contextlib.suppress(OSError, ValueError):  # gone already, or closed
                process.terminate()
        if wait:
            for process in processes:
                with contextlib.suppress(OSError, ValueError, AssertionError):
                    process.join(STOP_SECONDS)
