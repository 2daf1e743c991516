"""The tables, defined once for both engines (SQLAlchemy Core).

Each engine stores a value its own way, and the column types say how: a moment is a
``timestamptz`` on PostgreSQL and seconds since the epoch (``REAL``) on SQLite, as
:class:`Moment`; a flag is a ``boolean`` or 0/1; a Discord id a ``bigint`` (SQLite's
``INTEGER`` holds 64 bits, and a key ``INTEGER`` is the row id). The migrations in
:mod:`bot.storage.migrations` create exactly these tables, each migration writing out its
own shapes (``tests/bot/storage/test_schema.py`` compares the two).
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Identity,
    Index,
    Integer,
    Table,
    Text,
    false,
    text,
)
from sqlalchemy.types import TypeEngine

from bot.standings import TALLY_FIELDS
from bot.storage.columns import Id as Id
from bot.storage.columns import Moment as Moment
from bot.storage.columns import metadata as metadata
from bot.storage.puzzle_rows import AttemptStatus
from bot.storage.rows import AiColor, ChallengeStatus, GameResult, GameStatus


def _row_and_place() -> tuple[Column[Any], ...]:
    """A game's or a challenge's id, and where it is: the server (none in DMs), the
    channel or thread, and a thread's parent channel."""
    return (
        Column("id", Id, Identity(), primary_key=True),
        Column("guild_id", Id),
        Column("channel_id", Id, nullable=False),
        Column("parent_channel_id", Id),
    )


def _one_of(name: str, words: type[StrEnum], default: StrEnum | None = None) -> Column[Any]:
    """A column holding one of ``words`` (checked by the database); with a ``default``
    it is never empty, without one it may be."""
    listed = ", ".join(f"'{word.value}'" for word in words)
    return Column(
        name,
        Text,
        CheckConstraint(f"{name} IN ({listed})"),
        nullable=default is None,
        server_default=None if default is None else default.value,
    )


def _per_server(**keys: TypeEngine[Any]) -> tuple[Column[Any], ...]:
    """The key of a row kept per server (``guild_id`` 0 outside one), then ``keys``."""
    return (
        Column("guild_id", Id, primary_key=True),
        *(Column(name, kind, primary_key=True) for name, kind in keys.items()),
    )


def _player(role: str) -> tuple[Column[Any], ...]:
    """A player's id and the name shown (``white``, ``challenger``…)."""
    return Column(f"{role}_id", Id, nullable=False), Column(f"{role}_name", Text, nullable=False)


games = Table(
    "games",
    metadata,
    *_row_and_place(),
    Column("variant", Text, nullable=False),
    Column("record", Text, nullable=False, server_default=""),
    *_player("white"),
    *_player("black"),
    Column("ai_level", Text),
    _one_of("ai_color", AiColor),
    _one_of("status", GameStatus, GameStatus.ACTIVE),
    _one_of("result", GameResult),
    Column("termination", Text),
    Column("version", Integer, nullable=False, server_default="0"),
    Column("draw_offered_by", Id),
    Column("warned", Boolean(create_constraint=False), nullable=False, server_default=false()),
    Column("board_message_id", Id),
    Column("rematch_of", Id, ForeignKey("games.id")),
    Column("created_at", Moment, nullable=False),
    Column("updated_at", Moment, nullable=False),
    Column("turn_started_at", Moment, nullable=False),
    Column("ended_at", Moment),
    Column("shown_version", Integer, nullable=False, server_default="0"),
    Index(
        "games_one_active_per_channel",
        "channel_id",
        unique=True,
        sqlite_where=text("status = 'active'"),
        postgresql_where=text("status = 'active'"),
    ),
    Index("games_status", "status"),
    Index("games_unshown", "status", "shown_version", "version"),
)

OPEN = text("status = 'open'")
OPEN_CHALLENGE = text("status = 'open' AND rematch_of IS NULL")
"""A challenge sent with /shax challenge (not a rematch's), still open."""

challenges = Table(
    "challenges",
    metadata,
    *_row_and_place(),
    *_player("challenger"),
    *_player("opponent"),
    Column("variant", Text, nullable=False),
    _one_of("status", ChallengeStatus, ChallengeStatus.OPEN),
    Column("rematch_of", Id, ForeignKey("games.id")),
    Column("game_id", Id, ForeignKey("games.id")),
    Column("message_id", Id),
    Column("created_at", Moment, nullable=False),
    Column("expires_at", Moment, nullable=False),
    Column("resolved_at", Moment),
    Index("challenges_open", "status", "expires_at"),
    Index(
        "challenges_one_open_per_pair",
        "channel_id",
        "challenger_id",
        "opponent_id",
        unique=True,
        sqlite_where=OPEN_CHALLENGE,
        postgresql_where=OPEN_CHALLENGE,
    ),
    Index(
        "challenges_one_open_rematch",
        "rematch_of",
        unique=True,
        sqlite_where=OPEN,
        postgresql_where=OPEN,
    ),
)

tallies = Table(
    "tallies",
    metadata,
    *_per_server(user_id=Id, kind=Text()),
    Column("name", Text, nullable=False),
    *(Column(name, Integer, nullable=False, server_default="0") for name in TALLY_FIELDS),
)

series = Table(
    "series",
    metadata,
    *_per_server(a=Text(), b=Text()),
    Column("holder", Text),
    Column("stones", Integer, nullable=False, server_default="0"),
    Column("last_white", Text),
    Column("last_winner", Text),
    Column("games", Integer, nullable=False, server_default="0"),
    CheckConstraint("a < b"),
)


def _key_values(name: str, *owner: str) -> Table:
    """A small key-value table: names and their values, per ``owner`` (a server, a
    player) or for the bot itself."""
    return Table(
        name,
        metadata,
        *(Column(column, Id, primary_key=True) for column in owner),
        Column("key", Text, primary_key=True),
        Column("value", Text, nullable=False),
    )


meta = _key_values("meta")
"""The bot's own facts (the hash of the commands registered with Discord)."""
guild_settings = _key_values("guild_settings", "guild_id")
player_prefs = _key_values("player_prefs", "user_id")

hints = Table(
    "hints",
    metadata,
    Column("game_id", Id, ForeignKey("games.id"), primary_key=True),
    Column("used", Integer, nullable=False, server_default="0"),
)


GLICKO = ("rating", "deviation", "volatility")
"""A Glicko-2 rating's three numbers, as columns are named (with a suffix in a rated
game's row: ``rating_before``)."""


def _glicko(suffix: str = "") -> tuple[Column[Any], ...]:
    """A Glicko-2 rating's three numbers (empty for a player never rated)."""
    return tuple(Column(f"{name}{suffix}", Float) for name in GLICKO)


ratings = Table(
    "ratings",
    metadata,
    *_per_server(user_id=Id, family=Text()),
    Column("name", Text, nullable=False),
    *_glicko(),
    Column("games", Integer, nullable=False, server_default="0"),
    Column("best", Float),
    Column("rated_at", Moment),
    Index("ratings_ranked", "guild_id", "family", "rating"),  # a server's leaderboard
)
"""Each person's rating per server and variant family (``"shax"``: shax and shax-small)."""

game_ratings = Table(
    "game_ratings",
    metadata,
    Column("game_id", Id, ForeignKey("games.id"), primary_key=True),
    Column("user_id", Id, primary_key=True),
    Column("guild_id", Id, nullable=False),
    Column("family", Text, nullable=False),
    *_glicko("_before"),
    *_glicko(),
    Index("game_ratings_by_player", "guild_id", "family", "user_id"),  # a player's history
)
"""A rated game's rating of each person in it, before and after: the history a player's
rating is drawn from, and what recomputing the ratings from the games must give again."""

puzzles = Table(
    "puzzles",
    metadata,
    Column("id", Id, Identity(), primary_key=True),
    Column("variant", Text, nullable=False),
    Column("record", Text, nullable=False),
    Column("solution", Text, nullable=False),
    Column("moves", Integer, nullable=False),
    Column("depth", Integer, nullable=False),
    Column("tempting", Integer, nullable=False),
    *_glicko(),
    Column("tries", Integer, nullable=False, server_default="0"),
    Column("solves", Integer, nullable=False, server_default="0"),
    Column("themes", Text, nullable=False, server_default=""),
    Index("puzzles_one_per_position", "variant", "record", unique=True),
    Index("puzzles_by_rating", "variant", "rating"),
)
"""The puzzles (:mod:`engine.tables.puzzles`), each with its own puzzle rating and its
themes (:class:`engine.tables.puzzles.PuzzleTheme` ids, space-separated)."""

puzzle_solvers = Table(
    "puzzle_solvers",
    metadata,
    Column("user_id", Id, primary_key=True),
    Column("name", Text, nullable=False),
    *_glicko(),
    Column("rated_at", Moment),
    Column("solved", Integer, nullable=False, server_default="0"),
    Column("failed", Integer, nullable=False, server_default="0"),
    Column("streak", Integer, nullable=False, server_default="0"),
    Column("best", Integer, nullable=False, server_default="0"),
)
"""A player's puzzle rating (apart from games) and puzzle streak."""

daily_puzzles = Table(
    "daily_puzzles",
    metadata,
    Column("id", Id, Identity(), primary_key=True),
    Column("guild_id", Id, nullable=False),
    Column("day", Text, nullable=False),
    Column("puzzle_id", Id, ForeignKey("puzzles.id"), nullable=False),
    Column("channel_id", Id, nullable=False),
    Column("message_id", Id),
    Column("claimed_at", Moment, nullable=False),
    Index("daily_puzzles_one_a_day", "guild_id", "day", unique=True),
)
"""A server's puzzle of the day: the row is the claim (one per server and day, whichever
process makes it first), ``message_id`` once it is posted."""

OPEN_ATTEMPT = text("status = 'open'")

puzzle_attempts = Table(
    "puzzle_attempts",
    metadata,
    Column("id", Id, Identity(), primary_key=True),
    Column("user_id", Id, nullable=False),
    Column("puzzle_id", Id, ForeignKey("puzzles.id"), nullable=False),
    Column("daily_id", Id, ForeignKey("daily_puzzles.id")),
    Column("played", Text, nullable=False, server_default=""),
    _one_of("status", AttemptStatus, AttemptStatus.OPEN),
    Column("rated", Boolean(create_constraint=False), nullable=False),
    Column("wrong", Text),
    Column("version", Integer, nullable=False, server_default="0"),
    Column("started_at", Moment, nullable=False),
    Column("ended_at", Moment),
    Column("guild_id", Id),
    Column("theme", Text),
    Index(
        "puzzle_attempts_one_open",
        "user_id",
        unique=True,
        sqlite_where=OPEN_ATTEMPT,
        postgresql_where=OPEN_ATTEMPT,
    ),
    Index("puzzle_attempts_by_player", "user_id", "puzzle_id"),
    Index("puzzle_attempts_of_daily", "daily_id", "status"),
    Index("puzzle_attempts_by_server", "guild_id", "user_id"),
)
"""Each try of a puzzle by a player: the actions played so far (the defence's among
them), how it ended, the server it was asked on (``None`` in DMs and before
migration 8): a server's puzzle leaderboard lists the players who tried one there; and
the theme the player chose for it (a :class:`~engine.tables.puzzles.PuzzleTheme` id,
``None``: none), which the next puzzle keeps."""

clock_runs = Table(
    "clock_runs",
    metadata,
    Column("clock", Text, primary_key=True),
    Column("ran_at", Moment, nullable=False),
)
"""When each clock last ran, by the servers it runs for (``"all"``, or a process's shards
such as ``"0,1 of 4"``): the turn clocks count only while the bot runs, and a turn gets
back the time between a clock's last run and its next (:mod:`bot.service.clock`)."""

from bot.storage import tournament_tables  # noqa: E402, F401 - its tables, after the games

TABLES: dict[str, tuple[str, ...]] = {
    # Every table, in the order defined (each after those it refers to), and its key
    # columns (the order a copy reads and compares rows in).
    name: tuple(c.name for c in table.primary_key.columns)
    for name, table in metadata.tables.items()
}

NUMBERED = tuple(
    name for name, table in metadata.tables.items() if "id" in table.c and table.c.id.identity
)
"""The tables whose rows are numbered by the database (a copy continues their numbers)."""
