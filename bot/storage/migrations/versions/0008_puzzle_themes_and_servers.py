"""Each puzzle's themes, and the server each try of a puzzle was asked on (for a server's
puzzle leaderboard): the tries of a puzzle of the day are its server's. The shapes are
written here as they were made, apart from the live definitions of
:mod:`bot.storage.tables`, which may grow later."""

from alembic import op
from sqlalchemy import BigInteger, Column, Integer, Text, column, select, table, update

Id = BigInteger().with_variant(Integer(), "sqlite")
"""A Discord id or a row id: 64 bits on both engines."""

revision = "0008"
down_revision = "0007"


def upgrade() -> None:
    op.add_column("puzzles", Column("themes", Text, nullable=False, server_default=""))
    op.add_column("puzzle_attempts", Column("guild_id", Id))
    op.create_index("puzzle_attempts_by_server", "puzzle_attempts", ["guild_id", "user_id"])
    attempts = table("puzzle_attempts", column("daily_id"), column("guild_id"))
    dailies = table("daily_puzzles", column("id"), column("guild_id"))
    a, d = attempts.c, dailies.c
    server = select(d.guild_id).where(d.id == a.daily_id).scalar_subquery()
    op.execute(update(attempts).where(a.daily_id.is_not(None)).values(guild_id=server))
