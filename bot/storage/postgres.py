"""The store on PostgreSQL (asyncpg): one database shared by several bot processes.

A pool of connections; a statement outside a transaction commits on its own, so the
frequent calls are one ``UPDATE … RETURNING`` each, as on SQLite. Under PostgreSQL's
READ COMMITTED a concurrent ``UPDATE … WHERE version = $n`` waits for the other and
then finds the version gone: it changes nothing. ``finish_game`` locks the tallies and
the series it changes (``FOR UPDATE``, always in the same order) so two games ending at
once both count. Migrations run under an advisory lock, so processes starting together
migrate once.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from contextlib import asynccontextmanager
from datetime import datetime
from typing import TYPE_CHECKING, Any

import asyncpg

from bot.service.streaks import Series, Tally
from bot.storage.base import (
    Storage,
    StorageError,
    check_table,
    redacted,
    resolution,
)
from bot.storage.postgres_sql import (
    LEADERBOARD_ORDER,
    challenge_from,
    game_from,
    insert_game,
    locked_series,
    locked_tally,
    numbered,
)
from bot.storage.rows import (
    CHALLENGE_COLUMNS,
    GAME_COLUMNS,
    NEW_CHALLENGE_COLUMNS,
    TALLY_COLUMNS,
    TALLY_FIELDS,
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
    series_keys,
    tally_of,
)
from bot.storage.schema import POSTGRES_MIGRATIONS, SCHEMA_VERSION, TABLES
from bot.storage.settings import KeyValues

if TYPE_CHECKING:
    from bot.storage.postgres_sql import Conn

_MIGRATION_LOCK = 0x5348_4158  # "SHAX": one advisory lock key for migrations
_SCHEMA_TABLE = "CREATE TABLE IF NOT EXISTS shax_schema (version INTEGER NOT NULL)"


class PostgresStorage(KeyValues, Storage):
    """The bot's database on a PostgreSQL server."""

    def __init__(self, pool: asyncpg.Pool, where: str) -> None:
        self._pool = pool
        self.where = where
        self._closed = False

    @classmethod
    async def connect(cls, url: str, *, max_connections: int = 10) -> PostgresStorage:
        """Connect to the server at ``url`` and run pending migrations."""
        where = redacted(url)
        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=max_connections)
        except (OSError, asyncpg.PostgresError, asyncpg.InterfaceError) as exc:
            raise StorageError(
                f"The PostgreSQL database {where} cannot be reached ({exc}): start the server, "
                "or fix SHAX_DATABASE_URL (host, port, user, password, database)."
            ) from None
        storage = cls(pool, where)
        try:
            await storage._migrate()
        except BaseException:
            await pool.close()
            raise
        return storage

    async def close(self) -> None:
        if not self._closed:
            self._closed = True
            await self._pool.close()

    async def _migrate(self) -> None:
        async with self._tx() as conn:
            await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
            await conn.execute(_SCHEMA_TABLE)
            current = await conn.fetchval("SELECT version FROM shax_schema")
            if current is None:
                current = 0
                await conn.execute("INSERT INTO shax_schema (version) VALUES (0)")
            if current > SCHEMA_VERSION:
                raise StorageError(
                    f"The database {self.where} has schema version {current}, newer than this "
                    f"bot's {SCHEMA_VERSION}: upgrade the bot, or restore a backup made by this "
                    "one."
                )
            for number in range(current + 1, SCHEMA_VERSION + 1):
                await conn.execute(POSTGRES_MIGRATIONS[number - 1])
                await conn.execute("UPDATE shax_schema SET version = $1", number)

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[Conn]:
        """One transaction on a connection of the pool (rolled back on error)."""
        async with self._pool.acquire() as conn, conn.transaction():
            yield conn

    async def _all(self, sql: str, *params: Any) -> list[asyncpg.Record]:
        """One statement and its rows; outside a transaction it commits on its own."""
        return list(await self._pool.fetch(sql, *params))

    async def _one(self, sql: str, *params: Any) -> asyncpg.Record | None:
        return await self._pool.fetchrow(sql, *params)

    async def schema_version(self) -> int:
        value = await self._pool.fetchval("SELECT version FROM shax_schema")
        return int(value or 0)

    # -- games -----------------------------------------------------------------

    async def create_game(self, new: NewGame, now: datetime) -> GameRow:
        async with self._pool.acquire() as conn:
            return await insert_game(conn, new, now)

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {GAME_COLUMNS} FROM games WHERE id = $1", game_id)
        return game_from(row) if row else None

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 AND status = 'active'",
            channel_id,
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
                "AND (ai_level IS NOT NULL OR turn_started_at <= $1) ORDER BY id",
                turn_started_by,
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
            "UPDATE games SET record = $1, draw_offered_by = $2, version = version + 1, "
            "updated_at = $3, "
            "turn_started_at = CASE WHEN $4::boolean THEN $3 ELSE turn_started_at END, "
            "warned = CASE WHEN $4::boolean THEN FALSE ELSE warned END "
            f"WHERE id = $5 AND version = $6 AND status = 'active' RETURNING {GAME_COLUMNS}",
            " ".join(record),
            draw_offered_by,
            now,
            new_turn,
            game_id,
            version,
        )
        return game_from(row) if row else None

    async def mark_warned(self, game_id: int, version: int) -> bool:
        rows = await self._all(
            "UPDATE games SET warned = TRUE WHERE id = $1 AND version = $2 AND status = 'active' "
            "RETURNING id",
            game_id,
            version,
        )
        return len(rows) == 1

    async def set_board_message(
        self, game_id: int, message_id: int | None, version: int | None = None
    ) -> None:
        if message_id is not None:
            await self._pool.execute(
                "UPDATE games SET board_message_id = $1 WHERE id = $2", message_id, game_id
            )
        if version is not None:
            await self.mark_shown(game_id, version)

    async def mark_shown(self, game_id: int, version: int) -> None:
        await self._pool.execute(
            "UPDATE games SET shown_version = GREATEST(shown_version, $1) WHERE id = $2",
            version,
            game_id,
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
        async with self._tx() as conn:
            row = await conn.fetchrow(
                "UPDATE games SET record = $1, status = 'over', result = $2, termination = $3, "
                "draw_offered_by = NULL, version = version + 1, updated_at = $4, ended_at = $4 "
                f"WHERE id = $5 AND version = $6 AND status = 'active' RETURNING {GAME_COLUMNS}",
                " ".join(record),
                result,
                termination,
                now,
                game_id,
                version,
            )
            if row is None:
                return None
            game = game_from(row)
            guild = guild_key(game.guild_id)
            # Lock every row this game changes before reading any, in one global order
            # (tallies by key, then the series), so concurrent finishes never deadlock.
            latest: dict[tuple[int, str], Tally] = {}
            for player in sorted(players, key=lambda p: (p.user_id, p.kind)):
                if (player.user_id, player.kind) not in latest:
                    latest[player.user_id, player.kind] = await locked_tally(conn, guild, player)
            a, b = series_keys(series.white, series.black)
            current = await locked_series(conn, guild, a, b)
            tallies = {}
            for player in players:
                old = latest[player.user_id, player.kind]
                new = latest[player.user_id, player.kind] = old.after(player.result)
                await conn.execute(
                    f"UPDATE tallies SET name = $4, ({TALLY_COLUMNS}) = "
                    "($5, $6, $7, $8, $9, $10, $11) "
                    "WHERE guild_id = $1 AND user_id = $2 AND kind = $3",
                    guild,
                    player.user_id,
                    player.kind,
                    player.name,
                    *(getattr(new, f) for f in TALLY_FIELDS),
                )
                tallies[player.user_id] = (old, new)
            after = current.after(series.white, series.black, series.winner)
            await conn.execute(
                "UPDATE series SET holder = $4, stones = $5, last_white = $6, last_winner = $7, "
                "games = $8 WHERE guild_id = $1 AND a = $2 AND b = $3",
                guild,
                a,
                b,
                after.holder,
                after.stones,
                after.last_white,
                after.last_winner,
                after.games,
            )
            return Finished(game, tallies, after)

    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {GAME_COLUMNS} FROM games WHERE channel_id = $1 ORDER BY id DESC LIMIT 1",
            channel_id,
        )
        return game_from(row) if row else None

    async def hints_used(self, game_id: int) -> int:
        value = await self._pool.fetchval("SELECT used FROM hints WHERE game_id = $1", game_id)
        return 0 if value is None else int(value)

    async def use_hint(self, game_id: int, limit: int) -> int | None:
        value = await self._pool.fetchval(
            "INSERT INTO hints AS h (game_id, used) SELECT $1, 1 WHERE $2 > 0 "
            "ON CONFLICT (game_id) DO UPDATE SET used = h.used + 1 WHERE h.used < $2 "
            "RETURNING used",
            game_id,
            limit,
        )
        return None if value is None else int(value)

    async def _rows(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        return [dict(r) for r in await self._all(numbered(sql), *params)]

    # -- challenges ------------------------------------------------------------

    async def create_challenge(self, new: NewChallenge, now: datetime) -> ChallengeRow:
        row = await self._one(
            f"INSERT INTO challenges ({NEW_CHALLENGE_COLUMNS}, created_at, expires_at) "
            "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) "
            f"RETURNING {CHALLENGE_COLUMNS}",
            *new.values(),
            now,
            new.expires_at,
        )
        assert row is not None
        return challenge_from(row)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges WHERE id = $1", challenge_id
        )
        return challenge_from(row) if row else None

    async def open_challenges(self, channel_id: int) -> list[ChallengeRow]:
        rows = await self._all(
            f"SELECT {CHALLENGE_COLUMNS} FROM challenges "
            "WHERE channel_id = $1 AND status = 'open' ORDER BY id",
            channel_id,
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
            "WHERE status = 'open' AND expires_at <= $1 ORDER BY id",
            now,
        )
        return [challenge_from(r) for r in rows]

    async def resolve_challenge(
        self, challenge_id: int, status: ChallengeStatus | str, now: datetime
    ) -> bool:
        rows = await self._all(
            "UPDATE challenges SET status = $1, resolved_at = $2 "
            "WHERE id = $3 AND status = 'open' RETURNING id",
            resolution(status),
            now,
            challenge_id,
        )
        return len(rows) == 1

    async def accept_challenge(
        self, challenge_id: int, new: NewGame, now: datetime
    ) -> GameRow | None:
        async with self._tx() as conn:
            accepted = await conn.fetchval(
                "UPDATE challenges SET status = 'accepted', resolved_at = $1 "
                "WHERE id = $2 AND status = 'open' RETURNING id",
                now,
                challenge_id,
            )
            if accepted is None:
                return None
            game = await insert_game(conn, new, now)
            await conn.execute(
                "UPDATE challenges SET game_id = $1 WHERE id = $2", game.id, challenge_id
            )
            return game

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._pool.execute(
            "UPDATE challenges SET message_id = $1 WHERE id = $2", message_id, challenge_id
        )

    # -- tallies and series ----------------------------------------------------

    async def tallies(self, guild_id: int | None, user_id: int) -> dict[str, Tally]:
        rows = await self._all(
            f"SELECT kind, {TALLY_COLUMNS} FROM tallies WHERE guild_id = $1 AND user_id = $2",
            guild_key(guild_id),
            user_id,
        )
        return {str(r["kind"]): tally_of(dict(r)) for r in rows}

    async def leaderboard(
        self, guild_id: int | None, kind: str, by: LeaderboardOrder | str, limit: int = 10
    ) -> list[tuple[int, str, Tally]]:
        column, order = LEADERBOARD_ORDER[LeaderboardOrder(by)]
        rows = await self._all(
            f"SELECT user_id, name, {TALLY_COLUMNS} FROM tallies "
            f"WHERE guild_id = $1 AND kind = $2 AND {column} > 0 "
            f"ORDER BY {order}, user_id LIMIT $3",
            guild_key(guild_id),
            kind,
            limit,
        )
        return [(int(r["user_id"]), str(r["name"]), tally_of(dict(r))) for r in rows]

    async def bot_record(self, guild_id: int | None) -> dict[str, tuple[int, int, int]]:
        rows = await self._all(
            "SELECT kind, SUM(losses) AS won, SUM(wins) AS lost, SUM(draws) AS drawn "
            "FROM tallies WHERE guild_id = $1 AND kind LIKE 'bot:%' GROUP BY kind",
            guild_key(guild_id),
        )
        return {str(r["kind"]): (int(r["won"]), int(r["lost"]), int(r["drawn"])) for r in rows}

    async def series(self, guild_id: int | None, x: str, y: str) -> Series:
        a, b = series_keys(x, y)
        row = await self._one(
            "SELECT holder, stones, last_white, last_winner, games FROM series "
            "WHERE guild_id = $1 AND a = $2 AND b = $3",
            guild_key(guild_id),
            a,
            b,
        )
        return Series(*row) if row else Series()

    # -- copying a whole database ----------------------------------------------

    async def export_rows(self, table: str) -> list[dict[str, Any]]:
        order = ", ".join(TABLES[check_table(table)])
        return [dict(r) for r in await self._all(f"SELECT * FROM {table} ORDER BY {order}")]

    async def import_rows(self, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        async with self._tx() as conn:
            for table, rows in tables.items():
                check_table(table)
                if not rows:
                    continue
                columns = list(rows[0])
                marks = ", ".join(f"${i}" for i in range(1, len(columns) + 1))
                await conn.executemany(
                    f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})",
                    [[row[c] for c in columns] for row in rows],
                )
            for table in ("games", "challenges"):
                # Ids were copied as they were: new rows continue after the highest.
                await conn.execute(
                    f"SELECT setval(pg_get_serial_sequence('{table}', 'id'), "
                    f"COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                )
