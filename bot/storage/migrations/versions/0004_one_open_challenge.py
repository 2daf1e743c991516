"""One open challenge from a player to another in a channel, and one open rematch
challenge per game: two requests at once can no longer both open one. Duplicates a
database already holds are closed first (the oldest stays open), as cancelled."""

from alembic import op
from sqlalchemy import func, select, update

from bot.storage.migrations import grow
from bot.storage.tables import challenges

revision = "0004"
down_revision = "0003"


def upgrade() -> None:
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
    grow(4)
