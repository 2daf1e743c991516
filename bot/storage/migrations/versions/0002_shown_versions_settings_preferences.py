"""The version each game's shown board displays (to reconcile after a crash), the bot's own
facts (the command hash), per-server settings and per-player preferences. The shapes are
written here as they were made, apart from the live definitions of
:mod:`bot.storage.tables`, which may grow later."""

from alembic import op
from sqlalchemy import BigInteger, Column, Integer, Text, column, table, update

Id = BigInteger().with_variant(Integer(), "sqlite")
"""A Discord id or a row id: 64 bits on both engines."""

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    op.add_column("games", Column("shown_version", Integer, nullable=False, server_default="0"))
    op.create_index("games_unshown", "games", ["status", "shown_version", "version"])
    op.create_table(
        "guild_settings",
        Column("guild_id", Id, primary_key=True),
        Column("key", Text, primary_key=True),
        Column("value", Text, nullable=False),
    )
    op.create_table(
        "meta",
        Column("key", Text, primary_key=True),
        Column("value", Text, nullable=False),
    )
    op.create_table(
        "player_prefs",
        Column("user_id", Id, primary_key=True),
        Column("key", Text, primary_key=True),
        Column("value", Text, nullable=False),
    )
    games = table("games", column("version"), column("shown_version"))
    op.execute(update(games).values(shown_version=games.c.version))
