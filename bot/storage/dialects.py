"""What differs between SQLite and PostgreSQL, in one place; every statement is written
once (:mod:`bot.storage.store`) and compiled for the engine at hand.

* connections: SQLite has one, shared by the whole bot under an asyncio lock (each
  trip to aiosqlite's thread costs a thread switch; statements of two coroutines must
  never interleave inside one transaction); PostgreSQL a pool, a connection per call;
* transactions: both drivers run in autocommit, so a single statement commits on its
  own; a read-modify-write says ``BEGIN IMMEDIATE`` on SQLite (the write lock at once:
  two writers never both read the old value) and ``BEGIN`` on PostgreSQL, where rows are
  locked ``FOR UPDATE`` and a key that may have no row yet by an advisory lock;
* upserts: each dialect's ``INSERT … ON CONFLICT``; ``max``/``greatest``;
* the schema's number kept beside Alembic's history (``PRAGMA user_version`` on
  SQLite, the one-row table ``shax_schema`` on PostgreSQL), so that an older bot refuses a
  newer database;
* opening: WAL and the file checks on SQLite, the server's address on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import asyncpg
from sqlalchemy import exc as sa_exc
from sqlalchemy import func, text
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import NullPool
from sqlalchemy.sql.elements import ColumnElement

from bot.storage.base import StorageError, redacted, scrubbed
from bot.storage.checks import check_file, damaged, is_not_sqlite, not_sqlite, read_only

Insert = Callable[..., Any]


def driver_error(exc: BaseException) -> BaseException:
    """The driver's own exception behind SQLAlchemy's wrapping (``sqlite3``, ``asyncpg``)."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, sqlite3.Error | asyncpg.PostgresError | OSError):
            return seen
        seen = getattr(seen, "orig", None) or seen.__cause__
    return exc


class Dialect:
    """One engine's ways; see the module's list."""

    name: str
    begin: str
    insert: Insert
    where: str
    """The database, for messages: the file, or the URL without any secret."""
    engine: AsyncEngine

    def greatest(self, *values: Any) -> ColumnElement[Any]:
        raise NotImplementedError

    def connection(self) -> Any:
        """An async context manager: a connection for one call."""
        raise NotImplementedError

    async def open(self) -> None:
        """Connect, and check that the database can be used."""

    async def close(self) -> None:
        await self.engine.dispose()

    async def lock(self, conn: AsyncConnection, key: str) -> None:
        """Hold ``key`` until the transaction ends (for rows that may not exist yet)."""

    async def schema_number(self, conn: AsyncConnection) -> int:
        raise NotImplementedError

    async def set_schema_number(self, conn: AsyncConnection, number: int) -> None:
        raise NotImplementedError

    async def after_import(self, conn: AsyncConnection, tables: list[str]) -> None:
        """After rows were copied in with their ids: new ids continue after the highest."""

    def failure(self, exc: BaseException) -> StorageError | None:
        """A one-sentence error for a database that cannot be used, if ``exc`` is one."""
        return None


class Sqlite(Dialect):
    name = "sqlite"
    begin = "BEGIN IMMEDIATE"
    insert = staticmethod(sqlite.insert)

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)
        self.engine = create_async_engine(
            f"sqlite+aiosqlite:///{path}", poolclass=NullPool, isolation_level="AUTOCOMMIT"
        )
        self._conn: AsyncConnection | None = None
        self._lock = asyncio.Lock()

    def greatest(self, *values: Any) -> ColumnElement[Any]:
        return func.max(*values)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConnection]:
        async with self._lock:
            if self._conn is None:
                raise StorageError(f"The database {self.where} is closed.")
            yield self._conn

    async def open(self) -> None:
        check_file(self.path)
        try:
            self._conn = await self.engine.connect()
            await self._conn.exec_driver_sql("PRAGMA journal_mode = WAL")
            await self._conn.exec_driver_sql("PRAGMA foreign_keys = ON")
            await self._conn.exec_driver_sql("PRAGMA busy_timeout = 5000")
            result = await self._conn.exec_driver_sql("PRAGMA quick_check")
            problems = [str(r[0]) for r in result]
        except sa_exc.DBAPIError as exc:
            raise self.failure(exc) or exc from None
        if problems != ["ok"]:
            raise damaged(self.path, problems[0])

    async def close(self) -> None:
        async with self._lock:
            if self._conn is not None:
                await self._conn.close()
                self._conn = None
        await self.engine.dispose()

    async def schema_number(self, conn: AsyncConnection) -> int:
        return int((await conn.exec_driver_sql("PRAGMA user_version")).scalar_one())

    async def set_schema_number(self, conn: AsyncConnection, number: int) -> None:
        # PRAGMA takes no parameters; the value is our own int.
        await conn.exec_driver_sql(f"PRAGMA user_version = {int(number)}")

    def failure(self, exc: BaseException) -> StorageError | None:
        cause = driver_error(exc)
        if not isinstance(cause, sqlite3.DatabaseError):
            return None
        if getattr(cause, "sqlite_errorname", "").startswith("SQLITE_READONLY"):
            return read_only(self.path)
        if is_not_sqlite(cause):
            return not_sqlite(self.path)
        return damaged(self.path, str(cause))


SCHEMA_TABLE = "CREATE TABLE IF NOT EXISTS shax_schema (version INTEGER NOT NULL)"
MIGRATION_LOCK = "shax:migrations"


class Postgres(Dialect):
    name = "postgresql"
    begin = "BEGIN"
    insert = staticmethod(postgresql.insert)

    def __init__(self, url: str, max_connections: int = 10) -> None:
        self.url = url
        self.where = redacted(url)

        async def connect() -> asyncpg.Connection:
            # asyncpg reads the whole URL itself, as it always did: its password in the
            # user part or the query, ``sslmode``, ``search_path`` and the rest.
            return await asyncpg.connect(url)

        self.engine = create_async_engine(
            "postgresql+asyncpg://",
            async_creator=connect,
            pool_size=max_connections,
            max_overflow=0,
            isolation_level="AUTOCOMMIT",
        )

    def greatest(self, *values: Any) -> ColumnElement[Any]:
        return func.greatest(*values)

    @asynccontextmanager
    async def connection(self) -> AsyncIterator[AsyncConnection]:
        async with self.engine.connect() as conn:
            yield conn

    async def open(self) -> None:
        try:
            async with self.engine.connect() as conn:
                await conn.exec_driver_sql("SELECT 1")
        except (OSError, sa_exc.DBAPIError, asyncpg.PostgresError) as exc:
            await self.engine.dispose()
            detail = scrubbed(str(driver_error(exc)), self.url)
            raise StorageError(
                f"The PostgreSQL database {self.where} cannot be reached ({detail}): start "
                "the server, or fix SHAX_DATABASE_URL (host, port, user, password, database)."
            ) from None

    async def lock(self, conn: AsyncConnection, key: str) -> None:
        await conn.execute(
            text("SELECT pg_advisory_xact_lock(hashtextextended(:key, 0))"), {"key": key}
        )

    async def schema_number(self, conn: AsyncConnection) -> int:
        found = await conn.exec_driver_sql("SELECT to_regclass('shax_schema') IS NOT NULL")
        if not found.scalar_one():
            return 0
        value = (await conn.exec_driver_sql("SELECT version FROM shax_schema")).scalar()
        return int(value or 0)

    async def set_schema_number(self, conn: AsyncConnection, number: int) -> None:
        await conn.exec_driver_sql(SCHEMA_TABLE)
        await conn.exec_driver_sql("DELETE FROM shax_schema")
        await conn.execute(text("INSERT INTO shax_schema (version) VALUES (:n)"), {"n": number})

    async def after_import(self, conn: AsyncConnection, tables: list[str]) -> None:
        for table in tables:
            await conn.execute(
                text(
                    "SELECT setval(pg_get_serial_sequence(:table, 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                ),
                {"table": table},
            )


def dialect_for(target: str | Path) -> Dialect:
    from bot.storage.base import is_postgres, sqlite_path

    if is_postgres(target):
        return Postgres(str(target))
    return Sqlite(sqlite_path(target))
