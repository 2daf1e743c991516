"""Games in threads: a busy channel (or, if the server prefers, every game) gets a public
thread of its own, named after the players; when the game ends its result is announced
in the parent channel and the thread is archived."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Literal

import discord

from bot import words
from bot.discord.components import client_of
from bot.discord.invite import missing
from bot.discord.render import to_discord, voice
from bot.readers import players_language
from bot.service.facade import ShaxService
from bot.service.replies import ChannelBusy, Place, Reply, Said, UserError, drawn
from bot.service.server_settings import Setting
from bot.tournaments.notices import PairingToOpen
from bot.words.threads import (
    CANNOT_PLAY_HERE,
    CHANNEL_GONE,
    MISSING_PERMISSIONS,
    NO_THREADS_HERE,
    THREAD_BOARD_COMING,
    THREAD_FAILED,
    THREAD_POINTER,
    THREADS_BLOCKED,
)
from shax_i18n import translator

log = logging.getLogger(__name__)

THREAD_NAME_MAX = 100
ARCHIVE_AFTER_MINUTES: Literal[1440] = 1440
"""An idle game thread hides itself after a day (it stays searchable and reopens on a post)."""
THREAD_PERMISSIONS = discord.Permissions(create_public_threads=True, send_messages_in_threads=True)
GAME_PERMISSIONS = discord.Permissions(
    view_channel=True, send_messages=True, embed_links=True, attach_files=True
)
"""What a game needs where it is played: the bot posts boards (an embed with the picture)
there, pings players and announces timeouts (in a thread, Send Messages in Threads)."""

AUDIT_REASON = "A game of Shax"
"""Why a game thread was opened, in the server's audit log."""

Start = Callable[[Place], Awaitable[Reply]]
"""Starts a game (or posts a challenge) at a place; the service's answer."""


class GameThreads:
    """Opens game threads and closes them; ``mode`` is ``busy``, ``always`` or ``never``."""

    def __init__(
        self, client: discord.Client, service: Callable[[], ShaxService], mode: str
    ) -> None:
        self.client = client
        self._service = service
        self.mode = mode
        self._blocked: dict[int, str] = {}
        """Why each tournament's game threads could not be opened (its sentence), said
        once until a thread opens again."""

    async def start(
        self,
        interaction: discord.Interaction[Any],
        place: Place,
        title: str,
        start: Start,
        *,
        players: tuple[int, ...],
    ) -> Reply:
        """Start a game where it belongs: here, or in a new thread when this channel is
        busy (or always, by the server's choice). In a thread the game's first message is
        posted there, pinging ``players``; the answer here points to it."""
        if place.guild_id is not None:
            needed = discord.Permissions(GAME_PERMISSIONS.value)
            if place.is_thread:
                needed.update(send_messages=False, send_messages_in_threads=True)
            lacking = missing(interaction.app_permissions, needed)
            if lacking:
                raise UserError(CANNOT_PLAY_HERE(lacking))
        mode = await self.mode_of(place.guild_id)
        can_thread = place.guild_id is not None and not place.is_thread and mode != "never"
        if not (can_thread and mode == "always"):
            try:
                return await start(place)
            except ChannelBusy:
                if not can_thread:
                    raise
        thread = await self._open(interaction, title)
        reply = await start(Place(place.guild_id, thread.id, place.channel_id))
        pinged = tuple(dict.fromkeys((*reply.mentions, *players)))
        message = await client_of(interaction).responder.message(
            interaction, _with_mentions(reply, pinged)
        )
        try:
            sent = await thread.send(**message.send_kwargs())
        except discord.HTTPException as error:
            # The game is stored: its board is shown as soon as Discord takes it (the
            # boards the players have not seen are looked for again in a few seconds).
            log.warning(
                "Discord would not take the first board of the game thread %s (%s %s); "
                "showing it again soon",
                thread.id,
                error.status,
                error.text or "no reason given",
            )
            client_of(interaction).responder.undelivered.set()
            return Reply(text=THREAD_BOARD_COMING(thread.mention))
        await self._service().posted(reply, sent.id)
        busy = mode != "always"
        return Reply(text=THREAD_POINTER(thread.mention, busy))

    async def mode_of(self, guild_id: int | None) -> str:
        """Where games go on a server: its own choice (``/shax settings``), else the bot's."""
        settings = await self._service().servers.of(guild_id)
        return settings.threads if Setting.THREADS in settings.changed else self.mode

    async def _open(self, interaction: discord.Interaction[Any], title: str) -> discord.Thread:
        channel = interaction.channel
        if not isinstance(channel, discord.TextChannel):
            raise UserError(Said.message(NO_THREADS_HERE))
        me = channel.guild.me
        if me is not None:
            lacking = missing(channel.permissions_for(me), THREAD_PERMISSIONS)
            if lacking:
                raise UserError(MISSING_PERMISSIONS(lacking))
        try:
            return await _new_thread(channel, title)
        except discord.Forbidden:
            raise UserError(MISSING_PERMISSIONS(["Create Public Threads"])) from None
        except discord.HTTPException as error:
            log.warning(
                "Discord would not open a game thread in channel %s (%s %s)",
                channel.id,
                error.status,
                error.text or "no reason given",
            )
            raise UserError(Said.message(THREAD_FAILED)) from None

    async def open_pairing(self, pairing: PairingToOpen) -> None:
        """Give a tournament's pairing its game, in a public thread of the tournament's
        channel named after it (``Round 2 · Amina vs Bashir``), its first board pinging
        both players. When Discord will not open the thread (a permission taken away, the
        channel gone) the channel (or, the channel gone, the tournament's creator) is told
        so once for the tournament; the pairing waits, and is offered again at the next
        tick."""
        service = self._service()
        speaking = voice(translator(await players_language(service, (), pairing.guild_id)))
        channel = self.client.get_channel(pairing.channel_id)
        if not isinstance(channel, discord.TextChannel):
            await self._say_blocked(pairing, CHANNEL_GONE(pairing.name), gone=True)
            return
        try:
            thread = await _new_thread(channel, speaking.say(pairing.name))
        except discord.Forbidden:
            lacking = missing(_mine(channel), THREAD_PERMISSIONS) or ["Create Public Threads"]
            await self._say_blocked(pairing, THREADS_BLOCKED(pairing.name, lacking))
            return
        except discord.NotFound:
            await self._say_blocked(pairing, CHANNEL_GONE(pairing.name), gone=True)
            return
        self._blocked.pop(pairing.tournament_id, None)
        where = Place(pairing.guild_id, thread.id, channel.id)
        try:
            opened = await service.tournaments.open_game(pairing.pairing_id, where)
        except Exception:
            await _spare(thread)  # the pairing is offered again, with a thread of its own
            raise
        if not opened.new:
            # Another process (or an earlier try) gave the pairing its game: this thread
            # is spare; the game's own board is shown where the game is.
            if opened.place.channel_id != thread.id:
                await _spare(thread)
            return
        language = await players_language(service, opened.reply.players, pairing.guild_id)
        speaking = voice(translator(language))
        message = to_discord(await drawn(opened.reply, speaking), speaking)
        sent = await thread.send(**message.send_kwargs())
        await service.posted(opened.reply, sent.id)

    async def _say_blocked(self, pairing: PairingToOpen, said: Said, *, gone: bool = False) -> None:
        """Say once per tournament (and reason) why its games cannot be opened: in the
        tournament's channel, or, the channel gone, to the tournament's creator in their
        own language."""
        if self._blocked.get(pairing.tournament_id) == said.id:
            return
        self._blocked[pairing.tournament_id] = said.id
        log.warning("Tournament pairing %s waits for its thread: %s", pairing.pairing_id, said)
        reader = (pairing.creator_id,) if gone and pairing.creator_id is not None else ()
        language = await players_language(self._service(), reader, pairing.guild_id)
        text = voice(translator(language)).say(said)
        quiet = discord.AllowedMentions.none()
        try:
            if not gone:
                await self.client.get_partial_messageable(pairing.channel_id).send(
                    content=text, allowed_mentions=quiet
                )
            elif pairing.creator_id is not None:
                creator = await self.client.fetch_user(pairing.creator_id)
                await creator.send(content=text, allowed_mentions=quiet)
        except discord.HTTPException:
            log.warning("Nobody could be told why pairing %s waits", pairing.pairing_id)

    async def finish(self, channel_id: int | None, reply: Reply) -> None:
        """After a game's final board: in a thread the bot opened, announce the result in
        the parent channel and archive the thread."""
        result = reply.result
        if result is None or result.parent_channel_id is None or channel_id is None:
            return
        thread = self.client.get_channel(channel_id)
        me = self.client.user
        if not isinstance(thread, discord.Thread) or me is None or thread.owner_id != me.id:
            return  # a thread someone else opened is theirs to keep
        try:
            # A game's message: in its players' language (bot/readers.py, rule 2).
            language = await players_language(self._service(), reply.players, thread.guild.id)
            speaking = voice(translator(language))
            line = words.result_elsewhere(speaking.say(result.line), thread.mention, speaking.t)
            parent = self.client.get_partial_messageable(result.parent_channel_id)
            await parent.send(content=line, allowed_mentions=discord.AllowedMentions.none())
            await thread.edit(archived=True)
        except discord.HTTPException:
            log.warning("Could not close the game thread %s", channel_id, exc_info=True)


async def _new_thread(channel: discord.TextChannel, title: str) -> discord.Thread:
    """A public thread of ``channel`` for a game, named ``title``."""
    return await channel.create_thread(
        name=title[:THREAD_NAME_MAX],
        type=discord.ChannelType.public_thread,
        auto_archive_duration=ARCHIVE_AFTER_MINUTES,
        reason=AUDIT_REASON,
    )


async def _spare(thread: discord.Thread) -> None:
    """Hide a thread the bot opened for a game that is not played there (archived, as
    its owner may; deleting it would need Manage Threads, which the bot does not ask)."""
    try:
        await thread.edit(archived=True)
    except discord.HTTPException:
        log.warning("Could not archive the spare thread %s", thread.id)


def _mine(channel: discord.TextChannel) -> discord.Permissions:
    """The bot's permissions in ``channel`` as far as the cache knows them."""
    me = channel.guild.me
    return channel.permissions_for(me) if me is not None else discord.Permissions.none()


def _with_mentions(reply: Reply, mentions: tuple[int, ...]) -> Reply:
    return replace(reply, mentions=mentions)
