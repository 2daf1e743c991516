"""The bot's thinking, off the event loop: worker processes running ``engine.ai.choose_action``.

:class:`AIPool` runs its searches in :class:`bot.workers.WorkerProcesses` (the
lowest priority, ending with the bot), one search per worker at a time. Tests
inject an in-thread executor and a fixed-depth chooser.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor

import engine.ai
from bot.workers.processes import WorkerProcesses
from engine import replay
from engine.ai import LONGEST_MOVETIME, choose_action
from engine.analysis import Assessment, assess_record

log = logging.getLogger(__name__)

Chooser = Callable[[str, tuple[str, ...], str, int], str]
"""``(variant, record, level, seed) -> action``: top-level, so it pickles into a process."""

GRACE_SECONDS = 5.0
"""How much longer than a level's time budget to wait before playing a fallback move."""

WORKER_NICENESS = 19
"""Workers think at a lower priority than the bot's event loop, which must answer
Discord within 3 seconds however many games are thinking."""


def warm_up() -> None:
    """Load the search core before a worker's first move, so that no move pays for it."""
    engine.ai.warm_up()


def engine_chooser(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
    """The engine's AI at ``level`` with its default time budget."""
    return choose_action(variant, list(record), level=level, seed=seed).action


def fixed_depth_chooser(depth: int) -> Chooser:
    """A chooser that searches to a fixed depth (deterministic; for tests)."""
    return functools.partial(_depth_choose, depth)


def _depth_choose(depth: int, variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
    return choose_action(variant, list(record), level=level, seed=seed, depth=depth).action


def assess_plies(
    variant: str, record: tuple[str, ...], plies: tuple[int, ...], depth: int, seconds: float | None
) -> list[Assessment]:
    """:func:`engine.analysis.assess_record` with positional arguments (for a pool)."""
    return assess_record(variant, list(record), plies, depth=depth, seconds=seconds)


def random_chooser(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
    """A seeded random legal action (fast; for tests of game flow)."""
    return random.Random(seed).choice(replay(variant, record).legal_notations())


def time_budget(level: str) -> float:
    """Seconds the engine may think at ``level`` (on a move not settled, the longest)."""
    return LONGEST_MOVETIME.get(level, max(LONGEST_MOVETIME.values()))


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
        # Once per process: without a C compiler, how to get the fast search.
        engine.ai.announce_backend()
        # Created on first use, so a console that never plays the bot starts no process.
        self.processes = WorkerProcesses(
            workers, niceness=WORKER_NICENESS, warm_up=warm_up, executor=executor
        )
        self._budget = budget
        # One search per worker at a time: a move's time budget starts when its
        # search starts, not while it waits behind other games' searches.
        self._slots = asyncio.Semaphore(workers)

    async def choose(self, variant: str, record: Sequence[str], level: str, seed: int) -> str:
        """The bot's action after ``record``, within the level's time budget.

        If the worker overruns the budget (plus a grace period) or fails, a seeded
        random legal action is played instead, so a game never hangs on the bot (and
        a dead worker is replaced for the next move).
        """
        args = (variant, tuple(record), level, seed)
        async with self._slots:
            try:
                # asyncio.timeout, not wait_for: on Python 3.11 wait_for returns an answer
                # that arrives as the move is cancelled (Ctrl-C, a shutdown) and drops the
                # cancellation.
                async with asyncio.timeout(self._budget(level) + GRACE_SECONDS):
                    return await self.processes.run(self.chooser, *args)
            except Exception as exc:  # a timeout, a crashed worker: play on rather than hang
                log.warning("AI failed at %s (%r); playing a random legal action", level, exc)
                return random_chooser(*args)

    async def assess(
        self,
        variant: str,
        record: Sequence[str],
        plies: Sequence[int],
        depth: int,
        seconds: float | None,
    ) -> list[Assessment]:
        """Score every legal action of the positions before ``plies`` of ``record`` (a
        hint, a part of a review) in a worker, waiting for a free one like a move does."""
        async with self._slots:
            return await self.processes.run(
                assess_plies, variant, tuple(record), tuple(plies), depth, seconds
            )

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers (only processes this pool started)."""
        self.processes.shutdown(wait)
