"""Storage on SQLite (aiosqlite): every SQL statement of the bot lives in this module.

Parameters only, never formatted SQL. The schema is versioned with numbered
migrations (``PRAGMA user_version``); the database runs in WAL mode. A game is
stored as its variant and record (the actions, space-separated) so it can always
be replayed and checked; its ``version`` grows with every change, and updates say
``WHERE id = ? AND version = ?`` so a stale or concurrent change applies at most once.

One connection serves the whole bot; an asyncio lock keeps each transaction whole
(statements of two coroutines never interleave inside one transaction). Each trip to
aiosqlite's thread costs a thread switch, so the frequent calls (reading a game,
storing a move) are one statement each: ``UPDATE … RETURNING`` writes and reads back
in a single trip and commits on its own.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

from bot.service.streaks import Result, Series, Tally

MIGRATIONS: tuple[str, ...] = (
    # 1: games, challenges, personal tallies and series.
    """
    CREATE TABLE games (
        id                INTEGER PRIMARY KEY,
        guild_id          INTEGER,
        channel_id        INTEGER NOT NULL,
        parent_channel_id INTEGER,
        variant           TEXT    NOT NULL,
        record            TEXT    NOT NULL DEFAULT '',
        white_id          INTEGER NOT NULL,
        white_name        TEXT    NOT NULL,
        black_id          INTEGER NOT NULL,
        black_name        TEXT    NOT NULL,
        ai_level          TEXT,
        ai_color          TEXT CHECK (ai_color IN ('white', 'black')),
        status            TEXT    NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'over')),
        result            TEXT CHECK (result IN ('white', 'black', 'draw')),
        termination       TEXT,
        version           INTEGER NOT NULL DEFAULT 0,
        draw_offered_by   INTEGER,
        warned            INTEGER NOT NULL DEFAULT 0,
        board_message_id  INTEGER,
        rematch_of        INTEGER REFERENCES games (id),
        created_at        REAL    NOT NULL,
        updated_at        REAL    NOT NULL,
        turn_started_at   REAL    NOT NULL,
        ended_at          REAL
    );
    CREATE UNIQUE INDEX games_one_active_per_channel ON games (channel_id)
        WHERE status = 'active';
    CREATE INDEX games_status ON games (status);

    CREATE TABLE challenges (
        id                INTEGER PRIMARY KEY,
        guild_id          INTEGER,
        channel_id        INTEGER NOT NULL,
        parent_channel_id INTEGER,
        challenger_id     INTEGER NOT NULL,
        challenger_name   TEXT    NOT NULL,
        opponent_id       INTEGER NOT NULL,
        opponent_name     TEXT    NOT NULL,
        variant           TEXT    NOT NULL,
        status            TEXT    NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')),
        rematch_of        INTEGER REFERENCES games (id),
        game_id           INTEGER REFERENCES games (id),
        message_id        INTEGER,
        created_at        REAL    NOT NULL,
        expires_at        REAL    NOT NULL,
        resolved_at       REAL
    );
    CREATE INDEX challenges_open ON challenges (status, expires_at);

    CREATE TABLE tallies (
        guild_id  INTEGER NOT NULL,
        user_id   INTEGER NOT NULL,
        kind      TEXT    NOT NULL,
        name      TEXT    NOT NULL,
        wins      INTEGER NOT NULL DEFAULT 0,
        losses    INTEGER NOT NULL DEFAULT 0,
        draws     INTEGER NOT NULL DEFAULT 0,
        streak    INTEGER NOT NULL DEFAULT 0,
        best      INTEGER NOT NULL DEFAULT 0,
        gal       INTEGER NOT NULL DEFAULT 0,
        gabad     INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, user_id, kind)
    );

    CREATE TABLE series (
        guild_id    INTEGER NOT NULL,
        a           TEXT    NOT NULL,
        b           TEXT    NOT NULL,
        holder      TEXT,
        stones      INTEGER NOT NULL DEFAULT 0,
        last_white  TEXT,
        last_winner TEXT,
        games       INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (guild_id, a, b),
        CHECK (a < b)
    );
    """,
    # 2: the version each game's shown board displays (to reconcile after a crash), the
    # bot's own facts (the command hash), per-server settings and per-player preferences.
    """
    ALTER TABLE games ADD COLUMN shown_version INTEGER NOT NULL DEFAULT 0;
    UPDATE games SET shown_version = version;
    CREATE INDEX games_unshown ON games (status, shown_version, version);

    CREATE TABLE meta (
        key   TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );

    CREATE TABLE guild_settings (
        guild_id INTEGER NOT NULL,
        key      TEXT    NOT NULL,
        value    TEXT    NOT NULL,
        PRIMARY KEY (guild_id, key)
    );

    CREATE TABLE player_prefs (
        user_id INTEGER NOT NULL,
        key     TEXT    NOT NULL,
        value   TEXT    NOT NULL,
        PRIMARY KEY (user_id, key)
    );
    """,
    # 3: the hints a player has taken in a game against the bot.
    """
    CREATE TABLE hints (
        game_id INTEGER PRIMARY KEY REFERENCES games (id),
        used    INTEGER NOT NULL DEFAULT 0
    );
    """,
)
SCHEMA_VERSION = len(MIGRATIONS)


class StorageError(Exception):
    """The database cannot be used (a newer schema, a broken file)."""


class ChannelTaken(Exception):
    """A game is already active in the channel (the one-active-game-per-channel index)."""


def _ts(moment: datetime) -> float:
    return moment.timestamp()


def _dt(value: float | None) -> datetime | None:
    return None if value is None else datetime.fromtimestamp(value, UTC)


def _guild(guild_id: int | None) -> int:
    # Tallies and series need a key; 0 stands for "no server" (DMs, the console).
    return guild_id or 0


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None
    variant: str
    record: tuple[str, ...]
    white_id: int
    white_name: str
    black_id: int
    black_name: str
    ai_level: str | None
    ai_color: str | None
    status: str
    result: str | None
    termination: str | None
    version: int
    draw_offered_by: int | None
    warned: bool
    board_message_id: int | None
    rematch_of: int | None
    created_at: datetime
    updated_at: datetime
    turn_started_at: datetime
    ended_at: datetime | None
    shown_version: int

    @property
    def active(self) -> bool:
        return self.status == "active"


@dataclass(frozen=True)
class NewGame:
    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None
    variant: str
    white_id: int
    white_name: str
    black_id: int
    black_name: str
    ai_level: str | None = None
    ai_color: str | None = None
    rematch_of: int | None = None


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None
    challenger_id: int
    challenger_name: str
    opponent_id: int
    opponent_name: str
    variant: str
    status: str
    rematch_of: int | None
    game_id: int | None
    message_id: int | None
    created_at: datetime
    expires_at: datetime
    resolved_at: datetime | None


@dataclass(frozen=True)
class NewChallenge:
    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None
    challenger_id: int
    challenger_name: str
    opponent_id: int
    opponent_name: str
    variant: str
    expires_at: datetime
    rematch_of: int | None = None


@dataclass(frozen=True)
class PlayerResult:
    """One side's result, for its tally: ``kind`` is ``"human"`` or ``"bot:<level>"``."""

    user_id: int
    name: str
    kind: str
    result: Result


@dataclass(frozen=True)
class SeriesResult:
    """The series a game belongs to and how it went (keys like ``"u:1"``, ``"bot:easy"``)."""

    white: str
    black: str
    winner: str | None


@dataclass(frozen=True)
class Finished:
    """What :meth:`Storage.finish_game` changed: each player's tally before and after,
    and the series after."""

    game: GameRow
    tallies: dict[int, tuple[Tally, Tally]]
    series: Series


_GAME_COLUMNS = (
    "id, guild_id, channel_id, parent_channel_id, variant, record, white_id, white_name, "
    "black_id, black_name, ai_level, ai_color, status, result, termination, version, "
    "draw_offered_by, warned, board_message_id, rematch_of, created_at, updated_at, "
    "turn_started_at, ended_at, shown_version"
)
_CHALLENGE_COLUMNS = (
    "id, guild_id, channel_id, parent_channel_id, challenger_id, challenger_name, opponent_id, "
    "opponent_name, variant, status, rematch_of, game_id, message_id, created_at, expires_at, "
    "resolved_at"
)
_TALLY_COLUMNS = "wins, losses, draws, streak, best, gal, gabad"
_SERIES_SELECT = (
    "SELECT holder, stones, last_white, last_winner, games FROM series "
    "WHERE guild_id = ? AND a = ? AND b = ?"
)


def _game(row: sqlite3.Row) -> GameRow:
    d = dict(row)
    d["record"] = tuple(d["record"].split())
    d["warned"] = bool(d["warned"])
    for key in ("created_at", "updated_at", "turn_started_at", "ended_at"):
        d[key] = _dt(d[key])
    return GameRow(**d)


def _challenge(row: sqlite3.Row) -> ChallengeRow:
    d = dict(row)
    for key in ("created_at", "expires_at", "resolved_at"):
        d[key] = _dt(d[key])
    return ChallengeRow(**d)


def _tally(row: sqlite3.Row | None) -> Tally:
    if row is None:
        return Tally()
    return Tally(*(row[k] for k in ("wins", "losses", "draws", "streak", "best", "gal", "gabad")))


def series_keys(x: str, y: str) -> tuple[str, str]:
    """A pair of series keys in stored order."""
    return (x, y) if x < y else (y, x)


class Storage:
    """The bot's database. Open with :meth:`open`; close with :meth:`close`."""

    def __init__(self, db: aiosqlite.Connection, path: Path) -> None:
        self._db = db
        self.path = path
        self._lock = asyncio.Lock()
        self._closed = False

    @classmethod
    async def open(cls, path: str | Path) -> Storage:
        """Open (or create) the database, switch to WAL and run pending migrations."""
        db = await aiosqlite.connect(str(path), isolation_level=None)
        db.row_factory = sqlite3.Row
        storage = cls(db, Path(path))
        try:
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA busy_timeout = 5000")
            await storage._migrate()
        except BaseException:
            await db.close()
            raise
        return storage

    async def close(self) -> None:
        """Close the connection (a second call does nothing)."""
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._db.close()

    async def _migrate(self) -> None:
        current = await self.schema_version()
        if current > SCHEMA_VERSION:
            raise StorageError(
                f"the database {self.path} has schema version {current}, newer than this "
                f"bot's {SCHEMA_VERSION}; update the bot"
            )
        for number in range(current + 1, SCHEMA_VERSION + 1):
            async with self._tx() as db:
                await db.executescript_in_tx(MIGRATIONS[number - 1])
                # PRAGMA takes no parameters; the value is our own int.
                await db.execute(f"PRAGMA user_version = {int(number)}")

    @asynccontextmanager
    async def _tx(self) -> AsyncIterator[_Tx]:
        """One write transaction (BEGIN IMMEDIATE … COMMIT, ROLLBACK on error)."""
        async with self._lock:
            await self._db.execute("BEGIN IMMEDIATE")
            try:
                yield _Tx(self._db)
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
        """Insert a game; raises :class:`ChannelTaken` if its channel has an active game."""
        async with self._tx() as tx:
            game_id = await tx.insert_game(new, now)
            return await tx.game(game_id)

    async def get_game(self, game_id: int) -> GameRow | None:
        row = await self._one(f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return _game(row) if row else None

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? AND status = 'active'",
            (channel_id,),
        )
        return _game(row) if row else None

    async def active_games(self, *, turn_started_by: datetime | None = None) -> list[GameRow]:
        """The active games, oldest first. With ``turn_started_by``, only those the clock
        may concern: bot games, and games whose turn started at or before that moment."""
        if turn_started_by is None:
            rows = await self._all(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' ORDER BY id"
            )
        else:
            rows = await self._all(
                f"SELECT {_GAME_COLUMNS} FROM games WHERE status = 'active' "
                "AND (ai_level IS NOT NULL OR turn_started_at <= ?) ORDER BY id",
                (_ts(turn_started_by),),
            )
        return [_game(r) for r in rows]

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
        """Store a changed active game if it is still at ``version`` (then version + 1).

        ``new_turn`` restarts the turn clock (and its warning). ``None`` when the game
        has moved on or ended meanwhile: nothing is changed.
        """
        row = await self._one(
            "UPDATE games SET record = ?, draw_offered_by = ?, version = version + 1, "
            "updated_at = ?, "
            "turn_started_at = CASE WHEN ? THEN ? ELSE turn_started_at END, "
            "warned = CASE WHEN ? THEN 0 ELSE warned END "
            f"WHERE id = ? AND version = ? AND status = 'active' RETURNING {_GAME_COLUMNS}",
            (
                " ".join(record),
                draw_offered_by,
                _ts(now),
                new_turn,
                _ts(now),
                new_turn,
                game_id,
                version,
            ),
        )
        return _game(row) if row else None

    async def mark_warned(self, game_id: int, version: int) -> bool:
        """Note that the turn-timeout warning was sent (only if the game is unchanged)."""
        rows = await self._all(
            "UPDATE games SET warned = 1 WHERE id = ? AND version = ? AND status = 'active' "
            "RETURNING id",
            (game_id, version),
        )
        return len(rows) == 1

    async def set_board_message(
        self, game_id: int, message_id: int | None, version: int | None = None
    ) -> None:
        """Remember the game's live board message and (if given) the version it shows."""
        if message_id is not None:
            await self._all(
                "UPDATE games SET board_message_id = ? WHERE id = ?", (message_id, game_id)
            )
        if version is not None:
            await self.mark_shown(game_id, version)

    async def mark_shown(self, game_id: int, version: int) -> None:
        """Note that the players have seen the game's board at ``version`` (never goes back)."""
        await self._all(
            "UPDATE games SET shown_version = MAX(shown_version, ?) WHERE id = ?",
            (version, game_id),
        )

    async def unshown_games(self) -> list[GameRow]:
        """Games whose stored version is newer than the board the players last saw: a move
        committed but never shown (a crash between the commit and the post)."""
        rows = await self._all(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE shown_version < version ORDER BY id"
        )
        return [_game(r) for r in rows]

    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel, being played or over."""
        row = await self._one(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
            (channel_id,),
        )
        return _game(row) if row else None

    # -- hints -------------------------------------------------------------------------

    async def hints_used(self, game_id: int) -> int:
        """How many hints were taken in a game."""
        row = await self._one("SELECT used FROM hints WHERE game_id = ?", (game_id,))
        return 0 if row is None else int(row["used"])

    async def use_hint(self, game_id: int, limit: int) -> int | None:
        """Count one more hint in a game if fewer than ``limit`` were taken: the new count,
        or ``None`` (nothing changed) when the limit is reached."""
        rows = await self._all(
            "INSERT INTO hints (game_id, used) SELECT ?, 1 WHERE ? > 0 "
            "ON CONFLICT (game_id) DO UPDATE SET used = used + 1 WHERE used < ? "
            "RETURNING used",
            (game_id, limit, limit),
        )
        return int(rows[0]["used"]) if rows else None

    # -- the bot's facts, server settings and player preferences ------------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._one("SELECT value FROM meta WHERE key = ?", (key,))
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        await self._all(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (key, value),
        )

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        """A server's settings that differ from the defaults, by name."""
        rows = await self._all(
            "SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        return {str(r["key"]): str(r["value"]) for r in rows}

    async def set_guild_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set a server's setting; ``None`` returns it to the default."""
        if value is None:
            await self._all(
                "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
            )
            return
        await self._all(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            (guild_id, key, value),
        )

    async def player_prefs(self, user_id: int) -> dict[str, str]:
        """A player's chosen preferences (language, theme), by name."""
        rows = await self._all("SELECT key, value FROM player_prefs WHERE user_id = ?", (user_id,))
        return {str(r["key"]): str(r["value"]) for r in rows}

    async def set_player_pref(self, user_id: int, key: str, value: str | None) -> None:
        """Set a player's preference; ``None`` forgets it."""
        if value is None:
            await self._all(
                "DELETE FROM player_prefs WHERE user_id = ? AND key = ?", (user_id, key)
            )
            return
        await self._all(
            "INSERT INTO player_prefs (user_id, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value",
            (user_id, key, value),
        )

    async def finish_game(
        self,
        game_id: int,
        version: int,
        *,
        record: Sequence[str],
        result: str,
        termination: str,
        now: datetime,
        players: Sequence[PlayerResult],
        series: SeriesResult,
    ) -> Finished | None:
        """End a game if it is still at ``version``, and in the same transaction count
        the result in each player's tally and in the series. ``None`` if the game
        has moved on: nothing is changed."""
        async with self._tx() as tx:
            cursor = await tx.execute(
                "UPDATE games SET record = ?, status = 'over', result = ?, termination = ?, "
                "draw_offered_by = NULL, version = version + 1, updated_at = ?, ended_at = ? "
                "WHERE id = ? AND version = ? AND status = 'active'",
                (" ".join(record), result, termination, _ts(now), _ts(now), game_id, version),
            )
            if cursor.rowcount != 1:
                return None
            game = await tx.game(game_id)
            guild = _guild(game.guild_id)
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

    # -- challenges ------------------------------------------------------------

    async def create_challenge(self, new: NewChallenge, now: datetime) -> ChallengeRow:
        async with self._tx() as tx:
            cursor = await tx.execute(
                "INSERT INTO challenges (guild_id, channel_id, parent_channel_id, challenger_id, "
                "challenger_name, opponent_id, opponent_name, variant, rematch_of, created_at, "
                "expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    new.guild_id,
                    new.channel_id,
                    new.parent_channel_id,
                    new.challenger_id,
                    new.challenger_name,
                    new.opponent_id,
                    new.opponent_name,
                    new.variant,
                    new.rematch_of,
                    _ts(now),
                    _ts(new.expires_at),
                ),
            )
            assert cursor.lastrowid is not None
            return await tx.challenge(cursor.lastrowid)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._one(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        )
        return _challenge(row) if row else None

    async def open_challenges(self, channel_id: int) -> list[ChallengeRow]:
        """The open challenges in a channel, oldest first."""
        rows = await self._all(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges "
            "WHERE channel_id = ? AND status = 'open' ORDER BY id",
            (channel_id,),
        )
        return [_challenge(r) for r in rows]

    async def open_challenges_all(self) -> list[ChallengeRow]:
        rows = await self._all(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE status = 'open' ORDER BY id"
        )
        return [_challenge(r) for r in rows]

    async def due_challenges(self, now: datetime) -> list[ChallengeRow]:
        """Open challenges whose time is up."""
        rows = await self._all(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges "
            "WHERE status = 'open' AND expires_at <= ? ORDER BY id",
            (_ts(now),),
        )
        return [_challenge(r) for r in rows]

    async def resolve_challenge(self, challenge_id: int, status: str, now: datetime) -> bool:
        """Close an open challenge as declined, cancelled or expired; ``False`` if it
        was no longer open."""
        rows = await self._all(
            "UPDATE challenges SET status = ?, resolved_at = ? "
            "WHERE id = ? AND status = 'open' RETURNING id",
            (status, _ts(now), challenge_id),
        )
        return len(rows) == 1

    async def accept_challenge(
        self, challenge_id: int, new: NewGame, now: datetime
    ) -> GameRow | None:
        """Accept an open challenge and create its game in one transaction.

        ``None`` if the challenge was no longer open; raises :class:`ChannelTaken`
        (changing nothing) if the channel has an active game.
        """
        async with self._tx() as tx:
            cursor = await tx.execute(
                "UPDATE challenges SET status = 'accepted', resolved_at = ? "
                "WHERE id = ? AND status = 'open'",
                (_ts(now), challenge_id),
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
        """A player's tallies on a server, by opponent kind."""
        rows = await self._all(
            f"SELECT kind, {_TALLY_COLUMNS} FROM tallies WHERE guild_id = ? AND user_id = ?",
            (_guild(guild_id), user_id),
        )
        return {r["kind"]: _tally(r) for r in rows}

    async def leaderboard(
        self, guild_id: int | None, kind: str, by: str, limit: int = 10
    ) -> list[tuple[int, str, Tally]]:
        """The best tallies of a server for one opponent kind, ordered ``by`` the
        current ``"streak"`` or the ``"best"`` streak (ties: more wins first)."""
        order = {"streak": "streak DESC, wins DESC", "best": "best DESC, wins DESC"}[by]
        column = "streak" if by == "streak" else "best"
        rows = await self._all(
            f"SELECT user_id, name, {_TALLY_COLUMNS} FROM tallies "
            f"WHERE guild_id = ? AND kind = ? AND {column} > 0 "
            f"ORDER BY {order}, user_id LIMIT ?",
            (_guild(guild_id), kind, limit),
        )
        return [(r["user_id"], r["name"], _tally(r)) for r in rows]

    async def series(self, guild_id: int | None, x: str, y: str) -> Series:
        """The series between two keys on a server (empty if they never played)."""
        a, b = series_keys(x, y)
        row = await self._one(
            _SERIES_SELECT,
            (_guild(guild_id), a, b),
        )
        return Series(*row) if row else Series()


class _Tx:
    """Statements used inside a transaction (the storage lock is held)."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self.db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> aiosqlite.Cursor:
        return await self.db.execute(sql, params)

    async def executescript_in_tx(self, script: str) -> None:
        # executescript() would COMMIT first; run the statements one by one instead.
        for statement in script.split(";"):
            if statement.strip():
                await self.db.execute(statement)

    async def insert_game(self, new: NewGame, now: datetime) -> int:
        try:
            cursor = await self.db.execute(
                "INSERT INTO games (guild_id, channel_id, parent_channel_id, variant, white_id, "
                "white_name, black_id, black_name, ai_level, ai_color, rematch_of, created_at, "
                "updated_at, turn_started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    new.guild_id,
                    new.channel_id,
                    new.parent_channel_id,
                    new.variant,
                    new.white_id,
                    new.white_name,
                    new.black_id,
                    new.black_name,
                    new.ai_level,
                    new.ai_color,
                    new.rematch_of,
                    _ts(now),
                    _ts(now),
                    _ts(now),
                ),
            )
        except sqlite3.IntegrityError as exc:
            if "games.channel_id" in str(exc):
                raise ChannelTaken(new.channel_id) from exc
            raise
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    async def game(self, game_id: int) -> GameRow:
        async with self.db.execute(
            f"SELECT {_GAME_COLUMNS} FROM games WHERE id = ?", (game_id,)
        ) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return _game(row)

    async def challenge(self, challenge_id: int) -> ChallengeRow:
        async with self.db.execute(
            f"SELECT {_CHALLENGE_COLUMNS} FROM challenges WHERE id = ?", (challenge_id,)
        ) as cursor:
            row = await cursor.fetchone()
        assert row is not None
        return _challenge(row)

    async def tally(self, guild: int, user_id: int, kind: str) -> Tally:
        async with self.db.execute(
            f"SELECT {_TALLY_COLUMNS} FROM tallies WHERE guild_id = ? AND user_id = ? AND kind = ?",
            (guild, user_id, kind),
        ) as cursor:
            return _tally(await cursor.fetchone())

    async def put_tally(self, guild: int, user_id: int, kind: str, name: str, t: Tally) -> None:
        await self.db.execute(
            f"INSERT INTO tallies (guild_id, user_id, kind, name, {_TALLY_COLUMNS}) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (guild_id, user_id, kind) DO UPDATE SET name = excluded.name, "
            "wins = excluded.wins, losses = excluded.losses, draws = excluded.draws, "
            "streak = excluded.streak, best = excluded.best, gal = excluded.gal, "
            "gabad = excluded.gabad",
            (
                guild,
                user_id,
                kind,
                name,
                t.wins,
                t.losses,
                t.draws,
                t.streak,
                t.best,
                t.gal,
                t.gabad,
            ),
        )

    async def series(self, guild: int, a: str, b: str) -> Series:
        async with self.db.execute(
            _SERIES_SELECT,
            (guild, a, b),
        ) as cursor:
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
