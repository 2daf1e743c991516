"""The console's clock: the service's tick every ``SHAX_TICK_SECONDS`` while the console
runs, as the Discord bot's loop does, so that a turn's warning, its forfeit or abort, and
an expired challenge are printed when they happen, not at the next command, and the
console reads on meanwhile. A tick never runs in the middle of a command (they take
turns with :attr:`Console.turn`), and its notices are printed above the waiting prompt.

Between two runs of the console its clock stands still: the next start gives the waiting
turns that time back (:mod:`bot.service.clock`).
"""

from __future__ import annotations

import asyncio
import logging

from bot.console.places import news
from bot.console.reader import LineReader
from bot.console.session import Console

log = logging.getLogger(__name__)


async def keep_time(console: Console, reader: LineReader, every: float) -> None:
    """Tick every ``every`` seconds until cancelled, printing what the clock says."""
    while True:
        await asyncio.sleep(every)
        try:
            await tick(console, reader)
        except Exception:  # the next tick tries again
            log.exception("The clock's tick failed")


async def tick(console: Console, reader: LineReader) -> None:
    """One run of the clock, between commands; its notices above the prompt."""
    async with console.turn:
        notices = await news(console.service)
        if notices:
            async with reader.above():
                await console.show_each(notices)
            await console.refresh()
