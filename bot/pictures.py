"""Pictures drawn off the bot's process, in worker processes.

A board picture costs ~6 ms of CPU and a replay GIF 0.3-0.6 s, and Pillow holds the
GIL for much of it. In threads of the bot's own process they would make the event
loop and the database thread wait for the GIL, and every player's answer with them,
and the bot's one process would cap how many moves a second it can answer.
:class:`PicturePool` draws in worker processes instead (started on first use,
``forkserver`` like the AI pool, at a lower priority than the event loop but above
the AI's workers): :data:`BOARD_WORKERS` for the boards, and a pool of its own for
replays so that a finishing game never holds up the other games' boards.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from bot.ai_pool import exit_with, pool_context

log = logging.getLogger(__name__)

T = TypeVar("T")

WORKER_NICENESS = 10
"""Below the event loop (0), above the AI workers (19)."""
BOARD_WORKERS = 2
"""Processes drawing board pictures (one is busy ~6 ms a move)."""
REPLAY_WORKERS = 1
"""Processes drawing replays (a few a minute on a busy server)."""


def _start_worker(bot_pid: int) -> None:
    """Process-pool initializer: end with the bot, a lower priority, and the renderer
    loaded with its static boards drawn, so that the first picture pays for neither."""
    exit_with(bot_pid)
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    import renderer

    renderer.warm_up()


def _ready() -> None:
    """Nothing: submitted by :meth:`PicturePool.start` to bring a worker up."""


class PicturePool:
    """Runs picture functions (top-level, so they pickle) in worker processes."""

    def __init__(self, workers: int = 1, *, executor: Executor | None = None) -> None:
        self.workers = workers
        self._executor = executor
        self._owns_executor = executor is None

    def _pool(self) -> Executor:
        if self._executor is None:
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=pool_context(),
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return self._executor

    def start(self) -> None:
        """Bring the workers up now, in the background (they otherwise start with the
        first picture, which would wait a second for them)."""
        pool = self._pool()
        for _ in range(self.workers):
            pool.submit(_ready)

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in the pool. If that fails in any way (the worker died, the
        call would not pickle, ``fn`` raised), ``fn`` runs once more in a thread, whose
        result or error is the answer; a dead pool is replaced. A finished game's answer
        never fails for want of the worker."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._pool(), fn, *args)
        except BrokenProcessPool:
            log.warning("The picture worker died; drawing this picture in a thread")
            if self._owns_executor:
                self.shutdown(wait=False)
        except Exception as exc:
            log.warning("The picture worker failed (%r); drawing this picture in a thread", exc)
        return await asyncio.to_thread(fn, *args)

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers (only an executor this pool created)."""
        if self._executor is not None and self._owns_executor:
            self._executor.shutdown(wait=wait, cancel_futures=True)
            self._executor = None
