"""The bot as a player: starting a game against it, and its turns.

The bot's actions are chosen off the event loop by an :class:`ActionChooser` (the
AI worker processes of :mod:`bot.workers.ai`, whose time budget per level comes
from ``engine.ai.levels.LEVEL_TABLE``). Each action is committed on its own; if the
game changes meanwhile (a resignation) the bot's action is dropped. Callers that
must answer quickly pass a :data:`~bot.service.replies.Thinking` callback: it is
called just before the bot starts to think.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Sequence
from typing import Protocol

from bot.service.compose import Composer
from bot.service.kernel import VARIANT_TITLE, GameKernel, other, player_key, side
from bot.service.replies import Place, Reply, Said, Saying, Thinking, User, not_thinking
from bot.service.streaks import bot_kind, first_to_place
from bot.storage import ChannelTaken, Finished, GameRow, NewGame
from engine import Action, IllegalActionError, NotationError, Position, Variant

log = logging.getLogger(__name__)

FIRST_CHOICES = ("me", "bot", "random")
"""Who places first in a game against the bot (``None``: the series rule)."""

ACTION_LINE: Saying[[Position, Action, Position, str, str]] = Saying("action_line")
"""An action and what it brought about: the position before, the action, the position
after, the mover's name and the other player's."""
BOT_GAME_INTRO: Saying[[str, str, Said]] = Saying("bot_game_intro")
"""A game against the bot begins: the player's name, the bot's, the board's title."""


class ActionChooser(Protocol):
    """Chooses the bot's action off the event loop (``bot.workers.ai.AIPool`` is one)."""

    async def choose(self, variant: str, record: Sequence[str], level: str, seed: int) -> str:
        """The bot's action in notation after ``record``."""
        ...


def ai_seed(game_id: int, ply: int) -> int:
    """The AI's seed for a game's ply: a replayed game is reproducible."""
    return (game_id * 1_000_003 + ply) % 2**31


class BotPlayer:
    """Starts games against the bot and plays its turns."""

    def __init__(self, kernel: GameKernel, composer: Composer, ai: ActionChooser) -> None:
        self.kernel = kernel
        self.composer = composer
        self.ai = ai
        self._thinking: set[int] = set()

    def is_thinking(self, game_id: int) -> bool:
        """Whether the bot is choosing an action in this game right now."""
        return game_id in self._thinking

    async def start_game(
        self,
        user: User,
        place: Place,
        level: str,
        variant: Variant,
        first: str | None,
        *,
        rematch_of: int | None,
        thinking: Thinking = not_thinking,
    ) -> Reply:
        """A new game against the bot at ``level``; when the bot places first its action
        is already on the board."""
        k = self.kernel
        await k.check_channel_free(place)
        me, bot = player_key(user.id), bot_kind(level)
        series = await k.storage.standings.series(place.guild_id, me, bot)
        if first == "random":
            # Seeded by the moment, so it is a coin toss but the record stays replayable.
            first = random.Random(k.now().timestamp()).choice(("me", "bot"))
        if first is None:
            first = "me" if first_to_place(series, me, bot) == me else "bot"
        bot_name = k.bot_name(level)
        human = (user.id, user.name)
        machine = (k.bot_user.id, bot_name)
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
            row = await k.storage.games.create_game(new, k.now())
        except ChannelTaken:
            raise k.busy(place, None) from None
        row, events, finished = await self.play_turns(row, thinking)
        intro = BOT_GAME_INTRO(user.name, bot_name, VARIANT_TITLE(variant))
        return await self.composer.board_reply(
            row, events=events, intro=intro, finished=finished, viewer=user.id
        )

    async def play_turns(
        self, row: GameRow, thinking: Thinking = not_thinking
    ) -> tuple[GameRow, list[Said], Finished | None]:
        """Let the bot act while it is on turn (a move, its capture, freeing moves);
        the game as it is then, the actions in words, and how it ended if it did."""
        events: list[Said] = []
        if row.ai_level is None or row.id in self._thinking:
            return row, events, None
        k = self.kernel
        self._thinking.add(row.id)
        try:
            while row.active:
                position = k.position(row)
                me = side(row, position.to_move) if position.to_move else None
                if me is None or not me.is_bot:
                    break
                seed = ai_seed(row.id, len(row.record))
                thinking()
                text = await self.ai.choose(row.variant, row.record, row.ai_level, seed)
                async with k.lock(row.id):
                    fresh = await k.game(row.id)
                    if fresh.version != row.version:
                        return fresh, events, None
                    try:
                        act = position.parse(text)
                        after = position.apply(act)
                    except (NotationError, IllegalActionError):
                        log.error("AI chose %r, not legal in game %s", text, row.id)
                        act = random.Random(seed).choice(position.legal_actions())
                        after = position.apply(act)
                    events.append(ACTION_LINE(position, act, after, me.name, other(row, me).name))
                    row, finished = await k.commit(
                        fresh, act.notation(position.variant), after, fresh.draw_offered_by
                    )
                if finished is not None:
                    return row, events, finished
        finally:
            self._thinking.discard(row.id)
        return row, events, None
