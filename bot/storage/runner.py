"""The one statement runner of an open database, which every repository holds: a
statement or a function of a connection run where the engine runs it (one trip), and
transactions holding their lock. Repositories (:mod:`bot.storage.store` lists them) are
plain classes over a :class:`Runner`; this is their whole view of the database."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Concatenate, ParamSpec, TypeVar

from sqlalchemy import Connection, RowMapping, Table
from sqlalchemy.sql.elements import ColumnElement

from bot.storage.dialects import Dialect

T = TypeVar("T")
P = ParamSpec("P")


def rows_of(conn: Connection, statement: Any, values: dict[str, Any]) -> list[RowMapping]:
    """One statement's rows on ``conn`` (empty for a statement that returns none)."""
    result = conn.execute(statement, values)
    return list(result.mappings()) if result.returns_rows else []


class Runner:
    """Running statements and transactions on one database (a :class:`Dialect`)."""

    def __init__(self, dialect: Dialect) -> None:
        self._d = dialect
        self.where = dialect.where
        """The database, for messages: the SQLite file or the URL without its secrets."""
        self.engine = dialect.name
        """``"sqlite"`` or ``"postgresql"``."""
        self.insert = dialect.insert
        """The engine's ``INSERT`` (with ``on_conflict_do_nothing``/``…_do_update``)."""

    async def run(
        self, call: Callable[Concatenate[Connection, P], T], *args: P.args, **kwargs: P.kwargs
    ) -> T:
        """``call(connection, *args)``, whole, in one trip to the database; each statement
        it makes commits on its own."""
        return await self._d.run(call, *args, **kwargs)

    async def rows(self, statement: Any, **values: Any) -> list[RowMapping]:
        """One statement on its own (committed when it returns), and its rows."""
        return await self._d.run(rows_of, statement, values)

    async def row(self, statement: Any, **values: Any) -> RowMapping | None:
        """One statement on its own, and its first row (``None`` without one)."""
        found = await self._d.run(rows_of, statement, values)
        return found[0] if found else None

    async def transaction(self, body: Callable[[Connection], T], lock: str | None = None) -> T:
        """``body(connection)`` in one transaction holding the write lock (SQLite) or
        ``lock`` (PostgreSQL, an advisory lock): committed at the end, rolled back if
        anything raises (the exception passes on)."""

        def whole(conn: Connection) -> T:
            conn.exec_driver_sql(self._d.begin)
            try:
                if lock is not None:
                    self._d.lock(conn, lock)
                value = body(conn)
            except BaseException:
                conn.exec_driver_sql("ROLLBACK")
                raise
            conn.exec_driver_sql("COMMIT")
            return value

        return await self._d.run(whole)

    def lock(self, conn: Connection, key: str, *, shared: bool = False) -> None:
        """In a transaction: hold ``key`` until it ends (for rows that may not exist
        yet); ``shared``, beside other shared holders, keeping out only a sole one."""
        self._d.lock(conn, key, shared=shared)

    def upsert(self, table: Table, **values: Any) -> Any:
        """Insert a row, or change the existing one with the same primary key."""
        statement = self.insert(table).values(**values)
        keys = [c.name for c in table.primary_key.columns]
        changed = {k: statement.excluded[k] for k in values if k not in keys}
        return statement.on_conflict_do_update(index_elements=keys, set_=changed)

    def new_row(self, table: Table, **values: Any) -> Any:
        """Insert a row unless a unique key holds it already: the new row, or nothing."""
        return self.insert(table).values(**values).on_conflict_do_nothing().returning(*table.c)

    def greatest(self, *values: Any) -> ColumnElement[Any]:
        """The greatest of ``values`` (SQLite's ``max``, PostgreSQL's ``greatest``)."""
        return self._d.greatest(*values)
