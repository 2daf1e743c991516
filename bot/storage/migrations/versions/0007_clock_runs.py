"""When each clock last ran: a turn counts only while the bot runs, and gets back the time
the bot was away. The table's shape is written here as it was made, apart from the live
definitions of :mod:`bot.storage.tables`, which may grow later."""

from alembic import op
from sqlalchemy import Column, Text

from bot.storage.columns import Moment

revision = "0007"
down_revision = "0006"


def upgrade() -> None:
    op.create_table(
        "clock_runs",
        Column("clock", Text, primary_key=True),
        Column("ran_at", Moment, nullable=False),
    )
