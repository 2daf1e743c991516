"""Statistics: a player's streaks and record, and the server's leaderboard.

Streaks are counted when a game ends (:meth:`bot.service.kernel.GameKernel.finish`,
with the arithmetic in :mod:`bot.service.streaks`); this part only reads them.
"""

from __future__ import annotations

from bot.service import texts
from bot.service.replies import Place, Reply, User
from bot.service.speech import in_public
from bot.service.streaks import HUMAN, bot_kind
from bot.storage import Storage
from engine.ai import LEVELS


class Statistics:
    """Streaks and leaderboards as replies."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def streak(self, place: Place, user: User) -> Reply:
        """A player's current and best streaks, gal/gabad counts and record against
        people and against each bot level, on this server."""
        t = in_public()
        tallies = await self.storage.tallies(place.guild_id, user.id)
        if not tallies:
            return Reply(text=texts.no_games_yet(user.name, t))
        lines = [texts.streaks_heading(user.name, t)]
        people = tallies.get(HUMAN)
        if people is not None:
            lines.append(texts.against_people(people, t))
        for level in LEVELS:
            tally = tallies.get(bot_kind(level))
            if tally is not None:
                lines.append(texts.against_bot(level, tally, t))
        return Reply(text="\n".join(lines))

    async def leaderboard(self, place: Place) -> Reply:
        """The server's best current and all-time streaks against people (games against
        the bot are in each player's /shax streak, not here)."""
        current = await self.storage.leaderboard(place.guild_id, HUMAN, "streak")
        best = await self.storage.leaderboard(place.guild_id, HUMAN, "best")
        return Reply(
            text=texts.leaderboard(
                [(name, t) for _, name, t in current],
                [(name, t) for _, name, t in best],
                in_public(),
            )
        )
