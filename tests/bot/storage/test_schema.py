"""The schema's history and the tables agree: an empty database brought through every
migration holds exactly the tables, columns, types, defaults and indexes of
:mod:`bot.storage.tables` (on both engines), and a database an older bot made keeps its
rows when it is upgraded. Each migration carries its own shapes, so only this test ties
them to today's definitions."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Column, Connection, Identity, column, insert, table

from bot.storage import SCHEMA_VERSION, Storage, migrations
from bot.storage.dialects import dialect_for
from bot.storage.runner import Runner
from bot.storage.tables import TABLES, Moment, metadata

HISTORY_TABLES = {migrations.VERSION_TABLE, "shax_schema"}
"""The tables that keep the history, beside the bot's own."""


def ours(name: str | None, kind: str, _: object) -> bool:
    return not (kind == "table" and name in HISTORY_TABLES)


def other_default(
    context: MigrationContext,
    inspected: Column[Any],
    defined: Column[Any],
    found: str | None,
    _: object,
    written: str | None,
) -> bool | None:
    """Whether a column's default differs on SQLite, read as SQLite keeps it: a numbered
    key is the row id (no identity), and a default's quotes are the same default."""
    if isinstance(defined.server_default, Identity):
        return False

    def bare(value: str | None) -> str | None:
        return None if value is None else value.strip("()").strip("'")

    return bare(found) != bare(written)


def differences(conn: Connection) -> list[Any]:
    """What the database's schema lacks or holds beyond the tables' definitions."""
    context = MigrationContext.configure(
        conn,
        opts={
            "compare_type": True,
            "compare_server_default": other_default if conn.dialect.name == "sqlite" else True,
            "include_name": ours,
        },
    )
    return list(compare_metadata(context, metadata))


async def run_on(target: str | Path, call: Callable[[Connection], Any]) -> Any:
    """``call`` in one transaction on ``target``, opened without migrating it."""
    dialect = dialect_for(target)
    await dialect.open()
    try:
        return await Runner(dialect).transaction(call)
    finally:
        await dialect.close()


async def test_every_migration_from_empty_makes_exactly_the_tables(
    database: str | Path,
) -> None:
    storage = await Storage.open(database)
    await storage.close()
    assert await run_on(database, differences) == []


async def test_a_database_made_at_migration_5_upgrades_with_its_rows(
    database: str | Path,
) -> None:
    """A database an older bot made (the schema of migration 5, the ratings') and played
    on is brought to today's schema with every row it held."""
    games = table(
        "games",
        *(column(c) for c in ("id", "channel_id", "variant", "record", "white_id")),
        *(column(c) for c in ("white_name", "black_id", "black_name", "version")),
        *(column(c, Moment()) for c in ("created_at", "updated_at", "turn_started_at")),
        column("status"),
    )
    moment = datetime.fromtimestamp(1_700_000_000, UTC)
    game = {
        "id": 1,
        "channel_id": 7,
        "variant": "shax",
        "record": "d7 a7",
        "white_id": 11,
        "white_name": "Amina",
        "black_id": 12,
        "black_name": "Bashir",
        "version": 2,
        "created_at": moment,
        "updated_at": moment,
        "turn_started_at": moment,
        "status": "active",
    }
    rating = {"guild_id": 1, "user_id": 11, "family": "shax", "name": "Amina", "games": 3}
    setting = {"guild_id": 1, "key": "language", "value": "so"}

    def older(conn: Connection) -> None:
        migrations.migrate(conn, "0005")
        dialect.set_schema_number(conn, 5)
        conn.execute(insert(games).values(game))
        conn.execute(insert(table("ratings", *map(column, rating))).values(rating))
        conn.execute(insert(table("guild_settings", *map(column, setting))).values(setting))

    dialect = dialect_for(database)
    await dialect.open()
    try:
        await Runner(dialect).transaction(older)
    finally:
        await dialect.close()

    storage = await Storage.open(database)
    try:
        assert await storage.schema_version() == SCHEMA_VERSION
        [stored] = await storage.export_rows("games")
        assert stored["record"] == "d7 a7" and stored["version"] == 2
        assert stored["shown_version"] == 0  # the column migration 2 made, as it filled it
        played = await storage.games.get_game(1)
        assert played is not None and played.record == ("d7", "a7")
        assert played.created_at == moment
        [kept] = await storage.export_rows("ratings")
        assert {k: kept[k] for k in rating} == rating
        assert await storage.settings.guild_settings(1) == {"language": "so"}
        for name in set(TABLES) - {"games", "ratings", "guild_settings"}:
            assert await storage.export_rows(name) == [], name
    finally:
        await storage.close()
    assert await run_on(database, differences) == []
