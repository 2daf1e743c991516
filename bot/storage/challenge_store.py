"""Challenges and the standings (tallies, series, the leaderboard) in the database: the
part of :class:`bot.storage.store.Storage` that serves challenges and statistics."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    RowMapping,
    func,
    select,
    update,
)
from sqlalchemy.sql.dml import ReturningUpdate

from bot.standings import Series, Tally
from bot.storage.base import ChallengeTaken, ChannelTaken, resolution
from bot.storage.rows import (
    ChallengeRow,
    ChallengeStatus,
    GameRow,
    LeaderboardOrder,
    NewChallenge,
    NewGame,
    challenge_row,
    game_row,
    guild_key,
    tally_of,
)
from bot.storage.statements import (
    ACTIVE,
    OPEN,
    RANKED,
    Statements,
    channel_lock,
    series_in,
)
from bot.storage.tables import (
    challenges,
    games,
    tallies,
)


class ChallengesAndStandings(Statements):
    """Challenges, and the standings' reads."""

    # -- challenges ------------------------------------------------------------------

    async def create_challenge(self, new: NewChallenge, now: datetime) -> ChallengeRow:
        """Insert an open challenge, in one transaction holding its channel (as accepting
        one does): raises :class:`ChannelTaken` if a game is being played there, and
        :class:`ChallengeTaken` if the same player already has one open to the same
        opponent there, or the game already has an open rematch challenge."""
        inserting = (
            self._d.insert(challenges)
            .values(**new.values(), created_at=now)
            .on_conflict_do_nothing()
            .returning(*challenges.c)
        )
        playing = select(games.c.id).where(games.c.channel_id == new.channel_id, ACTIVE)

        def create(conn: Connection) -> RowMapping | None:
            if conn.execute(playing).first() is not None:
                raise ChannelTaken(new.channel_id)
            return conn.execute(inserting).mappings().first()

        row = await self._transaction(create, channel_lock(new.channel_id))
        if row is None:
            raise ChallengeTaken(new.channel_id)
        return challenge_row(row)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._row(select(challenges).where(challenges.c.id == challenge_id))
        return None if row is None else challenge_row(row)

    async def open_challenges(self, channel_id: int) -> list[ChallengeRow]:
        """The open challenges in a channel, oldest first."""
        c = challenges.c
        return await self._challenges(
            select(challenges).where(c.channel_id == channel_id, OPEN).order_by(c.id)
        )

    async def open_challenges_all(self) -> list[ChallengeRow]:
        return await self._challenges(select(challenges).where(OPEN).order_by(challenges.c.id))

    async def due_challenges(self, now: datetime) -> list[ChallengeRow]:
        """Open challenges whose time is up."""
        c = challenges.c
        return await self._challenges(
            select(challenges).where(OPEN, c.expires_at <= now).order_by(c.id)
        )

    def _close_challenge(
        self, challenge_id: int, status: ChallengeStatus, now: datetime
    ) -> ReturningUpdate[Any]:
        c = challenges.c
        return (
            update(challenges)
            .where(c.id == challenge_id, OPEN)
            .values(status=status, resolved_at=now)
            .returning(c.id)
        )

    async def resolve_challenge(
        self, challenge_id: int, status: ChallengeStatus | str, now: datetime
    ) -> bool:
        """Close an open challenge as declined, cancelled or expired; ``False`` if it
        was no longer open."""
        closing = self._close_challenge(challenge_id, resolution(status), now)
        return await self._row(closing) is not None

    async def accept_challenge(
        self, challenge_id: int, new: NewGame, now: datetime
    ) -> GameRow | None:
        """Accept an open challenge and create its game in one transaction.

        ``None`` if the challenge was no longer open; raises :class:`ChannelTaken`
        (changing nothing) if the channel has an active game.
        """
        accepting = self._close_challenge(challenge_id, ChallengeStatus.ACCEPTED, now)
        starting = self._insert_game(new, now)

        def accept(conn: Connection) -> GameRow | None:
            if conn.execute(accepting).first() is None:
                return None
            row = conn.execute(starting).mappings().first()
            if row is None:
                raise ChannelTaken(new.channel_id)
            conn.execute(
                update(challenges).where(challenges.c.id == challenge_id).values(game_id=row["id"])
            )
            return game_row(row)

        return await self._transaction(accept, channel_lock(new.channel_id))

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._rows(
            update(challenges).where(challenges.c.id == challenge_id).values(message_id=message_id)
        )

    # -- tallies and series ----------------------------------------------------------

    async def tallies(self, guild_id: int | None, user_id: int) -> dict[str, Tally]:
        """A player's tallies on a server, by opponent kind."""
        c = tallies.c
        rows = await self._rows(
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
        rows = await self._rows(
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
        rows = await self._rows(
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
        return await self._d.run(series_in, guild_id, x, y)
