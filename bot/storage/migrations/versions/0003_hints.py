"""The hints a player has taken in a game against the bot."""

from bot.storage.migrations import grow

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    grow(3)
