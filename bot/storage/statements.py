"""The statements every move runs, built once, and the reads several repositories share
(in one trip: :meth:`bot.storage.game_store.GameStore.beside_board`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    bindparam,
    select,
    update,
)
from sqlalchemy.sql.dml import ReturningUpdate

from bot.standings import SERIES_FIELDS, TALLY_FIELDS, Series, StoredRating, Tally
from bot.storage.rows import (
    ChallengeStatus,
    GameStatus,
    LeaderboardOrder,
    NewGame,
    guild_key,
    rating_of,
    series_keys,
    series_of,
)
from bot.storage.runner import Runner, rows_of
from bot.storage.tables import (
    Moment,
    challenges,
    games,
    player_prefs,
    ratings,
    series,
    tallies,
)

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


def insert_game(runner: Runner, new: NewGame, now: datetime) -> Any:
    """A new game's row, unless its channel has an active game (then no row)."""
    moments = {"created_at": now, "updated_at": now, "turn_started_at": now}
    return (
        runner.insert(games)
        .values(**new.values(), **moments, shown_version=-1)
        .on_conflict_do_nothing()
        .returning(*games.c)
    )


# -- the reads beside a board (one trip: GameStore.beside_board) -------------------------


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
