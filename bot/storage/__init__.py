"""The bot's database: every SQL statement of the bot lives in this package.

One table definition and one statement per operation for both engines (SQLAlchemy
Core): SQLite, the default that needs no setup, and PostgreSQL for several bot
processes sharing one database, chosen by the target given to :meth:`Storage.open`.
A game is stored as its variant and record (the actions, space-separated) so it can
always be replayed and checked; its ``version`` grows with every change, and updates
say ``WHERE id = ? AND version = ?`` so a stale or concurrent change applies at most once.

* :mod:`.tables` — the tables (on :mod:`.columns`' metadata, with the tournaments' in
  :mod:`.tournament_tables`); :mod:`.rows` — the rows and their vocabularies
  (:mod:`.puzzle_rows` the puzzles');
* :mod:`.store` — :class:`Storage`, which opens the database and holds its one statement
  runner (:mod:`.runner`) and the repositories over it: ``storage.games``,
  ``.challenges``, ``.standings``, ``.ratings``, ``.puzzles``, ``.clock``, ``.settings``
  (the ``*_store`` modules; the statements they share in :mod:`.statements`);
  :mod:`.dialects` — what differs between the engines (connections, transactions and
  locks, upserts);
* :mod:`.migrations` — the schema's history (Alembic), applied on opening;
* :mod:`.base` — the errors, and database URLs without their secrets;
* :mod:`.checks` — the start-up checks of a SQLite file;
* :mod:`.copy` — copying a SQLite file into PostgreSQL, verified;
* :mod:`.backup` — online backups of the SQLite file, daily ones with retention.

It stores the standings (:mod:`bot.standings`) it is handed and imports nothing from
the service: the streak rule is the service's.
"""

from bot.standings import Rating, Standings, StoredRating
from bot.storage import rows
from bot.storage.base import ChallengeTaken, ChannelTaken, StorageError
from bot.storage.checks import DatabaseLocked
from bot.storage.migrations import SCHEMA_VERSION
from bot.storage.puzzle_rows import (
    AttemptRow,
    AttemptStatus,
    DailyResults,
    DailyRow,
    Ended,
    NewPuzzle,
    PuzzleRow,
    Rate,
    Solver,
)
from bot.storage.rows import *  # noqa: F403 - the values of rows.__all__
from bot.storage.store import Storage

__all__ = [
    "SCHEMA_VERSION",
    "AttemptRow",
    "AttemptStatus",
    "ChallengeTaken",
    "ChannelTaken",
    "DailyResults",
    "DailyRow",
    "DatabaseLocked",
    "Ended",
    "NewPuzzle",
    "PuzzleRow",
    "Rate",
    "Rating",
    "Solver",
    "Standings",
    "Storage",
    "StorageError",
    "StoredRating",
]
__all__ += rows.__all__
