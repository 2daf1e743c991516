"""Game threads on Discord: where a game went, and why none could be opened."""

from __future__ import annotations

from bot.words.registry import sentence
from bot.words.terms import EN
from shax_i18n import N_, Translator

THREAD_FAILED = N_(
    "Discord wouldn't open a thread for your game just now (it answered with an error), "
    "so no game was started. Try again in a minute, or start the game in another channel."
)
NO_THREADS_HERE = N_(
    "A game is already being played here, and this channel can't hold threads — "
    "start your game in another channel."
)


@sentence
def thread_pointer(thread_mention: str, *, busy: bool, t: Translator = EN) -> str:
    if busy:
        return t.gettext(
            "A game is already on here, so yours has a thread of its own: {thread}",
            thread=thread_mention,
        )
    return t.gettext("Your game has a thread of its own: {thread}", thread=thread_mention)


@sentence
def thread_board_coming(thread_mention: str, t: Translator = EN) -> str:
    return t.gettext(
        "Your game has started in a thread of its own: {thread}. Discord did not take its "
        "board just now; it will appear there in a moment.",
        thread=thread_mention,
    )


@sentence
def missing_permissions(names: list[str], t: Translator = EN) -> str:
    return t.gettext(
        "I can't open a thread for your game here: I'm missing {permissions} in this channel. "
        "Ask a server admin to give me that permission, or start the game in another channel.",
        permissions=", ".join(names),
    )


@sentence
def cannot_play_here(names: list[str], t: Translator = EN) -> str:
    return t.gettext(
        "I can't run a game in this channel: I'm missing {permissions} here. Ask a server "
        "admin to give me that in this channel's permissions, or start the game in another "
        "channel.",
        permissions=", ".join(f"**{name}**" for name in names),
    )
