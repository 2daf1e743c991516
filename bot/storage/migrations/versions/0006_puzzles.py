"""Puzzles: the puzzles with their ratings, players' puzzle ratings and streaks, each try
of a puzzle, and each server's puzzle of the day. The shapes are written here as they
were made, apart from the live definitions of :mod:`bot.storage.tables`, which may grow
later."""

from alembic import op
from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKeyConstraint,
    Identity,
    Integer,
    Text,
    text,
)

from bot.storage.columns import Moment

Id = BigInteger().with_variant(Integer(), "sqlite")
"""A Discord id or a row id: 64 bits on both engines."""

revision = "0006"
down_revision = "0005"


def upgrade() -> None:
    op.create_table(
        "puzzle_solvers",
        Column("user_id", Id, primary_key=True),
        Column("name", Text, nullable=False),
        Column("rating", Float),
        Column("deviation", Float),
        Column("volatility", Float),
        Column("rated_at", Moment),
        Column("solved", Integer, nullable=False, server_default="0"),
        Column("failed", Integer, nullable=False, server_default="0"),
        Column("streak", Integer, nullable=False, server_default="0"),
        Column("best", Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "puzzles",
        Column("id", Id, Identity(), primary_key=True),
        Column("variant", Text, nullable=False),
        Column("record", Text, nullable=False),
        Column("solution", Text, nullable=False),
        Column("moves", Integer, nullable=False),
        Column("depth", Integer, nullable=False),
        Column("tempting", Integer, nullable=False),
        Column("rating", Float),
        Column("deviation", Float),
        Column("volatility", Float),
        Column("tries", Integer, nullable=False, server_default="0"),
        Column("solves", Integer, nullable=False, server_default="0"),
    )
    op.create_index("puzzles_by_rating", "puzzles", ["variant", "rating"])
    op.create_index("puzzles_one_per_position", "puzzles", ["variant", "record"], unique=True)
    op.create_table(
        "daily_puzzles",
        Column("id", Id, Identity(), primary_key=True),
        Column("guild_id", Id, nullable=False),
        Column("day", Text, nullable=False),
        Column("puzzle_id", Id, nullable=False),
        Column("channel_id", Id, nullable=False),
        Column("message_id", Id),
        Column("claimed_at", Moment, nullable=False),
        ForeignKeyConstraint(["puzzle_id"], ["puzzles.id"]),
    )
    op.create_index("daily_puzzles_one_a_day", "daily_puzzles", ["guild_id", "day"], unique=True)
    op.create_table(
        "puzzle_attempts",
        Column("id", Id, Identity(), primary_key=True),
        Column("user_id", Id, nullable=False),
        Column("puzzle_id", Id, nullable=False),
        Column("daily_id", Id),
        Column("played", Text, nullable=False, server_default=""),
        Column(
            "status",
            Text,
            CheckConstraint("status IN ('open', 'solved', 'failed')"),
            nullable=False,
            server_default="open",
        ),
        Column("rated", Boolean(create_constraint=False), nullable=False),
        Column("wrong", Text),
        Column("version", Integer, nullable=False, server_default="0"),
        Column("started_at", Moment, nullable=False),
        Column("ended_at", Moment),
        ForeignKeyConstraint(["puzzle_id"], ["puzzles.id"]),
        ForeignKeyConstraint(["daily_id"], ["daily_puzzles.id"]),
    )
    op.create_index("puzzle_attempts_by_player", "puzzle_attempts", ["user_id", "puzzle_id"])
    op.create_index("puzzle_attempts_of_daily", "puzzle_attempts", ["daily_id", "status"])
    op.create_index(
        "puzzle_attempts_one_open",
        "puzzle_attempts",
        ["user_id"],
        unique=True,
        sqlite_where=text("status = 'open'"),
        postgresql_where=text("status = 'open'"),
    )
