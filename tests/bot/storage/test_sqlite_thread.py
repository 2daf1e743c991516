"""The one place that reaches into aiosqlite (bot/storage/sqlite_thread.py) holds only
while aiosqlite keeps what it uses: an aiosqlite that renames or drops any of it fails
here first, by name."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import aiosqlite
import pytest

from bot.storage.sqlite_thread import PRIVATE, in_its_thread, is_closed, its_connection


@pytest.mark.parametrize("name", PRIVATE)
def test_aiosqlite_still_has_what_the_storage_uses(name: str) -> None:
    source = aiosqlite.Connection
    assert hasattr(source, name) or name in source.__init__.__code__.co_names, (
        f"aiosqlite.Connection.{name} is gone: bot/storage/sqlite_thread.py must change "
        "with this aiosqlite, or pyproject.toml pin the one before it"
    )


async def test_a_function_runs_whole_in_aiosqlites_thread_on_its_connection(
    tmp_path: Path,
) -> None:
    driver = await aiosqlite.connect(tmp_path / "t.db", isolation_level=None)
    try:
        here = threading.get_ident()

        def work() -> tuple[int, int]:
            conn = its_connection(driver)
            assert isinstance(conn, sqlite3.Connection)
            conn.execute("CREATE TABLE t (x INTEGER)")
            conn.execute("INSERT INTO t VALUES (41)")
            (value,) = conn.execute("SELECT x + 1 FROM t").fetchone()
            return threading.get_ident(), value

        there, value = await in_its_thread(driver, work)
        assert value == 42 and there != here
        assert not is_closed(driver)
    finally:
        await driver.close()
    assert is_closed(driver)
    with pytest.raises(ValueError):
        await in_its_thread(driver, lambda: None)
