"""Buttons declared with their features (:mod:`bot.commands.buttons`) as Discord components.

Each declared kind becomes one ``DynamicItem`` whose template is the declaration's, so a
press on any message — also one posted before a restart — reaches the declaration's
``press`` with who pressed and where; nothing here knows what the button does.
"""

from __future__ import annotations

import re
import types
from dataclasses import replace
from typing import Any, ClassVar, Self

import discord

from bot.commands.buttons import Button
from bot.commands.declare import Asked
from bot.commands.table import BUTTONS
from bot.discord.components import actor, client_of, place_of
from bot.discord.context import Placement, may_manage_server
from bot.service.buttons import Pressable
from bot.service.replies import Reply, Thinking
from shax_i18n import Translator


class DeclaredItem(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """The component of one declared kind of button (:attr:`declared`); made for each
    kind by :func:`dynamic_item`."""

    declared: ClassVar[type[Button]]

    def __init__(self, button: Button, *, label: str | None = None, row: int | None = None):
        super().__init__(
            discord.ui.Button(
                custom_id=button.custom_id,
                label=label if label is not None else button.label,
                style=discord.ButtonStyle.primary
                if button.primary
                else discord.ButtonStyle.secondary,
                emoji=button.emoji,
                row=row,
            )
        )
        self.button = button

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(cls.declared.parsed(match.groupdict()))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        client = client_of(interaction)
        asked = Asked(
            client.service,
            actor(interaction),
            place_of(interaction),
            may_change_settings=may_manage_server(interaction),
        )

        async def call(thinking: Thinking) -> Reply:
            return await self.button.press(replace(asked, thinking=thinking))

        placement = Placement.REPLACE if self.button.replaces else Placement.NEW
        await client.responder.click(interaction, call, placement)


def dynamic_item(declared: type[Button]) -> type[DeclaredItem]:
    """The dynamic item of one declared kind of button, routed by its template."""
    return types.new_class(
        f"{declared.__name__}Item",
        (DeclaredItem,),
        {"template": declared.template()},
        lambda namespace: namespace.update(declared=declared),
    )


DECLARED_ITEMS: dict[type[Button], type[DeclaredItem]] = {
    button: dynamic_item(button) for button in BUTTONS
}
"""The dynamic item of each declared kind of button (registered in ``setup_hook``)."""


def declared_item(button: Pressable, t: Translator, *, row: int) -> DeclaredItem:
    """The component of a declared ``button`` shown in a reply, labelled in ``t``'s language."""
    assert isinstance(button, Button)  # a reply's buttons are declared ones
    item = DECLARED_ITEMS[type(button)]
    return item(button, label=t.gettext(button.label), row=row)
