"""The bot's database: every SQL statement of the bot lives in this package.

Parameters only, never formatted values. Two engines behind one interface
(:class:`Storage`): SQLite, the default that needs no setup (:mod:`.sqlite`), and
PostgreSQL for several bot processes sharing one database (:mod:`.postgres`), chosen
by the target given to :meth:`Storage.open`. A game is stored as its variant and
record (the actions, space-separated) so it can always be replayed and checked; its
``version`` grows with every change, and updates say ``WHERE id = ? AND version = ?``
so a stale or concurrent change applies at most once.

* :mod:`.rows` — the rows and the vocabularies of their columns;
* :mod:`.schema` — numbered migrations, one list per engine;
* :mod:`.base` — the interface and its errors;
* :mod:`.sqlite`, :mod:`.postgres` — the two engines; :mod:`.settings` — the key-value
  tables (the bot's facts, server settings, player preferences), one SQL for both;
* :mod:`.checks` — the start-up checks of a SQLite file;
* :mod:`.copy` — copying a SQLite file into PostgreSQL, verified;
* :mod:`.backup` — online backups of the SQLite file, daily ones with retention.
"""

from bot.storage.base import ChannelTaken, Storage, StorageError
from bot.storage.rows import (
    AiColor,
    ChallengeRow,
    ChallengeStatus,
    Finished,
    GameResult,
    GameRow,
    GameStatus,
    LeaderboardOrder,
    NewChallenge,
    NewGame,
    PlayerResult,
    SeriesResult,
    Termination,
    series_keys,
)
from bot.storage.schema import MIGRATIONS, POSTGRES_MIGRATIONS, SCHEMA_VERSION, SQLITE_MIGRATIONS

__all__ = [
    "MIGRATIONS",
    "POSTGRES_MIGRATIONS",
    "SCHEMA_VERSION",
    "SQLITE_MIGRATIONS",
    "AiColor",
    "ChallengeRow",
    "ChallengeStatus",
    "ChannelTaken",
    "Finished",
    "GameResult",
    "GameRow",
    "GameStatus",
    "LeaderboardOrder",
    "NewChallenge",
    "NewGame",
    "PlayerResult",
    "SeriesResult",
    "Storage",
    "StorageError",
    "Termination",
    "series_keys",
]
