"""Each puzzle's themes, and the server each try of a puzzle was asked on (for a server's
puzzle leaderboard): the tries of a puzzle of the day are its server's."""

from alembic import op
from sqlalchemy import select, update

from bot.storage.migrations import grow
from bot.storage.tables import daily_puzzles, puzzle_attempts

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    grow(8)
    a, d = puzzle_attempts.c, daily_puzzles.c
    server = select(d.guild_id).where(d.id == a.daily_id).scalar_subquery()
    op.execute(update(puzzle_attempts).where(a.daily_id.is_not(None)).values(guild_id=server))
