"""How each engine runs a call: SQLite's in turn on aiosqlite's one connection, PostgreSQL's
on a connection kept open between calls."""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import aiosqlite
import pytest
from sqlalchemy import Connection, select
from sqlalchemy.pool import AsyncAdaptedQueuePool

from bot.storage import (
    ChannelTaken,
    GameResult,
    GameStatus,
    Storage,
    StorageError,
    Termination,
)
from bot.storage.dialects import BUSY_TIMEOUT_MS, Postgres
from bot.storage.tables import hints
from tests.bot.storage.conftest import fresh_postgres, new_game, scored
from tests.bot.storage.pgserver import PostgresServer

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


async def test_sqlite_calls_take_turns_on_aiosqlites_one_connection(tmp_path: Path) -> None:
    """Every call runs whole in aiosqlite's thread, on its one connection, one at a time:
    calls made at once
    (a game's finish among them, a transaction) all land, none interleaved with another;
    closing waits for the calls before it, and a call after it is refused in a sentence."""
    storage = await Storage.open(tmp_path / "s.db")
    try:
        driver = await storage.runner.run(lambda conn: conn.connection.driver_connection)
        assert isinstance(driver, sqlite3.Connection)
        assert isinstance(storage._d._driver, aiosqlite.Connection)
        game = await storage.games.create_game(new_game(), NOW)
        moved = await storage.games.update_game(
            game.id, 0, record=["a1"], draw_offered_by=None, now=NOW, new_turn=True
        )
        assert moved is not None
        finishing = storage.games.finish_game(
            game.id,
            1,
            record=["a1", "a4"],
            result=GameResult.WHITE,
            termination=Termination.RESIGNATION,
            now=NOW,
            **scored(
                [(11, "p11", "human", "win"), (12, "p12", "human", "loss")],
                ("u:11", "u:12", "u:11"),
            ),
        )

        def one_more_hint(conn: Connection) -> int:
            # Read, then write what was read plus one: two of these interleaved would
            # lose one (or fail, a transaction begun inside another).
            used = conn.execute(select(hints.c.used).where(hints.c.game_id == game.id))
            count = (used.scalar() or 0) + 1
            conn.execute(storage.runner.upsert(hints, game_id=game.id, used=count))
            return count

        more = [storage.runner.transaction(one_more_hint) for _ in range(6)]
        drivers = [
            storage.runner.run(lambda conn: conn.connection.driver_connection) for _ in range(3)
        ]
        finished, counts, seen = await asyncio.gather(
            finishing, asyncio.gather(*more), asyncio.gather(*drivers)
        )
        assert finished is not None and finished.tallies[11][1].wins == 1
        assert sorted(counts) == [1, 2, 3, 4, 5, 6]
        assert await storage.games.hints_used(game.id) == 6
        assert all(other is driver for other in seen)
        last = asyncio.gather(*(storage.games.get_game(game.id) for _ in range(3)))
        await asyncio.sleep(0)  # the calls are made (waiting their turns), then the close
        await storage.close()
        assert [row.status for row in await last if row is not None] == [GameStatus.OVER] * 3
        with pytest.raises(StorageError, match="is closed"):
            await storage.games.get_game(game.id)
    finally:
        await storage.close()


async def test_a_cancelled_sqlite_call_leaves_the_connection_as_it_was(
    tmp_path: Path,
) -> None:
    """A call cancelled at any point (before its turn, while it runs, after) leaves the
    storage working: a call queued to aiosqlite's thread runs there whole, so the next call
    runs on the same connection, with the foreign keys and the wait for another program's
    lock."""
    storage = await Storage.open(tmp_path / "s.db")

    def driver_and_settings(conn: Connection) -> tuple[object, int, int]:
        keys = conn.exec_driver_sql("PRAGMA foreign_keys").scalar_one()
        wait = conn.exec_driver_sql("PRAGMA busy_timeout").scalar_one()
        return conn.connection.driver_connection, keys, wait

    try:
        game = await storage.games.create_game(new_game(), NOW)
        first, _, _ = await storage.runner.run(driver_and_settings)
        drivers = {id(first): first}  # kept, so that no id is given again
        for steps in range(12):
            call = asyncio.ensure_future(storage.games.get_game(game.id))
            for _ in range(steps):
                await asyncio.sleep(0)
            call.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await call
            assert await storage.games.get_game(game.id) == game
            driver, keys, wait = await storage.runner.run(driver_and_settings)
            assert (keys, wait) == (1, BUSY_TIMEOUT_MS)
            drivers[id(driver)] = driver
        assert list(drivers) == [id(first)]
    finally:
        await storage.close()


async def test_postgresql_calls_keep_one_connection_open_between_them(
    postgres_server: PostgresServer,
) -> None:
    """One call after another runs on the same open connection (taking one from the
    engine's pool and giving it back costs more than most calls), an error of the call's
    own included; two at once use two."""
    storage = await Storage.open(await fresh_postgres(postgres_server))
    assert isinstance(storage._d, Postgres)
    pool = storage._d.engine.pool
    assert isinstance(pool, AsyncAdaptedQueuePool)
    try:
        game = await storage.games.create_game(new_game(), NOW)
        for _ in range(5):
            assert await storage.games.get_game(game.id) == game
        with pytest.raises(ChannelTaken):
            await storage.games.create_game(new_game(), NOW)
        assert pool.checkedout() == 1
        await asyncio.gather(*(storage.games.get_game(game.id) for _ in range(2)))
        assert pool.checkedout() == 2
    finally:
        await storage.close()
    assert pool.checkedout() == 0
