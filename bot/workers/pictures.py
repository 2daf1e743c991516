"""Pictures drawn off the bot's process, in worker processes.

A board picture costs ~6 ms of CPU and a replay GIF 0.3-0.6 s, and Pillow holds the
GIL for much of it. In threads of the bot's own process they would make the event
loop and the database thread wait for the GIL, and every player's answer with them,
and the bot's one process would cap how many moves a second it can answer.
:class:`PicturePool` draws in worker processes instead (started on first use,
``forkserver`` like the AI pool, at a lower priority than the event loop but above
the AI's workers): ``SHAX_PICTURE_WORKERS`` for the boards, and a pool of its own
(``SHAX_REPLAY_WORKERS``) for replays so that a finishing game never holds up the
other games' boards.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar

from bot.workers.processes import WorkerProcesses

log = logging.getLogger(__name__)

T = TypeVar("T")

WORKER_NICENESS = 10
"""Below the event loop (0), above the AI workers (19)."""


def warm_up() -> None:
    """Load the renderer with its static boards drawn before a worker's first picture."""
    import renderer

    renderer.warm_up()


class PicturePool:
    """Runs picture functions (top-level, so they pickle) in worker processes."""

    def __init__(self, workers: int = 1, *, executor: Executor | None = None) -> None:
        self.processes = WorkerProcesses(
            workers, niceness=WORKER_NICENESS, warm_up=warm_up, executor=executor
        )

    def start(self) -> None:
        """Bring the workers up now (they otherwise start with the first picture, which
        would wait a second for them)."""
        self.processes.start()

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a worker. If that fails in any way (the worker died, the
        call would not pickle, ``fn`` raised), ``fn`` runs once more in a thread, whose
        result or error is the answer: a game's answer never fails for want of a
        worker. (The workers cannot tell ``fn``'s own errors from the pool's; those are
        rare enough to pay for twice.) While the workers :meth:`start` brought up are
        still warming up (seconds, just after the start), ``fn`` runs in a thread at
        once: the first board comes as fast as the later ones."""
        if self.processes.warming:
            return await asyncio.to_thread(fn, *args)
        try:
            return await self.processes.run(fn, *args)
        except Exception as exc:
            log.warning("The picture worker failed (%r); drawing this picture in a thread", exc)
        return await asyncio.to_thread(fn, *args)

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers (only processes this pool started)."""
        self.processes.shutdown(wait)
