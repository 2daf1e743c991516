"""One command table, two surfaces: every ``/shax`` command exists on Discord (a slash
command, or a button where the table says so) and at the console, with the options the
table declares."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
import pytest_asyncio
from discord import app_commands

from bot.commands import COMMANDS, Kind, Option
from bot.config import Settings
from bot.console.session import Console, local_user
from bot.console.typed import help_text
from bot.discord import ShaxBot, ShaxBotBase
from bot.discord.items import DYNAMIC_ITEMS
from bot.service.facade import ShaxService
from bot.service.replies import Place
from engine import get_variant
from tests.bot.console.test_flows import Screen
from tests.bot.words.test_ids import catalogue_ids

OPTION_TYPES = {
    Kind.TEXT: discord.AppCommandOptionType.string,
    Kind.CHOICE: discord.AppCommandOptionType.string,
    Kind.USER: discord.AppCommandOptionType.user,
    Kind.CHANNEL: discord.AppCommandOptionType.channel,
    Kind.FLAG: discord.AppCommandOptionType.boolean,
}


class NoService:
    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the service was called ({name}) in a test that builds only")


@pytest_asyncio.fixture
async def discord_bot() -> AsyncIterator[ShaxBotBase]:
    bot = ShaxBot(settings=Settings(sync_commands="never"), service=NoService())  # type: ignore[arg-type]
    async with bot:
        await bot.setup_hook()
        yield bot


def slash_payloads(bot: ShaxBotBase) -> dict[str, dict[str, Any]]:
    """Each slash command's payload by the words that name it (``tournament create``)."""
    group = bot.tree.get_command("shax")
    assert isinstance(group, app_commands.Group)
    payloads: dict[str, dict[str, Any]] = {}
    for sub in group.to_dict(bot.tree)["options"]:
        if sub["type"] == discord.AppCommandOptionType.subcommand_group.value:
            payloads |= {f"{sub['name']} {each['name']}": each for each in sub["options"]}
        else:
            payloads[sub["name"]] = sub
    return payloads


async def test_every_command_is_on_discord_as_a_slash_command_or_a_button(
    discord_bot: ShaxBotBase,
) -> None:
    slash = [c.spelled for c in COMMANDS if c.button is None]
    assert list(slash_payloads(discord_bot)) == slash
    for command in COMMANDS:
        if command.button is not None:
            assert command.button in DYNAMIC_ITEMS, command.name


async def test_every_command_is_at_the_console(service: ShaxService, tmp_path: Path) -> None:
    screen = Screen()
    console = Console(service, tmp_path, Place(None, 1), local_user("amina"), screen)
    first_words = list(dict.fromkeys(c.path[0] for c in COMMANDS))
    assert console.completions("/shax ") == first_words
    assert console.completions("/shax tournament ") == [
        c.name for c in COMMANDS if c.group is not None and c.group.name == "tournament"
    ]
    listed = help_text(get_variant("shax"))
    for command in COMMANDS:
        assert f"  /shax {command.spelled} " in listed
        await console.handle(f"/shax {command.spelled}")
        assert "Unknown command" not in screen.take(), command.spelled
    await console.handle("/shax castle")
    unknown = screen.take()
    assert unknown.startswith("✗ Unknown command /shax castle")
    assert unknown.endswith(", ".join(first_words) + ".")


def _declared(option: Option) -> dict[str, Any]:
    return {
        "type": OPTION_TYPES[option.kind].value,
        "required": option.required,
        "choices": [pick.value for pick in option.choices],
        "max_length": option.max_length,
        "autocomplete": option.complete is not None,
        "description": option.help,
    }


def _registered(option: dict[str, Any]) -> dict[str, Any]:
    return {
        "type": option["type"],
        "required": option["required"],
        "choices": [choice["value"] for choice in option.get("choices", [])],
        "max_length": option.get("max_length"),
        "autocomplete": option.get("autocomplete", False),
        "description": option["description"],
    }


async def test_discord_registers_the_declared_options(discord_bot: ShaxBotBase) -> None:
    payloads = slash_payloads(discord_bot)
    for command in COMMANDS:
        if command.button is not None:
            continue
        payload = payloads[command.spelled]
        assert payload["description"] == command.help
        registered = {o["name"]: _registered(o) for o in payload["options"]}
        declared = {o.name: _declared(o) for o in command.options}
        assert registered == declared, command.name


def test_a_required_option_must_say_what_to_write_when_it_is_left_out() -> None:
    with pytest.raises(ValueError, match="must say what to write"):
        Option("opponent", Kind.USER, "Who you want to play", required=True)


def test_every_word_the_table_holds_is_a_catalogue_message() -> None:
    known = catalogue_ids()
    words: list[str] = []
    for command in COMMANDS:
        words += [command.help, *filter(None, (command.board_help, command.waiting))]
        for option in command.options:
            words += [option.help, *filter(None, (option.too_long, option.missing))]
            words += [pick.label for pick in option.choices if " " in pick.label]
    missing = sorted({word for word in words if word not in known})
    assert not missing, f"not in the catalogue (run pybabel extract): {missing}"


def test_reset_names_each_setting_as_its_option_does_on_every_surface() -> None:
    """``reset:`` takes a setting by the name of the option that sets it
    (``reset:puzzle-channel``): on Discord, at the console, in its refusal and in the
    README alike — not ``puzzle_channel`` in one place and "Puzzle of the day" in another."""
    from bot.words.settings import not_a_setting
    from bot.words.terms import EN

    [settings] = [c for c in COMMANDS if c.name == "settings"]
    options = {o.name: o for o in settings.options}
    resets = options["reset"].choices
    assert [p.value for p in resets] == [p.label for p in resets]  # one name, shown and sent
    assert "puzzle-channel" in [p.value for p in resets]
    for pick in resets:
        assert pick.value in options or pick.value == "channels", pick  # the option's name
    refusal = not_a_setting(EN, "nope")
    assert all(p.value in refusal for p in resets) and "_" not in refusal
    readme = (Path(__file__).resolve().parents[3] / "README.md").read_text(encoding="utf-8")
    assert "`reset:puzzle-channel`" in readme and "reset: Puzzle of the day" not in readme
