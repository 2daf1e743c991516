"""Start-up checks of the database: one sentence naming the file and what to do.

A file that is not SQLite, a damaged one (``PRAGMA quick_check``), a read-only one, or a
schema newer than this bot stop ``python -m bot`` and the console before anything runs,
rather than later, as "Something went wrong" on every command. A file another program
holds locked is waited for a while (:class:`DatabaseLocked`), then refused the same way.
"""

from __future__ import annotations

import os
from pathlib import Path

from bot.storage.base import StorageError


def check_file(path: Path) -> None:
    """Refuse, before SQLite touches it, a database file that this process could not write
    (the file, or its folder, where the journal lives).

    The file itself is never opened here: closing any descriptor of a file drops every
    POSIX lock this process holds on it, SQLite's among them, and then another process
    may take the bot's write-ahead log for its own and delete it. Whether the file is
    SQLite at all is SQLite's to say (:func:`not_sqlite`)."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.exists() and not os.access(path, os.W_OK):
        raise read_only(path)
    if not os.access(folder, os.W_OK | os.X_OK):
        raise read_only(path)


class DatabaseLocked(StorageError):
    """Another program holds the database's write lock (another bot on the same file, a
    ``sqlite3`` shell in a transaction) longer than SQLite waits for it."""

    def __init__(self, path: Path) -> None:
        super().__init__(
            f"The database {path} is locked by another program: stop the other program "
            "using it (another bot on the same file, or a sqlite3 shell in a transaction), "
            "then start the bot again."
        )
        self.path = path


def is_busy(exc: BaseException) -> bool:
    """SQLite's own word that another connection holds a lock it needs."""
    return getattr(exc, "sqlite_errorname", "").startswith(("SQLITE_BUSY", "SQLITE_LOCKED"))


def is_not_sqlite(exc: BaseException) -> bool:
    """SQLite's own word that a file is not a database (``SQLITE_NOTADB``)."""
    return getattr(exc, "sqlite_errorname", "") == "SQLITE_NOTADB"


def not_sqlite(path: Path) -> StorageError:
    return StorageError(
        f"{path} is not a SQLite database: restore the bot's database from a backup, "
        "or set SHAX_DB_PATH to another file."
    )


def read_only(path: Path) -> StorageError:
    return StorageError(
        f"The database {path} is read-only: let the bot's user write the file and its "
        "folder (chmod/chown), or copy it somewhere writable and set SHAX_DB_PATH."
    )


def damaged(path: Path, detail: str) -> StorageError:
    detail = " ".join(detail.replace("*** in database main ***", "").split())[:120]
    return StorageError(
        f"The database {path} is damaged ({detail}): restore it from a backup "
        "(made with python -m bot backup), or move it away to start afresh."
    )
