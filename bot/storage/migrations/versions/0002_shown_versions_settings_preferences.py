"""The version each game's shown board displays (to reconcile after a crash), the bot's
own facts (the command hash), per-server settings and per-player preferences."""

from alembic import op
from sqlalchemy import update

from bot.storage.migrations import grow
from bot.storage.tables import games

revision = "0002"
down_revision = "0001"


def upgrade() -> None:
    grow(2)
    op.execute(update(games).values(shown_version=games.c.version))
