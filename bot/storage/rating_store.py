"""Ratings in the database: each person's per server and variant family, and each rated
game's before and after (``storage.ratings``, :class:`RatingStore`; a game's finish
writes them in its own transaction through :meth:`RatingStore.rate_finished`);
the rule that computes them is the service's (:mod:`bot.service.ratings`), handed over
as a :data:`~bot.storage.rows.RateGame` or, to recompute them all, a :data:`Rerate`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import Connection, and_, bindparam, select, update

from bot.standings import RATING_FIELDS, StoredRating
from bot.storage.rows import (
    GameRow,
    GameStatus,
    RateGame,
    RatingChange,
    TallyKey,
    game_row,
    guild_key,
    rating_of,
)
from bot.storage.runner import Runner
from bot.storage.statements import ratings_in
from bot.storage.tables import GLICKO, game_ratings, games, ratings

RATINGS_LOCK = "shax:ratings"
"""Held shared by every rated game's finish, alone by a recomputation of all ratings."""
TICK = timedelta(microseconds=1)

Rerate = Callable[[Sequence[GameRow]], list[RatingChange]]
"""The rating rule over every finished game, oldest first: each rated game's changes."""


def rating_fields(value: StoredRating | None) -> dict[str, Any]:
    """A rating's columns (all empty for ``None``)."""
    return {name: None if value is None else getattr(value, name) for name in RATING_FIELDS}


def glicko_fields(value: StoredRating | None, suffix: str = "") -> dict[str, Any]:
    return {f"{n}{suffix}": None if value is None else getattr(value, n) for n in GLICKO}


def change_row(change: RatingChange) -> dict[str, Any]:
    """A rated game's row of :data:`game_ratings`."""
    return {
        "game_id": change.game_id,
        "user_id": change.user_id,
        "guild_id": change.guild_id,
        "family": change.family,
        **glicko_fields(change.before, "_before"),
        **glicko_fields(change.after),
    }


RANKED = (
    select(ratings)
    .where(
        ratings.c.guild_id == bindparam("guild"),
        ratings.c.family == bindparam("family"),
        ratings.c.rating.is_not(None),
        ratings.c.deviation <= bindparam("established"),
    )
    .order_by(ratings.c.rating.desc(), ratings.c.user_id)
    .limit(bindparam("limit"))
)
HISTORY = (
    select(games.c.ended_at, game_ratings.c.rating)
    .join(games, games.c.id == game_ratings.c.game_id)
    .where(
        game_ratings.c.guild_id == bindparam("guild"),
        game_ratings.c.family == bindparam("family"),
        game_ratings.c.user_id == bindparam("user_id"),
    )
    .order_by(games.c.ended_at, games.c.id)
)
FINISHED = (
    select(games).where(games.c.status == GameStatus.OVER).order_by(games.c.ended_at, games.c.id)
)


class RatingStore:
    """The ratings: written with a game's finish, read for the players, recomputed."""

    def __init__(self, runner: Runner) -> None:
        self._run = runner

    async def of(
        self, guild_id: int | None, family: str, user_ids: Sequence[int]
    ) -> dict[int, StoredRating]:
        """The stored ratings of those of ``user_ids`` rated in ``family`` on a server."""
        return await self._run.run(ratings_in, guild_id, family, user_ids)

    async def history(
        self, guild_id: int | None, family: str, user_id: int
    ) -> list[tuple[datetime, float]]:
        """A person's rating after each of their rated games, oldest first."""
        key = {"guild": guild_key(guild_id), "family": family, "user_id": user_id}
        rows = await self._run.rows(HISTORY, **key)
        return [(r["ended_at"], float(r["rating"])) for r in rows]

    async def leaderboard(
        self, guild_id: int | None, family: str, established: float, limit: int = 10
    ) -> list[tuple[int, str, StoredRating]]:
        """The highest ratings of a server in ``family`` whose deviation is at most
        ``established`` (ties: the lower user id first)."""
        rows = await self._run.rows(
            RANKED, guild=guild_key(guild_id), family=family, established=established, limit=limit
        )
        listed = [(int(r["user_id"]), str(r["name"]), rating_of(r)) for r in rows]
        return [(user, name, rating) for user, name, rating in listed if rating is not None]

    def rate_finished(
        self,
        conn: Connection,
        game: GameRow,
        family: str,
        rate: RateGame,
        players: Sequence[TallyKey],
    ) -> tuple[GameRow, dict[int, tuple[StoredRating | None, StoredRating]]]:
        """In a game's finishing transaction: the people's ratings, their rows made if
        missing and locked (in user order), rated by ``rate`` and written with the game's
        before and after. The game's end is moved on by a microsecond past a player's
        later rated game, if one was committed first, so that the games' order by their
        end is the order they were rated in (a recomputation rates them alike)."""
        self._run.lock(conn, RATINGS_LOCK, shared=True)
        guild = guild_key(game.guild_id)
        ordered = sorted(players, key=lambda p: p.user_id)
        key = and_(ratings.c.guild_id == guild, ratings.c.family == family)
        conn.execute(
            self._run.insert(ratings)
            .values(
                [
                    {"guild_id": guild, "user_id": p.user_id, "family": family, "name": p.name}
                    for p in ordered
                ]
            )
            .on_conflict_do_nothing()
        )
        locked = conn.execute(
            select(ratings)
            .where(key, ratings.c.user_id.in_([p.user_id for p in ordered]))
            .order_by(ratings.c.user_id)
            .with_for_update()
        )
        before = {int(r["user_id"]): rating_of(r) for r in locked.mappings()}
        assert game.ended_at is not None
        ended = max([game.ended_at, *(r.rated_at + TICK for r in before.values() if r)])
        if ended != game.ended_at:
            moved = (
                update(games)
                .where(games.c.id == game.id)
                .values(ended_at=ended, updated_at=ended)
                .returning(*games.c)
            )
            game = game_row(conn.execute(moved).mappings().one())
        after = rate(before, ended)
        changes = [
            RatingChange(
                game.id, guild, family, p.user_id, p.name, before[p.user_id], after[p.user_id]
            )
            for p in ordered
        ]
        self._write_changes(conn, changes)
        return game, {c.user_id: (c.before, c.after) for c in changes}

    def _write_changes(self, conn: Connection, changes: Sequence[RatingChange]) -> None:
        """Each change's game row, and each person's rating after their last change."""
        if not changes:
            return
        conn.execute(game_ratings.insert(), [change_row(c) for c in changes])
        latest = {(c.guild_id, c.family, c.user_id): c for c in changes}
        for (guild, family, user), c in latest.items():
            conn.execute(
                self._run.upsert(
                    ratings,
                    guild_id=guild,
                    user_id=user,
                    family=family,
                    name=c.name,
                    **rating_fields(c.after),
                )
            )

    async def recompute(self, rerate: Rerate) -> list[RatingChange]:
        """Every rating again from the finished games, oldest first, as ``rerate`` rates
        them: in one transaction that no rated game's finish comes between, every rating
        and every game's before and after are replaced. The changes written."""

        def recompute(conn: Connection) -> list[RatingChange]:
            self._run.lock(conn, RATINGS_LOCK)
            finished = [game_row(r) for r in conn.execute(FINISHED).mappings()]
            changes = rerate(finished)
            conn.execute(game_ratings.delete())
            conn.execute(update(ratings).values({**rating_fields(None), "games": 0}))
            self._write_changes(conn, changes)
            return changes

        return await self._run.transaction(recompute)
