"""The bases of components whose custom id carries a number: a select of one moment of
something that changes (a game, a puzzle's try) and a button of one thing (a challenge,
a puzzle's try, a puzzle of the day). The kinds themselves are in
:mod:`bot.discord.components` and :mod:`bot.discord.puzzle_components`."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.discord.context import Placement, actor, client_of, place_of
from bot.service.replies import Place, Reply, Thinking, User
from bot.words.terms import EN
from shax_i18n import Translator

if TYPE_CHECKING:
    from bot.service.facade import ShaxService


def service_of(interaction: discord.Interaction[Any]) -> ShaxService:
    return client_of(interaction).service


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
        service = service_of(interaction)
        user, place = actor(interaction), place_of(interaction)

        async def call(thinking: Thinking) -> Reply:
            return await self.act(service, user, place)

        await client_of(interaction).responder.click(interaction, call, self.placement)
