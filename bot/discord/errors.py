"""Discord's own refusals in the player's words: options Discord could not convert, a
command Discord knows but this version of the bot does not, or one whose registered
options drifted from the code (the operator must sync the commands)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

log = logging.getLogger(__name__)

COMMANDS_HINT = (
    "The commands are /shax challenge, /shax play-bot, /shax move, /shax board, "
    "/shax resign, /shax draw, /shax streak, /shax leaderboard and /shax rules."
)
OUT_OF_DATE = (
    "This command has changed since Discord last learned it, so I can't read it. "
    "Try again in a minute (the server's admin may need to restart the bot); "
    "meanwhile the buttons under the board still work."
)
DM_ONLY_IN_SERVERS = (
    "Challenges are made in a server channel, where your opponent can see them — "
    "use /shax challenge there. Here you can play me with /shax play-bot."
)
NOT_TEXT = "I couldn't read that option — pick a value from the list Discord offers as you type."
MENTION_AGAIN = (
    "I couldn't find that member — mention them again with @ and pick them from the list "
    "(or right-click them again)."
)


def explain(interaction: discord.Interaction[Any], error: BaseException) -> str | None:
    """The sentence for an error Discord's data caused, or ``None`` for a real failure."""
    if isinstance(error, app_commands.TransformerError):
        option = _option_name(error)
        return (
            f"I couldn't read {_shown(error.value)} as {option} — "
            "pick a value from the list Discord offers as you type."
        )
    if isinstance(error, app_commands.CommandNotFound):
        name = " ".join((*error.parents, error.name))
        return f"There is no /{name} command (any more). {COMMANDS_HINT}"
    if isinstance(error, app_commands.CommandSignatureMismatch):
        log.warning(
            "Discord's copy of /%s differs from the code: run `python -m bot sync` "
            "(or restart the bot, which syncs changed commands)",
            error.command.qualified_name,
        )
        return OUT_OF_DATE
    if isinstance(error, app_commands.NoPrivateMessage):
        return DM_ONLY_IN_SERVERS
    if type(error) is app_commands.AppCommandError and _is_user_command(interaction):
        return MENTION_AGAIN  # Discord sent a context-menu command without its target
    return None


def _is_user_command(interaction: discord.Interaction[Any]) -> bool:
    data: Any = interaction.data or {}
    return bool(data.get("type") == discord.AppCommandType.user.value)


def _option_name(error: app_commands.TransformerError) -> str:
    kinds = {
        discord.AppCommandOptionType.user: "a member",
        discord.AppCommandOptionType.string: "text",
        discord.AppCommandOptionType.integer: "a whole number",
        discord.AppCommandOptionType.channel: "a channel",
    }
    return kinds.get(error.type, "that option")


def _shown(value: Any) -> str:
    text = str(value)
    return repr(text if len(text) <= 16 else text[:16] + "…")
