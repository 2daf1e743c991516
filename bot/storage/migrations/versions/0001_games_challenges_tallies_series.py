"""Games, challenges, personal tallies and series."""

from bot.storage.migrations import grow

revision = "0001"
down_revision = None


def upgrade() -> None:
    grow(1)
