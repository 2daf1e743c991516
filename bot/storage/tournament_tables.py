"""The tournament tables, defined once with the vocabularies of their columns (the rows
built from them are :mod:`bot.tournaments.rows`', their statements
:mod:`bot.tournaments.store`'s; migration 10 made them). Like every table, they import
nothing of the feature above them.

A channel has one tournament open or playing at a time (a unique index); a tournament's
players are keyed by it and the user; a pairing holds its game once it is opened (one game a
pairing: a unique index) and its result once it is known."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from sqlalchemy import (
    Boolean,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Identity,
    Index,
    Integer,
    Table,
    Text,
    false,
    text,
)

from bot.storage.columns import Id, Moment, metadata


class Format(StrEnum):
    """How a tournament pairs: rounds of equal scores, or at once for a fixed time."""

    SWISS = "swiss"
    ARENA = "arena"


class Status(StrEnum):
    OPEN = "open"
    """Taking players; not started."""
    PLAYING = "playing"
    FINISHED = "finished"
    CANCELLED = "cancelled"


RUNNING = (Status.OPEN, Status.PLAYING)
"""A channel has at most one tournament in these (a unique index)."""


class Outcome(StrEnum):
    """A pairing's result: who won (a forfeit is a win for the one who stayed), a draw,
    or a bye (a pairing of one player)."""

    WHITE = "white"
    BLACK = "black"
    DRAW = "draw"
    BYE = "bye"


def _listed(words: Iterable[StrEnum]) -> str:
    return ", ".join(f"'{word.value}'" for word in words)


def _one_of(name: str, words: type[StrEnum]) -> CheckConstraint:
    return CheckConstraint(f"{name} IN ({_listed(words)})")


RUNNING_WHERE = text(f"status IN ({_listed(RUNNING)})")


tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Id, Identity(), primary_key=True),
    Column("guild_id", Id),
    Column("channel_id", Id, nullable=False),
    Column("format", Text, _one_of("format", Format), nullable=False),
    Column("variant", Text, nullable=False),
    Column("rounds", Integer, nullable=False),
    Column("minutes", Integer, nullable=False),
    Column("turn_seconds", Integer, nullable=False),
    Column("pause_seconds", Integer, nullable=False),
    Column("creator_id", Id, nullable=False),
    Column("creator_name", Text, nullable=False),
    Column("status", Text, _one_of("status", Status), nullable=False, server_default="open"),
    Column("round", Integer, nullable=False, server_default="0"),
    Column("said_round", Integer, nullable=False, server_default="0"),
    Column("starts_at", Moment),
    Column("reminded", Boolean(create_constraint=False), nullable=False, server_default=false()),
    Column("started_at", Moment),
    Column("next_round_at", Moment),
    Column("ends_at", Moment),
    Column("ended_at", Moment),
    Column("created_at", Moment, nullable=False),
    Index(
        "tournaments_one_per_channel",
        "channel_id",
        unique=True,
        sqlite_where=RUNNING_WHERE,
        postgresql_where=RUNNING_WHERE,
    ),
    Index("tournaments_by_status", "status"),
)
"""Each tournament: how it pairs and plays, where it is announced, and how far it is."""

tournament_players = Table(
    "tournament_players",
    metadata,
    Column("tournament_id", Id, ForeignKey("tournaments.id"), primary_key=True),
    Column("user_id", Id, primary_key=True),
    Column("name", Text, nullable=False),
    Column("seed", Float, nullable=False),
    Column("joined_at", Moment, nullable=False),
    Column("left_at", Moment),
    Column("paused", Boolean(create_constraint=False), nullable=False, server_default=false()),
)
"""A tournament's players: a Swiss player who left is withdrawn for good; an arena player
who left is paused until they join again."""

tournament_pairings = Table(
    "tournament_pairings",
    metadata,
    Column("id", Id, Identity(), primary_key=True),
    Column("tournament_id", Id, ForeignKey("tournaments.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("white_id", Id, nullable=False),
    Column("black_id", Id),
    Column("game_id", Id, ForeignKey("games.id")),
    Column("channel_id", Id),
    Column("outcome", Text, _one_of("outcome", Outcome)),
    Column("forfeit", Boolean(create_constraint=False), nullable=False, server_default=false()),
    Column("created_at", Moment, nullable=False),
    Column("ended_at", Moment),
    Index(
        "tournament_pairings_one_a_round",
        "tournament_id",
        "round",
        "white_id",
        unique=True,
    ),
    Index("tournament_pairings_one_game", "game_id", unique=True),
)
"""Each round's pairings (an arena's waves of them): white and black, or one player with a
bye; the game once opened; the result once known (``forfeit``: a player left)."""
