"""The bot's database: :class:`Storage` opens it (running pending migrations), holds its
one statement runner (:class:`~bot.storage.runner.Runner`) and the repositories composed
over it, and copies its rows whole. Every call is a repository's:

* ``storage.games`` — :class:`~bot.storage.game_store.GameStore` (games, hints, the reads
  beside a board);
* ``storage.challenges`` — :class:`~bot.storage.challenge_store.ChallengeStore`;
* ``storage.standings`` — :class:`~bot.storage.standings_store.StandingsStore` (tallies,
  series, leaderboards);
* ``storage.ratings`` — :class:`~bot.storage.rating_store.RatingStore`;
* ``storage.puzzles`` — :class:`~bot.storage.puzzle_store.PuzzleStore`;
* ``storage.clock`` — :class:`~bot.storage.clock_store.ClockStore`;
* ``storage.settings`` — :class:`~bot.storage.settings_store.SettingsStore` (the bot's
  facts, server settings, player preferences).

A repository holds the runner; one that writes in another's transaction (a game's finish
writes its standings and ratings) holds that one too and calls its public method.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, select

from bot.storage.base import check_table
from bot.storage.challenge_store import ChallengeStore
from bot.storage.clock_store import ClockStore
from bot.storage.dialects import MIGRATION_LOCK, Dialect, dialect_for
from bot.storage.game_store import GameStore
from bot.storage.migrations import SCHEMA_VERSION, upgrade
from bot.storage.puzzle_store import PuzzleStore
from bot.storage.rating_store import RatingStore
from bot.storage.runner import Runner
from bot.storage.settings_store import SettingsStore
from bot.storage.standings_store import StandingsStore
from bot.storage.tables import NUMBERED, TABLES, metadata


class Storage:
    """The bot's database. Open with :meth:`open`; close with :meth:`close`."""

    def __init__(self, dialect: Dialect) -> None:
        self._d = dialect
        self._closed = False
        self.runner = Runner(dialect)
        self.where = dialect.where
        """The database, for messages: the SQLite file or the URL without its secrets."""
        self.engine = dialect.name
        self.standings = StandingsStore(self.runner)
        self.ratings = RatingStore(self.runner)
        self.games = GameStore(self.runner, self.standings, self.ratings)
        self.challenges = ChallengeStore(self.runner)
        self.puzzles = PuzzleStore(self.runner)
        self.clock = ClockStore(self.runner)
        self.settings = SettingsStore(self.runner)

    @classmethod
    async def open(cls, target: str | Path) -> Storage:
        """Open (or create) the database ``target`` and run pending migrations: a SQLite
        file (a path or ``sqlite:///path``) or a PostgreSQL server (``postgresql://…``).
        Raises :class:`~bot.storage.base.StorageError` if it cannot be used."""
        dialect = dialect_for(target)
        await dialect.open()
        storage = cls(dialect)
        try:
            await storage._migrate()
        except BaseException as exc:
            await dialect.close()
            locked = dialect.locked(exc)
            if locked is not None:
                raise locked from None
            raise
        return storage

    async def _migrate(self) -> None:
        def migrate(conn: Connection) -> None:
            number = self._d.schema_number(conn)
            if number != SCHEMA_VERSION:
                upgrade(conn, number, self.where)
                self._d.set_schema_number(conn, SCHEMA_VERSION)

        await self.runner.transaction(migrate, MIGRATION_LOCK)

    async def close(self) -> None:
        """Close the connections (a second call does nothing)."""
        if not self._closed:
            self._closed = True
            await self._d.close()

    async def schema_version(self) -> int:
        return await self.runner.run(self._d.schema_number)

    # -- copying a whole database ----------------------------------------------------

    async def export_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of :data:`bot.storage.tables.TABLES`, in key order, as plain
        values (moments as aware datetimes, flags as bools)."""
        found = metadata.tables[check_table(table)]
        order = [found.c[name] for name in TABLES[table]]
        return [dict(r) for r in await self.runner.rows(select(found).order_by(*order))]

    async def import_rows(self, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        """Insert rows (as :meth:`export_rows` gives them) into empty tables, keeping their
        ids, in one transaction."""

        def copy(conn: Connection) -> None:
            for name, rows in tables.items():
                if rows:
                    conn.execute(metadata.tables[check_table(name)].insert(), list(rows))
            self._d.after_import(conn, list(NUMBERED))

        await self.runner.transaction(copy)
