"""Statistics: a player's streaks and record, and the server's leaderboard: its streak
tables, its rating table (:mod:`bot.service.rating_replies`), both, or its puzzle table
(:mod:`bot.service.puzzle_standings`).

Streaks are counted when a game ends (:meth:`bot.service.kernel.GameKernel.finish`,
with the arithmetic in :mod:`bot.service.streaks`); this part only reads them.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.puzzle_standings import puzzle_table
from bot.service.rating_replies import RatingReplies
from bot.service.replies import BadOption, Place, Reply, Said, Saying, User
from bot.service.streaks import HUMAN, Tally, bot_kind
from bot.storage import Storage
from engine.ai import LEVELS

LEADERBOARD_TABLES = ("streaks", "ratings", "both", "puzzles")

NO_GAMES_YET: Saying[[str]] = Saying("no_games_yet")
STREAKS_HEADING: Saying[[str]] = Saying("streaks_heading")
AGAINST_PEOPLE: Saying[[Tally]] = Saying("against_people")
AGAINST_BOT: Saying[[str, Tally]] = Saying("against_bot")
"""A player's tally against the bot at a level."""
BOT_RECORD_HEADING: Saying[[str]] = Saying("bot_record_heading")
BOT_RECORD_LINE: Saying[[str, int, int, int]] = Saying("bot_record_line")
"""The bot's games at a level: its wins, losses and draws."""
BOT_NO_GAMES_YET: Saying[[str]] = Saying("bot_no_games_yet")
UNKNOWN_TABLE: Saying[[str]] = Saying("unknown_table")
LEADERBOARD: Saying[[Sequence[tuple[str, Tally]], Sequence[tuple[str, Tally]]]] = Saying(
    "leaderboard"
)
"""The server's current streaks and its best ones, each a player's name and tally."""
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
        tallies = await self.storage.standings.tallies(place.guild_id, user.id)
        if not tallies:
            return Reply(text=NO_GAMES_YET(user.name))
        lines = [STREAKS_HEADING(user.name)]
        people = tallies.get(HUMAN)
        if people is not None:
            lines.append(AGAINST_PEOPLE(people))
        for level in LEVELS:
            tally = tallies.get(bot_kind(level))
            if tally is not None:
                lines.append(AGAINST_BOT(level, tally))
        return Reply(text=Said.join(lines, "\n"))

    async def _bot_record(self, place: Place, bot: User) -> Reply:
        record = await self.storage.standings.bot_record(place.guild_id)
        lines = [BOT_RECORD_HEADING(bot.name)]
        for level in LEVELS:
            counts = record.get(bot_kind(level))
            if counts is not None and any(counts):
                lines.append(BOT_RECORD_LINE(level, *counts))
        if len(lines) == 1:
            return Reply(text=BOT_NO_GAMES_YET(bot.name))
        return Reply(text=Said.join(lines, "\n"))

    async def leaderboard(self, place: Place, table: str = "streaks") -> Reply:
        """The server's best current and all-time streaks against people (games against
        the bot are in each player's /shax streak, not here), its established ratings,
        both, or its players' puzzle ratings (``table``: one of :data:`LEADERBOARD_TABLES`)."""
        chosen = table.strip().lower()
        if chosen not in LEADERBOARD_TABLES:
            raise BadOption(UNKNOWN_TABLE(table))
        if chosen == "puzzles":
            return Reply(text=await puzzle_table(self.storage, place.guild_id))
        parts = []
        if chosen != "ratings":
            current = await self.storage.standings.leaderboard(place.guild_id, HUMAN, "streak")
            best = await self.storage.standings.leaderboard(place.guild_id, HUMAN, "best")
            parts.append(
                LEADERBOARD(
                    [(name, t) for _, name, t in current],
                    [(name, t) for _, name, t in best],
                )
            )
        if chosen != "streaks":
            parts.append(await self.ratings.table(place))
        return Reply(text=Said.join(parts, "\n\n"))
