"""What the tournaments say, as typed values: each sentence a :class:`Saying` with the
types of its values (its words are :mod:`bot.tournaments.words`'), the standings as
:class:`renderer.standings.StandingLine` values, and what an adapter acts on: a pairing
that wants a place for its game (:class:`PairingToOpen`) and the game made there
(:class:`OpenedGame`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from bot.service.replies import Place, Reply, User
from bot.service.said import Said, Saying
from bot.tournaments.rows import Format
from engine import Variant
from renderer.standings import StandingLine


@dataclass(frozen=True)
class PairingToOpen:
    """A pairing whose game has no place yet: the adapter opens one (a thread of the
    tournament's channel named :attr:`name`, pinging both players) and calls
    ``Tournaments.open_game(pairing_id, place)``. Said on every tick until it is opened."""

    pairing_id: int
    tournament_id: int
    guild_id: int | None
    channel_id: int
    """The tournament's channel, where the place is opened."""
    round: int | None
    """The Swiss round (``None`` in an arena)."""
    players: tuple[User, User]
    """White, then black."""
    name: Said
    """The place's title: ``Round 2 · Amina vs Bashir``."""
    creator_id: int | None = None
    """Who made the tournament: told when its channel is gone (the channel can't be)."""


@dataclass(frozen=True)
class OpenedGame:
    """A pairing's game: its live board, and the place it is played in. ``new`` is false
    when the game was made before (by an earlier call, or another process): then the
    place the caller opened is not the game's."""

    reply: Reply
    place: Place
    new: bool


# -- refusals -----------------------------------------------------------------------------

NO_TOURNAMENT_HERE: Saying[[]] = Saying("no_tournament_here")
TOURNAMENT_HERE_ALREADY: Saying[[]] = Saying("tournament_here_already")
ALREADY_IN: Saying[[]] = Saying("already_in_tournament")
SWISS_BEGUN: Saying[[]] = Saying("swiss_begun")
"""A Swiss takes no players once it has begun."""
LEFT_FOR_GOOD: Saying[[]] = Saying("left_swiss_for_good")
ARENA_OVER: Saying[[]] = Saying("arena_over")
NOT_IN_IT: Saying[[]] = Saying("not_in_tournament")
JOIN_ENDED: Saying[[]] = Saying("join_ended_tournament")
"""The Join button of a tournament that is over (another may be open in the channel)."""
TOO_FEW_PLAYERS: Saying[[int]] = Saying("too_few_players")
"""A start with fewer than three players: how many there are."""
ONLY_CREATOR_STARTS: Saying[[str]] = Saying("only_creator_starts")
ONLY_CREATOR_CANCELS: Saying[[str]] = Saying("only_creator_cancels")
ALREADY_STARTED: Saying[[]] = Saying("tournament_started_already")
NOT_A_NUMBER: Saying[[str, str, int, int]] = Saying("not_a_tournament_number")
"""An option that takes a whole number: its name, what was typed, the least and most."""
NOT_A_LENGTH: Saying[[str, str, float, float]] = Saying("not_a_tournament_length")
"""An option that takes a length of time: its name, what was typed, the shortest and
longest (seconds)."""
UNKNOWN_FORMAT: Saying[[str]] = Saying("unknown_tournament_format")

# -- answers and announcements ------------------------------------------------------------

CREATED: Saying[[User, Format, Variant, int, float, float | None]] = Saying("tournament_created")
"""The opening: who made it, its format and board, its rounds (a Swiss) or minutes (an
arena), the time a move may take (seconds), and the start (seconds from now; ``None``:
the creator starts it)."""
JOINED: Saying[[User, int]] = Saying("tournament_joined")
"""A player joined (or came back to an arena): how many play now."""
LEFT_BEFORE_START: Saying[[User, int]] = Saying("tournament_left")
WITHDRAWN: Saying[[User, bool]] = Saying("tournament_withdrawn")
"""A player left a Swiss under way: whether a game of theirs was lost by it."""
PAUSED: Saying[[User]] = Saying("tournament_paused")
REMINDER: Saying[[float, int]] = Saying("tournament_reminder")
"""The start is near: in how many seconds, and how many players there are."""
ROUND_PAIRED: Saying[[int, int, Sequence[tuple[User, User]], User | None]] = Saying(
    "tournament_round_paired"
)
"""A Swiss round's pairings: the round, the rounds, the pairs (white first) and the bye."""
ARENA_STARTED: Saying[[int, Sequence[tuple[User, User]], User | None]] = Saying("arena_started")
"""An arena begins: its minutes, the first games, and who waits for an opponent."""
STANDINGS: Saying[[Format, int, int, Sequence[StandingLine], Sequence[str]]] = Saying(
    "tournament_standings"
)
"""The standings: the format, the rounds played (an arena's games finished), the rounds
(0 in an arena), one line a player (a Swiss's tie-breaks Buchholz and Sonneborn–Berger,
an arena's the games played), and the arena players on fire (their next win doubles)."""
STANDINGS_TITLE: Saying[[Format, str, int, int]] = Saying("tournament_standings_title")
"""The standings picture's title: the format, the board's id, rounds played, rounds."""
POINTS_HEADING: Saying[[]] = Saying("tournament_points_heading")
SB_HEADING: Saying[[]] = Saying("tournament_sb_heading")
GAMES_HEADING: Saying[[]] = Saying("tournament_games_heading")
NEXT_ROUND_IN: Saying[[int, float]] = Saying("tournament_next_round_in")
"""After a round, when there is a pause: the next round and the seconds to it."""
NO_STANDINGS_YET: Saying[[int]] = Saying("tournament_no_standings_yet")
"""Nothing played yet: how many players are in."""
PODIUM: Saying[[Sequence[StandingLine]]] = Saying("tournament_podium")
"""The end: the first three places."""
CANCELLED: Saying[[User]] = Saying("tournament_cancelled")
CANCELLED_TOO_FEW: Saying[[int]] = Saying("tournament_cancelled_too_few")
"""A timed start with fewer than three players: how many there were."""
PAIRING_NAME: Saying[[int | None, str, str]] = Saying("tournament_pairing_name")
"""A game's place's title: the round (``None`` in an arena), white's and black's names."""
GAME_INTRO: Saying[[int | None, User, User]] = Saying("tournament_game_intro")
"""Said over a tournament game's first board: the round, white and black."""
