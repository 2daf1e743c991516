"""Who reads an interaction's answer, on Discord (see :mod:`bot.readers` for the rules):
the person who acted, or a game's players. The language is a nicety: a database that
cannot say it never fails an answer, which then speaks the default."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.render import voice
from bot.readers import players_language, requester_language
from bot.service.replies import Reply
from bot.words.voice import Voice
from shax_i18n import Translator, translator

if TYPE_CHECKING:
    from bot.service.facade import ShaxService

log = logging.getLogger("bot.discord.respond")
VOICES = "shax_voices"
"""Where an interaction keeps the voices it has worked out (``interaction.extras``)."""


async def reader_of(
    service: ShaxService, interaction: discord.Interaction[Any], reply: Reply | None = None
) -> Translator:
    """The language of the person who acted (rule 1): their choice (known when ``reply``
    was composed for them), else their Discord app's when it is one of ours, else the
    server's."""
    known = dict(reply.chosen) if reply is not None else {}
    try:
        language = await requester_language(
            service, interaction.user.id, interaction.guild_id, str(interaction.locale), known
        )
    except Exception:  # the language is a nicety: never a reason to fail an answer
        log.warning("Could not read the language of user %s", interaction.user.id)
        language = None
    return translator(language)


async def voice_of(
    service: ShaxService, interaction: discord.Interaction[Any], reply: Reply
) -> Voice:
    """The voice of ``reply``: a game's message (and an announcement to everyone) speaks
    its players' language, else the server's (rule 2), anything else the language of the
    person who asked (rule 1); worked out once an interaction for each set of players."""
    voices: dict[tuple[int, ...] | None, Voice] = interaction.extras.setdefault(VOICES, {})
    key = None if reply.announcement else reply.players
    found = voices.get(key)
    if found is None:
        if reply.players or reply.announcement:
            t = translator(await game_language(service, reply, interaction.guild_id))
        else:
            t = await reader_of(service, interaction, reply)
        found = voices[key] = voice(t)
    return found


async def game_language(service: ShaxService, reply: Reply, guild_id: int | None) -> str | None:
    """The language of a game's messages (rule 2); ``None`` when it cannot be read."""
    try:
        return await players_language(service, reply.players, guild_id, dict(reply.chosen))
    except Exception:  # the language is a nicety: never a reason to fail an answer
        log.warning("Could not read the language of the players %s", reply.players)
        return None
