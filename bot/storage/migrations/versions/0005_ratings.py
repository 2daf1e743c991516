"""Glicko-2 ratings: each person's per server and variant family, and each rated game's
before and after. Games finished earlier stay unrated until ``python -m bot ratings
recompute`` rates them."""

from bot.storage.migrations import grow

revision = "0005"
down_revision = "0004"


def upgrade() -> None:
    grow(5)
