"""Copying a whole database into another, empty one (``python -m bot migrate``), then
reading every row back to prove the copy: same tables, same counts, same contents."""

from __future__ import annotations

from pathlib import Path

from bot.storage.base import SQLITE_PREFIX, StorageError, is_postgres, sqlite_path
from bot.storage.store import Storage
from bot.storage.tables import TABLES


async def copy_database(source: Storage, target: Storage) -> dict[str, int]:
    """Copy every table of ``source`` into the empty ``target`` in one transaction, keeping
    ids, and verify it row by row; the number of rows copied, by table."""
    for table in TABLES:
        if await target.export_rows(table):
            raise StorageError(
                f"The database {target.where} already holds {table}: copy into an empty "
                "database (a new one, or drop the bot's tables there first)."
            )
    rows = {table: await source.export_rows(table) for table in TABLES}
    await target.import_rows(rows)
    for table, expected in rows.items():
        copied = await target.export_rows(table)
        if len(copied) != len(expected):
            raise StorageError(
                f"The copy in {target.where} has {len(copied)} rows of {table} where "
                f"{source.where} has {len(expected)}: drop the copied tables and run it again."
            )
        for before, after in zip(expected, copied, strict=True):
            if before != after:
                key = {k: before[k] for k in TABLES[table]}
                raise StorageError(
                    f"The copy of {table} {key} in {target.where} differs from "
                    f"{source.where}: drop the copied tables and run it again."
                )
    return {table: len(found) for table, found in rows.items()}


async def migrate(source: Path, target: str) -> dict[str, int]:
    """Copy the SQLite file ``source`` into the database ``target`` (see
    :func:`copy_database`); one-sentence :class:`StorageError` for what cannot be done."""
    if not is_postgres(target) and not target.lower().startswith(SQLITE_PREFIX):
        raise StorageError(
            "--to must be a PostgreSQL URL (postgresql://user:password@host/database) "
            "or a new SQLite file (sqlite:///path)."
        )
    if not source.is_file():
        raise StorageError(
            f"There is no SQLite database at {source}: name the file to copy with --from "
            "(or set SHAX_DB_PATH)."
        )
    if not is_postgres(target) and sqlite_path(target).resolve() == source.resolve():
        raise StorageError(f"The copy would overwrite its source {source}: name another target.")
    old = await Storage.open(source)
    try:
        new = await Storage.open(target)
        try:
            return await copy_database(old, new)
        finally:
            await new.close()
    finally:
        await old.close()
