"""Placing a reply where it belongs, and remembering what is shown.

**The live board** (one message per game, always the newest picture):

* A click on the board updates that message in place — unless the reply must ping
  someone other than the clicker (the opponent now on turn, a draw offer), because
  Discord never notifies for an edit. Then the board is *reposted*: a new message,
  which pings exactly ``Reply.mentions``, replaces the old one, which is deleted.
  Against the bot the human is on turn again after every click, so that board is
  edited in place for the whole game.
* A slash command that shows the board (``/shax move``, ``/shax board``…) answers
  with the board as its response, at the bottom of the channel where the player is
  typing; the previous board message of the game is deleted.
* The destination picker of a two-step move is ephemeral; picking edits the game's
  board message by id (or reposts it when someone must be pinged) and closes the
  picker with a short receipt.
* Rematch posts a new message; the finished board (result, replay) stays as the record.
* Every new board or challenge message is reported with ``ShaxService.posted``, so
  later edits and notices find it.

So the channel shows at most one board per game, at the bottom whenever someone was
pinged, and the player on turn is always notified by a fresh message.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.context import Placement, pings_someone_else
from bot.discord.intime import (
    DEFAULT_ACK_BUDGET,
    DEFAULT_CALLBACK_WINDOW,
    PUBLIC_DEFER,
    InTime,
    Undelivered,
)
from bot.discord.message import DiscordMessage
from bot.discord.render import to_discord, voice
from bot.discord.voices import reader_of, voice_of
from bot.service.replies import Reply, Said, drawn
from bot.service.shown import BoardNotRecorded
from bot.words.voice import Voice
from shax_i18n import N_, Translator

if TYPE_CHECKING:
    from bot.service.facade import ShaxService

log = logging.getLogger(__name__)

DONE = N_("Done.")
"""What closes an ephemeral picker once its move is on the board, unless the click says."""
PLACED = "shax_placed"
"""Set on an interaction once its public reply is in the channel."""


class Placing(InTime):
    """Shows replies where they belong and reports each shown message to the service (a
    base of :class:`~bot.discord.respond.Responder`)."""

    def __init__(
        self,
        client: discord.Client,
        service: Callable[[], ShaxService],
        *,
        ack_budget: float = DEFAULT_ACK_BUDGET,
        callback_window: float = DEFAULT_CALLBACK_WINDOW,
        on_result: Callable[[int | None, Reply], Awaitable[None]] | None = None,
    ) -> None:
        super().__init__(ack_budget=ack_budget, callback_window=callback_window)
        self.client = client
        self._service = service
        self.undelivered = asyncio.Event()
        """Set when a committed reply could not be shown at all (not even posted to the
        channel): the notices loop then reconciles the unshown boards."""
        self._on_result = on_result

    @property
    def service(self) -> ShaxService:
        return self._service()

    # -- who reads it (bot/readers.py) -----------------------------------------------------

    async def reader(
        self, interaction: discord.Interaction[Any], reply: Reply | None = None
    ) -> Translator:
        """The language of the person who acted (rule 1), known when ``reply`` was
        composed for them."""
        return await reader_of(self.service, interaction, reply)

    async def voice_for(self, interaction: discord.Interaction[Any], reply: Reply) -> Voice:
        """The voice of ``reply`` (rules 1 and 2)."""
        return await voice_of(self.service, interaction, reply)

    async def _drawn(self, interaction: discord.Interaction[Any], reply: Reply) -> Reply:
        return await drawn(reply, await self.voice_for(interaction, reply))

    async def message(self, interaction: discord.Interaction[Any], reply: Reply) -> DiscordMessage:
        """``reply`` as a Discord message, with its pictures, in its reader's language."""
        speaking = await self.voice_for(interaction, reply)
        return to_discord(await drawn(reply, speaking), speaking)

    # -- commands ------------------------------------------------------------------------

    async def _command_reply(self, interaction: discord.Interaction[Any], reply: Reply) -> None:
        message = await self.message(interaction, reply)
        if reply.ephemeral:
            await self._private(interaction, message)
            return
        if not interaction.response.is_done():
            sent_id = await self._respond_new(interaction, message)
        elif pings_someone_else(reply, interaction.user.id):
            # The first edit of a "thinking…" message notifies nobody: post a fresh one.
            with contextlib.suppress(discord.NotFound):
                await interaction.delete_original_response()
            interaction.extras[PUBLIC_DEFER] = False
            sent = await interaction.followup.send(wait=True, **message.send_kwargs())
            sent_id = sent.id
        else:
            edited = await interaction.edit_original_response(**message.edit_kwargs())
            interaction.extras[PUBLIC_DEFER] = False
            sent_id = edited.id
        replaced = [reply.board_message_id] if reply.live_board else []
        await self._shown(interaction, reply, sent_id, replaced)

    # -- clicks --------------------------------------------------------------------------

    async def _click_reply(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        placement: Placement,
        receipt: Said | None,
    ) -> None:
        message = await self.message(interaction, reply)
        clicked = interaction.message
        if reply.ephemeral:
            # A private message's own answer (a puzzle's next moment) takes its place.
            if placement is Placement.REPLACE and clicked is not None and clicked.flags.ephemeral:
                await self._edit_clicked(interaction, message)
            else:
                await self._private(interaction, message)
            return
        if placement is Placement.BOARD:
            await self._update_board(interaction, reply, message)
            if interaction.response.is_done():  # the picker closes with a short receipt
                t = await self.reader(interaction, reply)
                done = voice(t).say(receipt or Said.message(DONE))
                await interaction.edit_original_response(
                    content=done, embeds=[], attachments=[], view=None
                )
            return
        replaced: list[int | None] = [reply.board_message_id] if reply.live_board else []
        in_place = (
            placement is Placement.REPLACE
            and clicked is not None
            and not clicked.flags.ephemeral
            and not pings_someone_else(reply, interaction.user.id)
        )
        if in_place and clicked is not None:
            await self._edit_clicked(interaction, message)
            sent_id = clicked.id
        else:
            sent_id = await self._respond_new(interaction, message)
            if placement is Placement.REPLACE and clicked is not None:
                replaced.append(clicked.id)
        await self._shown(interaction, reply, sent_id, replaced)

    async def _edit_clicked(
        self, interaction: discord.Interaction[Any], message: DiscordMessage
    ) -> None:
        """Show ``message`` in place of the clicked one."""
        if interaction.response.is_done():
            await interaction.edit_original_response(**message.edit_kwargs())
        else:
            await self._callback(
                interaction, interaction.response.edit_message(**message.edit_kwargs())
            )

    async def _update_board(
        self, interaction: discord.Interaction[Any], reply: Reply, message: DiscordMessage
    ) -> None:
        """Show a board reached from an ephemeral message on the game's board message."""
        board_id = reply.board_message_id
        if board_id is not None and not pings_someone_else(reply, interaction.user.id):
            if not interaction.response.is_done():
                with contextlib.suppress(discord.HTTPException, Undelivered):
                    # The board is edited by id whether or not the picker is answered.
                    await self._callback(interaction, interaction.response.defer())
            try:
                await self._partial(interaction.channel_id, board_id).edit(**message.edit_kwargs())
                await self._shown(interaction, reply, board_id)
                return
            except discord.NotFound:
                board_id = None
        if not interaction.response.is_done():
            await self._callback(interaction, interaction.response.defer())
        sent = await interaction.followup.send(wait=True, **message.send_kwargs())
        await self._shown(interaction, reply, sent.id, [board_id])

    # -- sending ---------------------------------------------------------------------------

    async def _respond_new(
        self, interaction: discord.Interaction[Any], message: DiscordMessage
    ) -> int:
        """Post ``message`` as the interaction's response (or a follow-up); its id."""
        if interaction.response.is_done():
            sent = await interaction.followup.send(wait=True, **message.send_kwargs())
            return sent.id
        callback = await self._callback(
            interaction, interaction.response.send_message(**message.send_kwargs())
        )
        if callback.message_id is not None:
            return callback.message_id
        return (await interaction.original_response()).id

    async def _private(
        self, interaction: discord.Interaction[Any], message: DiscordMessage
    ) -> None:
        """Show ``message`` to the user who acted only, whatever state the interaction is in."""
        kwargs = message.send_kwargs()
        if not interaction.response.is_done():
            await self._callback(
                interaction, interaction.response.send_message(ephemeral=True, **kwargs)
            )
            return
        if interaction.extras.get(PUBLIC_DEFER):
            # A public "thinking…" message cannot turn private: remove it, then follow up.
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
            interaction.extras[PUBLIC_DEFER] = False
        await interaction.followup.send(ephemeral=True, **kwargs)

    async def _shown(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        message_id: int,
        replaced: Iterable[int | None] = (),
    ) -> None:
        """The interaction's public reply is in the channel: remember it."""
        interaction.extras[PLACED] = True
        await self.remember(interaction.channel_id, reply, message_id, replaced)

    async def remember(
        self,
        channel_id: int | None,
        reply: Reply,
        message_id: int,
        replaced: Iterable[int | None] = (),
    ) -> None:
        """Report a new board or challenge message to the service; delete what it replaces."""
        try:
            await self.service.posted(reply, message_id)
        except BoardNotRecorded as error:  # recorded by the look for unshown boards
            log.warning("%s; recording it when the database answers", error)
            self.undelivered.set()
        if channel_id is not None:
            for old in dict.fromkeys(replaced):
                if old is not None and old != message_id:
                    await self.delete_quietly(channel_id, old)
        await self._announce(channel_id, reply)

    async def _announce(self, channel_id: int | None, reply: Reply) -> None:
        """A game's final board is shown: let the game's thread, if any, be closed."""
        if reply.result is not None and self._on_result is not None:
            await self._on_result(channel_id, reply)

    def _partial(self, channel_id: int | None, message_id: int) -> discord.PartialMessage:
        channel = self.client.get_partial_messageable(channel_id or 0)
        return channel.get_partial_message(message_id)

    async def delete_quietly(self, channel_id: int, message_id: int) -> None:
        """Delete an old message of ours; one already gone (or not ours to delete) is fine."""
        try:
            await self._partial(channel_id, message_id).delete()
        except (discord.NotFound, discord.Forbidden):
            pass
        except discord.HTTPException:
            log.warning("Could not delete message %s in %s", message_id, channel_id, exc_info=True)
