"""Backups of the SQLite file with SQLite's online backup API: a consistent copy, safe to
take while the bot runs (in WAL mode the bot keeps writing meanwhile). To restore, stop
the bot and put the backup in the database's place.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sqlite3
from collections.abc import Callable
from contextlib import closing, suppress
from datetime import UTC, datetime, timedelta
from pathlib import Path

from bot.storage.base import StorageError
from bot.storage.checks import is_not_sqlite

log = logging.getLogger(__name__)


def backup(source: Path, destination: Path) -> Path:
    """Copy the database ``source`` to ``destination`` (a new file; in a folder, a file
    named after the moment) and check the copy; returns the file written.

    The database is opened through SQLite only, never as a plain file: the bot calls this
    in its own process, where closing a plain descriptor of ``source`` would drop the
    bot's locks on it (see :func:`bot.storage.checks.check_file`)."""
    if not source.is_file():
        raise StorageError(f"There is no database at {source} to back up: check SHAX_DB_PATH.")
    if destination.is_dir():
        destination = destination / backup_name(datetime.now(UTC).strftime(STAMP))
    if destination.exists():
        raise StorageError(
            f"{destination} already exists: name a new file (a backup never overwrites one)."
        )
    folder = destination.parent if str(destination.parent) else Path(".")
    if not folder.is_dir():
        raise StorageError(f"The folder {folder} does not exist: create it or name another.")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise unwritable(destination, "read-only")
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
        if is_not_sqlite(exc):
            raise StorageError(
                f"{source} is not a SQLite database, so it cannot be backed up."
            ) from None
        if getattr(exc, "sqlite_errorname", "") in WRITE_FAILURES:
            raise unwritable(destination, str(exc)) from None
        raise StorageError(f"The backup of {source} to {destination} failed ({exc}).") from None
    except OSError as exc:
        raise unwritable(destination, exc.strerror or str(exc)) from None
    finally:
        with suppress(OSError):  # a read-only or full place may not even let it go
            partial.unlink(missing_ok=True)
    return destination


# SQLite's words for a destination it could not create or fill.
WRITE_FAILURES = frozenset(
    {"SQLITE_CANTOPEN", "SQLITE_READONLY", "SQLITE_FULL", "SQLITE_IOERR", "SQLITE_IOERR_WRITE"}
)


def unwritable(destination: Path, why: str) -> StorageError:
    return StorageError(
        f"The backup could not be written to {destination} ({why}): "
        "choose a writable place with room."
    )


def backup_name(stamp: str) -> str:
    return f"shax-{stamp}.db"


STAMP = "%Y%m%d-%H%M%S"


class DailyBackups:
    """A backup of the SQLite file a day into ``folder``, keeping the newest ``keep``.

    The bot calls :meth:`tick` with its clock tick; the moment of each backup is in its
    name (``shax-20240501-120000.db``), so a restart neither repeats nor skips a day.
    """

    def __init__(
        self,
        source: Path,
        folder: Path,
        keep: int,
        clock: Callable[[], datetime],
        every: timedelta = timedelta(days=1),
    ) -> None:
        self.source, self.folder, self.keep, self.clock, self.every = (
            source,
            folder,
            keep,
            clock,
            every,
        )
        self.failure_logged: datetime | None = None

    def existing(self) -> list[tuple[datetime, Path]]:
        """The backups in the folder, oldest first."""
        found = []
        for path in self.folder.glob(backup_name("*")):
            try:
                stamp = datetime.strptime(path.name[5:-3], STAMP).replace(tzinfo=UTC)
            except ValueError:
                continue  # not one of ours
            found.append((stamp, path))
        return sorted(found)

    def due(self) -> bool:
        backups = self.existing()
        return not backups or self.clock() - backups[-1][0] >= self.every

    def run(self) -> Path | None:
        """Make today's backup if it is due and drop the oldest beyond ``keep``."""
        if not self.due():
            return None
        self.folder.mkdir(parents=True, exist_ok=True)
        written = backup(self.source, self.folder / backup_name(self.clock().strftime(STAMP)))
        for _, old in self.existing()[: -self.keep]:
            old.unlink(missing_ok=True)
        return written

    async def tick(self) -> None:
        """:meth:`run` off the event loop. A failure never stops anything else: it is
        logged once a day (not at every tick), the games go on, and a later tick tries
        again."""
        try:
            written = await asyncio.to_thread(self.run)
        except (StorageError, OSError, sqlite3.Error) as exc:
            now = self.clock()
            if self.failure_logged is None or now - self.failure_logged >= self.every:
                self.failure_logged = now
                log.warning("daily backup failed: %s (said again in a day if it still fails)", exc)
            return
        self.failure_logged = None
        if written is not None:
            log.info("backed up the database to %s", written)
