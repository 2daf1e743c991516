"""What the service says on its own: a loop calls ``ShaxService.tick`` and posts its notices.

Expired challenges, timeout warnings and forfeits, and the bot's move in a game that
was waiting for it across a restart. While a gateway connection is down no player can
act, so the tick does nothing and the clock stands still: its next run gives the waiting
turns that time back (:mod:`bot.service.clock`). On every start and reconnect (and a few seconds
after an answer could not be delivered at all, then less and less often while Discord
still refuses, never less often than the tick) the boards the players have not seen
are shown: ``ShownBoards.reconcile`` returns each game whose stored version is newer
than its shown board, posted anew with the player on turn pinged. Answers in flight
are waited for first, and the tick and the reconciliation take turns, so a board that
is being shown is not shown twice. A notice that edits a message follows the live
board rules of :mod:`bot.discord.respond`: edited in place, or reposted (and the old
message deleted) when it must ping someone; a challenge edited in place that names
players pings them with a short text-only message.

The loops and the reconciliations are the bot's background work
(:mod:`bot.discord.background`): none starts once the bot is stopping, and a tick or a
reconciliation under way is a step the stop lets finish before the database closes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator

import aiohttp
import discord
from discord.ext import commands

from bot.discord.app import ShaxBotBase
from bot.discord.render import to_discord, voice
from bot.readers import players_language
from bot.service.replies import DailyControls, Notice, drawn
from bot.tournaments.notices import PairingToOpen
from shax_i18n import translator

log = logging.getLogger(__name__)

ANSWERS_WAIT_SECONDS = 60.0
"""How long a reconciliation waits for the answers in flight to be placed (each ends
sooner: its callbacks are bounded, and discord.py gives up a failing request)."""
RETRY_SECONDS = 2.0
"""How soon after an undelivered answer its board is looked for (doubled after each
attempt that could not show it, up to the tick's interval)."""


def gateway_open(bot: commands.Bot) -> bool:
    """Whether each gateway connection of this process is open (players can act)."""
    if isinstance(bot, commands.AutoShardedBot):
        shards = bot.shards.values()
        return bool(shards) and not any(shard.is_closed() for shard in shards)
    return bot.ws is not None and bot.ws.open


class Notices(commands.Cog):
    """Runs ``service.tick()`` every ``bot.tick_seconds`` and shows what it returns."""

    def __init__(self, bot: ShaxBotBase) -> None:
        self.bot = bot
        self._turn = asyncio.Lock()  # the tick and the reconciliation, one at a time

    async def cog_load(self) -> None:
        self.bot.background.start("the clock's tick", self._ticking())
        self.bot.background.start("the retries of undelivered boards", self._retry_undelivered())
        self.bot.background.start("the tournaments' tick", self._tournaments_ticking())

    @contextlib.asynccontextmanager
    async def _my_turn(self) -> AsyncIterator[None]:
        """The tick's or the reconciliation's turn: one at a time, each a step a stop lets
        finish (and after which the stop ends the loop)."""
        async with self._turn, self.bot.background.step():
            yield

    async def _ticking(self) -> None:
        """The clock: once the bot is ready, a tick every ``bot.tick_seconds``."""
        await self.bot.wait_until_ready()
        while True:
            await self.tick()
            await asyncio.sleep(self.bot.tick_seconds)

    async def _tournaments_ticking(self) -> None:
        """The tournaments: a tick as soon as one has work (a start, a join, a game of
        theirs ended: ``tournaments.due``), else every ``bot.tick_seconds``."""
        await self.bot.wait_until_ready()
        due = self.bot.service.tournaments.due
        while True:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.bot.tick_seconds):
                    await due.wait()
            due.clear()
            await self.tournaments_tick()

    async def tournaments_tick(self) -> None:
        """Run the tournaments once: post what they say, open the games they pair. The
        answers in flight are placed first: a game's result is said before the standings
        it changes."""
        await self.bot.responder.wait_answered(ANSWERS_WAIT_SECONDS)
        async with self._my_turn():
            if not gateway_open(self.bot):
                return  # no player can act: their clock stands still with the games'
            try:
                work = await self.bot.service.tournaments.tick()
            except Exception:
                log.exception("The tournaments' tick failed")
                return
            await self.show_all([item for item in work if isinstance(item, Notice)])
            for item in work:
                if isinstance(item, PairingToOpen):
                    try:
                        await self.bot.threads.open_pairing(item)
                    except Exception:  # offered again at the next tick
                        log.exception("Could not open the game of pairing %s", item.pairing_id)
                        # A game made whose board was not taken is shown soon.
                        self.bot.responder.undelivered.set()

    async def _retry_undelivered(self) -> None:
        """Shows an undelivered answer's board soon, not at the next tick."""
        await self.bot.wait_until_ready()
        delay = RETRY_SECONDS
        while True:
            await self.bot.responder.undelivered.wait()
            await asyncio.sleep(delay)
            try:
                await self.reconcile()
            except Exception:  # the loop must outlive one failed attempt
                log.exception("Could not show the undelivered boards")
            still = self.bot.responder.undelivered.is_set()
            delay = min(delay * 2, self.bot.tick_seconds) if still else RETRY_SECONDS
            if not still:
                # What failed with it (the database was down, say) may have left a bot
                # move waiting: the clock makes it now, not at its next tick.
                await self.tick()

    async def tick(self) -> None:
        async with self._my_turn():
            if not gateway_open(self.bot):
                # Discord cannot reach the bot: no move can come, so the clock stands
                # still; its next run gives the waiting turns this time back.
                self.bot.service.clock.stood_still()
                return
            try:
                notices = await self.bot.service.tick()
            except Exception:
                # One failed tick must not stop the loop: the next one tries again.
                log.exception("The service's tick failed")
                notices = []
            await self.show_all(notices)

    @commands.Cog.listener()
    async def on_ready(self) -> None:
        self.bot.background.start("a look for unseen boards", self.reconcile())

    @commands.Cog.listener()
    async def on_resumed(self) -> None:
        self.bot.background.start("a look for unseen boards", self.reconcile())

    async def reconcile(self) -> None:
        """Show every board the players have not seen (see ``ShownBoards.reconcile``)."""
        # An answer in flight shows its own board: let it (for a while at most).
        if not await self.bot.responder.wait_answered(ANSWERS_WAIT_SECONDS):
            log.warning("Looking for unshown boards while answers are still being placed")
        async with self._my_turn():
            self.bot.responder.undelivered.clear()
            try:
                notices = await self.bot.service.boards.reconcile()
                if notices:
                    # Answers that began while the boards were drawn show their own.
                    await self.bot.responder.wait_answered(ANSWERS_WAIT_SECONDS)
                    notices = [n for n in notices if await self.bot.service.boards.unseen(n.reply)]
            except Exception:
                log.exception("Could not look for boards the players have not seen")
                # The database may be down for a while: look again soon, and again,
                # not only at the next reconnect.
                self.bot.responder.undelivered.set()
                return
            log.info("Boards the players have not seen: %d", len(notices))
            await self.show_all(notices, unshown=True)

    async def show_all(self, notices: list[Notice], *, unshown: bool = False) -> None:
        """Show each notice; one that fails is logged and the others still shown. An
        ``unshown`` board whose channel is gone or closed to the bot is given up (the
        next board shown there, or ``/shax board``, shows the game), so it is not tried
        again on every reconnect; so is a puzzle of the day (tomorrow's is tried again)."""
        for notice in notices:
            try:
                await self.show(notice)
            except (discord.HTTPException, aiohttp.ClientError, OSError) as error:
                log.warning(
                    "Notice for channel %s could not be shown (%s)",
                    notice.channel_id,
                    type(error).__name__,
                )
                if not isinstance(error, discord.NotFound | discord.Forbidden):
                    self.bot.responder.undelivered.set()  # tried again soon
                elif unshown or isinstance(notice.reply.controls, DailyControls):
                    with contextlib.suppress(Exception):  # tried again on reconnect
                        await self.bot.service.shown(notice.reply)
            except Exception:
                log.exception("Notice for channel %s failed", notice.channel_id)

    async def show(self, notice: Notice) -> None:
        """Post or edit one notice in its channel."""
        reply = notice.reply
        # A game's message: in its players' language, else the server's (bot/readers.py).
        language = await players_language(self.bot.service, reply.players, notice.guild_id)
        speaking = voice(translator(language))
        message = to_discord(await drawn(reply, speaking), speaking)
        channel = self.bot.get_partial_messageable(notice.channel_id)
        old = notice.edit_message_id
        repost = reply.live_board and bool(reply.mentions)
        if old is not None and not repost:
            try:
                await channel.get_partial_message(old).edit(**message.edit_kwargs())
            except discord.NotFound:
                pass  # gone: post it anew below
            else:
                if reply.mentions:
                    await channel.send(content=message.content, allowed_mentions=message.mentions)
                await self.bot.responder.remember(notice.channel_id, reply, old)
                return
        sent = await channel.send(**message.send_kwargs())
        replaced = [old, reply.board_message_id if reply.live_board else None]
        await self.bot.responder.remember(notice.channel_id, reply, sent.id, replaced)


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, ShaxBotBase)
    await bot.add_cog(Notices(bot))
