"""The clock: challenges expire, turns time out (a warning first, then a forfeit), and the
bot moves in games that were waiting for it (after a restart).

The adapter calls :meth:`TurnClock.tick` every ~30 s and shows the notices it returns.
With several bot processes (shards), each runs the clock only for the servers of its
own shards (``owns``), so every expiry, warning and forfeit happens in one process;
the stored versions make it happen once even if two processes ever overlap.
Only games the clock may concern are read (bot games, and turns past the warning time),
and the event loop gets a turn between games.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime, timedelta

from bot.service.bot_turns import BotPlayer
from bot.service.compose import Composer
from bot.service.kernel import GameKernel, side
from bot.service.replies import Notice, Reply, Said
from bot.service.server_settings import ServerSettingsBook
from bot.storage import GameRow
from engine import Outcome, Termination

log = logging.getLogger(__name__)

WARN_BEFORE = timedelta(hours=1)
"""The turn-timeout warning comes this long before the forfeit (or at half time, if sooner)."""


def warn_after(timeout: timedelta) -> timedelta:
    """How long into a turn the timeout warning comes."""
    return timeout - min(timeout / 2, WARN_BEFORE)


def everything(guild_id: int | None) -> bool:
    """The clock of a lone process runs for every server."""
    return True


class TurnClock:
    """Challenge expiry and turn timeouts."""

    def __init__(
        self,
        kernel: GameKernel,
        composer: Composer,
        bots: BotPlayer,
        *,
        servers: ServerSettingsBook,
        owns: Callable[[int | None], bool] = everything,
    ) -> None:
        self.kernel = kernel
        self.composer = composer
        self.bots = bots
        self.servers = servers
        self.owns = owns

    @property
    def turn_timeout(self) -> timedelta:
        """The turn timeout of servers that did not choose their own."""
        return self.servers.defaults.turn_timeout

    async def tick(self) -> list[Notice]:
        """Expire challenges, warn on and then forfeit turn timeouts, and let the bot move
        in bot games that were waiting for it."""
        storage = self.kernel.storage
        notices: list[Notice] = []
        now = self.kernel.now()
        for c in await storage.due_challenges(now):
            if not self.owns(c.guild_id):
                continue
            if await storage.resolve_challenge(c.id, "expired", now):
                text = Said("challenge_expired", c.challenger_name, c.opponent_name)
                players = (c.challenger_id, c.opponent_id)
                reply = Reply(text=text, challenge_id=c.id, players=players)
                notices.append(Notice(c.channel_id, reply, c.message_id, c.guild_id))
        timeouts = await self.servers.turn_timeouts()
        shortest = min((self.turn_timeout, *timeouts.values()))
        for row in await storage.active_games(turn_started_by=now - warn_after(shortest)):
            if not self.owns(row.guild_id):
                continue
            timeout = timeouts.get(row.guild_id or 0, self.turn_timeout)
            try:
                notice = await self._tick_game(row, now, timeout)
            except Exception:  # one broken game must not stop the others' clocks
                log.exception("tick failed for game %s", row.id)
                continue
            finally:
                await asyncio.sleep(0)
            if notice is not None:
                notices.append(replace(notice, guild_id=row.guild_id))
        return notices

    async def _tick_game(self, row: GameRow, now: datetime, timeout: timedelta) -> Notice | None:
        k = self.kernel
        position = k.position(row)
        on_turn = side(row, position.to_move) if position.to_move else None
        if on_turn is None:
            return None
        if on_turn.is_bot:
            if self.bots.is_thinking(row.id):
                return None
            row, events, finished = await self.bots.play_turns(row)
            if not events:
                return None
            reply = await self.composer.board_reply(row, events=events, finished=finished)
            return Notice(row.channel_id, reply, row.board_message_id)
        elapsed = now - row.turn_started_at
        if elapsed >= timeout:
            async with k.lock(row.id):
                fresh = await k.game(row.id)
                if fresh.version != row.version:
                    return None
                outcome = Outcome(on_turn.color.other, Termination.TIMEOUT)
                finished = await k.finish(fresh, fresh.record, outcome)
            reply = await self.composer.board_reply(finished.game, finished=finished)
            return Notice(row.channel_id, reply, row.board_message_id)
        if elapsed >= warn_after(timeout) and not row.warned:
            if not await k.storage.mark_warned(row.id, row.version):
                return None
            left = (timeout - elapsed).total_seconds()
            text = Said(
                "timeout_warning", on_turn.user, row.id, row.white_name, row.black_name, left
            )
            reply = Reply(
                text=text,
                game_id=row.id,
                version=row.version,
                mentions=(on_turn.user_id,),
                players=(row.white_id, row.black_id),
            )
            return Notice(row.channel_id, reply, None)
        return None
