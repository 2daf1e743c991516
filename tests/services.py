"""The one way tests build a real :class:`ShaxService`: on a SQLite file, with a clock the
test moves by hand and the bot's moves chosen in a thread (fast) unless a real AI is given.

Used by ``tests/bot/conftest.py`` (the service's own tests), ``tests/bot/discord/helpers.py``
and ``tests/e2e`` (a real bot over a real service)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

from bot.service.bot_turns import ActionChooser
from bot.service.facade import ShaxService
from bot.service.replies import User
from bot.storage import Storage
from bot.workers.ai import AIPool, Chooser, random_chooser

CHALLENGE_EXPIRY = timedelta(minutes=10)
TURN_TIMEOUT = timedelta(hours=24)


class FakeClock:
    """The service's clock, moved by the test (``clock.advance(minutes=11)``). Starts at
    ``start``, or now (for tests where Discord and the fake keep real time)."""

    def __init__(self, start: datetime | None = None) -> None:
        self.moment = start or datetime.now(UTC)

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, **kwargs: float) -> None:
        self.moment += timedelta(**kwargs)


@contextlib.asynccontextmanager
async def open_service(
    db_path: Path,
    *,
    bot_user: User,
    clock: FakeClock | None = None,
    chooser: Chooser = random_chooser,
    ai: ActionChooser | None = None,
    challenge_expiry: timedelta = CHALLENGE_EXPIRY,
    turn_timeout: timedelta = TURN_TIMEOUT,
    **options: Any,
) -> AsyncIterator[ShaxService]:
    """A real service on ``db_path``; closed (and its AI thread stopped) on exit. Without
    ``clock`` the service keeps real time. Without
    ``ai`` the bot plays ``chooser``'s actions in a thread; pass an ``AIPool`` for the
    real engine."""
    executor = ThreadPoolExecutor(max_workers=1) if ai is None else None
    if clock is not None:
        options["clock"] = clock
    storage = await Storage.open(db_path)
    service = ShaxService(
        storage,
        bot_user=bot_user,
        ai=ai or AIPool(1, chooser=chooser, executor=executor),
        challenge_expiry=challenge_expiry,
        turn_timeout=turn_timeout,
        **options,
    )
    try:
        yield service
    finally:
        await service.close()
        if executor is not None:
            executor.shutdown(wait=True)
