"""The hints a player has taken in a game against the bot. The shapes are written here as
they were made, apart from the live definitions of :mod:`bot.storage.tables`, which may
grow later."""

from alembic import op
from sqlalchemy import BigInteger, Column, ForeignKeyConstraint, Integer

Id = BigInteger().with_variant(Integer(), "sqlite")
"""A Discord id or a row id: 64 bits on both engines."""

revision = "0003"
down_revision = "0002"


def upgrade() -> None:
    op.create_table(
        "hints",
        Column("game_id", Id, primary_key=True),
        Column("used", Integer, nullable=False, server_default="0"),
        ForeignKeyConstraint(["game_id"], ["games.id"]),
    )
