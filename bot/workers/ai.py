"""The bot's thinking, off the event loop: worker processes running ``engine.ai.choose_action``.

:class:`AIPool` runs its searches in :class:`bot.workers.WorkerProcesses` (the
lowest priority, ending with the bot), one search per worker at a time: the bots' moves
first, then hints, then the parts of reviews (:class:`Slots`). Tests inject an
in-thread executor and a fixed-depth chooser.
"""

from __future__ import annotations

import asyncio
import functools
import heapq
import itertools
import logging
import random
from collections.abc import AsyncIterator, Callable, Sequence
from concurrent.futures import Executor
from contextlib import asynccontextmanager
from enum import IntEnum

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


class Errand(IntEnum):
    """What a worker is asked for, in the order the workers serve them: a bot's move,
    which a player waits for, then a hint, then a part of a review, which may wait."""

    MOVE = 0
    HINT = 1
    REVIEW = 2


class Slots:
    """The workers, one job each at a time, handed out by :class:`Errand` (in the order
    asked within one): a bot's move never waits behind hints or reviews still waiting.
    Reviews hold at most ``most_reviews`` workers at once, so with two workers or more one
    is always left for the bots' moves."""

    def __init__(self, workers: int) -> None:
        self.free = workers
        self.most_reviews = max(1, workers - 1)
        self.reviews = 0
        self._waiting: list[tuple[Errand, int, asyncio.Future[None]]] = []
        self._order = itertools.count()

    def _may_take(self, errand: Errand) -> bool:
        return self.free > 0 and (errand is not Errand.REVIEW or self.reviews < self.most_reviews)

    def _take(self, errand: Errand) -> None:
        self.free -= 1
        self.reviews += errand is Errand.REVIEW

    def _give_back(self, errand: Errand) -> None:
        self.free += 1
        self.reviews -= errand is Errand.REVIEW
        skipped = []
        while self._waiting and self.free > 0:
            entry = heapq.heappop(self._waiting)
            waiting_errand, _, granted = entry
            if granted.done():  # given up while it waited
                continue
            if not self._may_take(waiting_errand):
                skipped.append(entry)
                continue
            self._take(waiting_errand)
            granted.set_result(None)
        for entry in skipped:
            heapq.heappush(self._waiting, entry)

    @asynccontextmanager
    async def taken(self, errand: Errand) -> AsyncIterator[None]:
        """A worker for ``errand``, until the block ends."""
        if self._may_take(errand) and not any(
            not granted.done() and waiting <= errand for waiting, _, granted in self._waiting
        ):
            self._take(errand)
        else:
            granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            heapq.heappush(self._waiting, (errand, next(self._order), granted))
            try:
                await granted
            except asyncio.CancelledError:
                if granted.done() and not granted.cancelled():  # granted as it was cancelled
                    self._give_back(errand)
                else:
                    granted.cancel()
                raise
        try:
            yield
        finally:
            self._give_back(errand)


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
        # search starts, not while it waits behind other games' searches; and moves
        # are served before hints and reviews.
        self._slots = Slots(workers)

    async def choose(self, variant: str, record: Sequence[str], level: str, seed: int) -> str:
        """The bot's action after ``record``, within the level's time budget.

        If the worker overruns the budget (plus a grace period) or fails, a seeded
        random legal action is played instead, so a game never hangs on the bot (and
        a dead worker is replaced for the next move).
        """
        args = (variant, tuple(record), level, seed)
        async with self._slots.taken(Errand.MOVE):
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
        *,
        review: bool = False,
    ) -> list[Assessment]:
        """Score every legal action of the positions before ``plies`` of ``record`` (a
        hint; with ``review``, a part of a review) in a worker, after the bots' moves
        waiting for one (and a review's part after the hints)."""
        async with self._slots.taken(Errand.REVIEW if review else Errand.HINT):
            return await self.processes.run(
                assess_plies, variant, tuple(record), tuple(plies), depth, seconds
            )

    def shutdown(self, wait: bool = True) -> None:
        """Stop the workers (only processes this pool started)."""
        self.processes.shutdown(wait)
