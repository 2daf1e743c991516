"""The buttons under a finished game (a rematch, its review) and under a challenge
(accept, decline), on the bases of :mod:`bot.discord.components`."""

from __future__ import annotations

from typing import Any

import discord

from bot import words
from bot.discord.components import LIVE_ITEMS, NumberedButton, actor, client_of, place_of
from bot.discord.context import Placement
from bot.discord.custom_ids import TEMPLATES, accept_id, decline_id, rematch_id, review_id
from bot.service.facade import ShaxService
from bot.service.replies import Place, Reply, Thinking, User
from shax_i18n import Translator


class _FinishedGameButton(NumberedButton, template=r"(?!)"):
    """A button under a finished game (its id carries the game only): a subclass says
    its id, label, style and emoji, and how it answers."""

    groups = ("game_id",)

    @property
    def game_id(self) -> int:
        return self.number

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        await self.answer(
            interaction, client_of(interaction).service, actor(interaction), place_of(interaction)
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
    **LIVE_ITEMS,
    "rematch": RematchButton,
    "review": ReviewButton,
    "accept": AcceptButton,
    "decline": DeclineButton,
}
"""The dynamic items of games and challenges (all of them: :mod:`bot.discord.items`)."""
