"""Puzzles: the puzzles with their ratings, players' puzzle ratings and streaks, each
try of a puzzle, and each server's puzzle of the day."""

from bot.storage.migrations import grow

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    grow(6)
