"""Backups of the SQLite file with SQLite's online backup API: a consistent copy, safe to
take while the bot runs (in WAL mode the bot keeps writing meanwhile). To restore, stop
the bot and put the backup in the database's place.
"""

from __future__ import annotations

import os
import sqlite3
from contextlib import closing
from datetime import UTC, datetime
from pathlib import Path

from bot.storage.base import StorageError
from bot.storage.checks import SQLITE_HEADER


def backup(source: Path, destination: Path) -> Path:
    """Copy the database ``source`` to ``destination`` (a new file; in a folder, a file
    named after the moment) and check the copy; returns the file written."""
    if not source.is_file():
        raise StorageError(f"There is no database at {source} to back up: check SHAX_DB_PATH.")
    with source.open("rb") as raw:
        if raw.read(len(SQLITE_HEADER)) != SQLITE_HEADER:
            raise StorageError(f"{source} is not a SQLite database, so it cannot be backed up.")
    if destination.is_dir():
        destination = destination / backup_name(datetime.now(UTC).strftime("%Y%m%d-%H%M%S"))
    if destination.exists():
        raise StorageError(
            f"{destination} already exists: name a new file (a backup never overwrites one)."
        )
    folder = destination.parent if str(destination.parent) else Path(".")
    if not folder.is_dir():
        raise StorageError(f"The folder {folder} does not exist: create it or name another.")
    partial = destination.with_name(destination.name + ".partial")
    try:
        with closing(sqlite3.connect(source)) as src, closing(sqlite3.connect(partial)) as dst:
            src.backup(dst)
            problems = [str(r[0]) for r in dst.execute("PRAGMA quick_check")]
        if problems != ["ok"]:
            raise StorageError(
                f"The backup of {source} failed its check ({problems[0]}): the database "
                "itself may be damaged; restore an earlier backup."
            )
        os.replace(partial, destination)
    except sqlite3.DatabaseError as exc:
        raise StorageError(f"The backup of {source} to {destination} failed ({exc}).") from None
    except OSError as exc:
        raise StorageError(
            f"The backup could not be written to {destination} ({exc.strerror}): "
            "choose a writable place with room."
        ) from None
    finally:
        partial.unlink(missing_ok=True)
    return destination


def backup_name(stamp: str) -> str:
    return f"shax-{stamp}.db"
