"""The values the puzzle tables hold: a puzzle with its rating, a player's puzzle standing,
a try of a puzzle, a server's puzzle of the day, and what ending a try changed.

Ratings are stored as plain numbers (a :class:`~bot.standings.Rating`): the arithmetic is
the service's (:mod:`bot.service.glicko`), handed to the storage as :data:`Rate` when a try ends.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from bot.standings import Rating
from bot.storage.rows import moment


class AttemptStatus(StrEnum):
    OPEN = "open"
    SOLVED = "solved"
    FAILED = "failed"


@dataclass(frozen=True)
class PuzzleRow:
    id: int
    variant: str
    record: tuple[str, ...]
    solution: tuple[str, ...]
    moves: int
    depth: int
    tempting: int
    glicko: Rating
    tries: int
    solves: int
    themes: tuple[str, ...] = ()
    """What the puzzle is about (:class:`engine.tables.puzzles.PuzzleTheme` ids)."""


@dataclass(frozen=True)
class NewPuzzle:
    """A puzzle to add (``seed_puzzles``), with its starting rating."""

    variant: str
    record: str
    solution: str
    moves: int
    depth: int
    tempting: int
    glicko: Rating
    themes: str = ""
    """Its theme ids, space-separated."""

    def values(self) -> dict[str, Any]:
        g = self.glicko
        return {
            "variant": self.variant,
            "record": self.record,
            "solution": self.solution,
            "moves": self.moves,
            "depth": self.depth,
            "tempting": self.tempting,
            "rating": g.rating,
            "deviation": g.deviation,
            "volatility": g.volatility,
            "themes": self.themes,
        }


@dataclass(frozen=True)
class Solver:
    """A player's puzzle standing (``glicko`` ``None`` until their first rated try)."""

    user_id: int
    name: str
    glicko: Rating | None = None
    rated_at: datetime | None = None
    solved: int = 0
    failed: int = 0
    streak: int = 0
    """Puzzles solved in a row now."""
    best: int = 0


@dataclass(frozen=True)
class AttemptRow:
    id: int
    user_id: int
    puzzle_id: int
    daily_id: int | None
    played: tuple[str, ...]
    """The actions since the puzzle's position: the solver's and the defence's."""
    status: AttemptStatus
    rated: bool
    """Whether the try moves the ratings (a player's first try of the puzzle)."""
    wrong: str | None
    """The wrong action that ended a failed try."""
    version: int
    started_at: datetime
    ended_at: datetime | None
    guild_id: int | None = None
    """The server the try was asked on (``None`` in DMs)."""
    theme: str | None = None
    """The theme the player chose for the try (a ``PuzzleTheme`` id; ``None``: none)."""

    @property
    def open(self) -> bool:
        return self.status == AttemptStatus.OPEN


@dataclass(frozen=True)
class DailyRow:
    id: int
    guild_id: int
    day: str
    """The date, ``YYYY-MM-DD`` (UTC)."""
    puzzle_id: int
    channel_id: int
    message_id: int | None
    claimed_at: datetime


@dataclass(frozen=True)
class DailyResults:
    """How a puzzle of the day went: who tried, who solved, and the first to solve it."""

    tried: int
    solved: int
    first: Solver | None


Rate = Callable[[Solver, Rating, bool], tuple[Solver, Rating]]
"""The rating rule, handed over by the service: the player's standing and the puzzle's
rating after a rated try (solved or not), from those before it (read under lock)."""


@dataclass(frozen=True)
class Ended:
    """What ``storage.puzzles.end_attempt`` changed: the try, and, for a rated one, the
    player's standing and the puzzle's rating before and after."""

    attempt: AttemptRow
    solver: tuple[Solver, Solver]
    puzzle: tuple[Rating, Rating] | None


def glicko_of(d: Mapping[Any, Any]) -> Rating:
    return Rating(float(d["rating"]), float(d["deviation"]), float(d["volatility"]))


def puzzle_row(d: Mapping[Any, Any]) -> PuzzleRow:
    return PuzzleRow(
        id=int(d["id"]),
        variant=str(d["variant"]),
        record=tuple(str(d["record"]).split()),
        solution=tuple(str(d["solution"]).split()),
        moves=int(d["moves"]),
        depth=int(d["depth"]),
        tempting=int(d["tempting"]),
        glicko=glicko_of(d),
        tries=int(d["tries"]),
        solves=int(d["solves"]),
        themes=tuple(str(d["themes"]).split()),
    )


def solver_of(d: Mapping[Any, Any]) -> Solver:
    return Solver(
        user_id=int(d["user_id"]),
        name=str(d["name"]),
        glicko=None if d["rated_at"] is None else glicko_of(d),
        rated_at=moment(d["rated_at"]),
        solved=int(d["solved"]),
        failed=int(d["failed"]),
        streak=int(d["streak"]),
        best=int(d["best"]),
    )


def attempt_row(d: Mapping[Any, Any]) -> AttemptRow:
    started = moment(d["started_at"])
    assert started is not None
    return AttemptRow(
        id=int(d["id"]),
        user_id=int(d["user_id"]),
        puzzle_id=int(d["puzzle_id"]),
        daily_id=None if d["daily_id"] is None else int(d["daily_id"]),
        played=tuple(str(d["played"]).split()),
        status=AttemptStatus(d["status"]),
        rated=bool(d["rated"]),
        wrong=d["wrong"],
        version=int(d["version"]),
        started_at=started,
        ended_at=moment(d["ended_at"]),
        guild_id=None if d["guild_id"] is None else int(d["guild_id"]),
        theme=d["theme"],
    )


def daily_row(d: Mapping[Any, Any]) -> DailyRow:
    claimed = moment(d["claimed_at"])
    assert claimed is not None
    return DailyRow(
        id=int(d["id"]),
        guild_id=int(d["guild_id"]),
        day=str(d["day"]),
        puzzle_id=int(d["puzzle_id"]),
        channel_id=int(d["channel_id"]),
        message_id=None if d["message_id"] is None else int(d["message_id"]),
        claimed_at=claimed,
    )
