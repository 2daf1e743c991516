"""Discord's own refusals in the player's words: options Discord could not convert, a
command Discord knows but this version of the bot does not, one whose registered
options drifted from the code (the operator must sync the commands), a command that
arrived without its data, or a click on a control no version of the bot made."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.commands import COMMANDS
from shax_i18n import N_, Translator

log = logging.getLogger(__name__)

COMMANDS_HINT = N_("The commands are {commands}.")
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
UNREADABLE_COMMAND = N_(
    "Discord sent this command to me incomplete, so I couldn't read it. Please run it "
    "again; if it keeps happening, restart your Discord app."
)
UNKNOWN_CONTROL = N_(
    "I don't know this button or menu — it may be from an old message or changed on its "
    "way. Use /shax board to get the game's current board."
)
MENTION_AGAIN = N_(
    "I couldn't find that member — mention them again with @ and pick them from the list "
    "(or right-click them again)."
)


class UnreadableCommand(app_commands.AppCommandError):
    """A command interaction whose data discord.py could not read (Discord sent
    ``options`` or ``resolved`` as ``null``, say); ``__cause__`` is what failed."""


class UnknownControl(Exception):
    """A click on a component whose custom id is none of the bot's (truncated, forged,
    or from a message no version of the bot made)."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(custom_id)
        self.custom_id = custom_id


def explain(
    interaction: discord.Interaction[Any], error: BaseException, t: Translator
) -> str | None:
    """The sentence for an error Discord's data caused, or ``None`` for a real failure, in
    the language of ``t`` (the player's)."""
    if isinstance(error, UnreadableCommand):
        data: Any = interaction.data or {}
        log.warning(
            "Could not read a /%s command from user %s (%s); asked them to run it again",
            data.get("name"),
            interaction.user.id,
            _cause(error.__cause__),
        )
        return t.gettext(UNREADABLE_COMMAND)
    if isinstance(error, UnknownControl):
        log.info(
            "A click on an unknown control %s from user %s",
            _shown(error.custom_id),
            interaction.user.id,
        )
        return t.gettext(UNKNOWN_CONTROL)
    if isinstance(error, app_commands.TransformerError):
        return t.gettext(_OPTION_KINDS.get(error.type, _OTHER_OPTION), value=_shown(error.value))
    if isinstance(error, app_commands.CommandNotFound):
        name = " ".join((*error.parents, error.name))
        return t.gettext(
            "There is no /{command} command (any more). {hint}",
            command=name,
            hint=t.gettext(COMMANDS_HINT, commands=slash_commands()),
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


def slash_commands() -> str:
    """Every slash command of the table, in its order (the buttons are not typed here); a
    group once, by its word (``/shax tournament``)."""
    return ", ".join(dict.fromkeys(f"/shax {c.path[0]}" for c in COMMANDS if not c.buttons_only))


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


def _cause(error: BaseException | None) -> str:
    if error is None:
        return "no cause"
    return f"{type(error).__name__}: {error}"


def _shown(value: Any) -> str:
    text = str(value)
    return repr(text if len(text) <= 16 else text[:16] + "…")
