"""What every table is built from: the one :class:`MetaData` the tables are defined on (in
:mod:`bot.storage.tables` and :mod:`bot.storage.tournament_tables`), the 64-bit id, and the
aware moment."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, Dialect, Float, Integer, MetaData
from sqlalchemy.types import TypeDecorator, TypeEngine

Id = BigInteger().with_variant(Integer(), "sqlite")
"""A Discord id or a row id: 64 bits on both engines."""


class Moment(TypeDecorator[datetime]):
    """An aware moment: ``timestamptz`` on PostgreSQL, seconds since the epoch on SQLite."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        if dialect.name == "sqlite":
            return dialect.type_descriptor(Float())
        return dialect.type_descriptor(DateTime(timezone=True))

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> Any:
        if value is not None and dialect.name == "sqlite":
            return value.timestamp()
        return value

    def process_result_value(self, value: Any, dialect: Dialect) -> datetime | None:
        if value is None or isinstance(value, datetime):
            return value
        return datetime.fromtimestamp(float(value), UTC)


metadata = MetaData()
