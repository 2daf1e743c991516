"""What differs between SQLite and PostgreSQL, in one place; every statement is written
once (:mod:`bot.storage.store`) and compiled for the engine at hand.

* running: each call of the storage is one function over a SQLAlchemy connection, run
  whole. SQLite's one connection is aiosqlite's, kept open from start to stop: each call
  is queued to aiosqlite's thread and runs there whole, in one trip
  (:mod:`bot.storage.sqlite_thread`), so the calls take turns and a transaction is never
  interleaved with another call. PostgreSQL's calls run through
  ``AsyncConnection.run_sync`` on a connection of the pool (asyncpg awaited underneath);
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
from collections.abc import Callable
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar

import aiosqlite
import asyncpg
from sqlalchemy import Connection, create_engine, func, text
from sqlalchemy import exc as sa_exc
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import StaticPool
from sqlalchemy.sql.elements import ColumnElement

from bot.storage.base import StorageError, is_postgres, redacted, scrubbed, sqlite_path
from bot.storage.checks import (
    DatabaseLocked,
    check_file,
    damaged,
    is_busy,
    is_not_sqlite,
    not_sqlite,
    read_only,
)
from bot.storage.sqlite_thread import in_its_thread, is_closed, its_connection

Insert = Callable[..., Any]
T = TypeVar("T")
P = ParamSpec("P")
Call = Callable[Concatenate[Connection, P], T]
"""One call of the storage: a function of a connection (and its arguments)."""
BUSY_TIMEOUT_MS = 5000
"""How long SQLite waits for another program's lock on the file before saying it is busy."""


def _set_up(conn: Connection) -> None:
    """A SQLite connection's settings: the write-ahead log, foreign keys, and five seconds'
    wait for another program's lock."""
    conn.exec_driver_sql("PRAGMA journal_mode = WAL")
    conn.exec_driver_sql("PRAGMA foreign_keys = ON")
    conn.exec_driver_sql(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")


def over(connection: sqlite3.Connection) -> Connection:
    """A SQLAlchemy connection over ``connection``, to be used in its own thread only
    (each statement compiled for SQLite, run on the driver's connection directly)."""
    engine = create_engine(
        "sqlite://",
        creator=lambda: connection,
        poolclass=StaticPool,
        isolation_level="AUTOCOMMIT",
        pool_reset_on_return=None,
    )
    return engine.connect()


def _problems(conn: Connection) -> list[str]:
    """The SQLite file's check: ``["ok"]`` when it is sound."""
    return [str(r[0]) for r in conn.exec_driver_sql("PRAGMA quick_check")]


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

    def greatest(self, *values: Any) -> ColumnElement[Any]:
        raise NotImplementedError

    async def run(self, call: Call[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        """``call(connection, *args)``, whole, where this engine runs it."""
        raise NotImplementedError

    async def open(self) -> None:
        """Connect, and check that the database can be used."""

    async def close(self) -> None:
        raise NotImplementedError

    def lock(self, conn: Connection, key: str, *, shared: bool = False) -> None:
        """Hold ``key`` until the transaction ends (for rows that may not exist yet);
        ``shared``, alongside other shared holders, only keeping out a sole one."""

    def schema_number(self, conn: Connection) -> int:
        raise NotImplementedError

    def set_schema_number(self, conn: Connection, number: int) -> None:
        raise NotImplementedError

    def after_import(self, conn: Connection, tables: list[str]) -> None:
        """After rows were copied in with their ids: new ids continue after the highest."""

    def failure(self, exc: BaseException) -> StorageError | None:
        """A one-sentence error for a database that cannot be used, if ``exc`` is one."""
        return None

    def locked(self, exc: BaseException) -> DatabaseLocked | None:
        """The error for a database another program holds locked, if ``exc`` says so."""
        return None


class Sqlite(Dialect):
    name = "sqlite"
    begin = "BEGIN IMMEDIATE"
    insert = staticmethod(sqlite.insert)

    def __init__(self, path: Path) -> None:
        self.path = path
        self.where = str(path)
        self._driver: aiosqlite.Connection | None = None
        """aiosqlite's one connection, open from :meth:`open` to :meth:`close`."""
        self._conn: Connection | None = None
        """The same SQLite connection, seen from its own thread (where calls run)."""

    def greatest(self, *values: Any) -> ColumnElement[Any]:
        return func.max(*values)

    async def run(self, call: Call[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        def whole() -> T:
            if self._conn is None:
                self._conn = over(its_connection(driver))
            return call(self._conn, *args, **kwargs)

        driver = self._open_driver()
        try:
            return await in_its_thread(driver, whole)
        except ValueError as exc:  # aiosqlite's word for a connection already closed
            if is_closed(driver):
                raise self._closed() from exc
            raise

    def _open_driver(self) -> aiosqlite.Connection:
        if self._driver is None:
            raise self._closed()
        return self._driver

    def _closed(self) -> StorageError:
        return StorageError(f"The database {self.where} is closed.")

    async def open(self) -> None:
        check_file(self.path)
        try:
            # The file is opened by name, never read as a URL (a "?" or "#" in it is a name).
            self._driver = await aiosqlite.connect(self.path, isolation_level=None)
            await self.run(_set_up)
            problems = await self.run(_problems)
        except (sqlite3.Error, sa_exc.DBAPIError) as exc:
            await self.close()
            raise self.failure(exc) or exc from None
        if problems != ["ok"]:
            await self.close()
            raise damaged(self.path, problems[0])

    async def close(self) -> None:
        # Behind every call already queued: they finish first; later ones are refused.
        driver, self._driver = self._driver, None
        if driver is not None:
            await in_its_thread(driver, self._let_go)
            await driver.close()

    def _let_go(self) -> None:
        """In the connection's thread: the calls' view of it is closed (the connection
        itself is aiosqlite's to close)."""
        if self._conn is not None:
            self._conn.close()
            self._conn = None

    def schema_number(self, conn: Connection) -> int:
        return int(conn.exec_driver_sql("PRAGMA user_version").scalar_one())

    def set_schema_number(self, conn: Connection, number: int) -> None:
        # PRAGMA takes no parameters; the value is our own int.
        conn.exec_driver_sql(f"PRAGMA user_version = {int(number)}")

    def locked(self, exc: BaseException) -> DatabaseLocked | None:
        return DatabaseLocked(self.path) if is_busy(driver_error(exc)) else None

    def failure(self, exc: BaseException) -> StorageError | None:
        cause = driver_error(exc)
        if not isinstance(cause, sqlite3.DatabaseError):
            return None
        if is_busy(cause):
            return DatabaseLocked(self.path)
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
    engine: AsyncEngine

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
            # The connection used last is used next: its statements are prepared already
            # (each connection prepares a statement once), and the rest stay idle.
            pool_use_lifo=True,
            isolation_level="AUTOCOMMIT",
        )
        self._idle: list[AsyncConnection] = []
        """Connections kept open between calls, the one used last at the end (its
        statements are prepared already): taking one from the engine's pool and giving
        it back costs more than most calls."""
        self._slots = asyncio.Semaphore(max_connections)
        self._closed = False

    def greatest(self, *values: Any) -> ColumnElement[Any]:
        return func.greatest(*values)

    async def run(self, call: Call[P, T], *args: P.args, **kwargs: P.kwargs) -> T:
        # The call runs whole on one connection, its statements awaited underneath.
        async with self._slots:
            conn = self._idle.pop() if self._idle else await self.engine.connect()
            try:
                result = await conn.run_sync(call, *args, **kwargs)
            except BaseException as exc:
                await self._after_failure(conn, exc)
                raise
            await self._give_back(conn)
            return result

    async def _after_failure(self, conn: AsyncConnection, exc: BaseException) -> None:
        """A call failed on ``conn``: an error of the call's own leaves it as it was (its
        transaction rolled back); anything else may have left it half way, and a lost
        connection means the server's others are lost too, so they are let go."""
        if isinstance(exc, Exception) and not isinstance(exc, sa_exc.DBAPIError):
            await self._give_back(conn)
            return
        lost = conn.invalidated
        await _let_go(conn)
        if lost:
            idle, self._idle = self._idle, []
            for other in idle:
                await _let_go(other)

    async def _give_back(self, conn: AsyncConnection) -> None:
        if self._closed:
            await conn.close()
        else:
            self._idle.append(conn)

    async def close(self) -> None:
        self._closed = True
        idle, self._idle = self._idle, []
        for conn in idle:
            await conn.close()
        await self.engine.dispose()

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

    def lock(self, conn: Connection, key: str, *, shared: bool = False) -> None:
        how = "pg_advisory_xact_lock_shared" if shared else "pg_advisory_xact_lock"
        conn.execute(text(f"SELECT {how}(hashtextextended(:key, 0))"), {"key": key})

    def schema_number(self, conn: Connection) -> int:
        found = conn.exec_driver_sql("SELECT to_regclass('shax_schema') IS NOT NULL")
        if not found.scalar_one():
            return 0
        value = conn.exec_driver_sql("SELECT version FROM shax_schema").scalar()
        return int(value or 0)

    def set_schema_number(self, conn: Connection, number: int) -> None:
        conn.exec_driver_sql(SCHEMA_TABLE)
        conn.exec_driver_sql("DELETE FROM shax_schema")
        conn.execute(text("INSERT INTO shax_schema (version) VALUES (:n)"), {"n": number})

    def after_import(self, conn: Connection, tables: list[str]) -> None:
        for table in tables:
            conn.execute(
                text(
                    "SELECT setval(pg_get_serial_sequence(:table, 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                ),
                {"table": table},
            )


async def _let_go(conn: AsyncConnection) -> None:
    """Close a connection that may be broken or half way through something."""
    await conn.invalidate()
    await conn.close()


def dialect_for(target: str | Path) -> Dialect:
    if is_postgres(target):
        return Postgres(str(target))
    return Sqlite(sqlite_path(target))
