"""The standings in the database: each player's tallies, the series between two, the
leaderboards (``storage.standings``, :class:`StandingsStore`); a finished game writes
them through :meth:`StandingsStore.locked` in its own transaction."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Connection, and_, func, or_, select, update

from bot.standings import Series, Standings, Tally
from bot.storage.rows import LeaderboardOrder, TallyKey, guild_key, series_of, tally_of
from bot.storage.runner import Runner
from bot.storage.statements import RANKED, SERIES, fields, series_in
from bot.storage.tables import series, tallies


def tally_key(guild: int, player: TallyKey) -> tuple[Any, ...]:
    c = tallies.c
    return (c.guild_id == guild, c.user_id == player.user_id, c.kind == player.kind)


class StandingsStore:
    """Tallies, series and the leaderboards."""

    def __init__(self, runner: Runner) -> None:
        self._run = runner

    async def tallies(self, guild_id: int | None, user_id: int) -> dict[str, Tally]:
        """A player's tallies on a server, by opponent kind."""
        c = tallies.c
        rows = await self._run.rows(
            select(tallies).where(c.guild_id == guild_key(guild_id), c.user_id == user_id)
        )
        return {str(r["kind"]): tally_of(r) for r in rows}

    async def leaderboard(
        self, guild_id: int | None, kind: str, by: LeaderboardOrder | str, limit: int = 10
    ) -> list[tuple[int, str, Tally]]:
        """The best tallies of a server for one opponent kind, ordered ``by`` the
        current ``"streak"`` or the ``"best"`` streak (ties: more wins first)."""
        ranked, wins = RANKED[LeaderboardOrder(by)]
        c = tallies.c
        rows = await self._run.rows(
            select(tallies)
            .where(c.guild_id == guild_key(guild_id), c.kind == kind, ranked > 0)
            .order_by(ranked.desc(), wins.desc(), c.user_id)
            .limit(limit)
        )
        return [(int(r["user_id"]), str(r["name"]), tally_of(r)) for r in rows]

    async def bot_record(self, guild_id: int | None) -> dict[str, tuple[int, int, int]]:
        """The bot's finished games on a server by tally kind (``"bot:hard"``): its wins,
        losses and draws, from its opponents' tallies."""
        c = tallies.c
        rows = await self._run.rows(
            select(
                c.kind,
                func.sum(c.losses).label("won"),
                func.sum(c.wins).label("lost"),
                func.sum(c.draws).label("drawn"),
            )
            .where(c.guild_id == guild_key(guild_id), c.kind.like("bot:%"))
            .group_by(c.kind)
        )
        return {str(r["kind"]): (int(r["won"]), int(r["lost"]), int(r["drawn"])) for r in rows}

    async def series(self, guild_id: int | None, x: str, y: str) -> Series:
        """The series between two keys on a server (empty if they never played)."""
        return await self._run.run(series_in, guild_id, x, y)

    def locked(
        self, conn: Connection, guild: int, players: Sequence[TallyKey], pair: tuple[str, str]
    ) -> Standings:
        """In a transaction: the players' tallies and the pair's series (two series
        keys), their rows made if missing and locked until it ends, always in one order."""
        ordered = sorted(players, key=lambda p: (p.user_id, p.kind))
        if ordered:
            rows = [
                {"guild_id": guild, "user_id": p.user_id, "kind": p.kind, "name": p.name}
                for p in ordered
            ]
            conn.execute(self._run.insert(tallies).values(rows).on_conflict_do_nothing())
        a, b = pair
        conn.execute(
            self._run.insert(series).values(guild_id=guild, a=a, b=b).on_conflict_do_nothing()
        )
        found: dict[int, Tally] = {}
        if ordered:
            locked = conn.execute(
                select(tallies)
                .where(or_(*(and_(*tally_key(guild, p)) for p in ordered)))
                .order_by(tallies.c.user_id, tallies.c.kind)
                .with_for_update()
            )
            by_key = {(r["user_id"], r["kind"]): tally_of(r) for r in locked.mappings()}
            found = {p.user_id: by_key[p.user_id, p.kind] for p in ordered}
        pair_row = conn.execute(SERIES.with_for_update(), {"guild": guild, "a": a, "b": b})
        return Standings(found, series_of(pair_row.mappings().first()))

    @staticmethod
    def write(
        conn: Connection,
        guild: int,
        players: Sequence[TallyKey],
        pair: tuple[str, str],
        after: Standings,
    ) -> None:
        """In the transaction that read them :meth:`locked`: the standings ``after``."""
        for player in players:
            conn.execute(
                update(tallies)
                .where(*tally_key(guild, player))
                .values(name=player.name, **fields(after.tallies[player.user_id]))
            )
        a, b = pair
        conn.execute(
            update(series)
            .where(series.c.guild_id == guild, series.c.a == a, series.c.b == b)
            .values(**fields(after.series))
        )
