"""What the components and commands share with the responder: a service call made for an
interaction, where a click's reply goes, the bot as the components see it
(:class:`ShaxClient`), and a few checks of what an interaction brought. Who acted and
where is read by the components (:func:`bot.discord.components.actor`,
:func:`bot.discord.components.place_of`)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from enum import Enum
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.discord.errors import NOT_TEXT
from bot.service.replies import Reply, Said, Thinking, UserError

if TYPE_CHECKING:
    from bot.discord.message import DiscordMessage
    from bot.service.facade import ShaxService
    from shax_i18n import Translator

ServiceCall = Callable[[Thinking], Awaitable[Reply]]
"""One service call made for an interaction; it is handed the :data:`Thinking` callback
that tells the responder the bot has started to think."""


class Placement(Enum):
    """Where a click's reply goes (an ephemeral reply always goes to the clicker only)."""

    REPLACE = "replace"
    """It replaces the clicked message (edited; reposted when someone must be pinged)."""
    NEW = "new"
    """It is a new message; the clicked one stays (Rematch keeps the final board)."""
    BOARD = "board"
    """The click came from an ephemeral picker; the reply updates the game's board message."""


class Answers(Protocol):
    """What answers a component click (``bot.discord.respond.Responder``)."""

    undelivered: asyncio.Event
    """Set when a board could not be shown: the boards not shown are looked for soon."""

    async def click(
        self,
        interaction: discord.Interaction[Any],
        call: ServiceCall,
        placement: Placement,
        *,
        receipt: Said | None = ...,
    ) -> None: ...

    async def reader(
        self, interaction: discord.Interaction[Any], reply: Reply | None = ...
    ) -> Translator:
        """The language of the person who acted (known when ``reply`` was composed for them)."""
        ...

    async def message(self, interaction: discord.Interaction[Any], reply: Reply) -> DiscordMessage:
        """``reply`` as a Discord message, with its pictures, in its reader's language."""
        ...

    async def when_ready(
        self, interaction: discord.Interaction[Any], notice: str, call: ServiceCall
    ) -> None:
        """A long private answer: ``notice`` once it starts, then the reply of ``call``."""
        ...


class ShaxClient(Protocol):
    """The bot as its components use it (``bot.discord.app.ShaxBotBase``)."""

    @property
    def service(self) -> ShaxService: ...

    @property
    def responder(self) -> Answers: ...


def text_option(value: object) -> str:
    """A text option, refused in words when Discord sent something else."""
    if not isinstance(value, str):
        raise UserError(Said.message(NOT_TEXT))
    return value


def may_manage_server(interaction: discord.Interaction[Any]) -> bool:
    """Whether whoever acted has Manage Server (or is an administrator) where they acted."""
    permissions = interaction.permissions
    return permissions.manage_guild or permissions.administrator


def pings_someone_else(reply: Reply, actor_id: int | None) -> bool:
    """Whether the reply must notify someone other than the one who acted."""
    return any(user_id != actor_id for user_id in reply.mentions)
