"""Opening the database on both engines: the migrations run once, a newer schema is
refused, SQLite in WAL mode and a file named by any characters."""

from __future__ import annotations

import sqlite3
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import pytest

from bot.storage import (
    SCHEMA_VERSION,
    Storage,
    StorageError,
)
from bot.storage.tables import TABLES
from tests.bot.storage.conftest import new_game

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


async def test_migrations_from_empty_set_the_schema_version(storage: Storage) -> None:
    assert await storage.schema_version() == SCHEMA_VERSION
    assert await storage.export_rows("games") == []


async def test_sqlite_runs_in_wal_mode_with_every_table(tmp_path: Path) -> None:
    storage = await Storage.open(tmp_path / "s.db")
    assert storage.engine == "sqlite"
    await storage.close()
    with sqlite3.connect(tmp_path / "s.db") as raw:
        assert raw.execute("PRAGMA journal_mode").fetchone() == ("wal",)  # kept by the file
        tables = {r[0] for r in raw.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert set(TABLES) <= tables


async def test_reopening_keeps_the_data_and_runs_no_migration_twice(
    database: str | Path,
) -> None:
    storage = await Storage.open(database)
    game = await storage.games.create_game(new_game(), NOW)
    await storage.close()
    storage = await Storage.open(database)
    try:
        assert await storage.games.get_game(game.id) == game
        assert await storage.schema_version() == SCHEMA_VERSION
    finally:
        await storage.close()


async def test_a_newer_schema_is_refused(database: str | Path) -> None:
    await (await Storage.open(database)).close()
    if isinstance(database, Path):
        with sqlite3.connect(database) as raw:
            raw.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    else:
        conn = await asyncpg.connect(database)
        await conn.execute("UPDATE shax_schema SET version = $1", SCHEMA_VERSION + 1)
        await conn.close()
    with pytest.raises(
        StorageError, match=f"newer than this bot's {SCHEMA_VERSION}: upgrade the bot"
    ):
        await Storage.open(database)


async def test_a_file_named_with_url_characters_is_that_file(tmp_path: Path) -> None:
    path = tmp_path / "shax ?#%20.db"
    storage = await Storage.open(path)
    try:
        game = await storage.games.create_game(new_game(), NOW)
    finally:
        await storage.close()
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    with sqlite3.connect(path) as raw:
        assert raw.execute("SELECT id FROM games").fetchall() == [(game.id,)]
