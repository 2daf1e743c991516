"""The theme a player chose for each try of a puzzle, so that the next puzzle is of the
same theme. The column is written here as it was added, apart from the live definitions
of :mod:`bot.storage.tables`, which may grow later."""

from alembic import op
from sqlalchemy import Column, Text

revision = "0009"
down_revision = "0008"


def upgrade() -> None:
    op.add_column("puzzle_attempts", Column("theme", Text))
