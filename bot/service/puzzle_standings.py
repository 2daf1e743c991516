"""Puzzle standings beside the games': a player's puzzle record under ``/shax rating``,
and a server's puzzle leaderboard (``/shax leaderboard table:puzzles``). A puzzle rating
is the player's on every server; a server's table lists those who tried a puzzle there."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.puzzles import Standing
from bot.service.replies import Said, Saying
from bot.storage import Storage

TABLE_SIZE = 10
PUZZLE_RECORD: Saying[[str, int, int, int, int]] = Saying("puzzle_record")
"""A player's puzzle rating as shown, puzzles solved, rated tries, streak and best streak."""
PUZZLE_TABLE: Saying[[Sequence[tuple[str, str, int]]]] = Saying("puzzle_table")
"""A server's puzzle leaderboard, best first: name, puzzle rating as shown, puzzles solved."""


async def puzzle_record(storage: Storage, user_id: int) -> Said | None:
    """The player's puzzle record (``None`` before their first rated try)."""
    solver = await storage.solver(user_id)
    if solver is None or solver.glicko is None:
        return None
    s = Standing.of(solver)
    return PUZZLE_RECORD(s.rating.shown, s.solved, s.tried, s.streak, s.best)


async def puzzle_table(storage: Storage, guild_id: int | None) -> Said:
    """The server's puzzle leaderboard (outside servers, of the puzzles tried there):
    puzzle rating, then puzzles solved."""
    ranked = await storage.puzzle_leaderboard(guild_id, TABLE_SIZE)
    return PUZZLE_TABLE([(s.name, Standing.of(s).rating.shown, s.solved) for s in ranked])
