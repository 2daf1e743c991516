"""The responder: an interaction answered in time (:mod:`bot.discord.intime`, where a
command and a click come in), its reply placed where it belongs
(:mod:`bot.discord.placing`: the live board, a private answer, the record of what is
shown); here, what is left: reposting what could not be placed, refusing kindly, and a
long private answer announced first (:meth:`Responder.when_ready`).

**When Discord will not take the answer** (not delivered within ``callback_window``,
see :mod:`bot.discord.intime`, or refused), an action the service committed is shown
anyway: its public reply is
posted to the channel by id, and nobody is told that something went wrong with a
move that was played. If even that post fails, the game's shown version stays behind
its stored one and the bot shows the board at the next reconciliation (a few seconds
later, every start and every reconnect; see :mod:`bot.discord.cogs.notices`).

**Refusals and failures.** ``UserError`` s are shown ephemerally with their own
sentence; anything else is logged with its traceback and the user reads
:data:`SORRY`. One method does it, :meth:`Responder.report`: for service calls of
commands and clicks, and as the command tree's ``on_error`` for everything else
(option conversion, checks, a command body that raises).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands

from bot.discord.context import ServiceCall
from bot.discord.errors import explain
from bot.discord.intime import TooLate, Undelivered
from bot.discord.placing import PLACED, Placing
from bot.discord.render import text_only, to_discord, voice
from bot.service.replies import Reply, UserError
from shax_i18n import N_

log = logging.getLogger(__name__)

SORRY = N_(
    "Something went wrong on our side; your game is safe. If your move was taken, "
    "its board appears here in a moment; if not, try again."
)
DONE = N_("Done.")
NOTICE_AFTER = 2.0
"""Seconds before a slow answer that has not said it started says its notice anyway."""


class Responder(Placing):
    """Turns service calls made for an interaction into Discord responses: in time
    (:class:`~bot.discord.intime.InTime`), placed (:class:`~bot.discord.placing.Placing`),
    and, here, reported or reposted when they could not be."""

    async def _fail(
        self, interaction: discord.Interaction[Any], error: Exception, reply: Reply | None
    ) -> None:
        """Report a failure; a public reply that could not be placed is posted instead.

        Once the service has answered, its action is committed: whatever went wrong with
        the interaction (answered after Discord's 3 seconds, a 5xx, a rate limit that did
        not clear, an answer not delivered within ``callback_window``), the board must
        reach the channel, or the game would look stuck — and nobody is told that
        something went wrong with a move that was played.
        """
        if isinstance(error, TooLate):
            reply, error = error.reply, error.cause
        undeliverable = isinstance(error, discord.HTTPException | Undelivered)
        if reply is not None and reply.ephemeral and undeliverable:
            # Only the user could see it, and Discord takes no answer: nothing to show.
            log.warning(
                "Interaction %s could not be answered (%s)", interaction.id, _describe(error)
            )
            return
        if reply is None or reply.ephemeral:
            await self.report(interaction, error)
            return
        if interaction.extras.get(PLACED):
            log.error(
                "Interaction %s failed after its reply was shown", interaction.id, exc_info=error
            )
            return
        log.warning(
            "Interaction %s could not be answered (%s); posting its reply to the channel",
            interaction.id,
            _describe(error),
        )
        await self._post_to_channel(interaction, reply)

    async def _post_to_channel(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        channel = self.client.get_partial_messageable(interaction.channel_id or 0)
        try:
            sent = await channel.send(**(await self.message(interaction, reply)).send_kwargs())
        except discord.HTTPException as error:
            # The game is saved; the next reconciliation (in a few seconds, every start
            # and every reconnect) shows its board.
            log.warning(
                "Could not post a reply in channel %s either (%s); it is shown later",
                interaction.channel_id,
                _describe(error),
            )
            self.undelivered.set()
            return
        replaced = [reply.board_message_id] if reply.live_board else []
        clicked = interaction.message
        if reply.live_board and clicked is not None and not clicked.flags.ephemeral:
            replaced.append(clicked.id)  # the board that was clicked is superseded
        await self._shown(interaction, reply, sent.id, replaced)

    async def when_ready(
        self,
        interaction: discord.Interaction[Any],
        notice: str,
        call: ServiceCall,
    ) -> None:
        """For a long private answer (a review): once the work starts (``call`` says it is
        thinking, or the answer is slow to come) say ``notice`` (a catalogue message) to the
        user, only to them, in their language, then replace it with the reply of ``call``.
        A refusal that comes before the work starts is said alone; a failure is
        :data:`SORRY` (logged)."""
        t = await self.reader(interaction)
        announced: asyncio.Future[Any] | None = None

        def thinking() -> None:
            nonlocal announced
            if announced is None:
                announced = asyncio.ensure_future(
                    interaction.response.send_message(t.gettext(notice), ephemeral=True)
                )

        # Discord waits three seconds for a first answer: a slow start says the notice too.
        late = asyncio.get_running_loop().call_later(NOTICE_AFTER, thinking)
        try:
            reply = await call(thinking)
        except UserError as error:
            message = to_discord(error.reply(), voice(t))
        except Exception:
            log.exception("A slow answer failed for user %s", interaction.user.id)
            message = text_only(t.gettext(SORRY))
        else:
            message = await self.message(interaction, reply)
        finally:
            late.cancel()
        if announced is None:
            await self._private(interaction, message)
            return
        try:
            await announced
            await interaction.edit_original_response(**message.edit_kwargs())
        except discord.HTTPException:
            log.warning("Could not show user %s their answer", interaction.user.id, exc_info=True)

    async def report(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        """The one error handler: a refusal in its own words, anything else logged and
        answered with :data:`SORRY`, always ephemerally."""
        self._start_clock(interaction)
        with self._tracked():
            await self._report(interaction, error)

    async def _report(self, interaction: discord.Interaction[Any], error: BaseException) -> None:
        if isinstance(error, app_commands.CommandInvokeError):
            error = error.original
        t = await self.reader(interaction)
        explained = explain(interaction, error, t)
        if isinstance(error, UserError):
            message = to_discord(error.reply(), voice(t))
        elif explained is not None:
            message = text_only(explained)
        else:
            command = interaction.command.qualified_name if interaction.command else None
            custom_id = dict(interaction.data or {}).get("custom_id")
            log.error(
                "Interaction failed (command=%s, custom_id=%s, user=%s, channel=%s)",
                command,
                custom_id,
                interaction.user.id,
                interaction.channel_id,
                exc_info=error,
            )
            message = text_only(t.gettext(SORRY))
            # A call that failed after committing its action left a board unshown: the
            # notices loop looks for it in a moment.
            self.undelivered.set()
        try:
            await self._private(interaction, message)
        except (discord.HTTPException, Undelivered):
            log.warning(
                "Could not tell user %s about a failure", interaction.user.id, exc_info=True
            )


def _describe(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"HTTP {error.status}, code {error.code}"
    return type(error).__name__
