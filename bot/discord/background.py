"""The bot's background work, owned in one place: what runs beside the answers to players.

The clock's tick (with the puzzle of the day), the look for boards the players have not
seen, the retries of an undelivered board and of the command sync, the watchers of the
start: each is started with :meth:`Background.start` and is a task of the bot's
:class:`Background`. Closing the bot stops it (:meth:`Background.stop`): from the first
moment of a stop nothing new starts (a READY that arrives after "Stopping…" starts no
tick and no look for boards), work waiting between its steps is cancelled at once, a
step under way (a tick showing its notices) may finish for a while, and the stop returns
only when every task has ended — before the gateway, and after it the database, close.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Coroutine
from typing import Any

log = logging.getLogger(__name__)

STEP_SECONDS = 10.0
"""How long a stop lets the steps under way finish before it cancels them."""


class Background:
    """The tasks of one bot's background work."""

    def __init__(self) -> None:
        self._tasks: dict[asyncio.Task[None], str] = {}
        self._stepping: set[asyncio.Task[Any]] = set()
        self._refusing = False

    @property
    def refusing(self) -> bool:
        """Whether the stop has begun: nothing starts any more."""
        return self._refusing

    @property
    def running(self) -> list[str]:
        """The names of the tasks that have not ended."""
        return [name for task, name in self._tasks.items() if not task.done()]

    def start(self, name: str, work: Coroutine[Any, Any, None]) -> bool:
        """Run ``work`` in the background as ``name``, unless the stop has begun (then it
        is dropped unrun); whether it started. An error ending it is logged."""
        if self._refusing:
            work.close()
            log.debug("Not starting %s: the bot is stopping", name)
            return False
        task = asyncio.create_task(self._run(name, work), name=name)
        self._tasks[task] = name
        task.add_done_callback(self._forget)
        return True

    async def _run(self, name: str, work: Coroutine[Any, Any, None]) -> None:
        try:
            await work
        except Exception:
            log.exception("The background work %r failed", name)

    def _forget(self, task: asyncio.Task[None]) -> None:
        self._tasks.pop(task, None)
        self._stepping.discard(task)

    @contextlib.asynccontextmanager
    async def step(self) -> AsyncIterator[None]:
        """A step a stop lets finish (for :data:`STEP_SECONDS` at most): a tick showing its
        notices, say. Waiting between steps is cut short by a stop; after a step that a
        stop overtook, the task ends."""
        task = asyncio.current_task()
        if task is None or task not in self._tasks:  # called outside the background
            yield
            return
        if self._refusing:
            raise asyncio.CancelledError
        self._stepping.add(task)
        try:
            yield
        finally:
            self._stepping.discard(task)
            if self._refusing:
                task.cancel()

    def refuse(self) -> None:
        """The stop begins: nothing starts from now on, and every task waiting between
        its steps is cancelled."""
        self._refusing = True
        for task in self._tasks:
            if task not in self._stepping:
                task.cancel()

    async def stop(self, grace: float = STEP_SECONDS) -> None:
        """Refuse new work, let the steps under way finish for ``grace`` seconds, cancel
        what is left, and return once every task has ended."""
        self.refuse()
        tasks = set(self._tasks)
        if not tasks:
            return
        _, late = await asyncio.wait(tasks, timeout=grace)
        if late:
            log.warning(
                "Cutting short background work still under way: %s",
                ", ".join(sorted(self._tasks.get(t, "?") for t in late)),
            )
            for task in late:
                task.cancel()
            await asyncio.wait(late)
