"""Answering interactions: acknowledge in time (:mod:`bot.discord.intime`), show the reply
where it belongs, refuse kindly.

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
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.discord.context import Placement, ServiceCall, pings_someone_else
from bot.discord.errors import explain
from bot.discord.intime import (
    DEFAULT_ACK_BUDGET,
    DEFAULT_CALLBACK_WINDOW,
    InTime,
    TooLate,
    Undelivered,
)
from bot.discord.render import DiscordMessage, text_only, to_discord, voice
from bot.discord.voices import reader_of, voice_of
from bot.service.replies import Reply, Said, Thinking, UserError, drawn
from bot.service.shown import BoardNotRecorded
from bot.words.voice import Voice
from shax_i18n import N_, Translator

if TYPE_CHECKING:
    from bot.service.facade import ShaxService

log = logging.getLogger(__name__)

SORRY = N_(
    "Something went wrong on our side; your game is safe. If your move was taken, "
    "its board appears here in a moment; if not, try again."
)
DONE = N_("Done.")
_PUBLIC_DEFER = "shax_public_defer"
_PLACED = "shax_placed"
"""Set on an interaction once its public reply is in the channel."""
"""The voices an interaction's replies were spoken in, by the players they belong to."""


class Responder(InTime):
    """Turns service calls made for an interaction into Discord responses."""

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
        self._active = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._answering: set[asyncio.Event] = set()

    @contextlib.contextmanager
    def _tracked(self) -> Iterator[None]:
        answered = asyncio.Event()
        self._answering.add(answered)
        self._active += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._active -= 1
            if self._active == 0:
                self._idle.set()
            self._answering.discard(answered)
            answered.set()

    @property
    def busy(self) -> bool:
        """Whether an interaction is still being answered (its reply placed and reported)."""
        return self._active > 0

    async def wait_idle(self, timeout: float | None = None) -> bool:
        """Wait until no interaction is being answered; ``False`` if ``timeout`` passed first.
        Shutdown waits here so a move in progress is shown before the connection closes."""
        try:
            async with asyncio.timeout(timeout):
                await self._idle.wait()
        except TimeoutError:
            return False
        return True

    async def wait_answered(self, timeout: float) -> bool:
        """Wait until the interactions being answered now are answered (not those that
        come later, so a busy server cannot keep the caller waiting); ``False`` if
        ``timeout`` passed first. A reconciliation waits here: each of those answers
        shows its own board."""
        waiting = [asyncio.ensure_future(answered.wait()) for answered in self._answering]
        if not waiting:
            return True
        _, pending = await asyncio.wait(waiting, timeout=timeout)
        for still in pending:
            still.cancel()
        return not pending

    @property
    def service(self) -> ShaxService:
        return self._service()

    # -- entry points --------------------------------------------------------------------

    async def command(self, interaction: discord.Interaction[Any], call: ServiceCall) -> None:
        """Answer a slash command with the reply of ``call``; errors are reported here (the
        tree's ``on_error`` reports those raised before, such as bad options)."""

        async def defer() -> None:
            await interaction.response.defer(thinking=True)
            interaction.extras[_PUBLIC_DEFER] = True

        self._start_clock(interaction)
        # Reported inside the tracked block, so "idle" means the user has seen the answer.
        with self._tracked():
            reply: Reply | None = None
            try:
                reply = await self._in_time(interaction, self._drawing(interaction, call), defer)
                await self._command_reply(interaction, reply)
            except Exception as error:
                await self._fail(interaction, error, reply)

    async def click(
        self,
        interaction: discord.Interaction[Any],
        call: ServiceCall,
        placement: Placement,
        *,
        receipt: Said | None = None,
    ) -> None:
        """Answer a component click with the reply of ``call``; errors are reported here.
        ``receipt`` closes an ephemeral picker (:data:`DONE` by default)."""
        self._start_clock(interaction)
        with self._tracked():
            reply: Reply | None = None
            try:
                reply = await self._in_time(
                    interaction, self._drawing(interaction, call), interaction.response.defer
                )
                t = await self.reader(interaction, reply)
                done = voice(t).say(receipt or Said.message(DONE))
                await self._click_reply(interaction, reply, placement, done)
            except Exception as error:
                await self._fail(interaction, error, reply)

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

    async def message(self, interaction: discord.Interaction[Any], reply: Reply) -> DiscordMessage:
        """``reply`` as a Discord message, with its pictures, in its reader's language."""
        speaking = await self.voice_for(interaction, reply)
        return to_discord(await drawn(reply, speaking), speaking)

    def _drawing(self, interaction: discord.Interaction[Any], call: ServiceCall) -> ServiceCall:
        """``call``, its reply's pictures drawn in its reader's language (within the time
        the answer is given, so that a slow drawing is deferred like a slow move)."""

        async def drawing(thinking: Thinking) -> Reply:
            reply = await call(thinking)
            return await drawn(reply, await self.voice_for(interaction, reply))

        return drawing

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
        if interaction.extras.get(_PLACED):
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
        call: Callable[[], Awaitable[Reply]],
    ) -> None:
        """For a long private answer (a review): say ``notice`` (a catalogue message) to the
        user at once, only to them, in their language, then replace it with the reply of
        ``call`` — or with the refusal, or :data:`SORRY` (logged) if it fails."""
        t = await self.reader(interaction)
        await interaction.response.send_message(t.gettext(notice), ephemeral=True)
        try:
            reply = await call()
        except UserError as error:
            message = to_discord(error.reply(), voice(t))
        except Exception:
            log.exception("A slow answer failed for user %s", interaction.user.id)
            message = text_only(t.gettext(SORRY))
        else:
            message = await self.message(interaction, reply)
        try:
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
            interaction.extras[_PUBLIC_DEFER] = False
            sent = await interaction.followup.send(wait=True, **message.send_kwargs())
            sent_id = sent.id
        else:
            edited = await interaction.edit_original_response(**message.edit_kwargs())
            interaction.extras[_PUBLIC_DEFER] = False
            sent_id = edited.id
        replaced = [reply.board_message_id] if reply.live_board else []
        await self._shown(interaction, reply, sent_id, replaced)

    # -- clicks --------------------------------------------------------------------------

    async def _click_reply(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        placement: Placement,
        receipt: str,
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
                await interaction.edit_original_response(
                    content=receipt, embeds=[], attachments=[], view=None
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
        if interaction.extras.get(_PUBLIC_DEFER):
            # A public "thinking…" message cannot turn private: remove it, then follow up.
            with contextlib.suppress(discord.HTTPException):
                await interaction.delete_original_response()
            interaction.extras[_PUBLIC_DEFER] = False
        await interaction.followup.send(ephemeral=True, **kwargs)

    async def _shown(
        self,
        interaction: discord.Interaction[Any],
        reply: Reply,
        message_id: int,
        replaced: Iterable[int | None] = (),
    ) -> None:
        """The interaction's public reply is in the channel: remember it."""
        interaction.extras[_PLACED] = True
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


def _describe(error: BaseException) -> str:
    if isinstance(error, discord.HTTPException):
        return f"HTTP {error.status}, code {error.code}"
    return type(error).__name__
