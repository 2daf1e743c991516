"""The schema's history: Alembic migrations, one history for both engines, applied by the
bot itself when it opens its database (no ``alembic.ini``; the versions ship in the
package).

Migration ``n`` (``versions/000n_….py``) takes a database from schema version ``n - 1``
to ``n``. Each is frozen: it writes out the tables, columns and indexes it makes as they
were then (never today's :mod:`bot.storage.tables`, which may have grown since), and
what only data can do (filling a new column, closing duplicates before a unique index)
over lightweight ``table()`` views of the columns it reads. A new migration is a new file
of the same kind; ``tests/bot/storage/test_schema.py`` checks that the history and the
tables agree. ``env.py`` runs the history on the bot's own connection and transaction.

Alembic keeps its history in ``shax_migrations`` (so another application's Alembic in
the same database is never mistaken for ours), and the number of the schema is also
kept where bots before Alembic kept it (see :mod:`bot.storage.dialects`), so that an
older bot refuses a newer database.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, inspect

from bot.storage.base import StorageError
from bot.storage.tables import TABLES

HERE = Path(__file__).resolve().parent
VERSION_TABLE = "shax_migrations"
SCHEMA_VERSION = len(list((HERE / "versions").glob("[0-9][0-9][0-9][0-9]_*.py")))
"""The schema this bot writes: the number of its migrations."""


def revision(number: int) -> str:
    return f"{number:04d}"


def upgrade(conn: Connection, number: int, where: str) -> None:
    """Bring the database (at schema ``number``, as its engine's marker says) to
    :data:`SCHEMA_VERSION`, inside the caller's transaction; a database that is newer,
    or holds tables this bot did not make, is a :class:`StorageError` and is left alone."""
    if number > SCHEMA_VERSION:
        raise StorageError(
            f"The database {where} has schema version {number}, newer than this bot's "
            f"{SCHEMA_VERSION}: upgrade the bot, or restore a backup made by this one."
        )
    context = MigrationContext.configure(conn, opts={"version_table": VERSION_TABLE})
    if not context.get_current_heads():
        if number == 0:
            refuse_foreign_tables(conn, where)
        else:
            # Written before the history was Alembic's: it starts where the number says.
            command.stamp(alembic_config(conn), revision(number))
    migrate(conn)


def alembic_config(conn: Connection) -> Config:
    """Alembic's configuration for running the history on ``conn`` (``env.py`` reads the
    connection from its attributes)."""
    config = Config()
    config.set_main_option("script_location", str(HERE).replace("%", "%%"))
    config.attributes["connection"] = conn
    return config


def migrate(conn: Connection, target: str = "head") -> None:
    """Run the migrations after the database's current revision up to ``target`` (a
    revision such as ``"0005"``), on ``conn``, inside its transaction."""
    command.upgrade(alembic_config(conn), target)


def refuse_foreign_tables(conn: Connection, where: str) -> None:
    """A database without the bot's schema that holds a table of one of its names belongs
    to someone else: say so, and change nothing."""
    found = sorted(set(inspect(conn).get_table_names()) & set(TABLES))
    if found:
        named = ", ".join(found)
        plural = "s" if len(found) > 1 else ""
        raise StorageError(
            f"The database {where} already holds a table{plural} named {named} that this "
            "bot did not make: give the bot a database of its own (another file, database "
            "or schema); nothing in this one was changed."
        )
