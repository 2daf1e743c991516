"""A player's standing as stored: the plain values of a tally and a series.

Below both the storage, which keeps them, and the service, whose streak rule
(:mod:`bot.service.streaks`) computes the next ones; no rule lives here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class Tally:
    """A player's record against one kind of opponent (``"human"``, ``"bot:hard"``)."""

    wins: int = 0
    losses: int = 0
    draws: int = 0
    streak: int = 0
    """Wins in a row now (draws do not break it)."""
    best: int = 0
    """The longest streak ever."""
    gal: int = 0
    gabad: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws


@dataclass(frozen=True)
class Series:
    """Games between two opponents (players, or a player and a bot level), each
    named by a key such as ``"u:123"`` or ``"bot:hard"``."""

    holder: str | None = None
    """Who has the scoring stones in the central square."""
    stones: int = 0
    last_white: str | None = None
    """Who placed first in the last game."""
    last_winner: str | None = None
    """Who won the last game (``None`` after a draw)."""
    games: int = 0


@dataclass(frozen=True)
class Standings:
    """The tallies of a game's players (by user id) and the series of its pair."""

    tallies: Mapping[int, Tally]
    series: Series


TALLY_FIELDS = ("wins", "losses", "draws", "streak", "best", "gal", "gabad")
SERIES_FIELDS = ("holder", "stones", "last_white", "last_winner", "games")
