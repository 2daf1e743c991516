"""The components of puzzles: the select that answers a player's puzzle, the buttons that
give it up and bring the next one, and the *Solve it* button under a puzzle of the day.

Each is routed by its custom id's template (:mod:`bot.discord.custom_ids`), also after a
restart; the try's version in the select's id makes a second click on the same moment
a refusal (``StaleBoard``), never a second answer. A puzzle's messages are ephemeral:
an answer replaces the clicked message, the next puzzle and a try of the puzzle of the
day come as new ones, seen by the clicker alone.
"""

from __future__ import annotations

from typing import Any

import discord

from bot.discord.components import NumberedButton, VersionSelect, actor, client_of, place_of
from bot.discord.context import Placement
from bot.discord.custom_ids import TEMPLATES, daily_id, giveup_id, nextpuzzle_id, puzzle_id
from bot.service.facade import ShaxService
from bot.service.replies import Place, Reply, Thinking, User
from shax_i18n import Translator


class PuzzleSelect(VersionSelect, template=TEMPLATES["puzzle"]):
    """The legal actions of a player's puzzle, at one moment of their try."""

    group = "attempt_id"
    make_id = staticmethod(puzzle_id)

    async def callback(self, interaction: discord.Interaction[Any]) -> None:
        service = client_of(interaction).service
        value, user, place = self.picked, actor(interaction), place_of(interaction)

        async def call(thinking: Thinking) -> Reply:
            return await service.puzzles.answer(user, place, value, self.number, self.version)

        await client_of(interaction).responder.click(interaction, call, Placement.REPLACE)


class GiveUpButton(NumberedButton, template=TEMPLATES["giveup"]):
    """Under an open puzzle: end it unsolved and see the solution."""

    emoji = "🏳️"
    groups = ("attempt_id",)
    make_id = staticmethod(giveup_id)

    @staticmethod
    def label_in(t: Translator) -> str:
        return t.pgettext("button", "Show the solution")

    async def act(self, service: ShaxService, user: User, place: Place) -> Reply:
        return await service.puzzles.give_up(user, place, self.number)


class NextPuzzleButton(NumberedButton, template=TEMPLATES["nextpuzzle"]):
    """Under a finished puzzle: another on the same board."""

    style = discord.ButtonStyle.primary
    emoji = "🧩"
    groups = ("attempt_id",)
    placement = Placement.NEW
    make_id = staticmethod(nextpuzzle_id)

    @staticmethod
    def label_in(t: Translator) -> str:
        return t.pgettext("button", "Next puzzle")

    async def act(self, service: ShaxService, user: User, place: Place) -> Reply:
        return await service.puzzles.next_puzzle(user, place, self.number)


class SolveDailyButton(NumberedButton, template=TEMPLATES["daily"]):
    """Under a puzzle of the day: the clicker's own try of it."""

    style = discord.ButtonStyle.primary
    emoji = "🧩"
    groups = ("daily_id",)
    placement = Placement.NEW
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
