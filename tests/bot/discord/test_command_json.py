"""The registered commands' JSON stays what Discord already has: a new subcommand group
(``/shax tournament …``) is added beside the commands, and every command registered before
it is sent byte for byte as it was (data/commands.json), so an upgrade changes only what it
adds."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import discord
from discord import app_commands

from bot.commands import COMMANDS, Asked, Command, Group, command_named
from bot.discord import ShaxBotBase
from bot.discord.slash import slash_commands
from bot.service.replies import Reply
from tests.bot.discord.test_adapter import built_bot
from tests.fakediscord.limits import FormErrors, check_commands

__all__ = ["built_bot"]

REGISTERED = Path(__file__).parent / "data" / "commands.json"
"""Every command as it was registered before the subcommand groups, as ``command_digest``
reads them (sorted by type and name)."""


def groups() -> set[str]:
    return {c.group.name for c in COMMANDS if c.group is not None}


def payloads(bot: ShaxBotBase) -> list[dict[str, Any]]:
    return sorted(
        (command.to_dict(bot.tree) for command in bot.tree.get_commands()),
        key=lambda c: (c.get("type", 1), c["name"]),
    )


def without_groups(commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The commands with /shax's subcommand groups taken out."""
    kept = []
    for command in commands:
        if command["name"] == "shax":
            options = [o for o in command["options"] if o["name"] not in groups()]
            command = {**command, "options": options}
        kept.append(command)
    return kept


def dumped(commands: list[dict[str, Any]]) -> str:
    return json.dumps(commands, sort_keys=True)


async def test_the_commands_registered_before_are_sent_byte_for_byte_the_same(
    built_bot: ShaxBotBase,
) -> None:
    before = json.loads(REGISTERED.read_text(encoding="utf-8"))
    assert dumped(without_groups(payloads(built_bot))) == dumped(before)


async def _nothing(asked: Asked) -> Reply:
    raise AssertionError("only built here")


async def test_a_declared_group_is_a_subcommand_group_of_shax_where_its_first_command_stands(
    built_bot: ShaxBotBase,
) -> None:
    club = Group("club", "The club's commands")
    declared = (
        COMMANDS[0],
        Command("open", "Open the club", _nothing, group=club),
        COMMANDS[1],  # a button: not a slash command
        COMMANDS[4],
        Command("close", "Close it", _nothing, (COMMANDS[4].options[0],), group=club),
    )
    shax = app_commands.Group(name="shax", description="Shax")
    for slash in slash_commands(built_bot, declared):
        shax.add_command(slash)
    options = shax.to_dict(built_bot.tree)["options"]
    assert [o["name"] for o in options] == [COMMANDS[0].name, "club", COMMANDS[4].name]
    group = options[1]
    assert group["type"] == discord.AppCommandOptionType.subcommand_group.value
    assert group["description"] == "The club's commands"
    assert [(o["name"], o["type"]) for o in group["options"]] == [
        ("open", discord.AppCommandOptionType.subcommand.value),
        ("close", discord.AppCommandOptionType.subcommand.value),
    ]
    assert group["options"][1]["options"] == options[2]["options"][:1]
    errors = FormErrors()
    check_commands([shax.to_dict(built_bot.tree)], errors)
    assert not errors, errors.summary()


def test_a_grouped_command_is_named_by_its_group_and_its_name() -> None:
    command = Command("create", "Make one", _nothing, group=Group("tournament", "Events"))
    assert command.path == ("tournament", "create") and command.spelled == "tournament create"
    assert COMMANDS[0].path == (COMMANDS[0].name,)
    assert command_named(f"  {COMMANDS[0].name.upper()} ") is COMMANDS[0]
