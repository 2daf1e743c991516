"""Challenges in the database: ``storage.challenges`` (:class:`ChallengeStore`)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import (
    Connection,
    RowMapping,
    Select,
    select,
    update,
)
from sqlalchemy.sql.dml import ReturningUpdate

from bot.storage.base import ChallengeTaken, ChannelTaken, resolution
from bot.storage.rows import (
    ChallengeRow,
    ChallengeStatus,
    GameRow,
    NewChallenge,
    NewGame,
    challenge_row,
    game_row,
)
from bot.storage.runner import Runner
from bot.storage.statements import ACTIVE, OPEN, channel_lock, insert_game
from bot.storage.tables import (
    challenges,
    games,
)


class ChallengeStore:
    """Challenges: made, accepted with the game they start, closed."""

    def __init__(self, runner: Runner) -> None:
        self._run = runner

    async def _challenges(self, statement: Select[Any]) -> list[ChallengeRow]:
        return [challenge_row(r) for r in await self._run.rows(statement)]

    async def create_challenge(self, new: NewChallenge, now: datetime) -> ChallengeRow:
        """Insert an open challenge, in one transaction holding its channel (as accepting
        one does): raises :class:`ChannelTaken` if a game is being played there, and
        :class:`ChallengeTaken` if the same player already has one open to the same
        opponent there, or the game already has an open rematch challenge."""
        inserting = (
            self._run.insert(challenges)
            .values(**new.values(), created_at=now)
            .on_conflict_do_nothing()
            .returning(*challenges.c)
        )
        playing = select(games.c.id).where(games.c.channel_id == new.channel_id, ACTIVE)

        def create(conn: Connection) -> RowMapping | None:
            if conn.execute(playing).first() is not None:
                raise ChannelTaken(new.channel_id)
            return conn.execute(inserting).mappings().first()

        row = await self._run.transaction(create, channel_lock(new.channel_id))
        if row is None:
            raise ChallengeTaken(new.channel_id)
        return challenge_row(row)

    async def get_challenge(self, challenge_id: int) -> ChallengeRow | None:
        row = await self._run.row(select(challenges).where(challenges.c.id == challenge_id))
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
        return await self._run.row(closing) is not None

    async def accept_challenge(
        self, challenge_id: int, new: NewGame, now: datetime
    ) -> GameRow | None:
        """Accept an open challenge and create its game in one transaction.

        ``None`` if the challenge was no longer open; raises :class:`ChannelTaken`
        (changing nothing) if the channel has an active game.
        """
        accepting = self._close_challenge(challenge_id, ChallengeStatus.ACCEPTED, now)
        starting = insert_game(self._run, new, now)

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

        return await self._run.transaction(accept, channel_lock(new.channel_id))

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        await self._run.rows(
            update(challenges).where(challenges.c.id == challenge_id).values(message_id=message_id)
        )
