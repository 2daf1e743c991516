"""Puzzle standings: a player's puzzle rating and streak, how a rated try moves them
(:func:`rated`), and beside the games' standings a player's puzzle record under ``/shax
rating`` and a server's puzzle leaderboard (``/shax leaderboard table:puzzles``). A
puzzle rating is the player's on every server; a server's table lists those who tried a
puzzle there."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import datetime

from bot.service import glicko
from bot.service.replies import Said, Saying
from bot.storage import Rating, Solver, Storage

START = Rating()
"""A player's puzzle rating before their first rated try (a newcomer's)."""


@dataclass(frozen=True)
class Standing:
    """A player's puzzle rating, as shown, and their puzzle streak."""

    rating: Rating
    streak: int
    best: int
    solved: int
    failed: int

    @property
    def tried(self) -> int:
        """The rated tries: the puzzles solved and failed at the first try."""
        return self.solved + self.failed

    @classmethod
    def of(cls, solver: Solver | None) -> Standing:
        if solver is None:
            return cls(START, 0, 0, 0, 0)
        return cls(solver.glicko or START, solver.streak, solver.best,
                   solver.solved, solver.failed)  # fmt: skip


def rated(before: Solver, puzzle: Rating, solved: bool, now: datetime) -> tuple[Solver, Rating]:
    """The player's standing and the puzzle's rating after a rated try: each rated
    against the other as they stood (the player's deviation first grown by the days since
    their last rated try), the solver winning when they solve it; the streak grows by a
    solve and ends with a failure."""
    mine = before.glicko or START
    if before.rated_at is not None:
        mine = glicko.idle(mine, (now - before.rated_at).total_seconds() / 86_400)
    score = 1.0 if solved else 0.0
    mine_after = glicko.rate(mine, [glicko.Result(puzzle, score)])
    puzzle_after = glicko.rate(puzzle, [glicko.Result(mine, 1.0 - score)])
    streak = before.streak + 1 if solved else 0
    after = replace(
        before,
        glicko=mine_after,
        solved=before.solved + solved,
        failed=before.failed + (not solved),
        streak=streak,
        best=max(before.best, streak),
    )
    return after, puzzle_after


TABLE_SIZE = 10
PUZZLE_RECORD: Saying[[str, int, int, int, int]] = Saying("puzzle_record")
"""A player's puzzle rating as shown, puzzles solved, rated tries, streak and best streak."""
PUZZLE_TABLE: Saying[[Sequence[tuple[str, str, int]]]] = Saying("puzzle_table")
"""A server's puzzle leaderboard, best first: name, puzzle rating as shown, puzzles solved."""


async def puzzle_record(storage: Storage, user_id: int) -> Said | None:
    """The player's puzzle record (``None`` before their first rated try)."""
    solver = await storage.puzzles.solver(user_id)
    if solver is None or solver.glicko is None:
        return None
    s = Standing.of(solver)
    return PUZZLE_RECORD(s.rating.shown, s.solved, s.tried, s.streak, s.best)


async def puzzle_table(storage: Storage, guild_id: int | None) -> Said:
    """The server's puzzle leaderboard (outside servers, of the puzzles tried there):
    puzzle rating, then puzzles solved."""
    ranked = await storage.puzzles.puzzle_leaderboard(guild_id, TABLE_SIZE)
    return PUZZLE_TABLE([(s.name, Standing.of(s).rating.shown, s.solved) for s in ranked])
