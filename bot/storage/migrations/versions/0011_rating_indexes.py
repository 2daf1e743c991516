"""The indexes of the ratings' two reads: a server's leaderboard in a variant family
(``ratings`` by server, family and rating) and a player's rating history
(``game_ratings`` by server, family and player). Their shapes are written here as they
were made, apart from the live definitions of :mod:`bot.storage.tables`."""

from alembic import op

revision = "0011"
down_revision = "0010"


def upgrade() -> None:
    op.create_index("ratings_ranked", "ratings", ["guild_id", "family", "rating"])
    op.create_index("game_ratings_by_player", "game_ratings", ["guild_id", "family", "user_id"])
