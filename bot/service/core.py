"""The Shax game service (see the package docstring). Public API: :class:`ShaxService`."""

from __future__ import annotations

import asyncio
import logging
import random
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol

from bot.replies import (
    BOARD_FILENAME,
    MAX_CHOICES,
    RULES_FILENAME,
    Attachment,
    BadOption,
    BoardControls,
    ChallengeControls,
    ChallengeError,
    ChannelBusy,
    Choice,
    DestinationControls,
    DrawError,
    GameOver,
    IllegalAction,
    MalformedAction,
    NoGameHere,
    Notice,
    NotYourGame,
    NotYourTurn,
    Place,
    Reply,
    StaleBoard,
    User,
    announce_slow_answer,
    mention,
)
from bot.service import texts
from bot.storage import (
    ChallengeRow,
    ChannelTaken,
    Finished,
    GameRow,
    NewChallenge,
    NewGame,
    PlayerResult,
    SeriesResult,
    Storage,
)
from bot.streaks import HUMAN, Series, Tally, bot_kind, change_text
from engine import (
    VARIANT_IDS,
    Action,
    Color,
    IllegalActionError,
    Kind,
    NotationError,
    Outcome,
    Position,
    Step,
    Termination,
    UnknownVariantError,
    Variant,
    get_variant,
)

if TYPE_CHECKING:
    from bot.config import Settings

log = logging.getLogger(__name__)

LEVELS: tuple[str, ...] = ("easy", "medium", "hard", "master")
"""The bot's levels (``engine.ai.LEVELS``)."""
FIRST_CHOICES = ("me", "bot", "random")
WARN_BEFORE = timedelta(hours=1)
"""The turn-timeout warning comes this long before the forfeit (or at half time, if sooner)."""


class ActionChooser(Protocol):
    """Chooses the bot's action off the event loop (``bot.ai_pool.AIPool`` is one)."""

    async def choose(self, variant: str, record: Sequence[str], level: str, seed: int) -> str:
        """The bot's action in notation after ``record``."""
        ...


BoardRenderer = Callable[[str, list[str], Any], bytes]
"""``renderer.render_board(variant, record, view) -> PNG bytes``."""
ReplayRenderer = Callable[[str, list[str], Any], bytes]
"""``renderer.render_replay(variant, record, view) -> GIF bytes``."""
Offload = Callable[..., Awaitable[Any]]
"""``run(fn, *args)`` draws a picture away from the event loop: ``asyncio.to_thread``
by default, worker processes (``bot.pictures.PicturePool.run``) in the running bot."""


def utcnow() -> datetime:
    return datetime.now(UTC)


def ai_seed(game_id: int, ply: int) -> int:
    """The AI's seed for a game's ply: a replayed game is reproducible."""
    return (game_id * 1_000_003 + ply) % 2**31


def player_key(user_id: int) -> str:
    """A person's key in a series."""
    return f"u:{user_id}"


@dataclass(frozen=True)
class _Side:
    """One side of a game as the service talks about it."""

    color: Color
    user_id: int
    name: str
    is_bot: bool

    @property
    def key(self) -> str:
        return player_key(self.user_id)

    @property
    def ref(self) -> str:
        """How a message names this side: a mention for a person, the name for the bot."""
        return self.name if self.is_bot else mention(self.user_id)


class ShaxService:
    """Every Shax command, as async methods returning :class:`Reply` values.

    Refusals raise :class:`bot.replies.UserError` subclasses whose text is the
    ephemeral answer. Methods that act in a game accept ``game_id``/``version``
    from a clicked component (a superseded version raises ``StaleBoard``); slash
    commands leave them ``None`` and the game is the one in ``place``'s channel.

    Every accepted action is committed before its reply is built. A per-game lock
    and the stored version (``UPDATE … WHERE version = ?``) make a stale or
    concurrent action apply at most once.
    """

    def __init__(
        self,
        storage: Storage,
        *,
        bot_user: User,
        ai: ActionChooser,
        clock: Callable[[], datetime] = utcnow,
        render_board: BoardRenderer | None = None,
        render_replay: ReplayRenderer | None = None,
        challenge_expiry: timedelta = timedelta(minutes=10),
        turn_timeout: timedelta = timedelta(hours=24),
        on_close: Callable[[], None] | None = None,
        run_board: Offload = asyncio.to_thread,
        run_replay: Offload = asyncio.to_thread,
    ) -> None:
        if render_board is None or render_replay is None:
            import renderer

            render_board = render_board or renderer.render_board
            render_replay = render_replay or renderer.render_replay
        self.storage = storage
        self.bot_user = bot_user
        self.ai = ai
        self.clock = clock
        self._render_board = render_board
        self._render_replay = render_replay
        self.challenge_expiry = challenge_expiry
        self.turn_timeout = turn_timeout
        self._on_close = on_close
        self._run_board = run_board
        self._run_replay = run_replay
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._positions: dict[int, tuple[tuple[str, ...], Position]] = {}
        self._thinking: set[int] = set()
        self._rules_pictures: dict[str, bytes] = {}

    @classmethod
    async def open(
        cls,
        settings: Settings,
        *,
        bot_user: User,
        ai: ActionChooser | None = None,
        clock: Callable[[], datetime] = utcnow,
    ) -> ShaxService:
        """A service over ``settings.db_path`` with an AI pool of ``settings.ai_workers``
        unless ``ai`` is given, and worker processes for the pictures (the pools are
        closed by :meth:`close`)."""
        from bot.ai_pool import AIPool
        from bot.pictures import BOARD_WORKERS, REPLAY_WORKERS, PicturePool

        storage = await Storage.open(settings.db_path)
        pool = AIPool(settings.ai_workers) if ai is None else None
        boards = PicturePool(BOARD_WORKERS)
        boards.start()  # every game needs boards: no first move waits for a worker
        replays = PicturePool(REPLAY_WORKERS)  # apart: a replay takes ~100 boards' time

        def close_pools() -> None:
            if pool is not None:
                pool.shutdown()
            boards.shutdown()
            replays.shutdown()

        return cls(
            storage,
            bot_user=bot_user,
            ai=ai or pool,  # type: ignore[arg-type]
            clock=clock,
            challenge_expiry=timedelta(seconds=settings.challenge_expiry_seconds),
            turn_timeout=timedelta(seconds=settings.turn_timeout_seconds),
            on_close=close_pools,
            run_board=boards.run,
            run_replay=replays.run,
        )

    async def close(self) -> None:
        """Close the database (and the pools :meth:`open` created)."""
        await self.storage.close()
        if self._on_close is not None:
            self._on_close()

    # -- challenges ----------------------------------------------------------

    async def challenge(
        self, challenger: User, opponent: User, place: Place, variant: str = "shax"
    ) -> Reply:
        """Post a challenge with Accept / Decline (``ChallengeControls``); it expires.

        Refused (``ChallengeError``) for oneself, a bot account, or a duplicate open
        challenge; ``ChannelBusy`` when a game is on in this channel; ``BadOption``
        for an unknown variant. Report the posted message with
        :meth:`set_challenge_message` so expiry can edit it.
        """
        v = _variant(variant)
        if opponent.id == challenger.id:
            raise ChallengeError(
                "You can't challenge yourself — challenge someone else, "
                "or play me with /shax play-bot."
            )
        if opponent.id == self.bot_user.id:
            raise ChallengeError(
                f"To play against me, use /shax play-bot (choose a level: {', '.join(LEVELS)})."
            )
        if opponent.is_bot:
            raise ChallengeError(
                f"{opponent.name} is a bot account and can't play Shax — challenge a person, "
                "or play me with /shax play-bot."
            )
        await self._check_channel_free(place)
        for open_one in await self.storage.open_challenges(place.channel_id):
            if (open_one.challenger_id, open_one.opponent_id) == (challenger.id, opponent.id):
                raise ChallengeError(
                    f"You have already challenged {opponent.name} here; wait for an answer "
                    "or withdraw it with Decline."
                )
        return await self._create_challenge(challenger, opponent, place, v, rematch_of=None)

    async def _create_challenge(
        self,
        challenger: User,
        opponent: User,
        place: Place,
        variant: Variant,
        rematch_of: int | None,
    ) -> Reply:
        now = self.clock()
        row = await self.storage.create_challenge(
            NewChallenge(
                guild_id=place.guild_id,
                channel_id=place.channel_id,
                parent_channel_id=place.parent_channel_id,
                challenger_id=challenger.id,
                challenger_name=challenger.name,
                opponent_id=opponent.id,
                opponent_name=opponent.name,
                variant=variant.id,
                expires_at=now + self.challenge_expiry,
                rematch_of=rematch_of,
            ),
            now,
        )
        what = "a rematch" if rematch_of is not None else f"a game of {variant.title}"
        text = (
            f"{opponent.mention}, {challenger.name} challenges you to {what}! "
            f"Accept or decline within {texts.duration(self.challenge_expiry.total_seconds())}."
        )
        return Reply(
            text=text,
            controls=ChallengeControls(row.id),
            challenge_id=row.id,
            mentions=(opponent.id,),
        )

    async def accept(self, user: User, place: Place, challenge_id: int | None = None) -> Reply:
        """Accept a challenge (the newest open one addressed to ``user`` here when no id):
        starts the game and returns its live board."""
        c = await self._challenge_for(user, place, challenge_id, "accept")
        if user.id != c.opponent_id:
            if user.id == c.challenger_id:
                raise ChallengeError(
                    f"You can't accept your own challenge — wait for {c.opponent_name}."
                )
            raise NotYourGame(f"This challenge is for {c.opponent_name}, not for you.")
        now = self.clock()
        if c.expires_at <= now:
            # A refusal changes nothing: the next tick closes the challenge and its message.
            raise ChallengeError(
                "This challenge has expired — send a new one with /shax challenge."
            )
        await self._check_channel_free(_challenge_place(c))
        series = await self.storage.series(
            c.guild_id, player_key(c.challenger_id), player_key(c.opponent_id)
        )
        first = series.first_to_place(player_key(c.challenger_id), player_key(c.opponent_id))
        challenger = (c.challenger_id, c.challenger_name)
        opponent = (c.opponent_id, user.name)
        white, black = (
            (challenger, opponent)
            if first == player_key(c.challenger_id)
            else (opponent, challenger)
        )
        new = NewGame(
            guild_id=c.guild_id,
            channel_id=c.channel_id,
            parent_channel_id=c.parent_channel_id,
            variant=c.variant,
            white_id=white[0],
            white_name=white[1],
            black_id=black[0],
            black_name=black[1],
            rematch_of=c.rematch_of,
        )
        try:
            row = await self.storage.accept_challenge(c.id, new, now)
        except ChannelTaken:
            raise self._busy(_challenge_place(c), None) from None
        if row is None:
            raise ChallengeError("This challenge is no longer open.")
        intro = f"{user.name} accepted {c.challenger_name}'s challenge. "
        if series.last_winner is not None:
            intro += f"{white[1]} won the last game and places first. "
        elif series.games:
            intro += f"After the draw, {white[1]} places first. "
        return await self._board_reply(row, intro=intro)

    async def decline(self, user: User, place: Place, challenge_id: int | None = None) -> Reply:
        """Decline a challenge addressed to ``user``; the challenger declining withdraws it."""
        c = await self._challenge_for(user, place, challenge_id, "decline")
        if user.id == c.challenger_id:
            return await self.cancel(user, place, c.id)
        if user.id != c.opponent_id:
            raise NotYourGame(f"This challenge is for {c.opponent_name}, not for you.")
        if not await self.storage.resolve_challenge(c.id, "declined", self.clock()):
            raise ChallengeError("This challenge is no longer open.")
        return Reply(
            text=f"{user.name} declined {c.challenger_name}'s challenge.", challenge_id=c.id
        )

    async def cancel(self, user: User, place: Place, challenge_id: int | None = None) -> Reply:
        """Withdraw ``user``'s own open challenge (the newest one here when no id)."""
        if challenge_id is None:
            mine = [
                c
                for c in await self.storage.open_challenges(place.channel_id)
                if c.challenger_id == user.id
            ]
            if not mine:
                raise ChallengeError("You have no open challenge here.")
            c = mine[-1]
        else:
            c = await self._challenge_row(challenge_id)
        if user.id != c.challenger_id:
            raise NotYourGame(f"Only {c.challenger_name} can withdraw this challenge.")
        if not await self.storage.resolve_challenge(c.id, "cancelled", self.clock()):
            raise ChallengeError("This challenge is no longer open.")
        return Reply(
            text=f"{c.challenger_name} withdrew the challenge to {c.opponent_name}.",
            challenge_id=c.id,
        )

    async def _challenge_row(self, challenge_id: int) -> ChallengeRow:
        c = await self.storage.get_challenge(challenge_id)
        if c is None:
            raise ChallengeError("That challenge doesn't exist any more.")
        if c.status != "open":
            raise ChallengeError(f"This challenge is no longer open (it was {c.status}).")
        return c

    async def _challenge_for(
        self, user: User, place: Place, challenge_id: int | None, verb: str
    ) -> ChallengeRow:
        if challenge_id is not None:
            return await self._challenge_row(challenge_id)
        waiting = [
            c
            for c in await self.storage.open_challenges(place.channel_id)
            if c.opponent_id == user.id
        ]
        if not waiting:
            raise ChallengeError(
                f"No challenge is waiting for you here, so there is nothing to {verb}."
            )
        return waiting[-1]

    # -- games ---------------------------------------------------------------

    async def play_bot(
        self,
        user: User,
        place: Place,
        level: str = "medium",
        variant: str = "shax",
        first: str | None = None,
    ) -> Reply:
        """Start a game against the bot. ``first`` is ``me``, ``bot`` or ``random``
        (``None``: the series rule — the last winner places first, the user in a new
        series). When the bot places first its action is already on the board."""
        v = _variant(variant)
        if level not in LEVELS:
            raise BadOption(f"Unknown level {level!r} — choose one of: {', '.join(LEVELS)}.")
        if first is not None and first not in FIRST_CHOICES:
            raise BadOption(f"first must be me, bot or random, not {first!r}.")
        if user.is_bot:
            raise ChallengeError("Bot accounts can't play Shax.")
        return await self._start_bot_game(user, place, level, v, first, rematch_of=None)

    async def _start_bot_game(
        self,
        user: User,
        place: Place,
        level: str,
        variant: Variant,
        first: str | None,
        rematch_of: int | None,
    ) -> Reply:
        await self._check_channel_free(place)
        me, bot = player_key(user.id), bot_kind(level)
        series = await self.storage.series(place.guild_id, me, bot)
        if first == "random":
            # Seeded by the moment, so it is a coin toss but the record stays replayable.
            first = random.Random(self.clock().timestamp()).choice(("me", "bot"))
        if first is None:
            first = "me" if series.first_to_place(me, bot) == me else "bot"
        bot_name = self._bot_name(level)
        human = (user.id, user.name)
        machine = (self.bot_user.id, bot_name)
        white, black = (human, machine) if first == "me" else (machine, human)
        new = NewGame(
            guild_id=place.guild_id,
            channel_id=place.channel_id,
            parent_channel_id=place.parent_channel_id,
            variant=variant.id,
            white_id=white[0],
            white_name=white[1],
            black_id=black[0],
            black_name=black[1],
            ai_level=level,
            ai_color="black" if first == "me" else "white",
            rematch_of=rematch_of,
        )
        try:
            row = await self.storage.create_game(new, self.clock())
        except ChannelTaken:
            raise self._busy(place, None) from None
        intro = f"{user.name} vs {bot_name}, {variant.title}. "
        events: list[str] = []
        row, events, finished = await self._bot_turns(row)
        return await self._board_reply(row, events=events, intro=intro, finished=finished)

    async def play(
        self,
        user: User,
        place: Place,
        action: str,
        game_id: int | None = None,
        version: int | None = None,
    ) -> Reply:
        """Play one action in notation (``d7``, ``a7-d7``, ``xg1``); in a bot game the
        bot's reply actions follow in the same reply. Returns the live board.

        In the movement phase a bare point naming one of the player's movable stones
        (``a7``) is the first step of a two-step move: the answer is an ephemeral
        :class:`DestinationControls` (the same as :meth:`choose_stone`).

        Refusals: ``NoGameHere``, ``NotYourGame``, ``NotYourTurn``, ``MalformedAction``,
        ``IllegalAction`` (with the legal list), ``StaleBoard``, ``GameOver``.
        """
        game_id = await self._game_id(place, game_id)
        async with self._lock(game_id):
            row = await self._game_by_id(game_id)
            side = self._check_turn(row, user, version)
            position = self._position(row)
            text = action.strip().lower()
            if position.step in (Step.MOVE, Step.FREE) and text in position.variant.index:
                return self._destinations(row, position, text)
            try:
                act = position.parse(text)
                after = position.apply(act)
            except NotationError as exc:
                raise MalformedAction(
                    texts.malformed_sentence(action, exc.reason, position.legal_notations()),
                    action,
                    exc.reason,
                    position.legal_notations(),
                ) from None
            except IllegalActionError as exc:
                raise IllegalAction(
                    texts.illegal_sentence(exc.action, exc.reason, exc.legal),
                    exc.action,
                    exc.reason,
                    exc.legal,
                ) from None
            # Acting declines the opponent's draw offer; the player's own offer stands.
            offer = row.draw_offered_by if row.draw_offered_by == user.id else None
            event = texts.describe_action(position, act, after, side.name, _other(row, side).name)
            row, finished = await self._commit(row, act.notation(position.variant), after, offer)
        events = [event]
        row, bot_events, bot_finished = await self._bot_turns(row)
        events += bot_events
        return await self._board_reply(row, events=events, finished=finished or bot_finished)

    async def choose_stone(self, user: User, game_id: int, version: int, src: str) -> Reply:
        """The first step of a two-step move: an ephemeral reply with
        ``DestinationControls`` for the stone on ``src``; each choice's value is the
        whole move (``a7-d7``) to pass to :meth:`play`."""
        row = await self._game_by_id(game_id)
        self._check_turn(row, user, version)
        return self._destinations(row, self._position(row), src.strip().lower())

    def _destinations(self, row: GameRow, position: Position, src: str) -> Reply:
        v = position.variant
        moves = [
            a for a in position.legal_actions() if a.kind is Kind.MOVE and v.points[a.src] == src
        ]
        if not moves:
            legal = position.legal_notations()
            raise IllegalAction(
                texts.illegal_sentence(src, f"no stone of yours on {src} can move now", legal),
                src,
                "no movable stone there",
                legal,
            )
        choices = tuple(
            Choice(label=f"{src}-{v.points[a.dst]}", value=a.notation(v)) for a in moves
        )
        names = ", ".join(c.label for c in choices)
        return Reply(
            text=f"Where should the stone on {src} go? {names}.",
            ephemeral=True,
            controls=DestinationControls(row.id, row.version, src, choices),
            game_id=row.id,
            version=row.version,
        )

    async def legal_choices(self, user: User, place: Place, typed: str = "") -> list[Choice]:
        """Autocomplete for ``/shax move action:``: up to 25 legal actions starting with
        ``typed`` (empty when there is no game here or it is not ``user``'s turn)."""
        row = await self.storage.active_game_in_channel(place.channel_id)
        if row is None:
            return []
        position = self._position(row)
        side = _side_of(row, user.id)
        if side is None or position.to_move is not side.color:
            return []
        prefix = typed.strip().lower()
        legal = [a for a in position.legal_notations() if a.startswith(prefix)]
        return [Choice(label=a, value=a) for a in legal[:MAX_CHOICES]]

    async def board(self, user: User, place: Place) -> Reply:
        """The game in this channel as a fresh live board (anyone may look). The reply
        carries the old board's ``board_message_id``: post the fresh board at the bottom
        of the channel, retire the old one, and report the new id."""
        row = await self._find_game(place)
        row, events, finished = await self._bot_turns(row)
        return await self._board_reply(row, events=events, finished=finished)

    async def resign(
        self, user: User, place: Place, game_id: int | None = None, version: int | None = None
    ) -> Reply:
        """Resign: the opponent wins. Returns the final board with the replay attached."""
        game_id = await self._game_id(place, game_id)
        async with self._lock(game_id):
            row = await self._game_by_id(game_id)
            side = self._check_player(row, user, version)
            outcome = Outcome(side.color.other, Termination.RESIGNATION)
            finished = await self._finish(row, row.record, outcome)
        return await self._board_reply(finished.game, finished=finished)

    async def draw(
        self, user: User, place: Place, game_id: int | None = None, version: int | None = None
    ) -> Reply:
        """Offer a draw, or accept the opponent's offer (the game ends drawn).
        The bot declines draw offers."""
        game_id = await self._game_id(place, game_id)
        async with self._lock(game_id):
            row = await self._game_by_id(game_id)
            side = self._check_player(row, user, version)
            other = _other(row, side)
            if row.ai_level is not None:
                raise DrawError(
                    f"{other.name} doesn't accept draws — play on, or resign with /shax resign."
                )
            if row.draw_offered_by == other.user_id:
                outcome = Outcome(None, Termination.AGREEMENT)
                finished = await self._finish(row, row.record, outcome)
                return await self._board_reply(finished.game, finished=finished)
            if row.draw_offered_by == user.id:
                raise DrawError(f"You have already offered a draw; it's up to {other.name}.")
            stored = await self.storage.update_game(
                row.id,
                row.version,
                record=row.record,
                draw_offered_by=user.id,
                now=self.clock(),
                new_turn=False,
            )
            if stored is None:
                raise StaleBoard(_STALE)
        intro = (
            f"{side.name} offers a draw. {other.ref}: accept it with Accept draw "
            "(or /shax draw), decline it, or just play on. "
        )
        return await self._board_reply(stored, intro=intro, ping=(other.user_id,))

    async def decline_draw(
        self, user: User, place: Place, game_id: int | None = None, version: int | None = None
    ) -> Reply:
        """Decline the opponent's draw offer, or withdraw one's own (making a move
        declines an offer too)."""
        game_id = await self._game_id(place, game_id)
        async with self._lock(game_id):
            row = await self._game_by_id(game_id)
            side = self._check_player(row, user, version)
            if row.draw_offered_by is None:
                raise DrawError("There is no draw offer to decline.")
            stored = await self.storage.update_game(
                row.id,
                row.version,
                record=row.record,
                draw_offered_by=None,
                now=self.clock(),
                new_turn=False,
            )
            if stored is None:
                raise StaleBoard(_STALE)
        verb = "withdrew the draw offer" if row.draw_offered_by == user.id else "declined the draw"
        return await self._board_reply(stored, intro=f"{side.name} {verb}. ")

    async def rematch(self, user: User, place: Place, game_id: int) -> Reply:
        """After a game: against the bot, start the next game at once; against a person,
        challenge them (or accept their rematch challenge). The last winner places
        first; after a draw, whoever placed second last time."""
        row = await self._game_by_id(game_id)
        side = _side_of(row, user.id)
        if side is None or side.is_bot:
            raise NotYourGame(_not_your_game(row))
        if row.active:
            raise GameOver("This game is still being played — finish it first.")
        game_place = Place(row.guild_id, row.channel_id, row.parent_channel_id)
        variant = get_variant(row.variant)
        if row.ai_level is not None:
            return await self._start_bot_game(
                user, game_place, row.ai_level, variant, None, rematch_of=row.id
            )
        other = _other(row, side)
        for c in await self.storage.open_challenges(row.channel_id):
            if c.rematch_of != row.id:
                continue
            if c.opponent_id == user.id:
                return await self.accept(user, game_place, c.id)
            raise ChallengeError(f"You have already asked for a rematch; it's up to {other.name}.")
        await self._check_channel_free(game_place)
        opponent = User(other.user_id, other.name, False)
        return await self._create_challenge(user, opponent, game_place, variant, row.id)

    async def record(self, game_id: int) -> tuple[str, tuple[str, ...]]:
        """A game's variant id and record (its actions in notation), e.g. for a text board."""
        row = await self._game_by_id(game_id)
        return row.variant, row.record

    async def set_board_message(self, game_id: int, message_id: int) -> None:
        """Remember the message that shows the game's live board (for later edits)."""
        await self.storage.set_board_message(game_id, message_id)

    async def set_challenge_message(self, challenge_id: int, message_id: int) -> None:
        """Remember the message that shows a challenge (edited when it expires)."""
        await self.storage.set_challenge_message(challenge_id, message_id)

    # -- statistics and help -------------------------------------------------

    async def streak(self, place: Place, user: User) -> Reply:
        """A player's current and best streaks, gal/gabad counts and record against
        people and against each bot level, on this server."""
        tallies = await self.storage.tallies(place.guild_id, user.id)
        if not tallies:
            return Reply(text=f"{user.name} hasn't finished a game here yet.")
        lines = [f"**{user.name}** — streaks on this server"]
        people = tallies.get(HUMAN)
        if people is not None:
            lines.append("Against people: " + _tally_line(people))
        for level in LEVELS:
            t = tallies.get(bot_kind(level))
            if t is not None:
                lines.append(f"Against the {level} bot: " + _tally_line(t))
        return Reply(text="\n".join(lines))

    async def leaderboard(self, place: Place) -> Reply:
        """The server's best current and all-time streaks against people (games against
        the bot are in each player's /shax streak, not here)."""
        current = await self.storage.leaderboard(place.guild_id, HUMAN, "streak")
        best = await self.storage.leaderboard(place.guild_id, HUMAN, "best")
        lines = [
            "**Leaderboard** — streaks against people (games against the bot show in /shax streak)"
        ]
        if not best:
            lines.append("Nobody has won a game against a person here yet.")
            return Reply(text="\n".join(lines))
        lines.append("Current streaks:")
        lines += [
            f"{i}. {name} — {t.streak} in a row" for i, (_, name, t) in enumerate(current, 1)
        ] or ["(no running streaks)"]
        lines.append("All-time best:")
        lines += [
            f"{i}. {name} — {t.best} in a row"
            + (f" · gal ×{t.gal}" if t.gal else "")
            + (f" · gabad ×{t.gabad}" if t.gabad else "")
            for i, (_, name, t) in enumerate(best, 1)
        ]
        return Reply(text="\n".join(lines))

    async def rules(self, variant: str = "shax") -> Reply:
        """The rules in short, with a picture of the empty board and its point names."""
        import renderer

        v = _variant(variant)
        png = self._rules_pictures.get(v.id)
        if png is None:
            caption = f"{v.title}: each point is named by its file letter and rank number"
            view = renderer.BoardView(caption=caption)
            png = await asyncio.to_thread(self._render_board, v.id, [], view)
            self._rules_pictures[v.id] = png
        return Reply(text=texts.rules_text(v), attachments=(Attachment(RULES_FILENAME, png),))

    # -- time ----------------------------------------------------------------

    async def tick(self) -> list[Notice]:
        """Call every ~30 s: expire challenges, warn on and then forfeit turn timeouts,
        and let the bot move in bot games that were waiting for it (after a restart)."""
        notices: list[Notice] = []
        now = self.clock()
        for c in await self.storage.due_challenges(now):
            if await self.storage.resolve_challenge(c.id, "expired", now):
                text = f"{c.challenger_name}'s challenge to {c.opponent_name} expired."
                notices.append(
                    Notice(c.channel_id, Reply(text=text, challenge_id=c.id), c.message_id)
                )
        # Only games the clock may concern are read; each may need its record replayed
        # (after a restart), so the loop gets a turn in between.
        for row in await self.storage.active_games(turn_started_by=now - self._warn_after):
            try:
                notice = await self._tick_game(row, now)
            except Exception:  # one broken game must not stop the others' clocks
                log.exception("tick failed for game %s", row.id)
                continue
            finally:
                await asyncio.sleep(0)
            if notice is not None:
                notices.append(notice)
        return notices

    @property
    def _warn_after(self) -> timedelta:
        """How long into a turn the timeout warning comes."""
        return self.turn_timeout - min(self.turn_timeout / 2, WARN_BEFORE)

    async def _tick_game(self, row: GameRow, now: datetime) -> Notice | None:
        position = self._position(row)
        on_turn = _side(row, position.to_move) if position.to_move else None
        if on_turn is None:
            return None
        if on_turn.is_bot:
            if row.id in self._thinking:
                return None
            row, events, finished = await self._bot_turns(row)
            if not events:
                return None
            reply = await self._board_reply(row, events=events, finished=finished)
            return Notice(row.channel_id, reply, row.board_message_id)
        elapsed = now - row.turn_started_at
        if elapsed >= self.turn_timeout:
            async with self._lock(row.id):
                fresh = await self._game_by_id(row.id)
                if fresh.version != row.version:
                    return None
                outcome = Outcome(on_turn.color.other, Termination.TIMEOUT)
                finished = await self._finish(fresh, fresh.record, outcome)
            reply = await self._board_reply(finished.game, finished=finished)
            return Notice(row.channel_id, reply, row.board_message_id)
        if elapsed >= self._warn_after and not row.warned:
            if not await self.storage.mark_warned(row.id, row.version):
                return None
            left = texts.duration((self.turn_timeout - elapsed).total_seconds())
            text = (
                f"⏳ {on_turn.ref}, it's your turn in game #{row.id} "
                f"({row.white_name} vs {row.black_name}). Play within {left}, "
                "or you forfeit the game."
            )
            reply = Reply(
                text=text, game_id=row.id, version=row.version, mentions=(on_turn.user_id,)
            )
            return Notice(row.channel_id, reply, None)
        return None

    # -- internals: finding and checking -------------------------------------

    def _lock(self, game_id: int) -> asyncio.Lock:
        lock = self._locks.get(game_id)
        if lock is None:
            lock = asyncio.Lock()
            self._locks[game_id] = lock
        return lock

    async def _game_id(self, place: Place, game_id: int | None) -> int:
        """The game a call acts in: the clicked board's, or the one in ``place``'s channel
        (the caller reads it afresh under the game's lock)."""
        if game_id is not None:
            return game_id
        return (await self._find_game(place)).id

    async def _find_game(self, place: Place) -> GameRow:
        """The active game in ``place``'s channel."""
        row = await self.storage.active_game_in_channel(place.channel_id)
        if row is None:
            raise NoGameHere(
                "There is no game in this channel. Start one with /shax challenge "
                "opponent:@someone or /shax play-bot."
            )
        return row

    async def _game_by_id(self, game_id: int) -> GameRow:
        row = await self.storage.get_game(game_id)
        if row is None:
            raise NoGameHere("That game doesn't exist any more.")
        return row

    def _check_player(self, row: GameRow, user: User, version: int | None) -> _Side:
        """The user's side in an active game, checking the clicked board's version."""
        side = _side_of(row, user.id)
        if side is None or side.is_bot:
            raise NotYourGame(_not_your_game(row))
        if not row.active:
            raise GameOver(
                f"Game #{row.id} is over. Start a new one with Rematch, /shax challenge "
                "or /shax play-bot."
            )
        if version is not None and version != row.version:
            raise StaleBoard(_STALE)
        return side

    def _check_turn(self, row: GameRow, user: User, version: int | None) -> _Side:
        side = self._check_player(row, user, version)
        position = self._position(row)
        if position.to_move is not side.color:
            other = _other(row, side)
            if other.is_bot:
                raise NotYourTurn(f"{other.name} is thinking — wait for its move.")
            raise NotYourTurn(f"It's {other.name}'s turn — wait for their move.")
        return side

    async def _check_channel_free(self, place: Place) -> None:
        row = await self.storage.active_game_in_channel(place.channel_id)
        if row is not None:
            raise self._busy(place, row)

    def _busy(self, place: Place, row: GameRow | None) -> ChannelBusy:
        game = f" (game #{row.id}: {row.white_name} vs {row.black_name})" if row else ""
        if place.is_thread:
            where = (
                f"A game is already being played in this thread{game}. Start a new thread "
                "from the channel and play there — each thread holds its own game."
            )
        else:
            where = (
                f"A game is already being played in this channel{game}. Open a thread here "
                "and start your game there — each thread holds its own game."
            )
        return ChannelBusy(where)

    def _position(self, row: GameRow) -> Position:
        """The game's position, replayed from its record (cached; records only grow)."""
        cached = self._positions.get(row.id)
        if cached is not None and cached[0] == row.record:
            return cached[1]
        if cached is not None and row.record[: len(cached[0])] == cached[0]:
            position = cached[1]
            for text in row.record[len(cached[0]) :]:
                position = position.apply(text)
        else:
            from engine import replay

            position = replay(row.variant, row.record)
        self._positions[row.id] = (row.record, position)
        return position

    def _bot_name(self, level: str) -> str:
        return f"{self.bot_user.name} ({level})"

    # -- internals: changing games --------------------------------------------

    async def _commit(
        self, row: GameRow, notation: str, after: Position, offer: int | None
    ) -> tuple[GameRow, Finished | None]:
        """Store one accepted action (ending the game if the engine says so)."""
        record = (*row.record, notation)
        if after.outcome is not None:
            finished = await self._finish(row, record, after.outcome)
            return finished.game, finished
        stored = await self.storage.update_game(
            row.id,
            row.version,
            record=record,
            draw_offered_by=offer,
            now=self.clock(),
            new_turn=True,
        )
        if stored is None:
            raise StaleBoard(_STALE)
        self._positions[row.id] = (stored.record, after)
        return stored, None

    async def _finish(self, row: GameRow, record: Sequence[str], outcome: Outcome) -> Finished:
        white, black = _side(row, Color.WHITE), _side(row, Color.BLACK)
        winner = None if outcome.winner is None else _side(row, outcome.winner)
        players = []
        for me, them in ((white, black), (black, white)):
            if me.is_bot:
                continue
            kind = bot_kind(row.ai_level) if them.is_bot and row.ai_level else HUMAN
            result = "draw" if winner is None else "win" if winner == me else "loss"
            players.append(PlayerResult(me.user_id, me.name, kind, result))  # type: ignore[arg-type]
        finished = await self.storage.finish_game(
            row.id,
            row.version,
            record=record,
            result=outcome.result,
            termination=outcome.termination.name,
            now=self.clock(),
            players=players,
            series=SeriesResult(
                white=self._series_key(row, white),
                black=self._series_key(row, black),
                winner=None if winner is None else self._series_key(row, winner),
            ),
        )
        if finished is None:
            raise StaleBoard(_STALE)
        self._positions.pop(row.id, None)  # finished games are rarely looked at again
        return finished

    def _series_key(self, row: GameRow, side: _Side) -> str:
        return bot_kind(row.ai_level) if side.is_bot and row.ai_level else side.key

    async def _bot_turns(self, row: GameRow) -> tuple[GameRow, list[str], Finished | None]:
        """Let the bot act while it is on turn (a move, its capture, freeing moves).

        Each action is computed in the AI pool and committed on its own; if the game
        changes meanwhile (a resignation) the bot's action is dropped.
        """
        events: list[str] = []
        if row.ai_level is None or row.id in self._thinking:
            return row, events, None
        self._thinking.add(row.id)
        try:
            while row.active:
                position = self._position(row)
                side = _side(row, position.to_move) if position.to_move else None
                if side is None or not side.is_bot:
                    break
                seed = ai_seed(row.id, len(row.record))
                announce_slow_answer()
                text = await self.ai.choose(row.variant, row.record, row.ai_level, seed)
                async with self._lock(row.id):
                    fresh = await self._game_by_id(row.id)
                    if fresh.version != row.version:
                        return fresh, events, None
                    try:
                        act = position.parse(text)
                        after = position.apply(act)
                    except (NotationError, IllegalActionError):
                        log.error("AI chose %r, not legal in game %s", text, row.id)
                        act = random.Random(seed).choice(position.legal_actions())
                        after = position.apply(act)
                    events.append(
                        texts.describe_action(
                            position, act, after, side.name, _other(row, side).name
                        )
                    )
                    row, finished = await self._commit(
                        fresh, act.notation(position.variant), after, fresh.draw_offered_by
                    )
                if finished is not None:
                    return row, events, finished
        finally:
            self._thinking.discard(row.id)
        return row, events, None

    # -- internals: replies -----------------------------------------------------

    async def _board_reply(
        self,
        row: GameRow,
        *,
        events: Sequence[str] = (),
        intro: str = "",
        finished: Finished | None = None,
        ping: tuple[int, ...] = (),
    ) -> Reply:
        """The live board: the picture, the actions in words, whose turn it is (mentioned),
        the controls; at the end the result, the streak change and the replay."""
        import renderer

        position = self._position(row)
        white, black = _side(row, Color.WHITE), _side(row, Color.BLACK)
        series = await self.storage.series(
            row.guild_id, self._series_key(row, white), self._series_key(row, black)
        )
        outcome = _row_outcome(row)
        view = renderer.BoardView(
            white_name=row.white_name,
            black_name=row.black_name,
            series_color=_holder_color(series, self._series_key(row, white)),
            series_stones=series.stones,
            outcome=outcome if outcome != position.outcome else None,
        )
        parts = [intro.strip()] if intro.strip() else []
        if events:
            parts.append("; ".join(events) + ".")
        mentions: list[int] = list(ping)
        attachments = [Attachment(BOARD_FILENAME, b"")]
        if outcome is not None:
            parts.append(f"**{texts.result_sentence(outcome, row.white_name, row.black_name)}.**")
            if finished is not None:
                streak = self._streak_text(row, outcome, finished)
                if streak:
                    parts.append(streak)
            holder = _holder_name(row, series, self._series_key(row, white))
            if holder and series.stones:
                stones = f"{series.stones} stone{'s' if series.stones != 1 else ''}"
                parts.append(f"{holder} holds {stones} in this series.")
            people = [s for s in (white, black) if not s.is_bot]
            parts.append("Good game, " + " and ".join(s.ref for s in people) + "!")
            mentions += [s.user_id for s in people]
            controls = BoardControls(row.id, row.version, rematch=True)
            gif = await self._run_replay(self._render_replay, row.variant, list(row.record), view)
            png = await self._run_board(self._render_board, row.variant, list(row.record), view)
            attachments = [
                Attachment(BOARD_FILENAME, png),
                Attachment(renderer.REPLAY_FILENAME, gif),
            ]
        else:
            side = _side(row, position.to_move)  # type: ignore[arg-type]
            if side.is_bot:
                parts.append(f"{side.name} is thinking…")
            else:
                parts.append(
                    f"{side.ref} — your turn ({side.color.label} {texts.STONE[side.color]}): "
                    f"{texts.turn_prompt(position)}."
                )
            if row.draw_offered_by is not None and not intro:
                offerer = _side_of(row, row.draw_offered_by)
                if offerer is not None:
                    parts.append(f"{offerer.name} offers a draw.")
            if not side.is_bot:
                mentions.append(side.user_id)
            controls = self._controls(row, position)
            png = await self._run_board(self._render_board, row.variant, list(row.record), view)
            attachments = [Attachment(BOARD_FILENAME, png)]
        return Reply(
            text=" ".join(parts),
            attachments=tuple(attachments),
            controls=controls,
            game_id=row.id,
            version=row.version,
            live_board=True,
            board_message_id=row.board_message_id,
            mentions=tuple(dict.fromkeys(mentions)),
        )

    def _controls(self, row: GameRow, position: Position) -> BoardControls:
        v = position.variant
        legal = position.legal_actions()
        two_step = len(legal) > MAX_CHOICES
        if two_step:
            sources: dict[str, list[str]] = {}
            for a in legal:
                sources.setdefault(v.points[a.src], []).append(v.points[a.dst])
            choices = tuple(
                Choice(label=src, value=src, description="to " + ", ".join(sorted(dsts)))
                for src, dsts in sorted(sources.items())
            )[:MAX_CHOICES]
            placeholder = "Choose a stone to move"
        else:
            choices = tuple(
                Choice(label=n, value=n, description=_choice_description(a))
                for n, a in sorted((a.notation(v), a) for a in legal)
            )
            placeholder = {
                Step.PLACE: "Choose a point to place on",
                Step.REMOVE: "Choose a stone to remove",
            }.get(position.step, "Choose a move")
        return BoardControls(
            game_id=row.id,
            version=row.version,
            choices=choices,
            two_step=two_step,
            can_offer_draw=row.ai_level is None,
            draw_offered_by=row.draw_offered_by,
            placeholder=placeholder,
        )

    def _streak_text(self, row: GameRow, outcome: Outcome, finished: Finished) -> str:
        if outcome.winner is None:
            return change_text(None, None, None, None)
        winner = _side(row, outcome.winner)
        loser = _side(row, outcome.winner.other)
        winner_after = finished.tallies.get(winner.user_id, (None, None))[1]
        loser_before = finished.tallies.get(loser.user_id, (None, None))[0]
        return change_text(
            winner.name,
            None if winner.is_bot else winner_after,
            loser.name,
            None if loser.is_bot else loser_before,
        )


# -- small helpers -------------------------------------------------------------------

_STALE = "This board is out of date — use the latest board below (or /shax board)."


def _variant(variant: str) -> Variant:
    try:
        return get_variant(variant.strip().lower())
    except UnknownVariantError:
        raise BadOption(
            f"Unknown variant {variant!r} — choose one of: {', '.join(VARIANT_IDS)}."
        ) from None


def _side(row: GameRow, color: Color) -> _Side:
    is_bot_color = row.ai_color == color.label
    if color is Color.WHITE:
        return _Side(color, row.white_id, row.white_name, is_bot_color)
    return _Side(color, row.black_id, row.black_name, is_bot_color)


def _side_of(row: GameRow, user_id: int) -> _Side | None:
    for color in Color:
        side = _side(row, color)
        if side.user_id == user_id:
            return side
    return None


def _other(row: GameRow, side: _Side) -> _Side:
    return _side(row, side.color.other)


def _not_your_game(row: GameRow) -> str:
    return (
        f"This is {row.white_name} and {row.black_name}'s game — only they can play it. "
        "Start your own with /shax challenge or /shax play-bot."
    )


def _row_outcome(row: GameRow) -> Outcome | None:
    if row.result is None or row.termination is None:
        return None
    winner = None if row.result == "draw" else Color[row.result.upper()]
    return Outcome(winner, Termination[row.termination])


def _holder_color(series: Series, white_key: str) -> Color | None:
    if series.holder is None or not series.stones:
        return None
    return Color.WHITE if series.holder == white_key else Color.BLACK


def _holder_name(row: GameRow, series: Series, white_key: str) -> str | None:
    color = _holder_color(series, white_key)
    if color is None:
        return None
    return row.white_name if color is Color.WHITE else row.black_name


def _choice_description(action: Action) -> str:
    return {Kind.PLACE: "place a stone here", Kind.REMOVE: "remove this stone"}.get(
        action.kind, "move this stone"
    )


def _challenge_place(c: ChallengeRow) -> Place:
    return Place(c.guild_id, c.channel_id, c.parent_channel_id)


def _replace(reply: Reply, **changes: Any) -> Reply:
    from dataclasses import replace

    return replace(reply, **changes)


def _tally_line(t: Tally) -> str:
    from bot.streaks import streak_phrase

    record = f"{t.wins} won, {t.losses} lost, {t.draws} drawn"
    now = streak_phrase(t.streak) if t.streak else "no current streak"
    extra = f" · gal ×{t.gal}" if t.gal else ""
    extra += f" · gabad ×{t.gabad}" if t.gabad else ""
    return f"{record} — {now}; best {t.best} in a row{extra}"
