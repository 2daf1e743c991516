"""SQLite's statements: the column lists, row conversions and the writes made inside a
transaction, for :mod:`bot.storage.sqlite`."""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import aiosqlite

from bot.service.streaks import Series, Tally
from bot.storage.base import ChannelTaken
from bot.storage.rows import (
    GAME_COLUMNS,
    NEW_GAME_COLUMNS,
    TALLY_COLUMNS,
    TALLY_FIELDS,
    ChallengeRow,
    GameRow,
    LeaderboardOrder,
    NewGame,
    challenge_row,
    game_row,
    tally_of,
)

SERIES_SELECT = (
    "SELECT holder, stones, last_white, last_winner, games FROM series "
    "WHERE guild_id = ? AND a = ? AND b = ?"
)
LEADERBOARD_ORDER = {
    LeaderboardOrder.STREAK: ("streak", "streak DESC, wins DESC"),
    LeaderboardOrder.BEST: ("best", "best DESC, wins DESC"),
}


def ts(when: datetime) -> float:
    return when.timestamp()


def game_from(row: sqlite3.Row) -> GameRow:
    return game_row(dict(row))


def challenge_from(row: sqlite3.Row) -> ChallengeRow:
    return challenge_row(dict(row))


def tally_from(row: sqlite3.Row | None) -> Tally:
    return tally_of(None if row is None else dict(row))


class Transaction:
    """Statements used inside a transaction (the storage lock is held)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
        return await self.db.execute(sql, params)

    async def script(self, script: str) -> None:
        # executescript() would COMMIT first; run the statements one by one instead.
        for statement in script.split(";"):
            if statement.strip():
                await self.db.execute(statement)

    async def insert_game(self, new: NewGame, now: datetime) -> int:
        try:
            cursor = await self.db.execute(
                f"INSERT INTO games ({NEW_GAME_COLUMNS}, created_at, updated_at, "
                "turn_started_at, shown_version) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, -1)",
                (*new.values(), ts(now), ts(now), ts(now)),
            )
        except sqlite3.IntegrityError as exc:
            if "games.channel_id" in str(exc):
                raise ChannelTaken(new.channel_id) from exc
            raise
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def game(self, game_id: int) -> GameRow:
        async with self.db.execute(
            f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        ) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return game_from(row)

    async def tally(self, guild: int, user_id: int, kind: str) -> Tally:
        async with self.db.execute(
            f"SELECT {TALLY_COLUMNS} FROM tallies WHERE guild_id = ? AND user_id = ? AND kind = ?",
            (guild, user_id, kind),
        ) as cursor:
            return tally_from(await cursor.fetchone())

    async def put_tally(self, guild: int, user_id: int, kind: str, name: str, t: Tally) -> None:
        await self.db.execute(
            f"INSERT INTO tallies (guild_id, user_id, kind, name, {TALLY_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id, kind) DO UPDATE SET name = excluded.name, "
            "wins = excluded.wins, losses = excluded.losses, draws = excluded.draws, "
            "streak = excluded.streak, best = excluded.best, gal = excluded.gal, "
            "gabad = excluded.gabad",
            (guild, user_id, kind, name, *(getattr(t, f) for f in TALLY_FIELDS)),
        )

    async def series(self, guild: int, a: str, b: str) -> Series:
        async with self.db.execute(SERIES_SELECT, (guild, a, b)) as cursor:
            row = await cursor.fetchone()
        return Series(*row) if row else Series()

    async def put_series(self, guild: int, a: str, b: str, s: Series) -> None:
        await self.db.execute(
            "INSERT INTO series (guild_id, a, b, holder, stones, last_white, last_winner, games) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, a, b) DO UPDATE SET holder = excluded.holder, "
            "stones = excluded.stones, last_white = excluded.last_white, "
            "last_winner = excluded.last_winner, games = excluded.games",
            (guild, a, b, s.holder, s.stones, s.last_white, s.last_winner, s.games),
        )
