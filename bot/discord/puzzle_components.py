"""The components of puzzles: the select that answers a player's puzzle, the buttons that
give it up and bring the next one, and the *Solve it* button under a puzzle of the day.

Each is routed by its custom id's template (:mod:`bot.discord.custom_ids`), also after a
restart; the try's version in the select's id makes a second click on the same moment
a refusal (``StaleBoard``), never a second answer. A puzzle's messages are ephemeral:
an answer replaces the clicked message, the next puzzle and a try of the puzzle of the
day come as new ones, seen by the clicker alone.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.discord.context import Placement, actor, client_of, place_of
from bot.discord.custom_ids import TEMPLATES, daily_id, giveup_id, nextpuzzle_id, puzzle_id
from bot.service.facade import ShaxService
from bot.service.replies import Place, Reply, Thinking, User
from bot.service.texts import EN
from shax_i18n import Translator


class PuzzleSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=TEMPLATES["puzzle"]):
    """The legal actions of a player's puzzle, at one moment of their try."""

    def __init__(
        self,
        attempt_id: int,
        version: int,
        *,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
        row: int | None = None,
    ) -> None:
        super().__init__(
            discord.ui.Select(
                custom_id=puzzle_id(attempt_id, version),
                options=options or [],
                placeholder=placeholder,
                min_values=1,
                max_values=1,
                row=row,
            )
        )
        self.attempt_id = attempt_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["attempt_id"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service = client_of(interaction).service
        value = self.item.values[0] if self.item.values else ""
        user, place = actor(interaction), place_of(interaction)

        async def call(thinking: Thinking) -> Reply:
            return await service.puzzles.answer(user, place, value, self.attempt_id, self.version)

        await client_of(interaction).responder.click(interaction, call, Placement.REPLACE)


class _PuzzleButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?!)"):
    """A button of a puzzle (its id carries one number: the try, or the puzzle of the
    day); a subclass says its id, label, look and call, and where its reply goes."""

    style = discord.ButtonStyle.secondary
    emoji: str | None = None
    placement = Placement.NEW
    group = "attempt_id"

    def __init__(self, number: int, *, row: int | None = None, t: Translator = EN) -> None:
        super().__init__(
            discord.ui.Button(
                custom_id=self.make_id(number),
                label=self.label_in(t),
                style=self.style,
                emoji=self.emoji,
                row=row,
            )
        )
        self.number = number

    @staticmethod
    def make_id(number: int, /) -> str:
        raise NotImplementedError

    @staticmethod
    def label_in(t: Translator) -> str:
        raise NotImplementedError

    async def act(self, service: ShaxService, user: User, place: Place) -> Reply:
        raise NotImplementedError

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match[cls.group]))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service = client_of(interaction).service
        user, place = actor(interaction), place_of(interaction)

        async def call(thinking: Thinking) -> Reply:
            return await self.act(service, user, place)

        await client_of(interaction).responder.click(interaction, call, self.placement)


class GiveUpButton(_PuzzleButton, template=TEMPLATES["giveup"]):
    """Under an open puzzle: end it unsolved and see the solution."""

    emoji = "🏳️"
    placement = Placement.REPLACE
    make_id = staticmethod(giveup_id)

    @staticmethod
    def label_in(t: Translator) -> str:
        return t.pgettext("button", "Show the solution")

    async def act(self, service: ShaxService, user: User, place: Place) -> Reply:
        return await service.puzzles.give_up(user, place, self.number)


class NextPuzzleButton(_PuzzleButton, template=TEMPLATES["nextpuzzle"]):
    """Under a finished puzzle: another on the same board."""

    style = discord.ButtonStyle.primary
    emoji = "🧩"
    make_id = staticmethod(nextpuzzle_id)

    @staticmethod
    def label_in(t: Translator) -> str:
        return t.pgettext("button", "Next puzzle")

    async def act(self, service: ShaxService, user: User, place: Place) -> Reply:
        return await service.puzzles.next_puzzle(user, place, self.number)


class SolveDailyButton(_PuzzleButton, template=TEMPLATES["daily"]):
    """Under a puzzle of the day: the clicker's own try of it."""

    style = discord.ButtonStyle.primary
    emoji = "🧩"
    group = "daily_id"
    make_id = staticmethod(daily_id)

    @staticmethod
    def label_in(t: Translator) -> str:
        return t.pgettext("button", "Solve it")

    async def act(self, service: ShaxService, user: User, place: Place) -> Reply:
        return await service.puzzles.daily_try(user, place, self.number)


PUZZLE_ITEMS: dict[str, type[discord.ui.DynamicItem[Any]]] = {
    "puzzle": PuzzleSelect,
    "giveup": GiveUpButton,
    "nextpuzzle": NextPuzzleButton,
    "daily": SolveDailyButton,
}
