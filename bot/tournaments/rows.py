"""The values the tournament tables hold: a tournament, its players, its pairings
(:mod:`bot.storage.tournament_tables` defines the tables and the small vocabularies of
their columns, given on from here; :mod:`bot.tournaments.store` reads and writes them)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from bot.storage.tournament_tables import RUNNING as RUNNING
from bot.storage.tournament_tables import Format as Format
from bot.storage.tournament_tables import Outcome as Outcome
from bot.storage.tournament_tables import Status as Status


def moment(value: Any) -> datetime | None:
    """A stored moment, read by its column's type (:class:`bot.storage.columns.Moment`) as
    an aware datetime already."""
    assert value is None or isinstance(value, datetime), value
    return value


@dataclass(frozen=True)
class Settings:
    """A tournament as ``/shax tournament create`` asked for it: where, how it pairs, on
    which board, for how long, and who made it (the columns a step never changes)."""

    guild_id: int | None
    channel_id: int
    format: Format
    variant: str
    rounds: int
    """A Swiss's rounds (0 in an arena)."""
    minutes: int
    """An arena's length (0 in a Swiss)."""
    turn: timedelta
    """The time a move may take in its games."""
    pause: timedelta
    """A Swiss's pause between rounds."""
    creator_id: int
    creator_name: str

    @property
    def swiss(self) -> bool:
        return self.format is Format.SWISS

    def settings_values(self) -> dict[str, Any]:
        """The settings by column."""
        return {
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "format": self.format.value,
            "variant": self.variant,
            "rounds": self.rounds,
            "minutes": self.minutes,
            "turn_seconds": int(self.turn.total_seconds()),
            "pause_seconds": int(self.pause.total_seconds()),
            "creator_id": self.creator_id,
            "creator_name": self.creator_name,
        }


def _settings(d: Mapping[Any, Any]) -> dict[str, Any]:
    """A stored tournament's :class:`Settings`, as the keywords of its row."""
    return {
        "guild_id": d["guild_id"],
        "channel_id": int(d["channel_id"]),
        "format": Format(d["format"]),
        "variant": str(d["variant"]),
        "rounds": int(d["rounds"]),
        "minutes": int(d["minutes"]),
        "turn": timedelta(seconds=int(d["turn_seconds"])),
        "pause": timedelta(seconds=int(d["pause_seconds"])),
        "creator_id": int(d["creator_id"]),
        "creator_name": str(d["creator_name"]),
    }


@dataclass(frozen=True)
class NewTournament(Settings):
    """A tournament to make: its settings, and when it starts."""

    starts_at: datetime | None
    """A timed start, or ``None``: the creator starts it."""
    reminded: bool = False
    """No reminder is due (a start so near that the opening says it)."""

    def values(self) -> dict[str, Any]:
        return {**self.settings_values(), "starts_at": self.starts_at, "reminded": self.reminded}


@dataclass(frozen=True)
class TournamentRow(Settings):
    """A stored tournament: its settings, and how far it has come."""

    id: int
    status: Status
    round: int
    """The rounds paired so far (an arena counts its waves of pairings)."""
    said_round: int
    """The last round whose standings were said."""
    starts_at: datetime | None
    reminded: bool
    started_at: datetime | None
    next_round_at: datetime | None
    """A Swiss's next round, after the pause (``None``: no round waits)."""
    ends_at: datetime | None
    """An arena's end."""
    ended_at: datetime | None

    def values(self) -> dict[str, Any]:
        """What a step may change, by column (the rest is as it was made)."""
        return {
            "status": self.status.value,
            "round": self.round,
            "said_round": self.said_round,
            "reminded": self.reminded,
            "started_at": self.started_at,
            "next_round_at": self.next_round_at,
            "ends_at": self.ends_at,
            "ended_at": self.ended_at,
        }


def tournament_row(d: Mapping[Any, Any]) -> TournamentRow:
    return TournamentRow(
        **_settings(d),
        id=int(d["id"]),
        status=Status(d["status"]),
        round=int(d["round"]),
        said_round=int(d["said_round"]),
        starts_at=moment(d["starts_at"]),
        reminded=bool(d["reminded"]),
        started_at=moment(d["started_at"]),
        next_round_at=moment(d["next_round_at"]),
        ends_at=moment(d["ends_at"]),
        ended_at=moment(d["ended_at"]),
    )


@dataclass(frozen=True)
class PlayerRow:
    """A player of a tournament: their name, their seed (their rating when they joined),
    whether they left (a Swiss: withdrawn for good) or paused (an arena: until they join
    again)."""

    tournament_id: int
    user_id: int
    name: str
    seed: float
    joined_at: datetime
    left_at: datetime | None = None
    paused: bool = False

    @property
    def left(self) -> bool:
        return self.left_at is not None

    @property
    def playing(self) -> bool:
        return not self.left and not self.paused

    def values(self) -> dict[str, Any]:
        return {
            "tournament_id": self.tournament_id,
            "user_id": self.user_id,
            "name": self.name,
            "seed": self.seed,
            "joined_at": self.joined_at,
            "left_at": self.left_at,
            "paused": self.paused,
        }


def player_row(d: Mapping[Any, Any]) -> PlayerRow:
    joined = moment(d["joined_at"])
    assert joined is not None
    return PlayerRow(
        tournament_id=int(d["tournament_id"]),
        user_id=int(d["user_id"]),
        name=str(d["name"]),
        seed=float(d["seed"]),
        joined_at=joined,
        left_at=moment(d["left_at"]),
        paused=bool(d["paused"]),
    )


@dataclass(frozen=True)
class PairingRow:
    """Two players of a round (white first), or one with a bye (``black_id`` ``None``);
    the game once it is opened, and the result once it is known."""

    id: int
    tournament_id: int
    round: int
    white_id: int
    black_id: int | None
    game_id: int | None
    channel_id: int | None
    """Where its game is played (a thread of the tournament's channel)."""
    outcome: Outcome | None
    forfeit: bool
    """Decided without its game being played out: a player left."""
    game_over: bool = False
    """Its game has ended (its result is the game's, :attr:`game_result`)."""
    game_result: str | None = None
    """The ended game's result: ``"white"``, ``"black"``, ``"draw"`` (``None``: aborted)."""

    @property
    def done(self) -> bool:
        return self.outcome is not None

    @property
    def bye(self) -> bool:
        return self.black_id is None

    def has(self, user_id: int) -> bool:
        return user_id in (self.white_id, self.black_id)


def pairing_row(d: Mapping[Any, Any]) -> PairingRow:
    outcome = d["outcome"]
    return PairingRow(
        id=int(d["id"]),
        tournament_id=int(d["tournament_id"]),
        round=int(d["round"]),
        white_id=int(d["white_id"]),
        black_id=None if d["black_id"] is None else int(d["black_id"]),
        game_id=None if d["game_id"] is None else int(d["game_id"]),
        channel_id=None if d["channel_id"] is None else int(d["channel_id"]),
        outcome=None if outcome is None else Outcome(outcome),
        forfeit=bool(d["forfeit"]),
        game_over=d.get("game_status") == "over",
        game_result=d.get("game_result"),
    )


@dataclass(frozen=True)
class Event:
    """A tournament whole, as read in one transaction: the tournament, its players in the
    order they joined, and its pairings in the order they were made."""

    tournament: TournamentRow
    players: tuple[PlayerRow, ...]
    pairings: tuple[PairingRow, ...]

    def player(self, user_id: int) -> PlayerRow | None:
        return next((p for p in self.players if p.user_id == user_id), None)

    def unfinished(self, user_id: int) -> PairingRow | None:
        """The player's pairing still being played, if any."""
        return next((p for p in self.pairings if p.has(user_id) and not p.done), None)

    def of_round(self, number: int) -> tuple[PairingRow, ...]:
        return tuple(p for p in self.pairings if p.round == number)


@dataclass(frozen=True)
class NewPairing:
    """A pairing to make: white and black of a round, or one player's bye."""

    round: int
    white_id: int
    black_id: int | None = None


@dataclass(frozen=True)
class Changes:
    """What one step of a tournament writes, decided from its :class:`Event`: the
    tournament as it is now (the columns that differ are written), the players who joined
    or changed, those removed (who left before the start), the pairings whose result is now
    known, and the new pairings."""

    tournament: TournamentRow
    players: tuple[PlayerRow, ...] = ()
    removed: tuple[int, ...] = ()
    results: tuple[PairingRow, ...] = ()
    pairings: tuple[NewPairing, ...] = ()

    def none_to(self, event: Event) -> bool:
        """Whether these changes leave ``event`` as it is (nothing to write)."""
        nothing = not (self.players or self.removed or self.results or self.pairings)
        return nothing and self.tournament == event.tournament
