"""Challenges between people, games against the bot, and rematches.

A challenge is stored with an expiry (the clock closes it, :mod:`bot.service.clock`);
accepting it starts the game, with the series deciding who places first: the last
winner, after a draw whoever placed second last time, in a new series the challenger.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta

from bot.service import messages
from bot.service.bot_turns import FIRST_CHOICES, BotPlayer
from bot.service.compose import Composer
from bot.service.kernel import (
    NOT_YOUR_GAME,
    VARIANT_TITLE,
    GameKernel,
    challenge_place,
    game_place,
    names,
    other,
    parse_variant,
    player_key,
    side_of,
    valid_id,
)
from bot.service.replies import (
    BadOption,
    ChallengeControls,
    ChallengeError,
    Channel,
    GameOver,
    NotYourGame,
    Place,
    Reply,
    Said,
    Saying,
    Thinking,
    User,
    not_thinking,
)
from bot.service.server_settings import ServerSettingsBook
from bot.service.streaks import first_to_place
from bot.storage import ChallengeRow, ChallengeTaken, ChannelTaken, NewChallenge, NewGame
from engine import Variant, get_variant
from engine.ai import LEVELS

CHALLENGE_THE_BOT: Saying[[Sequence[str]]] = Saying("challenge_the_bot")
"""The bot was challenged: play it with /shax play-bot, at one of these levels."""
CHALLENGE_A_BOT_ACCOUNT: Saying[[str]] = Saying("challenge_a_bot_account")
ALREADY_CHALLENGED: Saying[[str]] = Saying("already_challenged")
CHALLENGE_SENT: Saying[[User, str, Said | None, float]] = Saying("challenge_sent")
"""The opponent, the challenger's name, the board's title (none for a rematch), and how
long the challenge stays open (seconds)."""
ACCEPT_OWN_CHALLENGE: Saying[[str]] = Saying("accept_own_challenge")
CHALLENGE_FOR_SOMEONE_ELSE: Saying[[str]] = Saying("challenge_for_someone_else")
CHALLENGE_ACCEPTED: Saying[[str, str, str, bool, bool]] = Saying("challenge_accepted")
"""Who accepted, the challenger, who places first, and whether by winning the last game
or after a draw."""
CHALLENGE_DECLINED: Saying[[str, str]] = Saying("challenge_declined")
ONLY_CHALLENGER_WITHDRAWS: Saying[[str]] = Saying("only_challenger_withdraws")
CHALLENGE_WITHDRAWN: Saying[[str, str]] = Saying("challenge_withdrawn")
CHALLENGE_NOT_OPEN: Saying[[str]] = Saying("challenge_not_open")
"""A challenge that is no longer open, by its status."""
NOTHING_TO: Saying[[str]] = Saying("nothing_to")
"""No challenge waits to be accepted or declined (the verb)."""
UNKNOWN_LEVEL: Saying[[str, Sequence[str]]] = Saying("unknown_level")
UNKNOWN_FIRST: Saying[[str]] = Saying("unknown_first")
REMATCH_ALREADY_ASKED: Saying[[str]] = Saying("rematch_already_asked")
GAMES_NOT_HERE: Saying[[Sequence[Channel]]] = Saying("games_not_here")
"""Games are played on this server only in these channels."""


class Challenges:
    """Challenges and the starts of games."""

    def __init__(
        self,
        kernel: GameKernel,
        composer: Composer,
        bots: BotPlayer,
        *,
        servers: ServerSettingsBook,
    ) -> None:
        self.kernel = kernel
        self.composer = composer
        self.bots = bots
        self.servers = servers

    async def _check_allowed(self, place: Place) -> None:
        """Refuse to start a game outside the server's game channels (when it has some)."""
        settings = await self.servers.of(place.guild_id)
        if not settings.allows(place):
            raise ChallengeError(GAMES_NOT_HERE([Channel(c) for c in sorted(settings.channels)]))

    async def challenge(
        self, challenger: User, opponent: User, place: Place, variant: str = "shax"
    ) -> Reply:
        """A challenge with Accept / Decline; it expires."""
        v = parse_variant(variant)
        if opponent.id == challenger.id:
            raise ChallengeError(Said.message(messages.CHALLENGE_YOURSELF))
        if opponent.id == self.kernel.bot_user.id:
            raise ChallengeError(CHALLENGE_THE_BOT(LEVELS))
        if opponent.is_bot:
            raise ChallengeError(CHALLENGE_A_BOT_ACCOUNT(opponent.name))
        await self._check_allowed(place)
        await self.kernel.check_channel_free(place)
        for open_one in await self.kernel.storage.challenges.open_challenges(place.channel_id):
            if (open_one.challenger_id, open_one.opponent_id) == (challenger.id, opponent.id):
                raise ChallengeError(ALREADY_CHALLENGED(opponent.name))
        try:
            return await self._create(challenger, opponent, place, v, rematch_of=None)
        except (ChallengeTaken, ChannelTaken):
            # The same challenge sent twice at once, or a game started here meanwhile:
            # asked again, it finds them, as if it came after them.
            return await self.challenge(challenger, opponent, place, variant)

    async def _create(
        self,
        challenger: User,
        opponent: User,
        place: Place,
        variant: Variant,
        rematch_of: int | None,
    ) -> Reply:
        now = self.kernel.now()
        expiry = (await self.servers.of(place.guild_id)).challenge_expiry.total_seconds()
        row = await self.kernel.storage.challenges.create_challenge(
            NewChallenge(
                guild_id=place.guild_id,
                channel_id=place.channel_id,
                parent_channel_id=place.parent_channel_id,
                challenger_id=challenger.id,
                challenger_name=challenger.name,
                opponent_id=opponent.id,
                opponent_name=opponent.name,
                variant=variant.id,
                expires_at=now + timedelta(seconds=expiry),
                rematch_of=rematch_of,
            ),
            now,
        )
        text = CHALLENGE_SENT(
            opponent,
            challenger.name,
            None if rematch_of is not None else VARIANT_TITLE(variant),
            expiry,
        )
        return Reply(
            text=text,
            controls=ChallengeControls(row.id),
            challenge_id=row.id,
            mentions=(opponent.id,),
            players=(challenger.id, opponent.id),
        )

    async def accept(self, user: User, place: Place, challenge_id: int | None = None) -> Reply:
        """Accept a challenge (the newest open one addressed to ``user`` here when no id):
        the game starts and its live board is the reply."""
        k = self.kernel
        c = await self._challenge_for(user, place, challenge_id, "accept")
        if user.id != c.opponent_id:
            if user.id == c.challenger_id:
                raise ChallengeError(ACCEPT_OWN_CHALLENGE(c.opponent_name))
            raise NotYourGame(CHALLENGE_FOR_SOMEONE_ELSE(c.opponent_name))
        now = k.now()
        if c.expires_at <= now:
            # A refusal changes nothing: the next tick closes the challenge and its message.
            raise ChallengeError(Said.message(messages.CHALLENGE_EXPIRED))
        await k.check_channel_free(challenge_place(c))
        challenger_key, opponent_key = player_key(c.challenger_id), player_key(c.opponent_id)
        series = await k.storage.standings.series(c.guild_id, challenger_key, opponent_key)
        first = first_to_place(series, challenger_key, opponent_key)
        challenger = (c.challenger_id, c.challenger_name)
        opponent = (c.opponent_id, user.name)
        white, black = (challenger, opponent) if first == challenger_key else (opponent, challenger)
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
            row = await k.storage.challenges.accept_challenge(c.id, new, now)
        except ChannelTaken:
            raise k.busy(challenge_place(c), None) from None
        if row is None:
            raise ChallengeError(Said.message(messages.CHALLENGE_CLOSED))
        intro = CHALLENGE_ACCEPTED(
            user.name,
            c.challenger_name,
            white[1],
            series.last_winner is not None,
            series.last_winner is None and series.games > 0,
        )
        return await self.composer.board_reply(row, intro=intro, viewer=user.id)

    async def decline(self, user: User, place: Place, challenge_id: int | None = None) -> Reply:
        """Decline a challenge addressed to ``user``; the challenger declining withdraws it."""
        c = await self._challenge_for(user, place, challenge_id, "decline")
        if user.id == c.challenger_id:
            return await self.cancel(user, place, c.id)
        if user.id != c.opponent_id:
            raise NotYourGame(CHALLENGE_FOR_SOMEONE_ELSE(c.opponent_name))
        if not await self.kernel.storage.challenges.resolve_challenge(
            c.id, "declined", self.kernel.now()
        ):
            raise ChallengeError(Said.message(messages.CHALLENGE_CLOSED))
        return Reply(
            text=CHALLENGE_DECLINED(user.name, c.challenger_name),
            challenge_id=c.id,
            players=(c.challenger_id, c.opponent_id),
        )

    async def cancel(self, user: User, place: Place, challenge_id: int | None = None) -> Reply:
        """Withdraw ``user``'s own open challenge (the newest one here when no id)."""
        if challenge_id is None:
            mine = [
                c
                for c in await self.kernel.storage.challenges.open_challenges(place.channel_id)
                if c.challenger_id == user.id
            ]
            if not mine:
                raise ChallengeError(Said.message(messages.NO_OPEN_CHALLENGE))
            c = mine[-1]
        else:
            c = await self._challenge_row(challenge_id)
        if user.id != c.challenger_id:
            raise NotYourGame(ONLY_CHALLENGER_WITHDRAWS(c.challenger_name))
        if not await self.kernel.storage.challenges.resolve_challenge(
            c.id, "cancelled", self.kernel.now()
        ):
            raise ChallengeError(Said.message(messages.CHALLENGE_CLOSED))
        return Reply(
            text=CHALLENGE_WITHDRAWN(c.challenger_name, c.opponent_name),
            challenge_id=c.id,
            players=(c.challenger_id, c.opponent_id),
        )

    async def play_bot(
        self,
        user: User,
        place: Place,
        level: str = "medium",
        variant: str = "shax",
        first: str | None = None,
        *,
        thinking: Thinking = not_thinking,
    ) -> Reply:
        """A game against the bot. ``first`` is ``me``, ``bot`` or ``random`` (``None``: the
        series rule — the last winner places first, the user in a new series)."""
        v = parse_variant(variant)
        typed_level, typed_first = level, first  # values match whatever their case
        level = level.strip().lower()
        first = first.strip().lower() if first is not None else None
        if level not in LEVELS:
            raise BadOption(UNKNOWN_LEVEL(typed_level, LEVELS))
        if first is not None and first not in FIRST_CHOICES:
            raise BadOption(UNKNOWN_FIRST(typed_first or ""))
        if user.is_bot:
            raise ChallengeError(Said.message(messages.BOT_ACCOUNTS_CANT_PLAY))
        await self._check_allowed(place)
        return await self.bots.start_game(
            user, place, level, v, first, rematch_of=None, thinking=thinking
        )

    async def rematch(
        self, user: User, game_id: int, *, thinking: Thinking = not_thinking
    ) -> Reply:
        """After a game: against the bot, the next game at once; against a person, a
        challenge (or accepting their rematch challenge)."""
        k = self.kernel
        row = await k.game(game_id)
        me = side_of(row, user.id)
        if me is None or me.is_bot:
            raise NotYourGame(NOT_YOUR_GAME(*names(row)))
        if row.active:
            raise GameOver(Said.message(messages.STILL_PLAYING))
        where = game_place(row)
        variant = get_variant(row.variant)
        if row.ai_level is not None:
            return await self.bots.start_game(
                user, where, row.ai_level, variant, None, rematch_of=row.id, thinking=thinking
            )
        them = other(row, me)
        for c in await k.storage.challenges.open_challenges(row.channel_id):
            if c.rematch_of != row.id:
                continue
            if c.opponent_id == user.id:
                return await self.accept(user, where, c.id)
            raise ChallengeError(REMATCH_ALREADY_ASKED(them.name))
        await k.check_channel_free(where)
        try:
            return await self._create(
                user, User(them.user_id, them.name, False), where, variant, row.id
            )
        except (ChallengeTaken, ChannelTaken):
            # Both players asked at once (or one twice), or the rematch began meanwhile:
            # this click answers what stands now, as if it came after it (accepting the
            # other's challenge, or refused).
            return await self.rematch(user, game_id, thinking=thinking)

    async def _challenge_row(self, challenge_id: int) -> ChallengeRow:
        c = (
            await self.kernel.storage.challenges.get_challenge(challenge_id)
            if valid_id(challenge_id)
            else None
        )
        if c is None:
            raise ChallengeError(Said.message(messages.CHALLENGE_GONE))
        if c.status != "open":
            raise ChallengeError(CHALLENGE_NOT_OPEN(c.status))
        return c

    async def _challenge_for(
        self, user: User, place: Place, challenge_id: int | None, verb: str
    ) -> ChallengeRow:
        if challenge_id is not None:
            return await self._challenge_row(challenge_id)
        waiting = [
            c
            for c in await self.kernel.storage.challenges.open_challenges(place.channel_id)
            if c.opponent_id == user.id
        ]
        if not waiting:
            raise ChallengeError(NOTHING_TO(verb))
        return waiting[-1]
