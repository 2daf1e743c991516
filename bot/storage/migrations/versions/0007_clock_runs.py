"""When each clock last ran: a turn counts only while the bot runs, and gets back the time
the bot was away."""

from bot.storage.migrations import grow

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    grow(7)
