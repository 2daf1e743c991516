"""Tournaments: each tournament, its players and its pairings. The tables' shapes are
written here as they were made, apart from the live definitions of
:mod:`bot.storage.tournament_tables`, which may grow later."""

from alembic import op
from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Identity,
    Integer,
    Text,
    false,
    text,
)

from bot.storage.columns import Moment

revision = "0010"
down_revision = "0009"

Id = BigInteger().with_variant(Integer(), "sqlite")
RUNNING = text("status IN ('open', 'playing')")


def upgrade() -> None:
    op.create_table(
        "tournaments",
        Column("id", Id, Identity(), primary_key=True),
        Column("guild_id", Id),
        Column("channel_id", Id, nullable=False),
        Column("format", Text, CheckConstraint("format IN ('swiss', 'arena')"), nullable=False),
        Column("variant", Text, nullable=False),
        Column("rounds", Integer, nullable=False),
        Column("minutes", Integer, nullable=False),
        Column("turn_seconds", Integer, nullable=False),
        Column("pause_seconds", Integer, nullable=False),
        Column("creator_id", Id, nullable=False),
        Column("creator_name", Text, nullable=False),
        Column(
            "status",
            Text,
            CheckConstraint("status IN ('open', 'playing', 'finished', 'cancelled')"),
            nullable=False,
            server_default="open",
        ),
        Column("round", Integer, nullable=False, server_default="0"),
        Column("said_round", Integer, nullable=False, server_default="0"),
        Column("starts_at", Moment),
        Column(
            "reminded", Boolean(create_constraint=False), nullable=False, server_default=false()
        ),
        Column("started_at", Moment),
        Column("next_round_at", Moment),
        Column("ends_at", Moment),
        Column("ended_at", Moment),
        Column("created_at", Moment, nullable=False),
    )
    op.create_index(
        "tournaments_one_per_channel",
        "tournaments",
        ["channel_id"],
        unique=True,
        sqlite_where=RUNNING,
        postgresql_where=RUNNING,
    )
    op.create_index("tournaments_by_status", "tournaments", ["status"])
    op.create_table(
        "tournament_players",
        Column("tournament_id", Id, ForeignKey("tournaments.id"), primary_key=True),
        Column("user_id", Id, primary_key=True),
        Column("name", Text, nullable=False),
        Column("seed", Float, nullable=False),
        Column("joined_at", Moment, nullable=False),
        Column("left_at", Moment),
        Column("paused", Boolean(create_constraint=False), nullable=False, server_default=false()),
    )
    op.create_table(
        "tournament_pairings",
        Column("id", Id, Identity(), primary_key=True),
        Column("tournament_id", Id, ForeignKey("tournaments.id"), nullable=False),
        Column("round", Integer, nullable=False),
        Column("white_id", Id, nullable=False),
        Column("black_id", Id),
        Column("game_id", Id, ForeignKey("games.id")),
        Column("channel_id", Id),
        Column("outcome", Text, CheckConstraint("outcome IN ('white', 'black', 'draw', 'bye')")),
        Column("forfeit", Boolean(create_constraint=False), nullable=False, server_default=false()),
        Column("created_at", Moment, nullable=False),
        Column("ended_at", Moment),
    )
    op.create_index(
        "tournament_pairings_one_a_round",
        "tournament_pairings",
        ["tournament_id", "round", "white_id"],
        unique=True,
    )
    op.create_index("tournament_pairings_one_game", "tournament_pairings", ["game_id"], unique=True)
