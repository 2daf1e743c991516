"""The board's components as ``DynamicItem`` s: one class per custom-id kind of ``bot.replies``.

Every custom id carries the game and its version (or the challenge), so a click on
any message — also one posted before a restart — is routed by its template to the
right game; a click on a superseded board is refused by the service (``StaleBoard``).
Each ``callback`` only translates the click to one service call; the
:class:`~bot.discord.respond.Responder` acknowledges it in time and shows the reply.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Self

import discord

from bot.discord.context import Placement, actor, place_of
from bot.replies import (
    TEMPLATES,
    accept_id,
    act_id,
    decline_id,
    draw_id,
    nodraw_id,
    rematch_id,
    resign_id,
    to_id,
)

if TYPE_CHECKING:
    from bot.discord.app import ShaxBotBase


def _bot(interaction: discord.Interaction[Any]) -> ShaxBotBase:
    return interaction.client  # type: ignore[no-any-return]


def _int(match: re.Match[str], group: str) -> int:
    return int(match[group])


def destination_action(src: str, value: str) -> str:
    """The move for a destination select's value: ``d7`` → ``a7-d7``; full actions pass."""
    if "-" in value or value.startswith("x"):
        return value
    return f"{src}-{value}"


class ActSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=TEMPLATES["act"]):
    """The select of legal actions under a live board (or of stones, in a two-step move)."""

    def __init__(
        self,
        game_id: int,
        version: int,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=act_id(game_id, version),
                options=options or [],
                placeholder=placeholder,
                min_values=1,
                max_values=1,
                row=row,
            )
        )
        self.game_id = game_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(_int(match, "game_id"), _int(match, "version"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # A two-step move's stone (a bare point) comes back as the ephemeral destination
        # picker: the reply's ``ephemeral`` flag decides, so the same call serves both.
        bot = _bot(interaction)
        value = self.item.values[0] if self.item.values else ""
        user, place = actor(interaction), place_of(interaction)
        await bot.responder.click(
            interaction,
            lambda: bot.service.play(user, place, value, self.game_id, self.version),
            Placement.REPLACE,
        )


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
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=to_id(game_id, version, src),
                options=options or [],
                placeholder=f"Move the stone on {src} to…",
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
        return cls(_int(match, "game_id"), _int(match, "version"), match["src"])

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = _bot(interaction)
        value = self.item.values[0] if self.item.values else ""
        action = destination_action(self.src, value)
        user, place = actor(interaction), place_of(interaction)
        await bot.responder.click(
            interaction,
            lambda: bot.service.play(user, place, action, self.game_id, self.version),
            Placement.BOARD,
            receipt=f"You played **{action}**.",
        )


class _GameButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button of one game version; subclasses set the template, the label and
    ``service_call``, the name of the :class:`ShaxService` method the click makes
    (called as ``method(user, place, game_id, version)``)."""

    label = ""
    style = discord.ButtonStyle.secondary
    emoji: str | None = None
    service_call = ""

    def __init__(self, game_id: int, version: int, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=self.make_id(game_id, version),
                label=self.label,
                style=self.style,
                emoji=self.emoji,
                row=row,
            )
        )
        self.game_id = game_id
        self.version = version

    @staticmethod
    def make_id(game_id: int, version: int) -> str:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(_int(match, "game_id"), _int(match, "version"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = _bot(interaction)
        user, place = actor(interaction), place_of(interaction)
        call = getattr(bot.service, self.service_call)
        await bot.responder.click(
            interaction,
            lambda: call(user, place, self.game_id, self.version),
            Placement.REPLACE,
        )


class ResignButton(_GameButton, template=TEMPLATES["resign"]):
    label = "Resign"
    style = discord.ButtonStyle.danger
    emoji = "🏳️"

    make_id = staticmethod(resign_id)
    service_call = "resign"


class DrawButton(_GameButton, template=TEMPLATES["draw"]):
    """Offer a draw — or, while the opponent's offer stands, accept it."""

    label = "Offer draw"
    style = discord.ButtonStyle.secondary
    emoji = "🤝"

    make_id = staticmethod(draw_id)
    service_call = "draw"

    def __init__(
        self, game_id: int, version: int, *, accept: bool = False, row: int | None = None
    ) -> None:
        super().__init__(game_id, version, row=row)
        if accept:
            self.item.label = "Accept draw"
            self.item.style = discord.ButtonStyle.success


class NoDrawButton(_GameButton, template=TEMPLATES["nodraw"]):
    label = "Decline draw"
    style = discord.ButtonStyle.secondary

    make_id = staticmethod(nodraw_id)
    service_call = "decline_draw"


class RematchButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATES["rematch"]):
    """Under a finished game: play again (the final board stays as the record)."""

    def __init__(self, game_id: int, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=rematch_id(game_id),
                label="Rematch",
                style=discord.ButtonStyle.primary,
                emoji="🔁",
                row=row,
            )
        )
        self.game_id = game_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(_int(match, "game_id"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = _bot(interaction)
        user, place = actor(interaction), place_of(interaction)
        await bot.responder.click(
            interaction,
            lambda: bot.service.rematch(user, place, self.game_id),
            Placement.NEW,
        )


class _ChallengeButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    label = ""
    style = discord.ButtonStyle.secondary
    service_call = ""
    """The :class:`ShaxService` method a click makes, as ``method(user, place, challenge_id)``."""

    def __init__(self, challenge_id: int, *, row: int | None = None) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=self.make_id(challenge_id), label=self.label, style=self.style, row=row
            )
        )
        self.challenge_id = challenge_id

    @staticmethod
    def make_id(challenge_id: int) -> str:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(_int(match, "challenge_id"))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        bot = _bot(interaction)
        user, place = actor(interaction), place_of(interaction)
        call = getattr(bot.service, self.service_call)
        await bot.responder.click(
            interaction, lambda: call(user, place, self.challenge_id), Placement.REPLACE
        )


class AcceptButton(_ChallengeButton, template=TEMPLATES["accept"]):
    label = "Accept"
    style = discord.ButtonStyle.success

    make_id = staticmethod(accept_id)
    service_call = "accept"


class DeclineButton(_ChallengeButton, template=TEMPLATES["decline"]):
    """Decline a challenge addressed to you; pressed by the challenger, it withdraws it."""

    label = "Decline"
    style = discord.ButtonStyle.danger

    make_id = staticmethod(decline_id)
    service_call = "decline"


DYNAMIC_ITEMS: dict[str, type[discord.ui.DynamicItem[Any]]] = {
    "act": ActSelect,
    "to": ToSelect,
    "resign": ResignButton,
    "draw": DrawButton,
    "nodraw": NoDrawButton,
    "rematch": RematchButton,
    "accept": AcceptButton,
    "decline": DeclineButton,
}
"""One dynamic item per kind of :data:`bot.replies.TEMPLATES`, registered in ``setup_hook``."""
