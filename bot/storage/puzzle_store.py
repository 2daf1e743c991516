"""Puzzles in the database: the puzzles and their ratings, players' tries and puzzle
standings, and each server's puzzle of the day: ``storage.puzzles`` (:class:`PuzzleStore`),
which serves :mod:`bot.service.puzzles`.

What two people can do at once rests on the database: a player has one open try (a
unique index), a try changes only ``WHERE id = ? AND version = ?`` (the same answer sent
twice applies once), a rated try's end locks the puzzle's row and then the player's
(always in that order) so that two players finishing the same puzzle at once both move
its rating, and a server's puzzle of the day is claimed by inserting its one row.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import (
    ColumnElement,
    Connection,
    RowMapping,
    and_,
    exists,
    func,
    literal,
    select,
    update,
)

from bot.standings import Rating
from bot.storage.puzzle_rows import (
    AttemptRow,
    AttemptStatus,
    DailyResults,
    DailyRow,
    Ended,
    NewPuzzle,
    PuzzleRow,
    Rate,
    Solver,
    attempt_row,
    daily_row,
    glicko_of,
    puzzle_row,
    solver_of,
)
from bot.storage.runner import Runner
from bot.storage.tables import daily_puzzles, puzzle_attempts, puzzle_solvers, puzzles

A = puzzle_attempts.c
OPEN_TRY = A.status == AttemptStatus.OPEN


def _has_theme(theme: str) -> ColumnElement[bool]:
    """Whether a puzzle's space-separated themes hold ``theme``."""
    return (literal(" ") + puzzles.c.themes + " ").contains(f" {theme} ", autoescape=True)


def _untried(variant: str, user_id: int) -> ColumnElement[bool]:
    """Whether a puzzle is of ``variant`` and ``user_id`` never tried it."""
    p = puzzles.c
    return and_(p.variant == variant, ~exists().where(A.user_id == user_id, A.puzzle_id == p.id))


def _glicko_values(g: Rating) -> dict[str, float]:
    return {"rating": g.rating, "deviation": g.deviation, "volatility": g.volatility}


class PuzzleStore:
    """Puzzles, tries, puzzle standings and the puzzles of the day."""

    def __init__(self, runner: Runner) -> None:
        self._run = runner

    # -- puzzles ---------------------------------------------------------------------

    async def seed_puzzles(self, new: Sequence[NewPuzzle]) -> int:
        """Add the puzzles not yet stored (a puzzle is its board and record); one already
        there keeps its rating and takes the themes it comes with, when they changed. How
        many were added or changed."""
        if not new:
            return 0
        adding = self._run.insert(puzzles).values([p.values() for p in new])
        themes = adding.excluded.themes
        seeding = adding.on_conflict_do_update(
            index_elements=["variant", "record"],
            set_={"themes": themes},
            where=puzzles.c.themes != themes,
        ).returning(puzzles.c.id)
        return len(await self._run.rows(seeding))

    async def get_puzzle(self, puzzle_id: int) -> PuzzleRow | None:
        row = await self._run.row(select(puzzles).where(puzzles.c.id == puzzle_id))
        return None if row is None else puzzle_row(row)

    async def puzzles_near(
        self, variant: str, rating: float, user_id: int, limit: int, theme: str | None = None
    ) -> list[PuzzleRow]:
        """Up to ``limit`` puzzles of ``variant`` (of ``theme``, if given) that ``user_id``
        never tried, those rated nearest ``rating`` first."""
        p = puzzles.c
        chosen = select(puzzles).where(_untried(variant, user_id))
        if theme is not None:
            chosen = chosen.where(_has_theme(theme))
        rows = await self._run.rows(chosen.order_by(func.abs(p.rating - rating), p.id).limit(limit))
        return [puzzle_row(r) for r in rows]

    async def themes_left(self, variant: str, user_id: int) -> set[str]:
        """The themes of the puzzles of ``variant`` that ``user_id`` never tried."""
        p = puzzles.c
        rows = await self._run.rows(
            select(p.themes).distinct().where(_untried(variant, user_id), p.themes != "")
        )
        return {theme for r in rows for theme in str(r["themes"]).split()}

    async def puzzle_ids(self, variant: str) -> list[int]:
        """Every puzzle of ``variant``, by id."""
        rows = await self._run.rows(
            select(puzzles.c.id).where(puzzles.c.variant == variant).order_by(puzzles.c.id)
        )
        return [int(r["id"]) for r in rows]

    # -- players and their tries ------------------------------------------------------

    async def puzzle_leaderboard(self, guild_id: int | None, limit: int) -> list[Solver]:
        """The puzzle standings of the players who tried a puzzle on the server (``None``:
        outside servers), rated ones only, the highest puzzle rating first."""
        s = puzzle_solvers.c
        server = A.guild_id.is_(None) if guild_id is None else A.guild_id == guild_id
        here = exists().where(A.user_id == s.user_id, server)
        rows = await self._run.rows(
            select(puzzle_solvers)
            .where(s.rated_at.is_not(None), here)
            .order_by(s.rating.desc(), s.solved.desc(), s.user_id)
            .limit(limit)
        )
        return [solver_of(r) for r in rows]

    async def solver(self, user_id: int) -> Solver | None:
        """A player's puzzle standing (``None`` before their first puzzle)."""
        row = await self._run.row(select(puzzle_solvers).where(puzzle_solvers.c.user_id == user_id))
        return None if row is None else solver_of(row)

    async def open_attempt(self, user_id: int) -> AttemptRow | None:
        """The puzzle ``user_id`` is solving, if any."""
        row = await self._run.row(select(puzzle_attempts).where(A.user_id == user_id, OPEN_TRY))
        return None if row is None else attempt_row(row)

    async def get_attempt(self, attempt_id: int) -> AttemptRow | None:
        row = await self._run.row(select(puzzle_attempts).where(A.id == attempt_id))
        return None if row is None else attempt_row(row)

    async def last_attempt(self, user_id: int, puzzle_id: int) -> AttemptRow | None:
        """``user_id``'s newest try of a puzzle."""
        row = await self._run.row(
            select(puzzle_attempts)
            .where(A.user_id == user_id, A.puzzle_id == puzzle_id)
            .order_by(A.id.desc())
            .limit(1)
        )
        return None if row is None else attempt_row(row)

    async def start_attempt(
        self,
        user_id: int,
        name: str,
        puzzle_id: int,
        now: datetime,
        *,
        start: Rating,
        daily_id: int | None = None,
        guild_id: int | None = None,
        theme: str | None = None,
    ) -> AttemptRow | None:
        """Open a try of a puzzle, asked on server ``guild_id`` with the ``theme`` the
        player chose (rated if it is the player's first of that puzzle), and the player's
        standing at ``start`` if they have none; ``None`` (nothing changed) when the player
        already has a puzzle open."""
        solver = self._run.insert(puzzle_solvers).values(
            user_id=user_id, name=name, **_glicko_values(start)
        )
        tried = select(A.id).where(A.user_id == user_id, A.puzzle_id == puzzle_id).limit(1)

        def begin(conn: Connection) -> RowMapping | None:
            conn.execute(
                solver.on_conflict_do_update(index_elements=["user_id"], set_={"name": name})
            )
            first = conn.execute(tried).first() is None
            opening = self._run.new_row(
                puzzle_attempts,
                user_id=user_id,
                puzzle_id=puzzle_id,
                daily_id=daily_id,
                guild_id=guild_id,
                theme=theme,
                rated=first,
                started_at=now,
            )
            return conn.execute(opening).mappings().first()

        row = await self._run.transaction(begin, f"puzzle_solver:{user_id}")
        return None if row is None else attempt_row(row)

    async def advance_attempt(
        self, attempt_id: int, version: int, played: Sequence[str]
    ) -> AttemptRow | None:
        """Store the actions of an open try if it is still at ``version`` (then version
        + 1); ``None`` when another answer came first: nothing changed."""
        row = await self._run.row(
            update(puzzle_attempts)
            .where(A.id == attempt_id, A.version == version, OPEN_TRY)
            .values(played=" ".join(played), version=A.version + 1)
            .returning(*puzzle_attempts.c)
        )
        return None if row is None else attempt_row(row)

    async def end_attempt(
        self,
        attempt_id: int,
        version: int,
        *,
        solved: bool,
        played: Sequence[str],
        now: datetime,
        rate: Rate,
        wrong: str | None = None,
    ) -> Ended | None:
        """End an open try still at ``version``, solved or failed (``wrong``: the action
        that failed it), and in the same transaction, for a rated try, write the player's
        standing and the puzzle's rating that ``rate`` computes from them as they stand
        (the puzzle's row locked first, then the player's). ``None`` when another answer
        came first: nothing changes."""
        ending = (
            update(puzzle_attempts)
            .where(A.id == attempt_id, A.version == version, OPEN_TRY)
            .values(
                played=" ".join(played),
                status=AttemptStatus.SOLVED if solved else AttemptStatus.FAILED,
                wrong=wrong,
                version=A.version + 1,
                ended_at=now,
            )
            .returning(*puzzle_attempts.c)
        )
        p, s = puzzles.c, puzzle_solvers.c

        def end(conn: Connection) -> Ended | None:
            row = conn.execute(ending).mappings().first()
            if row is None:
                return None
            attempt = attempt_row(row)
            mine = select(puzzle_solvers).where(s.user_id == attempt.user_id)
            if not attempt.rated:
                found = solver_of(conn.execute(mine).mappings().one())
                return Ended(attempt, (found, found), None)
            locked = select(puzzles).where(p.id == attempt.puzzle_id).with_for_update()
            puzzle_before = glicko_of(conn.execute(locked).mappings().one())
            before = solver_of(conn.execute(mine.with_for_update()).mappings().one())
            after, puzzle_after = rate(before, puzzle_before, solved)
            assert after.glicko is not None
            conn.execute(
                update(puzzles)
                .where(p.id == attempt.puzzle_id)
                .values(
                    **_glicko_values(puzzle_after),
                    tries=p.tries + 1,
                    solves=p.solves + int(solved),
                )
            )
            conn.execute(
                update(puzzle_solvers)
                .where(s.user_id == attempt.user_id)
                .values(
                    **_glicko_values(after.glicko),
                    rated_at=now,
                    solved=after.solved,
                    failed=after.failed,
                    streak=after.streak,
                    best=after.best,
                )
            )
            return Ended(attempt, (before, after), (puzzle_before, puzzle_after))

        return await self._run.transaction(end)

    # -- the puzzle of the day ---------------------------------------------------------

    async def claim_daily(
        self, guild_id: int, day: str, channel_id: int, puzzle_id: int, now: datetime
    ) -> DailyRow | None:
        """Claim the server's puzzle of ``day``: the row, or ``None`` if it was claimed
        already (by this process or another)."""
        claiming = self._run.new_row(
            daily_puzzles,
            guild_id=guild_id,
            day=day,
            channel_id=channel_id,
            puzzle_id=puzzle_id,
            claimed_at=now,
        )
        row = await self._run.row(claiming)
        return None if row is None else daily_row(row)

    async def reclaim_daily(
        self, daily_id: int, claimed_by: datetime, now: datetime
    ) -> DailyRow | None:
        """Claim again a puzzle of the day that was claimed at or before ``claimed_by``
        and never posted (its process stopped in between); ``None`` if it was posted or
        claimed since."""
        d = daily_puzzles.c
        row = await self._run.row(
            update(daily_puzzles)
            .where(d.id == daily_id, d.message_id.is_(None), d.claimed_at <= claimed_by)
            .values(claimed_at=now)
            .returning(*daily_puzzles.c)
        )
        return None if row is None else daily_row(row)

    async def daily_posted(self, daily_id: int, message_id: int) -> None:
        """Remember the message that shows a puzzle of the day."""
        d = daily_puzzles.c
        await self._run.rows(
            update(daily_puzzles).where(d.id == daily_id).values(message_id=message_id)
        )

    async def daily(self, guild_id: int, day: str) -> DailyRow | None:
        d = daily_puzzles.c
        row = await self._run.row(select(daily_puzzles).where(d.guild_id == guild_id, d.day == day))
        return None if row is None else daily_row(row)

    async def get_daily(self, daily_id: int) -> DailyRow | None:
        row = await self._run.row(select(daily_puzzles).where(daily_puzzles.c.id == daily_id))
        return None if row is None else daily_row(row)

    async def daily_results(self, daily_id: int) -> DailyResults:
        """How many tried a puzzle of the day from its post and solved it, and the first
        to solve it."""
        counts = await self._run.row(
            select(
                func.count().label("tried"),
                func.count().filter(A.status == AttemptStatus.SOLVED).label("solved"),
            ).where(A.daily_id == daily_id, A.status != AttemptStatus.OPEN)
        )
        first = await self._run.row(
            select(puzzle_solvers)
            .join(puzzle_attempts, A.user_id == puzzle_solvers.c.user_id)
            .where(A.daily_id == daily_id, A.status == AttemptStatus.SOLVED)
            .order_by(A.ended_at, A.id)
            .limit(1)
        )
        tried, solved = (0, 0) if counts is None else (int(counts["tried"]), int(counts["solved"]))
        return DailyResults(tried, solved, None if first is None else solver_of(first))
