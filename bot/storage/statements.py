"""The bot's database, below :class:`bot.storage.store.Storage`: the statements every move
runs, built once, and how a statement or a transaction runs on the dialect."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any, TypeVar

from sqlalchemy import (
    Connection,
    RowMapping,
    Select,
    Table,
    bindparam,
    select,
    update,
)
from sqlalchemy.sql.dml import ReturningUpdate

from bot.standings import SERIES_FIELDS, TALLY_FIELDS, Series, StoredRating, Tally
from bot.storage.dialects import Dialect
from bot.storage.rows import (
    ChallengeRow,
    ChallengeStatus,
    GameRow,
    GameStatus,
    LeaderboardOrder,
    NewGame,
    challenge_row,
    game_row,
    guild_key,
    rating_of,
    series_keys,
    series_of,
)
from bot.storage.tables import (
    Moment,
    challenges,
    games,
    player_prefs,
    ratings,
    series,
    tallies,
)

T = TypeVar("T")
SettingsChange = Callable[[dict[str, str]], Mapping[str, str | None]]
"""Given a server's stored settings, the ones to write (``None`` removes one); raising
changes nothing."""

ACTIVE = games.c.status == GameStatus.ACTIVE
OPEN = challenges.c.status == ChallengeStatus.OPEN
# The statements of every move, built once (a statement costs more to build than to run).
AT_VERSION = (
    games.c.id == bindparam("game_id"),
    games.c.version == bindparam("at_version"),
    ACTIVE,
)
GAME = select(games).where(games.c.id == bindparam("game_id"))
PLAYING_IN = select(games).where(games.c.channel_id == bindparam("channel_id"), ACTIVE)
BOARD = update(games).where(games.c.id == bindparam("game_id"))
SERIES = select(series).where(
    series.c.guild_id == bindparam("guild"),
    series.c.a == bindparam("a"),
    series.c.b == bindparam("b"),
)
OF_USERS = select(ratings).where(
    ratings.c.guild_id == bindparam("guild"),
    ratings.c.family == bindparam("family"),
    ratings.c.user_id.in_(bindparam("users", expanding=True)),
)
PREFERENCES = select(player_prefs.c.user_id, player_prefs.c.key, player_prefs.c.value).where(
    player_prefs.c.user_id.in_(bindparam("user_ids", expanding=True))
)


def _moved(new_turn: bool) -> ReturningUpdate[Any]:
    """An active game's new record and draw offer, if it is still at its version (which
    grows); ``new_turn`` restarts the turn clock and its warning."""
    now = bindparam("now", type_=Moment())
    turn = {"turn_started_at": now, "warned": False} if new_turn else {}
    return (
        update(games)
        .where(*AT_VERSION)
        .values(
            record=bindparam("actions"),
            draw_offered_by=bindparam("offer"),
            updated_at=now,
            version=games.c.version + 1,
            **turn,
        )
        .returning(*games.c)
    )


MOVED = {new_turn: _moved(new_turn) for new_turn in (False, True)}
RANKED = {
    LeaderboardOrder.STREAK: (tallies.c.streak, tallies.c.wins),
    LeaderboardOrder.BEST: (tallies.c.best, tallies.c.wins),
}


class Statements:
    """Running statements and transactions on one database (a :class:`Dialect`)."""

    def __init__(self, dialect: Dialect) -> None:
        self._d = dialect
        self.where = dialect.where
        """The database, for messages: the SQLite file or the URL without its secrets."""
        self.engine = dialect.name
        self._closed = False

    async def close(self) -> None:
        """Close the connections (a second call does nothing)."""
        if not self._closed:
            self._closed = True
            await self._d.close()

    async def schema_version(self) -> int:
        return await self._d.run(self._d.schema_number)

    # -- running statements ----------------------------------------------------------

    async def _transaction(self, body: Callable[[Connection], T], lock: str | None = None) -> T:
        """``body`` in one transaction holding the write lock (SQLite) or ``lock``
        (PostgreSQL): committed at the end, rolled back if anything raises."""

        def whole(conn: Connection) -> T:
            conn.exec_driver_sql(self._d.begin)
            try:
                if lock is not None:
                    self._d.lock(conn, lock)
                value = body(conn)
            except BaseException:
                conn.exec_driver_sql("ROLLBACK")
                raise
            conn.exec_driver_sql("COMMIT")
            return value

        return await self._d.run(whole)

    async def _rows(self, statement: Any, **values: Any) -> list[RowMapping]:
        """One statement on its own (committed when it returns), and its rows."""
        return await self._d.run(rows_of, statement, values)

    async def _row(self, statement: Any, **values: Any) -> RowMapping | None:
        rows = await self._rows(statement, **values)
        return rows[0] if rows else None

    async def _game(
        self, statement: Select[Any] | ReturningUpdate[Any], **values: Any
    ) -> GameRow | None:
        row = await self._row(statement, **values)
        return None if row is None else game_row(row)

    async def _games(self, statement: Select[Any]) -> list[GameRow]:
        return [game_row(r) for r in await self._rows(statement)]

    async def _challenges(self, statement: Select[Any]) -> list[ChallengeRow]:
        return [challenge_row(r) for r in await self._rows(statement)]

    def _upsert(self, table: Table, **values: Any) -> Any:
        """Insert a row, or change the existing one with the same key."""
        statement = self._d.insert(table).values(**values)
        keys = [c.name for c in table.primary_key.columns]
        changed = {k: statement.excluded[k] for k in values if k not in keys}
        return statement.on_conflict_do_update(index_elements=keys, set_=changed)

    def _insert_game(self, new: NewGame, now: datetime) -> Any:
        moments = {"created_at": now, "updated_at": now, "turn_started_at": now}
        return (
            self._d.insert(games)
            .values(**new.values(), **moments, shown_version=-1)
            .on_conflict_do_nothing()
            .returning(*games.c)
        )


def rows_of(conn: Connection, statement: Any, values: dict[str, Any]) -> list[RowMapping]:
    result = conn.execute(statement, values)
    return list(result.mappings()) if result.returns_rows else []


# -- the reads beside a board (one trip: Storage.beside_board) ---------------------------


def series_in(conn: Connection, guild_id: int | None, x: str, y: str) -> Series:
    """The series between two keys on a server (empty if they never played)."""
    a, b = series_keys(x, y)
    rows = rows_of(conn, SERIES, {"guild": guild_key(guild_id), "a": a, "b": b})
    return series_of(rows[0] if rows else None)


def ratings_in(
    conn: Connection, guild_id: int | None, family: str, user_ids: Sequence[int]
) -> dict[int, StoredRating]:
    """The stored ratings of those of ``user_ids`` rated in ``family`` on a server."""
    if not user_ids:
        return {}
    values = {"guild": guild_key(guild_id), "family": family, "users": list(user_ids)}
    found = {int(r["user_id"]): rating_of(r) for r in rows_of(conn, OF_USERS, values)}
    return {user: rating for user, rating in found.items() if rating is not None}


def prefs_in(conn: Connection, user_ids: Iterable[int]) -> dict[int, dict[str, str]]:
    """The chosen preferences of players: user id → their preferences by name (empty for
    one who chose none)."""
    found: dict[int, dict[str, str]] = {user_id: {} for user_id in user_ids}
    if found:
        for r in rows_of(conn, PREFERENCES, {"user_ids": list(found)}):
            found[int(r["user_id"])][str(r["key"])] = str(r["value"])
    return found


def channel_lock(channel_id: int) -> str:
    """The lock of a channel's challenges and the game they start."""
    return f"channel:{channel_id}"


def fields(value: Tally | Series) -> dict[str, Any]:
    names = TALLY_FIELDS if isinstance(value, Tally) else SERIES_FIELDS
    return {name: getattr(value, name) for name in names}
