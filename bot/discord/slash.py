"""The ``/shax`` slash commands, built from the command table (:mod:`bot.commands`).

Each declared option becomes a parameter of a generated callback (its signature carries
the types discord.py reads: text, a user, a text channel, a flag; ranges and choices
through ``app_commands``' own decorators), so the commands register exactly as if
written by hand. The callback turns the options into the service's values and answers
through the responder: in a thread of its own for a command that starts a game, with a
notice first for a slow one.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Optional

import discord
from discord import app_commands

from bot.commands import COMMANDS, Asked, Command, Kind, Option, Value
from bot.discord.components import actor, as_user, place_of
from bot.discord.context import may_manage_server, text_option
from bot.discord.errors import MENTION_AGAIN, NOT_TEXT
from bot.discord.render import MAX_CHOICES, truncate
from bot.service.replies import Place, Reply, Said, Thinking, User, UserError

if TYPE_CHECKING:
    from bot.discord.app import ShaxBotBase

log = logging.getLogger(__name__)

AUTOCOMPLETE_SECONDS = 2.0
"""Autocomplete must answer within Discord's 3 seconds; after this it offers nothing."""
_KINDS: dict[Kind, Any] = {
    Kind.TEXT: str,
    Kind.CHOICE: str,
    Kind.USER: discord.User,
    Kind.CHANNEL: discord.TextChannel,
    Kind.FLAG: bool,
}


Slash = app_commands.Command[Any, ..., None] | app_commands.Group


async def resolve_user(interaction: discord.Interaction[Any], value: object) -> User:
    """A user option as the service sees it. Discord normally sends the user with the
    command; when it does not, the user is fetched, and if that fails too the player is
    asked to mention them again."""
    if isinstance(value, discord.abc.User):
        return as_user(value)
    user_id = getattr(value, "id", None)
    if isinstance(user_id, int) and interaction.guild is not None:
        member = interaction.guild.get_member(user_id)
        if member is not None:
            return as_user(member)
    if isinstance(user_id, int):
        try:
            return as_user(await interaction.client.fetch_user(user_id))
        except discord.HTTPException:
            pass
    raise UserError(Said.message(MENTION_AGAIN))


def slash_commands(bot: ShaxBotBase, commands: Sequence[Command] = COMMANDS) -> list[Slash]:
    """Every command of the table that is a slash command on Discord, in its order; the
    commands of a group (``/shax tournament …``) in a subcommand group, listed where its
    first command stands."""
    built: list[Slash] = []
    groups: dict[str, app_commands.Group] = {}
    for command in commands:
        if command.buttons_only:
            continue
        slash = _slash(bot, command)
        declared = command.group
        if declared is None:
            built.append(slash)
            continue
        group = groups.get(declared.name)
        if group is None:
            group = app_commands.Group(name=declared.name, description=declared.help)
            groups[declared.name] = group
            built.append(group)
        group.add_command(slash)
    return built


def _annotation(option: Option) -> Any:
    kind = _KINDS[option.kind]
    if option.kind is Kind.TEXT and option.max_length is not None:
        kind = app_commands.Range[str, 1, option.max_length]
    if option.required or option.default is not None:
        return kind
    return Optional[kind]  # noqa: UP045 -- Range[...] is not a type: no ``| None``


def _signature(options: tuple[Option, ...]) -> inspect.Signature:
    """``(interaction, <option>: <type> [= default], …)`` as discord.py reads it."""
    first = inspect.Parameter(
        "interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction
    )
    rest = [
        inspect.Parameter(
            option.param,
            inspect.Parameter.KEYWORD_ONLY,
            annotation=_annotation(option),
            default=inspect.Parameter.empty if option.required else option.default,
        )
        for option in options
    ]
    return inspect.Signature([first, *rest])


def _slash(bot: ShaxBotBase, command: Command) -> app_commands.Command[Any, ..., None]:
    async def callback(interaction: discord.Interaction[Any], /, **values: object) -> None:
        await answer_command(bot, command, interaction, values)

    callback.__signature__ = _signature(command.options)  # type: ignore[attr-defined]
    options = command.options
    app_commands.describe(**{o.param: o.help for o in options})(callback)
    renamed = {o.param: o.name for o in options if o.param != o.name}
    if renamed:
        app_commands.rename(**renamed)(callback)
    menus = {
        o.param: [app_commands.Choice(name=pick.label, value=pick.value) for pick in o.choices]
        for o in options
        if o.choices
    }
    if menus:
        app_commands.choices(**menus)(callback)
    slash: app_commands.Command[Any, ..., None] = app_commands.Command(
        name=command.name, description=command.help, callback=callback
    )
    for option in options:
        if option.complete is not None:
            slash.autocomplete(option.param)(_suggestions(bot, option))
    return slash


async def answer_command(
    bot: ShaxBotBase,
    command: Command,
    interaction: discord.Interaction[Any],
    values: dict[str, object],
) -> None:
    """Answer ``command`` with the option ``values`` discord.py parsed (by parameter name;
    the ones left out take their defaults)."""
    if command.servers_only and interaction.guild_id is None:
        raise app_commands.NoPrivateMessage()
    options = {
        o.name: o.checked(await _value(interaction, o, values.get(o.param, o.default)))
        for o in command.options
    }
    asked = Asked(
        bot.service,
        actor(interaction),
        place_of(interaction),
        options,
        may_change_settings=may_manage_server(interaction),
    )
    if command.waiting is not None:
        await bot.responder.when_ready(
            interaction,
            command.waiting,
            lambda thinking: command.run(replace(asked, thinking=thinking)),
        )
        return
    opponent = command.opponent

    async def call(thinking: Thinking) -> Reply:
        if opponent is None:
            return await command.run(replace(asked, thinking=thinking))

        async def start(where: Place) -> Reply:
            return await command.run(replace(asked, place=where, thinking=thinking))

        title = f"{asked.user.name} vs {opponent(asked).name}"
        return await bot.threads.start(
            interaction, asked.place, title, start, players=(asked.user.id,)
        )

    await bot.responder.command(interaction, call)


async def _value(interaction: discord.Interaction[Any], option: Option, value: object) -> Value:
    """An option as Discord sent it, in the service's terms."""
    if value is None:
        return None
    if option.kind is Kind.USER:
        return await resolve_user(interaction, value)
    if option.kind is Kind.CHANNEL:
        channel_id = getattr(value, "id", None)
        if not isinstance(channel_id, int):
            raise UserError(Said.message(NOT_TEXT))
        return channel_id
    if option.kind is Kind.FLAG:
        return value is True
    return text_option(value)


def _suggestions(bot: ShaxBotBase, option: Option) -> Any:
    """Discord's autocomplete for ``option``: its suggestions, in time, at most 25."""
    complete = option.complete
    assert complete is not None

    async def suggest(
        interaction: discord.Interaction[Any], current: str
    ) -> list[app_commands.Choice[str]]:
        typed = current.strip()
        if option.max_length is not None and len(typed) > option.max_length:
            return []
        try:
            async with asyncio.timeout(AUTOCOMPLETE_SECONDS):
                choices = await complete(
                    bot.service, actor(interaction), place_of(interaction), typed
                )
        except (TimeoutError, UserError):
            return []
        except Exception:
            log.exception("Autocomplete failed for %s", interaction.user.id)
            return []
        return [
            app_commands.Choice(
                name=truncate(choice.label or choice.value, 100), value=choice.value[:100]
            )
            for choice in choices[:MAX_CHOICES]
            if choice.value
        ]

    return suggest
