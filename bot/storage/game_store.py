"""Games in the database (``storage.games``, :class:`GameStore`): made, moved, finished
with their standings and ratings in one transaction, the boards shown, the hints taken.

Each call is one statement where it can be (``UPDATE … RETURNING`` writes and reads back
in one trip, and commits on its own); a read-modify-write is one transaction that takes
its lock first (:meth:`bot.storage.runner.Runner.transaction`), or rests on a unique
index (``INSERT … ON CONFLICT DO NOTHING``: two at once, and one of them finds the
other's row). A game changes only ``WHERE id = ? AND version = ?``, so a stale or
concurrent change applies at most once, and its version then grows by one.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, Select, bindparam, or_, select, update
from sqlalchemy.sql.dml import ReturningUpdate

from bot.standings import Standings, StoredRating
from bot.storage.base import ChannelTaken
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
)
from bot.storage.runner import Runner
from bot.storage.standings_store import StandingsStore
from bot.storage.statements import (
    ACTIVE,
    BOARD,
    GAME,
    MOVED,
    PLAYING_IN,
    insert_game,
    prefs_in,
    ratings_in,
    series_in,
)
from bot.storage.tables import games, hints


class GameStore:
    """The games, and the hints taken in them."""

    def __init__(self, runner: Runner, standings: StandingsStore, ratings: RatingStore) -> None:
        self._run = runner
        self._standings = standings
        self._ratings = ratings

    async def _game(
        self, statement: Select[Any] | ReturningUpdate[Any], **values: Any
    ) -> GameRow | None:
        row = await self._run.row(statement, **values)
        return None if row is None else game_row(row)

    async def _games(self, statement: Select[Any]) -> list[GameRow]:
        return [game_row(r) for r in await self._run.rows(statement)]

    async def create_game(self, new: NewGame, now: datetime) -> GameRow:
        """Insert a game; raises :class:`ChannelTaken` if its channel has an active game."""
        row = await self._game(insert_game(self._run, new, now))
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
            changes["shown_version"] = self._run.greatest(games.c.shown_version, bindparam("seen"))
        if changes:
            await self._run.rows(
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
        ``players``' ratings the rule computes (see :meth:`RatingStore.rate_finished`).
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
            keys = series_keys(*pair)
            before = self._standings.locked(conn, guild, players, keys)
            after = score(before)
            self._standings.write(conn, guild, players, keys, after)
            changed: Changed = {}
            if rated is not None and players:
                game, changed = self._ratings.rate_finished(conn, game, *rated, players)
            return game, before, after, changed

        finished = await self._run.transaction(finish)
        if finished is None:
            return None
        game, before, after, changed = finished
        tallies_changed = {
            p.user_id: (before.tallies[p.user_id], after.tallies[p.user_id]) for p in players
        }
        return Finished(game, tallies_changed, after.series, changed)

    async def last_game_in_channel(self, channel_id: int) -> GameRow | None:
        """The newest game of a channel, being played or over."""
        c = games.c
        return await self._game(
            select(games).where(c.channel_id == channel_id).order_by(c.id.desc()).limit(1)
        )

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

        return await self._run.run(read)

    # -- hints -----------------------------------------------------------------------

    async def hints_used(self, game_id: int) -> int:
        """How many hints were taken in a game."""
        row = await self._run.row(select(hints.c.used).where(hints.c.game_id == game_id))
        return 0 if row is None else int(row["used"])

    async def use_hint(self, game_id: int, limit: int) -> int | None:
        """Count one more hint in a game if fewer than ``limit`` were taken: the new count,
        or ``None`` (nothing changed) when the limit is reached."""
        if limit <= 0:
            return None
        statement = (
            self._run.insert(hints)
            .values(game_id=game_id, used=1)
            .on_conflict_do_update(
                index_elements=[hints.c.game_id],
                set_={"used": hints.c.used + 1},
                where=hints.c.used < limit,
            )
            .returning(hints.c.used)
        )
        row = await self._run.row(statement)
        return None if row is None else int(row["used"])
