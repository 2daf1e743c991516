"""The puzzle of the day: a server that chose a channel and an hour (``/shax settings``)
gets one puzzle a day there, the same for everyone, with yesterday's results.

On each clock tick (:meth:`DailyPuzzles.due`), once the server's hour (UTC) has come, the
day's puzzle is claimed by inserting its one row (server, day): of several processes, or
of a restart and the process before it, exactly one makes the row, and only that one
posts. A claim whose post never happened (its process stopped in between) is claimed
again after :data:`REPOST_AFTER`; the post reports its message, which ends that.
The day's puzzle is chosen from the date alone, so every server has the same one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import date, timedelta

from bot.service import messages
from bot.service.kernel import Now
from bot.service.puzzles import PuzzleDesk, Try
from bot.service.replies import Said, Saying, User, UserError
from bot.service.server_settings import DailyPlan
from bot.storage import DailyResults, DailyRow, PuzzleRow

DAILY_VARIANT = "shax"
REPOST_AFTER = timedelta(minutes=10)
"""A claimed puzzle of the day not posted after this long is claimed and posted again."""
NOT_POSTED = 0
"""The message of a puzzle of the day that its channel would not take (gone, or closed to
the bot): it is not tried again."""
DAILY_DONE: Saying[[bool]] = Saying("daily_done")
"""A player tried this puzzle of the day already; true when they solved it."""


@dataclass(frozen=True)
class DailyDue:
    """A puzzle of the day to post now: its claim, the puzzle, and yesterday's results
    on the server (if it had one)."""

    daily: DailyRow
    puzzle: PuzzleRow
    yesterday: DailyResults | None


class DailyPuzzles:
    """Claiming, posting and opening the puzzles of the day."""

    def __init__(
        self,
        desk: PuzzleDesk,
        *,
        now: Now,
        owns: Callable[[int | None], bool],
    ) -> None:
        self.desk = desk
        self.storage = desk.storage
        self.now = now
        self.owns = owns

    async def of_the_day(self, day: date) -> int | None:
        """The puzzle of ``day``: the same on every server, from the date alone (``None``
        while there is no puzzle at all)."""
        await self.desk.ready()
        ids = await self.storage.puzzles.puzzle_ids(DAILY_VARIANT)
        if not ids:
            return None
        digest = hashlib.sha256(day.isoformat().encode()).digest()
        return ids[int.from_bytes(digest[:8], "big") % len(ids)]

    async def due(self, plans: Mapping[int, DailyPlan]) -> list[DailyDue]:
        """The puzzles of the day this process must post now: for each server it owns
        whose hour has come today and whose puzzle nobody claimed yet (or claimed and
        never posted, :data:`REPOST_AFTER` ago)."""
        now = self.now()
        today = now.date()
        found: list[DailyDue] = []
        puzzle_id: int | None = None  # read once, at the first server that claims today
        for guild_id, plan in sorted(plans.items()):
            if not self.owns(guild_id) or now.hour < plan.hour:
                continue
            day = today.isoformat()
            stored = await self.storage.puzzles.daily(guild_id, day)
            if stored is None:
                puzzle_id = puzzle_id or await self.of_the_day(today)
                if puzzle_id is None:
                    return []
                claimed = await self.storage.puzzles.claim_daily(
                    guild_id, day, plan.channel_id, puzzle_id, now
                )
            elif stored.message_id is None:
                claimed = await self.storage.puzzles.reclaim_daily(
                    stored.id, now - REPOST_AFTER, now
                )
            else:
                continue
            if claimed is not None:
                found.append(await self._due(claimed, today))
        return found

    async def _due(self, daily: DailyRow, today: date) -> DailyDue:
        yesterday = await self.storage.puzzles.daily(
            daily.guild_id, (today - timedelta(days=1)).isoformat()
        )
        results = (
            None if yesterday is None else await self.storage.puzzles.daily_results(yesterday.id)
        )
        return DailyDue(daily, await self.desk.puzzle(daily.puzzle_id), results)

    async def posted(self, daily_id: int, message_id: int) -> None:
        await self.storage.puzzles.daily_posted(daily_id, message_id)

    async def start(self, user: User, daily_id: int) -> Try:
        """Open ``user``'s try of a puzzle of the day (from its post): their try if it is
        open; a refusal saying how it went if they tried it from this post already."""
        daily = await self.storage.puzzles.get_daily(daily_id)
        if daily is None:
            raise UserError(Said.message(messages.NO_DAILY))
        last = await self.storage.puzzles.last_attempt(user.id, daily.puzzle_id)
        if last is not None and last.daily_id == daily_id and not last.open:
            raise UserError(DAILY_DONE(last.status == "solved"))
        return await self.desk.start_puzzle(user, daily.puzzle_id, daily_id, daily.guild_id)

    async def today(self, guild_id: int | None) -> DailyRow | None:
        """Today's puzzle of the day on a server, once posted or claimed."""
        if guild_id is None:
            return None
        return await self.storage.puzzles.daily(guild_id, self.now().date().isoformat())
