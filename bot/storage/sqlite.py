"""The store on SQLite (aiosqlite): the zero-setup default, one file, WAL mode.

One connection serves the whole bot; an asyncio lock keeps each transaction whole
(statements of two coroutines never interleave inside one transaction). Each trip to
aiosqlite's thread costs a thread switch, so the frequent calls (reading a game,
storing a move) are one statement each: ``UPDATE … RETURNING`` writes and reads back
in a single trip and commits on its own. Opening checks the file first (SQLite at all,
writable, undamaged, a schema this bot knows) and says in one sentence what is wrong.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.service.streaks import Series, Tally
from bot.storage.base import Storage, StorageError, check_table, resolution
from bot.storage.checks import check_file, damaged, is_not_sqlite, not_sqlite, read_only
from bot.storage.rows import (
    CHALLENGE_COLUMNS,
    GAME_COLUMNS,
    NEW_CHALLENGE_COLUMNS,
    TALLY_COLUMNS,
    ChallengeRow,
    ChallengeStatus,
    Finished,
    GameResult,
    GameRow,
    LeaderboardOrder,
    NewChallenge,
    NewGame,
    PlayerResult,
    SeriesResult,
    Termination,
    guild_key,
    moment,
    series_keys,
)
from bot.storage.schema import (
    FLAG_COLUMNS,
    MOMENT_COLUMNS,
    SCHEMA_VERSION,
    SQLITE_MIGRATIONS,
    TABLES,
)
from bot.storage.settings import KeyValues
from bot.storage.sqlite_sql import (
    LEADERBOARD_ORDER,
    SERIES_SELECT,
    Transaction,
    challenge_from,
    game_from,
    tally_from,
    ts,
)


class SqliteStorage(KeyValues, Storage):
    """The bot's database in one SQLite file."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self.path = path
        self.where = str(path)
        self._lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def connect(cls, path: Path) -> SqliteStorage:
        """Open (or create) the file, check it, switch to WAL and run pending migrations."""
        check_file(path)
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = sqlite3.Row
        storage = cls(db, path)
        try:
            await storage._check_and_migrate()
        except BaseException:
            await db.close()
            raise
        return storage

    async def _check_and_migrate(self) -> None:
        try:
            await self._db.execute("PRAGMA journal_mode = WAL")
            await self._db.execute("PRAGMA foreign_keys = ON")
            await self._db.execute("PRAGMA busy_timeout = 5000")
            problems = [str(r[0]) for r in await self._db.execute_fetchall("PRAGMA quick_check")]
        except sqlite3.DatabaseError as exc:
            if getattr(exc, "sqlite_errorname", "").startswith("SQLITE_READONLY"):
                raise read_only(self.path) from None
            if is_not_sqlite(exc):
                raise not_sqlite(self.path) from None
            raise damaged(self.path, str(exc)) from None
        if problems != ["ok"]:
            raise damaged(self.path, problems[0])
        await self._migrate()

    async def close(self) -> None:
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._db.close()

    async def _migrate(self) -> None:
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StorageError(
                f"The database {self.path} has schema version {current}, newer than this "
                f"bot's {SCHEMA_VERSION}: upgrade the bot, or restore a backup made by this one."
            )
        for number in range(current + 1, SCHEMA_VERSION + 1):
            async with self._tx() as tx:
                await tx.script(SQLITE_MIGRATIONS[number - 1])
                # PRAGMA takes no parameters; the value is our own int.
                await tx.execute(f"PRAGMA user_version = {int(number)}")

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[Transaction]:
        """One write transaction (BEGIN IMMEDIATE … COMMIT, ROLLBACK on error)."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield Transaction(self._db)
            except BaseException:
                await self._db.execute("ROLLBACK")
                raise
            await self._db.execute("COMMIT")

    async def _all(self, sql: str, params: Sequence[Any] = ()) -> list[sqlite3.Row]:
        """One statement, all its rows, in a single trip to the database thread. Outside
        a transaction a statement commits on its own, so an ``UPDATE … RETURNING`` here
        is a whole write."""
        async with self._lock:
            return list(await self._db.execute_fetchall(sql, params))

    async def _one(self, sql: str, params: Sequence[Any] = ()) -> sqlite3.Row | None:
        rows = await self._all(sql, params)
        return rows[0] if rows else None

    # -- introspection ---------------------------------------------------------

    async def schema_version(self) -> int:
        row = await self._one("PRAGMA user_version")
        return int(row[0]) if row else 0

    async def journal_mode(self) -> str:
        row = await self._one("PRAGMA journal_mode")
        return str(row[0]) if row else ""

    # -- games -----------------------------------------------------------------

    async def create_game(self, new: NewGame, now: datetime) -> GameRow:
        async with self._tx() as tx:
            game_id = await tx.insert_game(new, now)
            return await tx.game(game_id)

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return game_from(row) if row else None

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? AND status = 'active'",
            (channel_id,),
        )
        return game_from(row) if row else None

    async def active_games(self, *, turn_started_by: datetime | None = None) -> list[GameRow]:
        if turn_started_by is None:
            rows = await self._all(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' ORDER BY id"
            )
        else:
            rows = await self._all(
                f"SELECT {GAME_COLUMNS} FROM games WHERE status = 'active' "
                "AND (ai_level IS NOT NULL OR turn_started_at <= ?) ORDER BY id",
                (ts(turn_started_by),),
            )
        return [game_from(r) for r in rows]

    async def update_game(
        self,
        game_id: int,
        version: int,
        *,
        record: Sequence[str],
        draw_offered_by: int | None,
        now: datetime,
        new_turn: bool,
    ) -> GameRow | None:
        row = await self._one(
            "UPDATE games SET record = ?, draw_offered_by = ?, version = version + 1, "
            "updated_at = ?, "
            "turn_started_at = CASE WHEN ? THEN ? ELSE turn_started_at END, "
            "warned = CASE WHEN ? THEN 0 ELSE warned END "
            f"WHERE id = ? AND version = ? AND status = 'active' RETURNING {GAME_COLUMNS}",
            (
                " ".join(record),
                draw_offered_by,
                ts(now),
                new_turn,
                ts(now),
                new_turn,
                game_id,
                version,
            ),
        )
        return game_from(row) if row else None

    async def mark_warned(self, game_id: int, version: int) -> bool:
        rows = await self._all(
            "UPDATE games SET warned = 1 WHERE id = ? AND version = ? AND status = 'active' "
            "RETURNING id",
            (game_id, version),
        )
        return len(rows) == 1

    async def set_board_message(
        self, game_id: int, message_id: int | None, version: int | None = None
    ) -> None:
        if message_id is not None:
            await self._all(
                "UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id)
            )
        if version is not None:
            await self.mark_shown(game_id, version)

    async def mark_shown(self, game_id: int, version: int) -> None:
        await self._all(
            "UPDATE games SET shown_version = MAX(shown_version, ?) WHERE id = ?",
            (version, game_id),
        )

    async def unshown_games(self) -> list[GameRow]:
        rows = await self._all(
            f"SELECT {GAME_COLUMNS} FROM games WHERE shown_version < version ORDER BY id"
        )
        return [game_from(r) for r in rows]

    async def finish_game(
        self,
        game_id: int,
        version: int,
        *,
        record: Sequence[str],
        result: GameResult | str,
        termination: Termination | str,
        now: datetime,
        players: Sequence[PlayerResult],
        series: SeriesResult,
    ) -> Finished | None:
        result, termination = GameResult(result), Termination(termination)
        async with self._tx() as tx:
            cursor = await tx.execute(
                "UPDATE games SET record = ?, status = 'over', result = ?, termination = ?, "
                "draw_offered_by = NULL, version = version + 1, updated_at = ?, ended_at = ? "
                "WHERE id = ? AND version = ? AND status = 'active'",
                (" ".join(record), result, termination, ts(now), ts(now), game_id, version),
            )
            if cursor.rowcount != 1:
                return None
            game = await tx.game(game_id)
            guild = guild_key(game.guild_id)
            tallies = {}
            for player in players:
                before = await tx.tally(guild, player.user_id, player.kind)
                after = before.after(player.result)
                await tx.put_tally(guild, player.user_id, player.kind, player.name, after)
                tallies[player.user_id] = (before, after)
            a, b = series_keys(series.white, series.black)
            after_series = (await tx.series(guild, a, b)).after(
                series.white, series.black, series.winner
            )
            await tx.put_series(guild, a, b, after_series)
            return Finished(game, tallies, after_series)

    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return game_from(row) if row else None

    # -- hints -------------------------------------------------------------------------

    async def hints_used(self, game_id: int) -> int:
        row = await self._one("SELECT used FROM hints WHERE game_id = ?", (game_id,))
        return 0 if row is None else int(row["used"])

    async def use_hint(self, game_id: int, limit: int) -> int | None:
        rows = await self._all(
            "INSERT INTO hints (game_id, used) SELECT ?, 1 WHERE ? > 0 "
            "ON CONFLICT (game_id) DO UPDATE SET used = used + 1 WHERE used < ? "
            "RETURNING used",
            (game_id, limit, limit),
        )
        return int(rows[0]["used"]) if rows else None

    async def _rows(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in await self._all(sql, params)]

    # -- challenges ------------------------------------------------------------

    async def create_challenge(self, new: NewChallenge, now: datetime) -> ChallengeRow:
        row = await self._one(
            f"INSERT INTO challenges ({NEW_CHALLENGE_COLUMNS}, created_at, expires_at) "
            f"VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING {CHALLENGE_COLUMNS}",
            (*new.values(), ts(now), ts(new.expires_at)),
        )
        assert row is not None
        return challenge_from(row)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        )
        return challenge_from(row) if row else None

    async def open_challenges(self, channel_id: int) -> list[ChallengeRow]:
        rows = await self._all(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges "
            "WHERE channel_id = ? AND status = 'open' ORDER BY id",
            (channel_id,),
        )
        return [challenge_from(r) for r in rows]

    async def open_challenges_all(self) -> list[ChallengeRow]:
        rows = await self._all(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE status = 'open' ORDER BY id"
        )
        return [challenge_from(r) for r in rows]

    async def due_challenges(self, now: datetime) -> list[ChallengeRow]:
        rows = await self._all(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges "
            "WHERE status = 'open' AND expires_at <= ? ORDER BY id",
            (ts(now),),
        )
        return [challenge_from(r) for r in rows]

    async def resolve_challenge(
        self, challenge_id: int, status: ChallengeStatus | str, now: datetime
    ) -> bool:
        rows = await self._all(
            "UPDATE challenges SET status = ?, resolved_at = ? "
            "WHERE id = ? AND status = 'open' RETURNING id",
            (resolution(status), ts(now), challenge_id),
        )
        return len(rows) == 1

    async def accept_challenge(
        self, challenge_id: int, new: NewGame, now: datetime
    ) -> GameRow | None:
        async with self._tx() as tx:
            cursor = await tx.execute(
                "UPDATE challenges SET status = 'accepted', resolved_at = ? "
                "WHERE id = ? AND status = 'open'",
                (ts(now), challenge_id),
            )
            if cursor.rowcount != 1:
                return None
            game_id = await tx.insert_game(new, now)
            await tx.execute(
                "UPDATE challenges SET game_id = ? WHERE id = ?", (game_id, challenge_id)
            )
            return await tx.game(game_id)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._all(
            "UPDATE challenges SET message_id = ? WHERE id = ?", (message_id, challenge_id)
        )

    # -- tallies and series ----------------------------------------------------

    async def tallies(self, guild_id: int | None, user_id: int) -> dict[str, Tally]:
        rows = await self._all(
            f"SELECT kind, {TALLY_COLUMNS} FROM tallies WHERE guild_id = ? AND user_id = ?",
            (guild_key(guild_id), user_id),
        )
        return {r["kind"]: tally_from(r) for r in rows}

    async def leaderboard(
        self, guild_id: int | None, kind: str, by: LeaderboardOrder | str, limit: int = 10
    ) -> list[tuple[int, str, Tally]]:
        column, order = LEADERBOARD_ORDER[LeaderboardOrder(by)]
        rows = await self._all(
            f"SELECT user_id, name, {TALLY_COLUMNS} FROM tallies "
            f"WHERE guild_id = ? AND kind = ? AND {column} > 0 "
            f"ORDER BY {order}, user_id LIMIT ?",
            (guild_key(guild_id), kind, limit),
        )
        return [(r["user_id"], r["name"], tally_from(r)) for r in rows]

    async def bot_record(self, guild_id: int | None) -> dict[str, tuple[int, int, int]]:
        rows = await self._all(
            "SELECT kind, SUM(losses) AS won, SUM(wins) AS lost, SUM(draws) AS drawn "
            "FROM tallies WHERE guild_id = ? AND kind LIKE 'bot:%' GROUP BY kind",
            (guild_key(guild_id),),
        )
        return {str(r["kind"]): (int(r["won"]), int(r["lost"]), int(r["drawn"])) for r in rows}

    async def series(self, guild_id: int | None, x: str, y: str) -> Series:
        a, b = series_keys(x, y)
        row = await self._one(SERIES_SELECT, (guild_key(guild_id), a, b))
        return Series(*row) if row else Series()

    # -- copying a whole database ----------------------------------------------

    async def export_rows(self, table: str) -> list[dict[str, Any]]:
        order = ", ".join(TABLES[check_table(table)])
        rows = await self._all(f"SELECT * FROM {table} ORDER BY {order}")
        out = []
        for row in rows:
            d = dict(row)
            for key in d.keys() & MOMENT_COLUMNS:
                d[key] = moment(d[key])
            for key in d.keys() & FLAG_COLUMNS:
                d[key] = bool(d[key])
            out.append(d)
        return out

    async def import_rows(self, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        async with self._tx() as tx:
            for table, rows in tables.items():
                check_table(table)
                for row in rows:
                    values = [ts(v) if isinstance(v, datetime) else v for v in row.values()]
                    marks = ", ".join("?" * len(values))
                    await tx.execute(
                        f"INSERT INTO {table} ({', '.join(row)}) VALUES ({marks})", values
                    )
