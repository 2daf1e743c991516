"""The game kernel: finding a game, checking who may act, replaying, committing, finishing.

Every part of the service acts on games through one :class:`GameKernel`: a per-game
lock, the stored version (``UPDATE … WHERE version = ?``) so a stale or concurrent
action applies at most once, a cache of replayed positions, and :meth:`GameKernel.finish`,
which counts the result in the players' tallies and the series in the same transaction.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.service import messages
from bot.service.ratings import rate_game, rated_family
from bot.service.replies import (
    BadOption,
    BotName,
    ChannelBusy,
    GameOver,
    NoGameHere,
    NotYourGame,
    NotYourTurn,
    Place,
    Said,
    Saying,
    StaleBoard,
    User,
)
from bot.service.streaks import HUMAN, Result, bot_kind, standings_after
from bot.storage import (
    ChallengeRow,
    Finished,
    GameRow,
    Standings,
    Storage,
    StoredRating,
    TallyKey,
)
from engine import (
    Color,
    Outcome,
    Position,
    Termination,
    UnknownVariantError,
    Variant,
    get_variant,
    replay,
)

Now = Callable[[], datetime]

MAX_ID = 2**63 - 1
"""The largest id the database stores: a larger one (from a forged custom id) names no game."""

UNKNOWN_VARIANT: Saying[[str]] = Saying("unknown_variant")
NOT_YOUR_GAME: Saying[[str, str]] = Saying("not_your_game")
"""Someone acted in the game of two others: white's and black's names."""
GAME_OVER: Saying[[int]] = Saying("game_over")
STALE: Saying[[]] = Saying("stale")
"""The game changed since the board that was acted on."""
NOT_YOUR_TURN: Saying[[str, bool]] = Saying("not_your_turn")
"""The player on turn, and whether it is the bot."""
CHANNEL_BUSY: Saying[[bool, tuple[int, str, str] | None]] = Saying("channel_busy")
"""In a thread?, and the game being played there: (id, white's name, black's name)."""
VARIANT_TITLE: Saying[[Variant]] = Saying("variant_title")
"""A board's title (``Shax (small board)``)."""


def valid_id(value: int) -> bool:
    """Whether ``value`` can be the id of a stored game or challenge."""
    return 0 < value <= MAX_ID


def utcnow() -> datetime:
    return datetime.now(UTC)


def player_key(user_id: int) -> str:
    """A person's key in a series."""
    return f"u:{user_id}"


def parse_variant(variant: str) -> Variant:
    """The variant a player named, or a refusal listing the variants."""
    try:
        return get_variant(variant.strip().lower())
    except UnknownVariantError:
        raise BadOption(UNKNOWN_VARIANT(variant)) from None


@dataclass(frozen=True)
class Side:
    """One side of a game as the service talks about it."""

    color: Color
    user_id: int
    name: str
    is_bot: bool

    @property
    def key(self) -> str:
        return player_key(self.user_id)

    @property
    def user(self) -> User:
        """This side as a player a message names (each surface writes it its own way)."""
        return User(self.user_id, self.name, self.is_bot)


def side(row: GameRow, color: Color) -> Side:
    is_bot_color = row.ai_color == color.label
    return Side(color, *_player(row, color), is_bot_color)


def _player(row: GameRow, color: Color) -> tuple[int, str]:
    """The id and name of one side; the bot's name as a :class:`BotName`, which each
    reader reads in their language."""
    user_id, name = (
        (row.white_id, row.white_name) if color is Color.WHITE else (row.black_id, row.black_name)
    )
    if row.ai_level is not None and row.ai_color == color.label:
        return user_id, BotName.stored(name, row.ai_level)
    return user_id, name


def names(row: GameRow) -> tuple[str, str]:
    """White's and black's names as a message or a picture names them (the bot's as a
    :class:`BotName`)."""
    return side(row, Color.WHITE).name, side(row, Color.BLACK).name


def side_of(row: GameRow, user_id: int) -> Side | None:
    for color in Color:
        s = side(row, color)
        if s.user_id == user_id:
            return s
    return None


def other(row: GameRow, s: Side) -> Side:
    return side(row, s.color.other)


def series_key(row: GameRow, s: Side) -> str:
    """A side's key in the game's series: the person, or the bot's level."""
    return bot_kind(row.ai_level) if s.is_bot and row.ai_level else s.key


def row_outcome(row: GameRow) -> Outcome | None:
    """How a stored game ended (``None`` while it is being played)."""
    if row.termination == Termination.ABORTED.name:
        return Outcome(None, Termination.ABORTED)  # no result: it counts for nobody
    if row.result is None or row.termination is None:
        return None
    winner = None if row.result == "draw" else Color[row.result.upper()]
    return Outcome(winner, Termination[row.termination])


def challenge_place(c: ChallengeRow) -> Place:
    return Place(c.guild_id, c.channel_id, c.parent_channel_id)


def game_place(row: GameRow) -> Place:
    return Place(row.guild_id, row.channel_id, row.parent_channel_id)


class GameKernel:
    """Loads, checks and changes games for every part of the service."""

    def __init__(
        self,
        storage: Storage,
        *,
        now: Now,
        bot_user: User,
    ) -> None:
        self.storage = storage
        self.now = now
        self.bot_user = bot_user
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._positions: dict[int, tuple[tuple[str, ...], Position]] = {}
        self.ended = asyncio.Event()
        """Set each time a game ends, for whoever waits on endings (the tournaments' tick,
        which clears it)."""

    # -- finding -------------------------------------------------------------------------

    def lock(self, game_id: int) -> asyncio.Lock:
        """The game's lock: every change to one game is made holding it."""
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def game_id(self, place: Place, game_id: int | None) -> int:
        """The game a call acts in: the clicked board's, or the one in ``place``'s channel
        (the caller reads it afresh under the game's lock)."""
        if game_id is not None:
            return game_id
        return (await self.find_game(place)).id

    async def find_game(self, place: Place) -> GameRow:
        """The active game in ``place``'s channel."""
        row = await self.storage.games.active_game_in_channel(place.channel_id)
        if row is None:
            raise NoGameHere(Said.message(messages.NO_GAME_HERE))
        return row

    async def game(self, game_id: int) -> GameRow:
        row = await self.storage.games.get_game(game_id) if valid_id(game_id) else None
        if row is None:
            raise NoGameHere(Said.message(messages.GAME_GONE))
        return row

    # -- checking ------------------------------------------------------------------------

    def check_player(self, row: GameRow, user: User, version: int | None) -> Side:
        """The user's side in an active game, checking the clicked board's version."""
        s = side_of(row, user.id)
        if s is None or s.is_bot:
            raise NotYourGame(NOT_YOUR_GAME(*names(row)))
        if not row.active:
            raise GameOver(GAME_OVER(row.id))
        if version is not None and version != row.version:
            raise StaleBoard(STALE())
        return s

    def check_turn(self, row: GameRow, user: User, version: int | None) -> Side:
        """The user's side, which must be on turn."""
        s = self.check_player(row, user, version)
        if self.position(row).to_move is not s.color:
            them = other(row, s)
            raise NotYourTurn(NOT_YOUR_TURN(them.name, them.is_bot))
        return s

    async def check_channel_free(self, place: Place) -> None:
        row = await self.storage.games.active_game_in_channel(place.channel_id)
        if row is not None:
            raise self.busy(place, row)

    def busy(self, place: Place, row: GameRow | None) -> ChannelBusy:
        game = (row.id, row.white_name, row.black_name) if row else None
        return ChannelBusy(CHANNEL_BUSY(place.is_thread, game))

    def position(self, row: GameRow) -> Position:
        """The game's position, replayed from its record (cached; records only grow)."""
        cached = self._positions.get(row.id)
        if cached is not None and cached[0] == row.record:
            return cached[1]
        if cached is not None and row.record[: len(cached[0])] == cached[0]:
            position = cached[1]
            for text in row.record[len(cached[0]) :]:
                position = position.apply(text)
        else:
            position = replay(row.variant, row.record)
        self._positions[row.id] = (row.record, position)
        return position

    def bot_name(self, level: str) -> BotName:
        return BotName(self.bot_user.name, level)

    # -- changing ------------------------------------------------------------------------

    async def commit(
        self, row: GameRow, notation: str, after: Position, offer: int | None
    ) -> tuple[GameRow, Finished | None]:
        """Store one accepted action (ending the game if the engine says so)."""
        record = (*row.record, notation)
        if after.outcome is not None:
            finished = await self.finish(row, record, after.outcome)
            return finished.game, finished
        stored = await self.storage.games.update_game(
            row.id,
            row.version,
            record=record,
            draw_offered_by=offer,
            now=self.now(),
            new_turn=True,
        )
        if stored is None:
            raise StaleBoard(STALE())
        self._positions[row.id] = (stored.record, after)
        return stored, None

    async def set_draw_offer(self, row: GameRow, offered_by: int | None) -> GameRow:
        """Store a draw offer (or its end) without changing whose turn it is."""
        stored = await self.storage.games.update_game(
            row.id,
            row.version,
            record=row.record,
            draw_offered_by=offered_by,
            now=self.now(),
            new_turn=False,
        )
        if stored is None:
            raise StaleBoard(STALE())
        return stored

    async def finish(self, row: GameRow, record: Sequence[str], outcome: Outcome) -> Finished:
        """End the game; its result counts in each person's tally and in the series, and
        in a rated game in their ratings: the streak rule (:mod:`bot.service.streaks`)
        and the rating rule (:mod:`bot.service.ratings`) compute them from what the
        storage reads, locked, in the finishing transaction, and the storage writes them.
        An aborted game has no result and counts for nobody: no tally, series or rating
        changes."""
        aborted = outcome.termination is Termination.ABORTED
        white, black = side(row, Color.WHITE), side(row, Color.BLACK)
        winner = None if outcome.winner is None else side(row, outcome.winner)
        players = []
        results: dict[int, Result] = {}
        for me, them in ((white, black), (black, white)):
            if me.is_bot or aborted:
                continue
            kind = bot_kind(row.ai_level) if them.is_bot and row.ai_level else HUMAN
            players.append(TallyKey(me.user_id, me.name, kind))
            results[me.user_id] = "draw" if winner is None else "win" if winner == me else "loss"
        pair = (series_key(row, white), series_key(row, black))
        winner_key = None if winner is None else series_key(row, winner)

        def score(before: Standings) -> Standings:
            if aborted:
                return before
            return standings_after(before, results, *pair, winner_key)

        def rate(
            before: Mapping[int, StoredRating | None], ended: datetime
        ) -> Mapping[int, StoredRating]:
            return rate_game(row, outcome, before, ended)

        family = None if aborted else rated_family(row, record)

        finished = await self.storage.games.finish_game(
            row.id,
            row.version,
            record=record,
            result=None if aborted else outcome.result,
            termination=outcome.termination.name,
            now=self.now(),
            players=players,
            pair=pair,
            score=score,
            rated=None if family is None else (family, rate),
        )
        if finished is None:
            raise StaleBoard(STALE())
        self._positions.pop(row.id, None)  # finished games are rarely looked at again
        self.ended.set()
        return finished
