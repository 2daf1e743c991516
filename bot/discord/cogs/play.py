"""The ``/shax`` group: its slash commands are built from the command table
(:mod:`bot.discord.slash`), and the member context menu "Challenge to Shax" is here.

Refusals raised by the service (``UserError``) reach the tree-wide error handler and
are shown ephemerally; :class:`~bot.discord.respond.Responder` acknowledges each
interaction in time and places the reply (see its module for the live board).
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.commands import command_named
from bot.discord.app import ShaxBotBase
from bot.discord.slash import answer_command, slash_commands

CHALLENGE_MENU = "Challenge to Shax"
"""The user context-menu command (right-click a member → Apps)."""


@app_commands.allowed_installs(guilds=True, users=False)
@app_commands.allowed_contexts(guilds=True, dms=True, private_channels=False)
class ShaxCommands(
    commands.GroupCog,
    group_name="shax",
    group_description="Play Shax, the Somali mill game",
):
    """Challenges, games against people and the bot, streaks and the rules.

    The bot is installed to servers, not to users: it must be able to post the board.
    In a server everything works; in a direct message with the bot, everything but
    challenges (nobody else can see them there).
    """

    def __init__(self, bot: ShaxBotBase) -> None:
        self.bot = bot
        super().__init__()
        group = self.app_command
        assert group is not None
        for slash in slash_commands(bot):
            group.add_command(slash)
        self.menu = app_commands.ContextMenu(
            name=CHALLENGE_MENU,
            callback=self.challenge_from_menu,
            allowed_contexts=app_commands.AppCommandContext(guild=True),
            allowed_installs=app_commands.AppInstallationType(guild=True),
        )

    async def cog_load(self) -> None:
        self.bot.tree.add_command(self.menu)

    async def cog_unload(self) -> None:
        self.bot.tree.remove_command(self.menu.name, type=self.menu.type)

    async def challenge_from_menu(
        self, interaction: discord.Interaction[Any], member: discord.Member | discord.User
    ) -> None:
        """The user context menu's "Challenge to Shax": a challenge to a game of shax."""
        challenge = command_named("challenge")
        assert challenge is not None
        await answer_command(self.bot, challenge, interaction, {"opponent": member})


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, ShaxBotBase)
    await bot.add_cog(ShaxCommands(bot))
