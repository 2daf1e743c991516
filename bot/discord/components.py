"""The board's components: one ``DynamicItem`` class per kind of control.

Each is routed by its custom id's template (:mod:`bot.discord.custom_ids`) to the right
game, also after a restart; a click on a superseded board is refused by the service
(``StaleBoard``). Each ``callback`` only translates the click
to one typed service call; the responder (:mod:`bot.discord.respond`) acknowledges it
in time and shows the reply.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot import words
from bot.discord.bases import NumberedButton, VersionSelect, service_of
from bot.discord.context import Placement, actor, client_of, place_of
from bot.discord.custom_ids import (
    TEMPLATES,
    accept_id,
    act_id,
    decline_id,
    destination_action,
    draw_id,
    nodraw_id,
    rematch_id,
    resign_id,
    review_id,
    to_id,
)
from bot.service.facade import ShaxService
from bot.service.replies import Place, Reply, Thinking, User
from bot.words.terms import EN
from shax_i18n import Translator


class ActSelect(VersionSelect, template=TEMPLATES["act"]):
    """The select of legal actions under a live board (or of stones, in a two-step move)."""

    make_id = staticmethod(act_id)

    @property
    def game_id(self) -> int:
        return self.number

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        # A two-step move's stone (a bare point) comes back as the ephemeral destination
        # picker: the reply's ``ephemeral`` flag decides, so the same call serves both.
        service = service_of(interaction)
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
        service = service_of(interaction)
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


class _FinishedGameButton(NumberedButton, template=r"(?!)"):
    """A button under a finished game (its id carries the game only): a subclass says
    its id, label, style and emoji, and how it answers."""

    groups = ("game_id",)

    @property
    def game_id(self) -> int:
        return self.number

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await self.answer(
            interaction, service_of(interaction), actor(interaction), place_of(interaction)
        )

    async def answer(
        self, interaction: discord.Interaction[Any], service: ShaxService, user: User, place: Place
    ) -> None:
        raise NotImplementedError


class RematchButton(_FinishedGameButton, template=TEMPLATES["rematch"]):
    """Under a finished game: play again (the final board stays as the record)."""

    style = discord.ButtonStyle.primary
    emoji = "🔁"
    make_id = staticmethod(rematch_id)

    @staticmethod
    def label_in(t: Translator) -> str:
        return t.pgettext("button", "Rematch")

    async def answer(
        self, interaction: discord.Interaction[Any], service: ShaxService, user: User, place: Place
    ) -> None:
        async def call(thinking: Thinking) -> Reply:
            return await service.challenges.rematch(user, self.game_id, thinking=thinking)

        await client_of(interaction).responder.click(interaction, call, Placement.NEW)


class ReviewButton(_FinishedGameButton, template=TEMPLATES["review"]):
    """Under a finished game: its review (the evaluation plot and the turning points),
    shown to the one who clicked."""

    emoji = "🔎"
    make_id = staticmethod(review_id)

    @staticmethod
    def label_in(t: Translator) -> str:
        return t.pgettext("button", "Review")

    async def answer(
        self, interaction: discord.Interaction[Any], service: ShaxService, user: User, place: Place
    ) -> None:
        await client_of(interaction).responder.when_ready(
            interaction,
            words.REVIEWING,
            lambda thinking: service.teacher.review(user, place, self.game_id, thinking=thinking),
        )


class _ChallengeButton(NumberedButton, template=r"(?!)"):
    """A button under a challenge."""

    @property
    def challenge_id(self) -> int:
        return self.number


class AcceptButton(_ChallengeButton, template=TEMPLATES["accept"]):
    style = discord.ButtonStyle.success

    make_id = staticmethod(accept_id)

    @staticmethod
    def label_in(t: Translator) -> str:
        return t.pgettext("button", "Accept")

    async def act(self, service: ShaxService, user: User, place: Place) -> Reply:
        return await service.challenges.accept(user, place, self.challenge_id)


class DeclineButton(_ChallengeButton, template=TEMPLATES["decline"]):
    """Decline a challenge addressed to you; pressed by the challenger, it withdraws it."""

    style = discord.ButtonStyle.danger

    make_id = staticmethod(decline_id)

    @staticmethod
    def label_in(t: Translator) -> str:
        return t.pgettext("button", "Decline")

    async def act(self, service: ShaxService, user: User, place: Place) -> Reply:
        return await service.challenges.decline(user, place, self.challenge_id)


GAME_ITEMS: dict[str, type[discord.ui.DynamicItem[Any]]] = {
    "act": ActSelect,
    "to": ToSelect,
    "resign": ResignButton,
    "draw": DrawButton,
    "nodraw": NoDrawButton,
    "rematch": RematchButton,
    "review": ReviewButton,
    "accept": AcceptButton,
    "decline": DeclineButton,
}
"""The dynamic items of games and challenges (all of them: :mod:`bot.discord.items`)."""
