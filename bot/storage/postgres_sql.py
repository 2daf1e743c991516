"""PostgreSQL's statements: the column lists, row conversions and the locked reads and
writes made inside a transaction, for :mod:`bot.storage.postgres`."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, TypeAlias

import asyncpg

from bot.service.streaks import Series, Tally
from bot.storage.base import ChannelTaken
from bot.storage.rows import (
    GAME_COLUMNS,
    NEW_GAME_COLUMNS,
    TALLY_COLUMNS,
    ChallengeRow,
    GameRow,
    LeaderboardOrder,
    NewGame,
    PlayerResult,
    challenge_row,
    game_row,
    tally_of,
)

LEADERBOARD_ORDER = {
    LeaderboardOrder.STREAK: ("streak", "streak DESC, wins DESC"),
    LeaderboardOrder.BEST: ("best", "best DESC, wins DESC"),
}
if TYPE_CHECKING:
    from asyncpg.pool import PoolConnectionProxy

    Conn: TypeAlias = PoolConnectionProxy[asyncpg.Record]


def numbered(sql: str) -> str:
    """``?`` placeholders as PostgreSQL's ``$1``, ``$2``… (the SQL holds no other ``?``)."""
    parts = sql.split("?")
    return "".join(f"{part}${i}" for i, part in enumerate(parts[:-1], 1)) + parts[-1]


def game_from(row: asyncpg.Record) -> GameRow:
    return game_row(dict(row))


def challenge_from(row: asyncpg.Record) -> ChallengeRow:
    return challenge_row(dict(row))


async def insert_game(conn: Conn, new: NewGame, now: datetime) -> GameRow:
    try:
        row = await conn.fetchrow(
            f"INSERT INTO games ({NEW_GAME_COLUMNS}, created_at, updated_at, turn_started_at, "
            "shown_version) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $12, $12, -1) "
            f"RETURNING {GAME_COLUMNS}",
            *new.values(),
            now,
        )
    except asyncpg.UniqueViolationError as exc:
        if exc.constraint_name == "games_one_active_per_channel":
            raise ChannelTaken(new.channel_id) from exc
        raise
    assert row is not None
    return game_from(row)


async def locked_tally(conn: Conn, guild: int, player: PlayerResult) -> Tally:
    await conn.execute(
        "INSERT INTO tallies (guild_id, user_id, kind, name) VALUES ($1, $2, $3, $4) "
        "ON CONFLICT DO NOTHING",
        guild,
        player.user_id,
        player.kind,
        player.name,
    )
    row = await conn.fetchrow(
        f"SELECT {TALLY_COLUMNS} FROM tallies "
        "WHERE guild_id = $1 AND user_id = $2 AND kind = $3 FOR UPDATE",
        guild,
        player.user_id,
        player.kind,
    )
    return tally_of(dict(row) if row else None)


async def locked_series(conn: Conn, guild: int, a: str, b: str) -> Series:
    await conn.execute(
        "INSERT INTO series (guild_id, a, b) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
        guild,
        a,
        b,
    )
    row = await conn.fetchrow(
        "SELECT holder, stones, last_white, last_winner, games FROM series "
        "WHERE guild_id = $1 AND a = $2 AND b = $3 FOR UPDATE",
        guild,
        a,
        b,
    )
    return Series(*row) if row else Series()
