"""Puzzles: the puzzles with their ratings, players' puzzle ratings and streaks, each
try of a puzzle, and each server's puzzle of the day."""

from bot.storage.migrations import grow

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    grow(5)
