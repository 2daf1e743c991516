"""The values the storage reads and writes: rows of games and challenges, the new ones to
insert, a finished game's results, and the small vocabularies their columns hold.

The vocabularies are :class:`~enum.StrEnum` members, so a row's ``status`` still equals
``"active"`` and prints as it; a plain string given to the storage is checked against
them (``ValueError`` if it is not one of theirs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any

from bot.standings import TALLY_FIELDS, Series, Standings, StoredRating, Tally

__all__ = [
    "AiColor",
    "BesideBoard",
    "ChallengeRow",
    "ChallengeStatus",
    "Finished",
    "GameResult",
    "GameRow",
    "GameStatus",
    "LeaderboardOrder",
    "NewChallenge",
    "NewGame",
    "RateGame",
    "RatingChange",
    "Score",
    "StoredRating",
    "TallyKey",
    "Termination",
    "guild_key",
    "series_keys",
]
"""The values the rest of the bot uses (:mod:`bot.storage` offers them)."""


class GameStatus(StrEnum):
    ACTIVE = "active"
    OVER = "over"


class GameResult(StrEnum):
    WHITE = "white"
    BLACK = "black"
    DRAW = "draw"


class AiColor(StrEnum):
    """The colour the bot plays in a game against it."""

    WHITE = "white"
    BLACK = "black"


class Termination(StrEnum):
    """Why a game ended: the names of :class:`engine.Termination` (kept equal by a test)."""

    TWO_PIECES = "TWO_PIECES"
    THREE_IN_A_ROW = "THREE_IN_A_ROW"
    RESIGNATION = "RESIGNATION"
    MUTUAL_BLOCKADE = "MUTUAL_BLOCKADE"
    THREEFOLD_REPETITION = "THREEFOLD_REPETITION"
    MOVE_LIMIT = "MOVE_LIMIT"
    AGREEMENT = "AGREEMENT"
    TIMEOUT = "TIMEOUT"
    ABORTED = "ABORTED"


class ChallengeStatus(StrEnum):
    OPEN = "open"
    ACCEPTED = "accepted"
    DECLINED = "declined"
    CANCELLED = "cancelled"
    EXPIRED = "expired"


class LeaderboardOrder(StrEnum):
    """How ``storage.standings.leaderboard`` ranks: by the current streak or the best one."""

    STREAK = "streak"
    BEST = "best"


CHALLENGE_ENDINGS = frozenset(
    {ChallengeStatus.DECLINED, ChallengeStatus.CANCELLED, ChallengeStatus.EXPIRED}
)
"""The statuses ``storage.challenges.resolve_challenge`` may close a challenge with."""


@dataclass(frozen=True)
class GameRow:
    id: int
    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None
    variant: str
    record: tuple[str, ...]
    white_id: int
    white_name: str
    black_id: int
    black_name: str
    ai_level: str | None
    ai_color: AiColor | None
    status: GameStatus
    result: GameResult | None
    termination: Termination | None
    version: int
    draw_offered_by: int | None
    warned: bool
    board_message_id: int | None
    rematch_of: int | None
    created_at: datetime
    updated_at: datetime
    turn_started_at: datetime
    ended_at: datetime | None
    shown_version: int
    """The version of the board the players last saw (-1 until the first board is shown)."""

    @property
    def active(self) -> bool:
        return self.status == GameStatus.ACTIVE


@dataclass(frozen=True)
class NewGame:
    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None
    variant: str
    white_id: int
    white_name: str
    black_id: int
    black_name: str
    ai_level: str | None = None
    ai_color: AiColor | str | None = None
    rematch_of: int | None = None

    def checked_ai_color(self) -> AiColor | None:
        return None if self.ai_color is None else AiColor(self.ai_color)

    def values(self) -> dict[str, Any]:
        """The stored columns, by name."""
        return {**asdict(self), "ai_color": self.checked_ai_color()}


@dataclass(frozen=True)
class ChallengeRow:
    id: int
    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None
    challenger_id: int
    challenger_name: str
    opponent_id: int
    opponent_name: str
    variant: str
    status: ChallengeStatus
    rematch_of: int | None
    game_id: int | None
    message_id: int | None
    created_at: datetime
    expires_at: datetime
    resolved_at: datetime | None


@dataclass(frozen=True)
class NewChallenge:
    guild_id: int | None
    channel_id: int
    parent_channel_id: int | None
    challenger_id: int
    challenger_name: str
    opponent_id: int
    opponent_name: str
    variant: str
    expires_at: datetime
    rematch_of: int | None = None

    def values(self) -> dict[str, Any]:
        """The stored columns, by name."""
        return asdict(self)


@dataclass(frozen=True)
class TallyKey:
    """Whose tally a finished game changes: ``kind`` is ``"human"`` or ``"bot:<level>"``
    (the opponent's); ``name`` is stored with it, as the leaderboard shows it."""

    user_id: int
    name: str
    kind: str


Score = Callable[[Standings], Standings]
"""The streak rule, handed over by the service: the standings after a game, from the ones
before it (read in the finishing transaction, under lock)."""


RateGame = Callable[[Mapping[int, "StoredRating | None"], datetime], Mapping[int, StoredRating]]
"""The rating rule, handed over by the service: the people's ratings after a rated game,
from theirs before it (read in the finishing transaction, under lock; ``None`` for one
never rated) and the moment it ended."""


@dataclass(frozen=True)
class RatingChange:
    """One person's rating in one rated game, before (``None``: never rated) and after."""

    game_id: int
    guild_id: int
    """The server's key (0 outside one, as :func:`guild_key`)."""
    family: str
    user_id: int
    name: str
    before: StoredRating | None
    after: StoredRating


@dataclass(frozen=True)
class BesideBoard:
    """What a board shows beside its game (``storage.games.beside_board``): the players'
    series, the preferences of its readers (user id → by name) and the people's stored
    ratings (only of those asked for who have one)."""

    series: Series
    prefs: dict[int, dict[str, str]]
    ratings: dict[int, StoredRating]


@dataclass(frozen=True)
class Finished:
    """What ``storage.games.finish_game`` changed: each player's tally before and after,
    the series after, and in a rated game each person's rating before and after."""

    game: GameRow
    tallies: dict[int, tuple[Tally, Tally]]
    series: Series
    ratings: dict[int, tuple[StoredRating | None, StoredRating]] = field(default_factory=dict)


def series_keys(x: str, y: str) -> tuple[str, str]:
    """A pair of series keys in stored order."""
    return (x, y) if x < y else (y, x)


def guild_key(guild_id: int | None) -> int:
    """Tallies and series need a key; 0 stands for "no server" (DMs, the console)."""
    return guild_id or 0


def moment(value: datetime | float | None) -> datetime | None:
    """A stored moment as an aware datetime (SQLite keeps seconds since the epoch)."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromtimestamp(value, UTC)


def _required(value: datetime | float | None) -> datetime:
    result = moment(value)
    assert result is not None
    return result


def game_row(d: Mapping[Any, Any]) -> GameRow:
    """A game from its stored columns (by name), whichever engine read them."""
    return GameRow(
        **{
            **d,
            "record": tuple(d["record"].split()),
            "warned": bool(d["warned"]),
            "ai_color": None if d["ai_color"] is None else AiColor(d["ai_color"]),
            "status": GameStatus(d["status"]),
            "result": None if d["result"] is None else GameResult(d["result"]),
            "termination": None if d["termination"] is None else Termination(d["termination"]),
            "created_at": _required(d["created_at"]),
            "updated_at": _required(d["updated_at"]),
            "turn_started_at": _required(d["turn_started_at"]),
            "ended_at": moment(d["ended_at"]),
        }
    )


def challenge_row(d: Mapping[Any, Any]) -> ChallengeRow:
    """A challenge from its stored columns (by name)."""
    return ChallengeRow(
        **{
            **d,
            "status": ChallengeStatus(d["status"]),
            "created_at": _required(d["created_at"]),
            "expires_at": _required(d["expires_at"]),
            "resolved_at": moment(d["resolved_at"]),
        }
    )


def tally_of(d: Mapping[Any, Any] | None) -> Tally:
    """A tally from its stored counts (an empty one for a player never counted)."""
    if d is None:
        return Tally()
    return Tally(*(int(d[k]) for k in TALLY_FIELDS))


def rating_of(d: Mapping[Any, Any] | None) -> StoredRating | None:
    """A person's stored rating (``None`` for one never rated)."""
    if d is None or d["rating"] is None:
        return None
    return StoredRating(
        rating=float(d["rating"]),
        deviation=float(d["deviation"]),
        volatility=float(d["volatility"]),
        games=int(d["games"]),
        best=None if d["best"] is None else float(d["best"]),
        rated_at=_required(d["rated_at"]),
    )


def series_of(d: Mapping[Any, Any] | None) -> Series:
    """A series from its stored columns (an empty one for a pair that never played)."""
    if d is None:
        return Series()
    return Series(d["holder"], d["stones"], d["last_white"], d["last_winner"], d["games"])
