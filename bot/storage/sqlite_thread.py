"""aiosqlite's thread, taken whole: a call of the storage is one trip to it.

SQLAlchemy's ``sqlite+aiosqlite`` adapter makes about four trips to aiosqlite's thread for
each statement (the cursor, the statement, its rows, closing the cursor), which costs a
move's storage calls twice the processor time. aiosqlite has no public way to run a
function in its thread, so this module is the one place that reaches into it:
``Connection._execute`` (queue a function behind the calls before it), ``Connection._conn``
(the driver's connection, to be used in that thread only) and ``Connection._connection``
(whether it is still open). aiosqlite's versions are pinned in pyproject.toml, and
tests/bot/storage/test_sqlite_thread.py names all three, so an aiosqlite that changes them
fails there first.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Awaitable, Callable
from typing import TypeVar

import aiosqlite

T = TypeVar("T")

PRIVATE = ("_execute", "_conn", "_connection")
"""What of aiosqlite this module uses that aiosqlite does not publish."""


async def in_its_thread(driver: aiosqlite.Connection, function: Callable[[], T]) -> T:
    """``function()`` in ``driver``'s thread, behind every call queued before it. Raises
    ``ValueError`` (aiosqlite's word) when the connection is closed."""
    queued: Callable[[Callable[[], T]], Awaitable[T]] = driver._execute
    return await queued(function)


def its_connection(driver: aiosqlite.Connection) -> sqlite3.Connection:
    """The driver's own connection, for use in ``driver``'s thread only."""
    return driver._conn


def is_closed(driver: aiosqlite.Connection) -> bool:
    return driver._connection is None
