"""Statistics: a player's streaks and record, and the server's leaderboard: its streak
tables, its rating table (:mod:`bot.service.rating_replies`), both, or its puzzle table
(:mod:`bot.service.puzzle_standings`).

Streaks are counted when a game ends (:meth:`bot.service.kernel.GameKernel.finish`,
with the arithmetic in :mod:`bot.service.streaks`); this part only reads them.
"""

from __future__ import annotations

from bot.service.puzzle_standings import puzzle_table
from bot.service.rating_replies import RatingReplies
from bot.service.replies import BadOption, Place, Reply, Said, User
from bot.service.streaks import HUMAN, bot_kind
from bot.storage import Storage
from engine.ai import LEVELS

LEADERBOARD_TABLES = ("streaks", "ratings", "both", "puzzles")
"""What ``/shax leaderboard table:`` shows: the streak tables, the rating table, both, or
the puzzle table."""


class Statistics:
    """Streaks and leaderboards as replies."""

    def __init__(self, storage: Storage, bot_user: User, ratings: RatingReplies) -> None:
        self.storage = storage
        self.bot_user = bot_user
        self.ratings = ratings

    async def streak(self, place: Place, user: User) -> Reply:
        """A player's current and best streaks, gal/gabad counts and record against
        people and against each bot level, on this server; for the bot itself, its
        record at each level."""
        if user.id == self.bot_user.id:
            return await self._bot_record(place, user)
        tallies = await self.storage.tallies(place.guild_id, user.id)
        if not tallies:
            return Reply(text=Said("no_games_yet", user.name))
        lines = [Said("streaks_heading", user.name)]
        people = tallies.get(HUMAN)
        if people is not None:
            lines.append(Said("against_people", people))
        for level in LEVELS:
            tally = tallies.get(bot_kind(level))
            if tally is not None:
                lines.append(Said("against_bot", level, tally))
        return Reply(text=Said.join(lines, "\n"))

    async def _bot_record(self, place: Place, bot: User) -> Reply:
        record = await self.storage.bot_record(place.guild_id)
        lines = [Said("bot_record_heading", bot.name)]
        for level in LEVELS:
            counts = record.get(bot_kind(level))
            if counts is not None and any(counts):
                lines.append(Said("bot_record_line", level, *counts))
        if len(lines) == 1:
            return Reply(text=Said("bot_no_games_yet", bot.name))
        return Reply(text=Said.join(lines, "\n"))

    async def leaderboard(self, place: Place, table: str = "streaks") -> Reply:
        """The server's best current and all-time streaks against people (games against
        the bot are in each player's /shax streak, not here), its established ratings,
        both, or its players' puzzle ratings (``table``: one of :data:`LEADERBOARD_TABLES`)."""
        chosen = table.strip().lower()
        if chosen not in LEADERBOARD_TABLES:
            raise BadOption(Said("unknown_table", table))
        if chosen == "puzzles":
            return Reply(text=await puzzle_table(self.storage, place.guild_id))
        parts = []
        if chosen != "ratings":
            current = await self.storage.leaderboard(place.guild_id, HUMAN, "streak")
            best = await self.storage.leaderboard(place.guild_id, HUMAN, "best")
            parts.append(
                Said(
                    "leaderboard",
                    [(name, t) for _, name, t in current],
                    [(name, t) for _, name, t in best],
                )
            )
        if chosen != "streaks":
            parts.append(await self.ratings.table(place))
        return Reply(text=Said.join(parts, "\n\n"))
