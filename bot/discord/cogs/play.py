"""The ``/shax`` commands: each one translates its options into one service call.

Refusals raised by the service (``UserError``) reach the tree-wide error handler and
are shown ephemerally; :class:`~bot.discord.respond.Responder` acknowledges each
interaction in time and places the reply (see its module for the live board).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import Choice
from discord.ext import commands

from bot import words
from bot.discord.app import ShaxBotBase
from bot.discord.components import answer_when_ready
from bot.discord.context import actor, place_of, resolve_user, text_option
from bot.discord.render import MAX_CHOICES, truncate
from bot.service.replies import Place, Reply, Said, Thinking, UserError
from bot.service.server_settings import Setting, SettingsChange
from bot.words.settings import LABELS
from engine.ai import LEVELS as AI_LEVELS
from shax_i18n import LANGUAGES, N_

log = logging.getLogger(__name__)

MAX_ACTION_LENGTH = 16
"""Longer than any action in notation (``a7-d7`` is 5); Discord enforces it in the client,
and the command checks it again for clients that do not."""
AUTOCOMPLETE_SECONDS = 2.0
"""Autocomplete must answer within Discord's 3 seconds; after this it offers nothing."""

VARIANTS = [
    Choice(name="Shax — 12 stones each, three squares", value="shax"),
    Choice(name="Shax small — 8 stones each, two squares", value="shax-small"),
    Choice(name="Jar — 3 stones each, the children's game", value="jar"),
]
LEVELS = [Choice(name=level.capitalize(), value=level) for level in AI_LEVELS]
LANGUAGE_CHOICES = [Choice(name=name, value=code) for code, name in LANGUAGES.items()]
"""Each language under its own name: English, Soomaali."""
FIRST = [
    Choice(name="Me", value="me"),
    Choice(name="The bot", value="bot"),
    Choice(name="Random", value="random"),
]

THREAD_CHOICES = [
    Choice(name="When the channel is busy", value="busy"),
    Choice(name="Always", value="always"),
    Choice(name="Never", value="never"),
]
THEMES = [
    Choice(name="Dark — as Discord's dark theme", value="dark"),
    Choice(name="Light — sand", value="light"),
]
RESETS = [Choice(name=label, value=name) for name, label in LABELS.items()]

CHALLENGE_MENU = "Challenge to Shax"
"""The user context-menu command (right-click a member → Apps)."""

TOO_LONG = N_(
    "That is far too long to be a move. Moves look like **d7** (place), **a7-d7** (move) "
    "or **xg1** (remove) — start typing and pick one of the suggestions."
)


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

    # -- challenges and games ------------------------------------------------------------

    @app_commands.command(name="challenge", description="Challenge someone to a game")
    @app_commands.describe(opponent="Who you want to play", variant="The board (default: Shax)")
    @app_commands.choices(variant=VARIANTS)
    async def challenge(
        self, interaction: discord.Interaction[Any], opponent: discord.User, variant: str = "shax"
    ) -> None:
        await self._challenge(interaction, opponent, text_option(variant))

    async def _challenge(
        self, interaction: discord.Interaction[Any], opponent: object, variant: str
    ) -> None:
        if interaction.guild_id is None:
            raise app_commands.NoPrivateMessage()
        user, place = actor(interaction), place_of(interaction)
        them = await resolve_user(interaction, opponent)
        service = self.bot.service

        async def start(where: Place) -> Reply:
            return await service.challenge(user, them, where, variant)

        await self.bot.responder.command(
            interaction,
            lambda _: self.bot.threads.start(
                interaction, place, f"{user.name} vs {them.name}", start, players=(user.id,)
            ),
        )

    async def challenge_from_menu(
        self, interaction: discord.Interaction[Any], member: discord.Member | discord.User
    ) -> None:
        """The user context menu's "Challenge to Shax": a challenge to a game of shax."""
        await self._challenge(interaction, member, "shax")

    @app_commands.command(name="play-bot", description="Play a game against the bot")
    @app_commands.describe(
        level="How strong the bot plays (default: medium)",
        variant="The board (default: Shax)",
        first="Who places the first stone (default: the last winner; you in a new series)",
    )
    @app_commands.choices(level=LEVELS, variant=VARIANTS, first=FIRST)
    async def play_bot(
        self,
        interaction: discord.Interaction[Any],
        level: str = "medium",
        variant: str = "shax",
        first: str | None = None,
    ) -> None:
        user, place = actor(interaction), place_of(interaction)
        level, variant = text_option(level), text_option(variant)
        chosen = None if first is None else text_option(first)
        service = self.bot.service

        async def call(thinking: Thinking) -> Reply:
            async def start(where: Place) -> Reply:
                return await service.play_bot(
                    user, where, level, variant, chosen, thinking=thinking
                )

            title = f"{user.name} vs {service.bot_user.name}"
            return await self.bot.threads.start(
                interaction, place, title, start, players=(user.id,)
            )

        await self.bot.responder.command(interaction, call)

    @app_commands.command(
        name="move", description="Play a move: d7 places, a7-d7 moves, xg1 removes"
    )
    @app_commands.describe(action="Your move in notation — start typing to see the legal ones")
    async def move(
        self,
        interaction: discord.Interaction[Any],
        action: app_commands.Range[str, 1, MAX_ACTION_LENGTH],
    ) -> None:
        action = text_option(action).strip()
        if len(action) > MAX_ACTION_LENGTH:
            raise UserError(Said.message(TOO_LONG))
        user, place = actor(interaction), place_of(interaction)
        await self.bot.responder.command(
            interaction,
            lambda thinking: self.bot.service.play(user, place, action, thinking=thinking),
        )

    @move.autocomplete("action")
    async def move_autocomplete(
        self, interaction: discord.Interaction[Any], current: str
    ) -> list[Choice[str]]:
        typed = current.strip()
        if len(typed) > MAX_ACTION_LENGTH:
            return []
        try:
            choices = await asyncio.wait_for(
                self.bot.service.legal_choices(actor(interaction), place_of(interaction), typed),
                AUTOCOMPLETE_SECONDS,
            )
        except (TimeoutError, UserError):
            return []
        except Exception:
            log.exception("Autocomplete failed for %s", interaction.user.id)
            return []
        return [
            Choice(name=truncate(choice.label or choice.value, 100), value=choice.value[:100])
            for choice in choices[:MAX_CHOICES]
            if choice.value
        ]

    @app_commands.command(name="board", description="Show the game in this channel again")
    async def board(self, interaction: discord.Interaction[Any]) -> None:
        user, place = actor(interaction), place_of(interaction)
        await self.bot.responder.command(
            interaction, lambda thinking: self.bot.service.board(user, place, thinking=thinking)
        )

    @app_commands.command(name="resign", description="Resign the game in this channel")
    async def resign(self, interaction: discord.Interaction[Any]) -> None:
        user, place = actor(interaction), place_of(interaction)
        await self.bot.responder.command(
            interaction, lambda _: self.bot.service.resign(user, place)
        )

    @app_commands.command(name="draw", description="Offer a draw, or accept the one on the table")
    async def draw(self, interaction: discord.Interaction[Any]) -> None:
        user, place = actor(interaction), place_of(interaction)
        await self.bot.responder.command(interaction, lambda _: self.bot.service.draw(user, place))

    # -- the teacher ----------------------------------------------------------------------

    @app_commands.command(
        name="hint", description="The best move, drawn on the board (a few per game vs the bot)"
    )
    async def hint(self, interaction: discord.Interaction[Any]) -> None:
        user, place = actor(interaction), place_of(interaction)
        await self.bot.responder.command(
            interaction, lambda thinking: self.bot.service.hint(user, place, thinking=thinking)
        )

    @app_commands.command(
        name="review", description="Review the last game here: who stood better, where it turned"
    )
    async def review(self, interaction: discord.Interaction[Any]) -> None:
        user, place = actor(interaction), place_of(interaction)
        service = self.bot.service
        await answer_when_ready(interaction, words.REVIEWING, lambda: service.review(user, place))

    # -- statistics and help -------------------------------------------------------------

    @app_commands.command(
        name="streak",
        description="Current and best streaks, gal and gabad, and the record against everyone",
    )
    @app_commands.describe(user="Whose streak (default: yours)")
    async def streak(
        self, interaction: discord.Interaction[Any], user: discord.User | None = None
    ) -> None:
        who = await resolve_user(interaction, user) if user is not None else actor(interaction)
        place = place_of(interaction)
        await self.bot.responder.command(interaction, lambda _: self.bot.service.streak(place, who))

    @app_commands.command(
        name="leaderboard", description="This server's best current and all-time streaks"
    )
    async def leaderboard(self, interaction: discord.Interaction[Any]) -> None:
        place = place_of(interaction)
        await self.bot.responder.command(interaction, lambda _: self.bot.service.leaderboard(place))

    @app_commands.command(name="language", description="Choose the language the bot speaks to you")
    @app_commands.describe(language="The language: English or Soomaali")
    @app_commands.choices(language=LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction[Any], language: str) -> None:
        """Remember the player's language: their own answers speak it, and a game's
        messages too when both players chose it."""
        chosen = text_option(language)
        user = actor(interaction)
        await self.bot.responder.command(
            interaction, lambda _: self.bot.service.set_language(user, chosen)
        )

    # -- the server's settings -----------------------------------------------------------

    @app_commands.command(
        name="settings",
        description="This server's Shax settings; members with Manage Server can change them",
    )
    @app_commands.describe(
        turn_timeout="Time to move before the turn is forfeited, e.g. 12h, 2d (10m to 14d)",
        challenge_expiry="How long a challenge stays open, e.g. 10m, 1h (1m to 7d)",
        threads="When games get a thread of their own",
        theme="The boards' colours",
        language="The server's language: its games speak it unless both players chose another",
        allow_channel="Let games start in this channel (then only in the listed ones)",
        disallow_channel="Stop games starting in this channel",
        all_channels="Let games start in every channel again",
        reset="Return one setting to the bot's default",
    )
    @app_commands.rename(
        turn_timeout="turn-timeout",
        challenge_expiry="challenge-expiry",
        allow_channel="allow-channel",
        disallow_channel="disallow-channel",
        all_channels="all-channels",
    )
    @app_commands.choices(
        threads=THREAD_CHOICES, theme=THEMES, language=LANGUAGE_CHOICES, reset=RESETS
    )
    async def settings(
        self,
        interaction: discord.Interaction[Any],
        turn_timeout: app_commands.Range[str, 1, 20] | None = None,
        challenge_expiry: app_commands.Range[str, 1, 20] | None = None,
        threads: str | None = None,
        theme: str | None = None,
        language: str | None = None,
        allow_channel: discord.TextChannel | None = None,
        disallow_channel: discord.TextChannel | None = None,
        all_channels: bool = False,
        reset: str | None = None,
    ) -> None:
        place = place_of(interaction)
        perms = interaction.permissions
        may_change = perms.manage_guild or perms.administrator
        try:
            reset_setting = Setting(text_option(reset)) if reset is not None else None
        except ValueError:
            raise UserError(Said("not_a_setting", text_option(reset or ""))) from None
        change = SettingsChange(
            turn_timeout=text_option(turn_timeout) if turn_timeout is not None else None,
            challenge_expiry=text_option(challenge_expiry)
            if challenge_expiry is not None
            else None,
            threads=text_option(threads) if threads is not None else None,
            theme=text_option(theme) if theme is not None else None,
            language=text_option(language) if language is not None else None,
            allow_channel=allow_channel.id if allow_channel is not None else None,
            disallow_channel=disallow_channel.id if disallow_channel is not None else None,
            every_channel=all_channels,
            reset=reset_setting,
        )
        await self.bot.responder.command(
            interaction,
            lambda _: self.bot.service.settings(place, change, may_change=may_change),
        )

    @app_commands.command(name="theme", description="Draw the boards you ask for dark or light")
    @app_commands.describe(theme="dark or light (leave out to see yours)")
    @app_commands.choices(theme=THEMES)
    async def theme(self, interaction: discord.Interaction[Any], theme: str | None = None) -> None:
        user = actor(interaction)
        chosen = None if theme is None else text_option(theme)
        await self.bot.responder.command(
            interaction, lambda _: self.bot.service.theme(user, chosen)
        )

    @app_commands.command(name="rules", description="The rules in short, with the board's points")
    @app_commands.describe(variant="Which game (default: Shax)")
    @app_commands.choices(variant=VARIANTS)
    async def rules(self, interaction: discord.Interaction[Any], variant: str = "shax") -> None:
        variant = text_option(variant)
        await self.bot.responder.command(interaction, lambda _: self.bot.service.rules(variant))


async def setup(bot: commands.Bot) -> None:
    assert isinstance(bot, ShaxBotBase)
    await bot.add_cog(ShaxCommands(bot))
