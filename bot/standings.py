"""A player's standing as stored: the plain values of a tally, a series and a rating (the
one :class:`Rating` type, which the storage keeps and the service's Glicko-2 moves).

Below both the storage, which keeps them, and the service, whose streak rule
(:mod:`bot.service.streaks`) and rating rule (:mod:`bot.service.ratings`) compute the
next ones; no rule lives here.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from datetime import datetime


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


START_RATING = 1500.0
START_DEVIATION = 350.0
START_VOLATILITY = 0.06
PROVISIONAL_DEVIATION = 110.0
"""A rating whose deviation is above this is provisional: shown with a ``?`` and kept off
the rating leaderboard (lichess's line)."""


@dataclass(frozen=True)
class Rating:
    """A Glicko-2 rating on the familiar scale (a newcomer's by default): a person's, a
    bot level's, a puzzle's; the one type of a rating (:mod:`bot.service.glicko` moves
    it, the storage keeps its three numbers)."""

    rating: float = START_RATING
    deviation: float = START_DEVIATION
    volatility: float = START_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION

    @property
    def shown(self) -> str:
        """Rounded as players read it: ``1532``, or ``1500?`` while provisional."""
        return f"{round(self.rating)}{'?' if self.provisional else ''}"


@dataclass(frozen=True, kw_only=True)
class StoredRating(Rating):
    """A player's rating in one variant family on one server, as stored: the rating and
    what is kept beside it."""

    games: int
    """Rated games played."""
    best: float | None
    """The highest rating reached once established (``None`` until then)."""
    rated_at: datetime
    """When the last rated game ended (the deviation grows with the days since)."""


@dataclass(frozen=True)
class Standings:
    """The tallies of a game's players (by user id), the series of its pair, and, in a
    rated game, the people's ratings (by user id; ``None`` for one never rated)."""

    tallies: Mapping[int, Tally]
    series: Series
    ratings: Mapping[int, StoredRating | None] = field(default_factory=dict)


TALLY_FIELDS = ("wins", "losses", "draws", "streak", "best", "gal", "gabad")
SERIES_FIELDS = ("holder", "stones", "last_white", "last_winner", "games")
RATING_FIELDS = ("rating", "deviation", "volatility", "games", "best", "rated_at")
