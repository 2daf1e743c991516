"""The bot's database: every statement once, for SQLite and PostgreSQL alike.

Each call is one statement where it can be (``UPDATE … RETURNING`` writes and reads back
in one trip, and commits on its own); a read-modify-write is one transaction that
takes its lock first (:meth:`Storage._transaction`; the locks are the dialect's, see
:mod:`bot.storage.dialects`), or rests on a unique index (``INSERT … ON CONFLICT DO
NOTHING``: two at once, and one of them finds the other's row). A game changes only
``WHERE id = ? AND version = ?``, so a stale or concurrent change applies at most once,
and its version then grows by one.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    and_,
    bindparam,
    or_,
    select,
    update,
)
from sqlalchemy.sql.dml import ReturningUpdate

from bot.standings import Standings, StoredRating, Tally
from bot.storage.base import ChannelTaken, check_table
from bot.storage.challenge_store import ChallengesAndStandings
from bot.storage.clock_store import ClockStore
from bot.storage.dialects import MIGRATION_LOCK, dialect_for
from bot.storage.migrations import SCHEMA_VERSION, upgrade
from bot.storage.puzzle_store import PuzzleStore
from bot.storage.rating_store import RatingStore
from bot.storage.rows import (
    BesideBoard,
    Finished,
    GameResult,
    GameRow,
    GameStatus,
    NewGame,
    RateGame,
    Score,
    TallyKey,
    Termination,
    game_row,
    guild_key,
    series_keys,
    series_of,
    tally_of,
)
from bot.storage.statements import (
    ACTIVE,
    BOARD,
    GAME,
    MOVED,
    PLAYING_IN,
    SERIES,
    SettingsChange,
    fields,
    prefs_in,
    ratings_in,
    series_in,
)
from bot.storage.tables import (
    NUMBERED,
    TABLES,
    games,
    guild_settings,
    hints,
    meta,
    metadata,
    player_prefs,
    series,
    tallies,
)


class Storage(ChallengesAndStandings, RatingStore, PuzzleStore, ClockStore):
    """The bot's database. Open with :meth:`open`; close with :meth:`close`."""

    @classmethod
    async def open(cls, target: str | Path) -> Storage:
        """Open (or create) the database ``target`` and run pending migrations: a SQLite
        file (a path or ``sqlite:///path``) or a PostgreSQL server (``postgresql://…``).
        Raises :class:`~bot.storage.base.StorageError` if it cannot be used."""
        dialect = dialect_for(target)
        await dialect.open()
        storage = cls(dialect)
        try:
            await storage._migrate()
        except BaseException as exc:
            await dialect.close()
            locked = dialect.locked(exc)
            if locked is not None:
                raise locked from None
            raise
        return storage

    async def _migrate(self) -> None:
        def migrate(conn: Connection) -> None:
            number = self._d.schema_number(conn)
            if number != SCHEMA_VERSION:
                upgrade(conn, number, self.where)
                self._d.set_schema_number(conn, SCHEMA_VERSION)

        await self._transaction(migrate, MIGRATION_LOCK)

    # -- games -----------------------------------------------------------------------

    async def create_game(self, new: NewGame, now: datetime) -> GameRow:
        """Insert a game; raises :class:`ChannelTaken` if its channel has an active game."""
        row = await self._game(self._insert_game(new, now))
        if row is None:
            raise ChannelTaken(new.channel_id)
        return row

    async def get_game(self, game_id: int) -> GameRow | None:
        return await self._game(GAME, game_id=game_id)

    async def active_game_in_channel(self, channel_id: int) -> GameRow | None:
        return await self._game(PLAYING_IN, channel_id=channel_id)

    async def active_games(self, *, turn_started_by: datetime | None = None) -> list[GameRow]:
        """The active games, oldest first. With ``turn_started_by``, only those the clock
        may concern: bot games, and games whose turn started at or before that moment."""
        statement = select(games).where(ACTIVE).order_by(games.c.id)
        if turn_started_by is not None:
            statement = statement.where(
                or_(games.c.ai_level.is_not(None), games.c.turn_started_at <= turn_started_by)
            )
        return await self._games(statement)

    def _change_game(self, game_id: int, version: int, **values: Any) -> ReturningUpdate[Any]:
        """The game changed if it is still active at ``version``; its version grows."""
        c = games.c
        return (
            update(games)
            .where(c.id == game_id, c.version == version, ACTIVE)
            .values(**values, version=c.version + 1)
            .returning(*games.c)
        )

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
        return await self._game(
            MOVED[new_turn],
            game_id=game_id,
            at_version=version,
            actions=" ".join(record),
            offer=draw_offered_by,
            now=now,
        )

    async def set_board_message(
        self, game_id: int, message_id: int | None, version: int | None = None
    ) -> None:
        """Remember the game's live board message and (if given) the version it shows."""
        changes: dict[str, Any] = {}
        if message_id is not None:
            changes["board_message_id"] = bindparam("message_id")
        if version is not None:
            changes["shown_version"] = self._d.greatest(games.c.shown_version, bindparam("seen"))
        if changes:
            await self._rows(
                BOARD.values(**changes), game_id=game_id, message_id=message_id, seen=version
            )

    async def mark_shown(self, game_id: int, version: int) -> None:
        """Note that the players have seen the game's board at ``version`` (never goes back)."""
        await self.set_board_message(game_id, None, version)

    async def unshown_games(self) -> list[GameRow]:
        """Games whose stored version is newer than the board the players last saw: a move
        committed but never shown (a crash between the commit and the post)."""
        c = games.c
        return await self._games(select(games).where(c.shown_version < c.version).order_by(c.id))

    async def finish_game(
        self,
        game_id: int,
        version: int,
        *,
        record: Sequence[str],
        result: GameResult | str | None,
        termination: Termination | str,
        now: datetime,
        players: Sequence[TallyKey],
        pair: tuple[str, str],
        score: Score,
        rated: tuple[str, RateGame] | None = None,
    ) -> Finished | None:
        """End a game if it is still at ``version`` and, in the same transaction, write
        the standings ``score`` computes from the players' tallies and the pair's series
        as they stand (their rows locked first, always in one order, so that games
        ending at once all count); in a game ``rated`` in a variant family, the
        ``players``' ratings the rule computes (see :meth:`RatingStore._rate_finished`).
        ``None`` if the game has moved on: nothing changes. An aborted game has no
        ``result``."""
        ending = self._change_game(
            game_id,
            version,
            record=" ".join(record),
            status=GameStatus.OVER,
            result=None if result is None else GameResult(result),
            termination=Termination(termination),
            draw_offered_by=None,
            updated_at=now,
            ended_at=now,
        )

        Changed = dict[int, tuple[StoredRating | None, StoredRating]]

        def finish(conn: Connection) -> tuple[GameRow, Standings, Standings, Changed] | None:
            row = conn.execute(ending).mappings().first()
            if row is None:
                return None
            game = game_row(row)
            guild = guild_key(game.guild_id)
            before = self._locked_standings(conn, guild, players, series_keys(*pair))
            after = score(before)
            for player in players:
                conn.execute(
                    update(tallies)
                    .where(*self._tally_key(guild, player))
                    .values(name=player.name, **fields(after.tallies[player.user_id]))
                )
            a, b = series_keys(*pair)
            conn.execute(
                update(series)
                .where(series.c.guild_id == guild, series.c.a == a, series.c.b == b)
                .values(**fields(after.series))
            )
            changed: Changed = {}
            if rated is not None and players:
                game, changed = self._rate_finished(conn, game, *rated, players)
            return game, before, after, changed

        finished = await self._transaction(finish)
        if finished is None:
            return None
        game, before, after, changed = finished
        tallies_changed = {
            p.user_id: (before.tallies[p.user_id], after.tallies[p.user_id]) for p in players
        }
        return Finished(game, tallies_changed, after.series, changed)

    @staticmethod
    def _tally_key(guild: int, player: TallyKey) -> tuple[Any, ...]:
        c = tallies.c
        return (c.guild_id == guild, c.user_id == player.user_id, c.kind == player.kind)

    def _locked_standings(
        self, conn: Connection, guild: int, players: Sequence[TallyKey], pair: tuple[str, str]
    ) -> Standings:
        """The players' tallies and the pair's series, their rows made if missing and
        locked until the transaction ends."""
        ordered = sorted(players, key=lambda p: (p.user_id, p.kind))
        if ordered:
            rows = [
                {"guild_id": guild, "user_id": p.user_id, "kind": p.kind, "name": p.name}
                for p in ordered
            ]
            conn.execute(self._d.insert(tallies).values(rows).on_conflict_do_nothing())
        a, b = pair
        conn.execute(
            self._d.insert(series).values(guild_id=guild, a=a, b=b).on_conflict_do_nothing()
        )
        found: dict[int, Tally] = {}
        if ordered:
            locked = conn.execute(
                select(tallies)
                .where(or_(*(and_(*self._tally_key(guild, p)) for p in ordered)))
                .order_by(tallies.c.user_id, tallies.c.kind)
                .with_for_update()
            )
            by_key = {(r["user_id"], r["kind"]): tally_of(r) for r in locked.mappings()}
            found = {p.user_id: by_key[p.user_id, p.kind] for p in ordered}
        pair_row = conn.execute(SERIES.with_for_update(), {"guild": guild, "a": a, "b": b})
        return Standings(found, series_of(pair_row.mappings().first()))

    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel, being played or over."""
        c = games.c
        return await self._game(
            select(games).where(c.channel_id == channel_id).order_by(c.id.desc()).limit(1)
        )

    # -- hints -----------------------------------------------------------------------

    async def hints_used(self, game_id: int) -> int:
        """How many hints were taken in a game."""
        row = await self._row(select(hints.c.used).where(hints.c.game_id == game_id))
        return 0 if row is None else int(row["used"])

    async def use_hint(self, game_id: int, limit: int) -> int | None:
        """Count one more hint in a game if fewer than ``limit`` were taken: the new count,
        or ``None`` (nothing changed) when the limit is reached."""
        if limit <= 0:
            return None
        statement = (
            self._d.insert(hints)
            .values(game_id=game_id, used=1)
            .on_conflict_do_update(
                index_elements=[hints.c.game_id],
                set_={"used": hints.c.used + 1},
                where=hints.c.used < limit,
            )
            .returning(hints.c.used)
        )
        row = await self._row(statement)
        return None if row is None else int(row["used"])

    # -- the bot's facts, server settings and player preferences ---------------------

    async def get_meta(self, key: str) -> str | None:
        row = await self._row(select(meta.c.value).where(meta.c.key == key))
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        await self._rows(self._upsert(meta, key=key, value=value))

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        """A server's settings that differ from the defaults, by name."""
        return await self._d.run(self._settings_of, guild_id)

    @staticmethod
    def _settings_of(conn: Connection, guild_id: int) -> dict[str, str]:
        c = guild_settings.c
        rows = conn.execute(select(c.key, c.value).where(c.guild_id == guild_id))
        return {str(key): str(value) for key, value in rows}

    async def set_guild_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set a server's setting; ``None`` returns it to the default."""
        await self.change_guild_settings(guild_id, lambda _: {key: value})

    async def change_guild_settings(self, guild_id: int, change: SettingsChange) -> dict[str, str]:
        """Change a server's settings in one transaction: ``change`` sees them as stored
        (no other change can come between) and says what to write. The settings after."""
        c = guild_settings.c

        def changing(conn: Connection) -> dict[str, str]:
            stored = self._settings_of(conn, guild_id)
            for key, value in change(dict(stored)).items():
                if value is None:
                    forgetting = guild_settings.delete().where(c.guild_id == guild_id, c.key == key)
                    conn.execute(forgetting)
                    stored.pop(key, None)
                else:
                    conn.execute(
                        self._upsert(guild_settings, guild_id=guild_id, key=key, value=value)
                    )
                    stored[key] = value
            return stored

        return await self._transaction(changing, f"guild_settings:{guild_id}")

    async def settings_named(self, key: str) -> dict[int, str]:
        """One setting across every server that changed it: server id → value."""
        c = guild_settings.c
        rows = await self._rows(select(c.guild_id, c.value).where(c.key == key))
        return {int(r["guild_id"]): str(r["value"]) for r in rows}

    async def player_prefs(self, user_id: int) -> dict[str, str]:
        """A player's chosen preferences (language, theme), by name."""
        return (await self._d.run(prefs_in, [user_id]))[user_id]

    async def beside_board(
        self,
        guild_id: int | None,
        pair: tuple[str, str],
        readers: Iterable[int],
        rated: tuple[str, Sequence[int]] | None = None,
    ) -> BesideBoard:
        """What a board shows beside its game, in one trip to the database: the series of
        ``pair`` (two series keys), the preferences of its ``readers`` and, when ``rated``
        names a family and players, their stored ratings in it."""

        def read(conn: Connection) -> BesideBoard:
            return BesideBoard(
                series=series_in(conn, guild_id, *pair),
                prefs=prefs_in(conn, readers),
                ratings={} if rated is None else ratings_in(conn, guild_id, *rated),
            )

        return await self._d.run(read)

    async def set_player_pref(self, user_id: int, key: str, value: str | None) -> None:
        """Set a player's preference; ``None`` forgets it (one statement: the last of
        several at once stands, as if they came one after another)."""
        c = player_prefs.c
        if value is None:
            await self._rows(player_prefs.delete().where(c.user_id == user_id, c.key == key))
        else:
            await self._rows(self._upsert(player_prefs, user_id=user_id, key=key, value=value))

    # -- copying a whole database ----------------------------------------------------

    async def export_rows(self, table: str) -> list[dict[str, Any]]:
        """Every row of one of :data:`bot.storage.tables.TABLES`, in key order, as plain
        values (moments as aware datetimes, flags as bools)."""
        found = metadata.tables[check_table(table)]
        order = [found.c[name] for name in TABLES[table]]
        return [dict(r) for r in await self._rows(select(found).order_by(*order))]

    async def import_rows(self, tables: Mapping[str, Sequence[Mapping[str, Any]]]) -> None:
        """Insert rows (as :meth:`export_rows` gives them) into empty tables, keeping their
        ids, in one transaction."""

        def copy(conn: Connection) -> None:
            for name, rows in tables.items():
                if rows:
                    conn.execute(metadata.tables[check_table(name)].insert(), list(rows))
            self._d.after_import(conn, list(NUMBERED))

        await self._transaction(copy)
