"""Glicko-2 ratings: each person's per server and variant family, and each rated game's
before and after. Games finished earlier stay unrated until ``python -m bot ratings
recompute`` rates them. The shapes are written here as they were made, apart from the
live definitions of :mod:`bot.storage.tables`, which may grow later."""

from alembic import op
from sqlalchemy import BigInteger, Column, Float, ForeignKeyConstraint, Integer, Text

from bot.storage.columns import Moment

Id = BigInteger().with_variant(Integer(), "sqlite")
"""A Discord id or a row id: 64 bits on both engines."""

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    op.create_table(
        "ratings",
        Column("guild_id", Id, primary_key=True),
        Column("user_id", Id, primary_key=True),
        Column("family", Text, primary_key=True),
        Column("name", Text, nullable=False),
        Column("rating", Float),
        Column("deviation", Float),
        Column("volatility", Float),
        Column("games", Integer, nullable=False, server_default="0"),
        Column("best", Float),
        Column("rated_at", Moment),
    )
    op.create_table(
        "game_ratings",
        Column("game_id", Id, primary_key=True),
        Column("user_id", Id, primary_key=True),
        Column("guild_id", Id, nullable=False),
        Column("family", Text, nullable=False),
        Column("rating_before", Float),
        Column("deviation_before", Float),
        Column("volatility_before", Float),
        Column("rating", Float),
        Column("deviation", Float),
        Column("volatility", Float),
        ForeignKeyConstraint(["game_id"], ["games.id"]),
    )
