"""Games, challenges, personal tallies and series. The shapes are written here as they were
made, apart from the live definitions of :mod:`bot.storage.tables`, which may grow
later."""

from alembic import op
from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    ForeignKeyConstraint,
    Identity,
    Integer,
    Text,
    false,
    text,
)

from bot.storage.columns import Moment

Id = BigInteger().with_variant(Integer(), "sqlite")
"""A Discord id or a row id: 64 bits on both engines."""

revision = "0001"
down_revision = None


def upgrade() -> None:
    op.create_table(
        "games",
        Column("id", Id, Identity(), primary_key=True),
        Column("guild_id", Id),
        Column("channel_id", Id, nullable=False),
        Column("parent_channel_id", Id),
        Column("variant", Text, nullable=False),
        Column("record", Text, nullable=False, server_default=""),
        Column("white_id", Id, nullable=False),
        Column("white_name", Text, nullable=False),
        Column("black_id", Id, nullable=False),
        Column("black_name", Text, nullable=False),
        Column("ai_level", Text),
        Column("ai_color", Text, CheckConstraint("ai_color IN ('white', 'black')")),
        Column(
            "status",
            Text,
            CheckConstraint("status IN ('active', 'over')"),
            nullable=False,
            server_default="active",
        ),
        Column("result", Text, CheckConstraint("result IN ('white', 'black', 'draw')")),
        Column("termination", Text),
        Column("version", Integer, nullable=False, server_default="0"),
        Column("draw_offered_by", Id),
        Column("warned", Boolean(create_constraint=False), nullable=False, server_default=false()),
        Column("board_message_id", Id),
        Column("rematch_of", Id),
        Column("created_at", Moment, nullable=False),
        Column("updated_at", Moment, nullable=False),
        Column("turn_started_at", Moment, nullable=False),
        Column("ended_at", Moment),
        ForeignKeyConstraint(["rematch_of"], ["games.id"]),
    )
    op.create_index(
        "games_one_active_per_channel",
        "games",
        ["channel_id"],
        unique=True,
        sqlite_where=text("status = 'active'"),
        postgresql_where=text("status = 'active'"),
    )
    op.create_index("games_status", "games", ["status"])
    op.create_table(
        "series",
        Column("guild_id", Id, primary_key=True),
        Column("a", Text, primary_key=True),
        Column("b", Text, primary_key=True),
        Column("holder", Text),
        Column("stones", Integer, nullable=False, server_default="0"),
        Column("last_white", Text),
        Column("last_winner", Text),
        Column("games", Integer, nullable=False, server_default="0"),
        CheckConstraint("a < b"),
    )
    op.create_table(
        "tallies",
        Column("guild_id", Id, primary_key=True),
        Column("user_id", Id, primary_key=True),
        Column("kind", Text, primary_key=True),
        Column("name", Text, nullable=False),
        Column("wins", Integer, nullable=False, server_default="0"),
        Column("losses", Integer, nullable=False, server_default="0"),
        Column("draws", Integer, nullable=False, server_default="0"),
        Column("streak", Integer, nullable=False, server_default="0"),
        Column("best", Integer, nullable=False, server_default="0"),
        Column("gal", Integer, nullable=False, server_default="0"),
        Column("gabad", Integer, nullable=False, server_default="0"),
    )
    op.create_table(
        "challenges",
        Column("id", Id, Identity(), primary_key=True),
        Column("guild_id", Id),
        Column("channel_id", Id, nullable=False),
        Column("parent_channel_id", Id),
        Column("challenger_id", Id, nullable=False),
        Column("challenger_name", Text, nullable=False),
        Column("opponent_id", Id, nullable=False),
        Column("opponent_name", Text, nullable=False),
        Column("variant", Text, nullable=False),
        Column(
            "status",
            Text,
            CheckConstraint("status IN ('open', 'accepted', 'declined', 'cancelled', 'expired')"),
            nullable=False,
            server_default="open",
        ),
        Column("rematch_of", Id),
        Column("game_id", Id),
        Column("message_id", Id),
        Column("created_at", Moment, nullable=False),
        Column("expires_at", Moment, nullable=False),
        Column("resolved_at", Moment),
        ForeignKeyConstraint(["game_id"], ["games.id"]),
        ForeignKeyConstraint(["rematch_of"], ["games.id"]),
    )
    op.create_index("challenges_open", "challenges", ["status", "expires_at"])
