"""One open challenge from a player to another in a channel, and one open rematch challenge
per game: two requests at once can no longer both open one. Duplicates a database
already holds are closed first (the oldest stays open), as cancelled. The shapes are
written here as they were made, apart from the live definitions of
:mod:`bot.storage.tables`, which may grow later."""

from alembic import op
from sqlalchemy import column, func, select, table, text, update

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
    challenges = table(
        "challenges",
        *(column(name) for name in ("id", "channel_id", "challenger_id", "opponent_id")),
        *(column(name) for name in ("status", "rematch_of", "created_at", "resolved_at")),
    )
    c = challenges.c
    pairs = (c.status == "open", c.rematch_of.is_(None))
    rematches = (c.status == "open", c.rematch_of.is_not(None))
    for which, group in ((pairs, (c.channel_id, c.challenger_id, c.opponent_id)),
                         (rematches, (c.rematch_of,))):  # fmt: skip
        kept = select(func.min(c.id)).where(*which).group_by(*group)
        op.execute(
            update(challenges)
            .where(*which, c.id.not_in(kept))
            .values(status="cancelled", resolved_at=c.created_at)
        )
    op.create_index(
        "challenges_one_open_per_pair",
        "challenges",
        ["channel_id", "challenger_id", "opponent_id"],
        unique=True,
        sqlite_where=text("status = 'open' AND rematch_of IS NULL"),
        postgresql_where=text("status = 'open' AND rematch_of IS NULL"),
    )
    op.create_index(
        "challenges_one_open_rematch",
        "challenges",
        ["rematch_of"],
        unique=True,
        sqlite_where=text("status = 'open'"),
        postgresql_where=text("status = 'open'"),
    )
