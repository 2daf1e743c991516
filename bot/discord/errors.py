"""Discord's own refusals in the player's words: options Discord could not convert, a
command Discord knows but this version of the bot does not, or one whose registered
options drifted from the code (the operator must sync the commands)."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.service.speech import to_player
from shax_i18n import N_

log = logging.getLogger(__name__)

COMMANDS_HINT = N_(
    "The commands are /shax challenge, /shax play-bot, /shax move, /shax board, "
    "/shax resign, /shax draw, /shax streak, /shax leaderboard, /shax rules and "
    "/shax language."
)
OUT_OF_DATE = N_(
    "This command has changed since Discord last learned it, so I can't read it. "
    "Try again in a minute (the server's admin may need to restart the bot); "
    "meanwhile the buttons under the board still work."
)
DM_ONLY_IN_SERVERS = N_(
    "Challenges are made in a server channel, where your opponent can see them — "
    "use /shax challenge there. Here you can play me with /shax play-bot."
)
NOT_TEXT = N_(
    "I couldn't read that option — pick a value from the list Discord offers as you type."
)
MENTION_AGAIN = N_(
    "I couldn't find that member — mention them again with @ and pick them from the list "
    "(or right-click them again)."
)


def explain(interaction: discord.Interaction[Any], error: BaseException) -> str | None:
    """The sentence for an error Discord's data caused, or ``None`` for a real failure, in
    the player's language."""
    t = to_player()
    if isinstance(error, app_commands.TransformerError):
        return t.gettext(_OPTION_KINDS.get(error.type, _OTHER_OPTION), value=_shown(error.value))
    if isinstance(error, app_commands.CommandNotFound):
        name = " ".join((*error.parents, error.name))
        return t.gettext(
            "There is no /{command} command (any more). {hint}",
            command=name,
            hint=t.gettext(COMMANDS_HINT),
        )
    if isinstance(error, app_commands.CommandSignatureMismatch):
        log.warning(
            "Discord's copy of /%s differs from the code: run `python -m bot sync` "
            "(or restart the bot, which syncs changed commands)",
            error.command.qualified_name,
        )
        return t.gettext(OUT_OF_DATE)
    if isinstance(error, app_commands.NoPrivateMessage):
        return t.gettext(DM_ONLY_IN_SERVERS)
    if type(error) is app_commands.AppCommandError and _is_user_command(interaction):
        # Discord sent a context-menu command without its target
        return t.gettext(MENTION_AGAIN)
    return None


def _is_user_command(interaction: discord.Interaction[Any]) -> bool:
    data: Any = interaction.data or {}
    return bool(data.get("type") == discord.AppCommandType.user.value)


_OPTION_KINDS = {
    discord.AppCommandOptionType.user: N_(
        "I couldn't read {value} as a member — pick a value from the list Discord offers "
        "as you type."
    ),
    discord.AppCommandOptionType.string: N_(
        "I couldn't read {value} as text — pick a value from the list Discord offers as you type."
    ),
    discord.AppCommandOptionType.integer: N_(
        "I couldn't read {value} as a whole number — pick a value from the list Discord "
        "offers as you type."
    ),
    discord.AppCommandOptionType.channel: N_(
        "I couldn't read {value} as a channel — pick a value from the list Discord offers "
        "as you type."
    ),
}
_OTHER_OPTION = N_(
    "I couldn't read {value} as that option — pick a value from the list Discord offers "
    "as you type."
)


def _shown(value: Any) -> str:
    text = str(value)
    return repr(text if len(text) <= 16 else text[:16] + "…")
