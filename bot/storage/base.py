"""The store interface: what the bot asks of its database, whichever engine keeps it.

Both engines promise the same: every write is committed when its call returns; a game
changes only ``WHERE id = ? AND version = ?`` (so a stale or concurrent change applies
at most once) and its version then grows by one; ``finish_game`` and
``accept_challenge`` are one transaction each; one active game per channel.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bot.service.streaks import Series, Tally
from bot.storage.rows import (
    CHALLENGE_ENDINGS,
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
)
from bot.storage.schema import TABLES

SQLITE_PREFIX = "sqlite:///"
POSTGRES_SCHEMES = ("postgresql://", "postgres://")


class StorageError(Exception):
    """The database cannot be used (a newer schema, a broken or read-only file, a server
    that does not answer); the message is one sentence naming it and what to do."""


class ChannelTaken(Exception):
    """A game is already active in the channel (the one-active-game-per-channel index)."""


def is_postgres(target: str | Path) -> bool:
    return isinstance(target, str) and target.lower().startswith(POSTGRES_SCHEMES)


def sqlite_path(target: str | Path) -> Path:
    """The file of a SQLite target: a path, or ``sqlite:///path`` (``sqlite:////abs``)."""
    if isinstance(target, str) and target.lower().startswith(SQLITE_PREFIX):
        return Path(target[len(SQLITE_PREFIX) :]).expanduser()
    return Path(target)


def redacted(url: str) -> str:
    """A database URL without its password, safe to print."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)
    user = netloc[0].split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{user}@{netloc[1]}"))


class Storage(ABC):
    """The bot's database. Open with :meth:`open`; close with :meth:`close`."""

    where: str
    """The database, for messages: the SQLite file or the URL without its password."""

    @classmethod
    async def open(cls, target: str | Path) -> Storage:
        """Open (or create) the database ``target`` and run pending migrations: a SQLite
        file (a path or ``sqlite:///path``) or a PostgreSQL server (``postgresql://…``).
        Raises :class:`StorageError` if it cannot be used."""
        if is_postgres(target):
            from bot.storage.postgres import PostgresStorage

            return await PostgresStorage.connect(str(target))
        from bot.storage.sqlite import SqliteStorage

        return await SqliteStorage.connect(sqlite_path(target))

    @abstractmethod
    async def close(self) -> None:
        """Close the connections (a second call does nothing)."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    # -- games -----------------------------------------------------------------------

    @abstractmethod
    async def create_game(self, new: NewGame, now: datetime) -> GameRow:
        """Insert a game; raises :class:`ChannelTaken` if its channel has an active game."""

    @abstractmethod
    async def get_game(self, game_id: int) -> GameRow | None: ...

    @abstractmethod
    async def active_game_in_channel(self, channel_id: int) -> GameRow | None: ...

    @abstractmethod
    async def active_games(self, *, turn_started_by: datetime | None = None) -> list[GameRow]:
        """The active games, oldest first. With ``turn_started_by``, only those the clock
        may concern: bot games, and games whose turn started at or before that moment."""

    @abstractmethod
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

    @abstractmethod
    async def mark_warned(self, game_id: int, version: int) -> bool:
        """Note that the turn-timeout warning was sent (only if the game is unchanged)."""

    @abstractmethod
    async def set_board_message(
        self, game_id: int, message_id: int | None, version: int | None = None
    ) -> None:
        """Remember the game's live board message and (if given) the version it shows."""

    @abstractmethod
    async def mark_shown(self, game_id: int, version: int) -> None:
        """Note that the players have seen the game's board at ``version`` (never goes back)."""

    @abstractmethod
    async def unshown_games(self) -> list[GameRow]:
        """Games whose stored version is newer than the board the players last saw: a move
        committed but never shown (a crash between the commit and the post)."""

    @abstractmethod
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
        """End a game if it is still at ``version``, and in the same transaction count
        the result in each player's tally and in the series. ``None`` if the game
        has moved on: nothing is changed."""

    @abstractmethod
    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel, being played or over."""

    # -- hints -------------------------------------------------------------------------

    @abstractmethod
    async def hints_used(self, game_id: int) -> int:
        """How many hints were taken in a game."""

    @abstractmethod
    async def use_hint(self, game_id: int, limit: int) -> int | None:
        """Count one more hint in a game if fewer than ``limit`` were taken: the new count,
        or ``None`` (nothing changed) when the limit is reached."""

    # -- the bot's facts, server settings and player preferences ---------------------

    @abstractmethod
    async def get_meta(self, key: str) -> str | None: ...

    @abstractmethod
    async def set_meta(self, key: str, value: str) -> None: ...

    @abstractmethod
    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        """A server's settings that differ from the defaults, by name."""

    @abstractmethod
    async def set_guild_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set a server's setting; ``None`` returns it to the default."""

    @abstractmethod
    async def settings_named(self, key: str) -> dict[int, str]:
        """One setting across every server that changed it: server id → value."""

    @abstractmethod
    async def player_prefs(self, user_id: int) -> dict[str, str]:
        """A player's chosen preferences (language, theme), by name."""

    @abstractmethod
    async def set_player_pref(self, user_id: int, key: str, value: str | None) -> None:
        """Set a player's preference; ``None`` forgets it."""

    # -- challenges --------------------------------------------------------------------

    @abstractmethod
    async def create_challenge(self, new: NewChallenge, now: datetime) -> ChallengeRow: ...

    @abstractmethod
    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None: ...

    @abstractmethod
    async def open_challenges(self, channel_id: int) -> list[ChallengeRow]:
        """The open challenges in a channel, oldest first."""

    @abstractmethod
    async def open_challenges_all(self) -> list[ChallengeRow]: ...

    @abstractmethod
    async def due_challenges(self, now: datetime) -> list[ChallengeRow]:
        """Open challenges whose time is up."""

    @abstractmethod
    async def resolve_challenge(
        self, challenge_id: int, status: ChallengeStatus | str, now: datetime
    ) -> bool:
        """Close an open challenge as declined, cancelled or expired; ``False`` if it
        was no longer open."""

    @abstractmethod
    async def accept_challenge(
        self, challenge_id: int, new: NewGame, now: datetime
    ) -> GameRow | None:
        """Accept an open challenge and create its game in one transaction.

        ``None`` if the challenge was no longer open; raises :class:`ChannelTaken`
        (changing nothing) if the channel has an active game.
        """

    @abstractmethod
    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None: ...

    # -- tallies and series ------------------------------------------------------------

    @abstractmethod
    async def tallies(self, guild_id: int | None, user_id: int) -> dict[str, Tally]:
        """A player's tallies on a server, by opponent kind."""

    @abstractmethod
    async def leaderboard(
        self, guild_id: int | None, kind: str, by: LeaderboardOrder | str, limit: int = 10
    ) -> list[tuple[int, str, Tally]]:
        """The best tallies of a server for one opponent kind, ordered ``by`` the
        current ``"streak"`` or the ``"best"`` streak (ties: more wins first)."""

    @abstractmethod
    async def bot_record(self, guild_id: int | None) -> dict[str, tuple[int, int, int]]:
        """The bot's finished games on a server by tally kind (``"bot:hard"``): its wins,
        losses and draws, from its opponents' tallies."""

    @abstractmethod
    async def series(self, guild_id: int | None, x: str, y: str) -> Series:
        """The series between two keys on a server (empty if they never played)."""

    # -- copying a whole database ------------------------------------------------------

    @abstractmethod
    async def export_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of :data:`bot.storage.schema.TABLES`, in key order, as plain
        values (moments as aware datetimes, flags as bools)."""

    @abstractmethod
    async def import_rows(self, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        """Insert rows (as :meth:`export_rows` gives them) into empty tables, keeping their
        ids, in one transaction."""


def resolution(status: ChallengeStatus | str) -> ChallengeStatus:
    """The status a challenge is closed with; ``ValueError`` for any other."""
    checked = ChallengeStatus(status)
    if checked not in CHALLENGE_ENDINGS:
        allowed = ", ".join(sorted(CHALLENGE_ENDINGS))
        raise ValueError(f"a challenge is closed as one of {allowed}, not {status!r}")
    return checked


def check_table(table: str) -> str:
    """A table name from the schema's list (names are never taken from input)."""
    if table not in TABLES:
        raise ValueError(f"unknown table {table!r}; the tables are {', '.join(TABLES)}")
    return table
