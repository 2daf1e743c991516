"""The components of a live board, and what every component of the bot stands on.

A component is one ``DynamicItem`` class per kind of control, routed by its custom id's
template (:mod:`bot.discord.custom_ids`) to the right game, also after a restart; it
rebuilds itself from the custom id (:meth:`VersionSelect.from_custom_id`,
:meth:`NumberedButton.from_custom_id`), reads who clicked where (:func:`actor`,
:func:`place_of`) and makes one typed call to the part of the service that does the work
(``service.turns.play``); the responder acknowledges it in time
(:mod:`bot.discord.intime`) and shows the reply. A click on a superseded board is refused
by the service (``StaleBoard``). The buttons under a finished game and a challenge are in
:mod:`bot.discord.game_buttons`, those of puzzles in :mod:`bot.discord.puzzle_components`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self, cast

import discord

from bot import words
from bot.discord.context import Placement
from bot.discord.custom_ids import (
    TEMPLATES,
    act_id,
    destination_action,
    draw_id,
    nodraw_id,
    resign_id,
    to_id,
)
from bot.service.replies import Place, Reply, Thinking, User
from bot.words.terms import EN
from shax_i18n import Translator

if TYPE_CHECKING:
    from bot.discord.context import ShaxClient
    from bot.service.facade import ShaxService


# -- who clicked, where -----------------------------------------------------------------------


def client_of(interaction: discord.Interaction[Any]) -> ShaxClient:
    """The Shax bot that received ``interaction``."""
    return cast("ShaxClient", interaction.client)


def as_user(user: discord.abc.User) -> User:
    """A Discord user or member as the service sees one."""
    return User(id=user.id, name=user.display_name, is_bot=user.bot)


def actor(interaction: discord.Interaction[Any]) -> User:
    """The user who acted."""
    return as_user(interaction.user)


def place_of(interaction: discord.Interaction[Any]) -> Place:
    """Where the interaction happened; a thread is its own channel with its parent noted."""
    channel = interaction.channel
    parent_id = channel.parent_id if isinstance(channel, discord.Thread) else None
    return Place(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id or 0,
        parent_channel_id=parent_id,
    )


# -- the bases: a select of one moment, a button of numbers ----------------------------------


class VersionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"(?!)"):
    """A select of one moment of something that changes (a game, a puzzle's try): its
    custom id carries the thing's number (named ``group`` in its template) and version,
    so a pick on a superseded moment is refused."""

    group = "game_id"

    def __init__(
        self,
        number: int,
        version: int,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=self.make_id(number, version),
                options=options or [],
                placeholder=placeholder,
                min_values=1,
                max_values=1,
                row=row,
            )
        )
        self.number = number
        self.version = version

    @staticmethod
    def make_id(number: int, version: int, /) -> str:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match[cls.group]), int(match["version"]))

    @property
    def picked(self) -> str:
        return self.item.values[0] if self.item.values else ""


class NumberedButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button whose custom id carries numbers (named ``groups`` in its template: a
    challenge, a puzzle's try, a puzzle of the day, a game and its version); a subclass
    says its id, label, look and :meth:`act`, the typed service call, and where its reply
    goes."""

    style = discord.ButtonStyle.secondary
    emoji: str | None = None
    groups: tuple[str, ...] = ("challenge_id",)
    placement = Placement.REPLACE

    def __init__(self, *numbers: int, t: Translator, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=self.make_id(*numbers),
                label=self.label_in(t),
                style=self.style,
                emoji=self.emoji,
                row=row,
            )
        )
        self.numbers = numbers

    @property
    def number(self) -> int:
        return self.numbers[0]

    make_id: staticmethod[..., str]

    @staticmethod
    def label_in(t: Translator) -> str:
        """The button's label in ``t``'s language."""
        raise NotImplementedError

    async def act(self, service: ShaxService, user: User, place: Place) -> Reply:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        # Rebuilt from a click: its label is never shown again, so no reader needs it.
        return cls(*(int(match[group]) for group in cls.groups), t=EN)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client, user, place = client_of(interaction), actor(interaction), place_of(interaction)

        async def call(thinking: Thinking) -> Reply:
            return await self.act(client.service, user, place)

        await client.responder.click(interaction, call, self.placement)


# -- the live board ---------------------------------------------------------------------------


class ActSelect(VersionSelect, template=TEMPLATES["act"]):
    """The select of legal actions under a live board (or of stones, in a two-step move)."""

    make_id = staticmethod(act_id)

    @property
    def game_id(self) -> int:
        return self.number

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # A two-step move's stone (a bare point) comes back as the ephemeral destination
        # picker: the reply's ``ephemeral`` flag decides, so the same call serves both.
        service = client_of(interaction).service
        value, user, place = self.picked, actor(interaction), place_of(interaction)

        async def call(thinking: Thinking) -> Reply:
            return await service.turns.play(
                user, place, value, self.game_id, self.version, thinking=thinking
            )

        await client_of(interaction).responder.click(interaction, call, Placement.REPLACE)


class ToSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=TEMPLATES["to"]):
    """The second step of a move: where the chosen stone goes (in an ephemeral message)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        src: str,
        *,
        options: list[discord.SelectOption] | None = None,
        row: int | None = None,
        t: Translator,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=to_id(game_id, version, src),
                options=options or [],
                placeholder=t.gettext("Move the stone on {point} to…", point=src),
                min_values=1,
                max_values=1,
                row=row,
            )
        )
        self.game_id = game_id
        self.version = version
        self.src = src

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        # Rebuilt from a click: its placeholder is never shown again, so no reader needs it.
        return cls(int(match["game_id"]), int(match["version"]), match["src"], t=EN)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service = client_of(interaction).service
        value = self.item.values[0] if self.item.values else ""
        action = destination_action(self.src, value)
        user, place = actor(interaction), place_of(interaction)

        async def call(thinking: Thinking) -> Reply:
            return await service.turns.play(
                user, place, action, self.game_id, self.version, thinking=thinking
            )

        await client_of(interaction).responder.click(
            interaction,
            call,
            Placement.BOARD,
            receipt=words.games.PLAYED(action),
        )


class _GameButton(NumberedButton, template=r"(?!)"):
    """A button of one game version; subclasses set the template, the look, the id
    builder and :meth:`act`, the typed service call a click makes."""

    groups = ("game_id", "version")

    @property
    def game_id(self) -> int:
        return self.numbers[0]

    @property
    def version(self) -> int:
        return self.numbers[1]


class ResignButton(_GameButton, template=TEMPLATES["resign"]):
    style = discord.ButtonStyle.danger
    emoji = "🏳️"

    make_id = staticmethod(resign_id)

    @staticmethod
    def label_in(t: Translator) -> str:
        return t.pgettext("button", "Resign")

    async def act(self, service: ShaxService, user: User, place: Place) -> Reply:
        return await service.turns.resign(user, place, self.game_id, self.version)


class DrawButton(_GameButton, template=TEMPLATES["draw"]):
    """Offer a draw — or, while the opponent's offer stands, accept it."""

    style = discord.ButtonStyle.secondary
    emoji = "🤝"

    make_id = staticmethod(draw_id)

    @staticmethod
    def label_in(t: Translator) -> str:
        return t.pgettext("button", "Offer draw")

    def __init__(
        self,
        game_id: int,
        version: int,
        *,
        accept: bool = False,
        row: int | None = None,
        t: Translator,
    ) -> None:
        super().__init__(game_id, version, row=row, t=t)
        if accept:
            self.item.label = t.pgettext("button", "Accept draw")
            self.item.style = discord.ButtonStyle.success

    async def act(self, service: ShaxService, user: User, place: Place) -> Reply:
        return await service.turns.draw(user, place, self.game_id, self.version)


class NoDrawButton(_GameButton, template=TEMPLATES["nodraw"]):
    style = discord.ButtonStyle.secondary

    make_id = staticmethod(nodraw_id)

    @staticmethod
    def label_in(t: Translator) -> str:
        return t.pgettext("button", "Decline draw")

    async def act(self, service: ShaxService, user: User, place: Place) -> Reply:
        return await service.turns.decline_draw(user, place, self.game_id, self.version)


LIVE_ITEMS: dict[str, type[discord.ui.DynamicItem[Any]]] = {
    "act": ActSelect,
    "to": ToSelect,
    "resign": ResignButton,
    "draw": DrawButton,
    "nodraw": NoDrawButton,
}
"""The dynamic items of a live board."""
