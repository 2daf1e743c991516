"""Game threads on Discord: where a game went, and why none could be opened."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.replies import Said, Saying
from bot.words.registry import speaks, speaks_with_voice
from bot.words.voice import Voice
from shax_i18n import N_, Translator

THREAD_FAILED = N_(
    "Discord wouldn't open a thread for your game just now (it answered with an error), "
    "so no game was started. Try again in a minute, or start the game in another channel."
)
NO_THREADS_HERE = N_(
    "A game is already being played here, and this channel can't hold threads — "
    "start your game in another channel."
)


THREAD_POINTER: Saying[[str, bool]] = Saying("thread_pointer")
"""Where a game went: its thread (as Discord writes it), and whether a game was on here."""
THREAD_BOARD_COMING: Saying[[str]] = Saying("thread_board_coming")
"""A game started in its thread (as Discord writes it), its board still to come."""
MISSING_PERMISSIONS: Saying[[Sequence[str]]] = Saying("missing_permissions")
"""The permissions a game's thread needs that the bot lacks here."""
CANNOT_PLAY_HERE: Saying[[Sequence[str]]] = Saying("cannot_play_here")
"""The permissions a game needs that the bot lacks in this channel."""
THREADS_BLOCKED: Saying[[Said, Sequence[str]]] = Saying("threads_blocked")
"""A tournament's games' threads cannot be opened in its channel: the name of a game that
waits, and the permissions the bot lacks there (said once in that channel)."""
CHANNEL_GONE: Saying[[Said]] = Saying("channel_gone")
"""A tournament's channel is gone: the name of a game that waits (said to its creator)."""


@speaks(THREAD_POINTER)
def thread_pointer(t: Translator, thread_mention: str, busy: bool) -> str:
    if busy:
        return t.gettext(
            "A game is already on here, so yours has a thread of its own: {thread}",
            thread=thread_mention,
        )
    return t.gettext("Your game has a thread of its own: {thread}", thread=thread_mention)


@speaks(THREAD_BOARD_COMING)
def thread_board_coming(t: Translator, thread_mention: str) -> str:
    return t.gettext(
        "Your game has started in a thread of its own: {thread}. Discord did not take its "
        "board just now; it will appear there in a moment.",
        thread=thread_mention,
    )


@speaks(MISSING_PERMISSIONS)
def missing_permissions(t: Translator, names: Sequence[str]) -> str:
    return t.gettext(
        "I can't open a thread for your game here: I'm missing {permissions} in this channel. "
        "Ask a server admin to give me that permission, or start the game in another channel.",
        permissions=", ".join(names),
    )


@speaks(CANNOT_PLAY_HERE)
def cannot_play_here(t: Translator, names: Sequence[str]) -> str:
    return t.gettext(
        "I can't run a game in this channel: I'm missing {permissions} here. Ask a server "
        "admin to give me that in this channel's permissions, or start the game in another "
        "channel.",
        permissions=", ".join(f"**{name}**" for name in names),
    )


@speaks_with_voice(THREADS_BLOCKED)
def threads_blocked(voice: Voice, game: Said, names: Sequence[str]) -> str:
    return voice.t.gettext(
        "I can't open the threads of this tournament's games ({game} is waiting): I'm missing "
        "{permissions} in this channel. Ask a server admin to give it back; each game starts in "
        "its thread as soon as I can open it.",
        game=voice.say(game),
        permissions=", ".join(names),
    )


@speaks_with_voice(CHANNEL_GONE)
def channel_gone(voice: Voice, game: Said) -> str:
    return voice.t.gettext(
        "I can't open the thread for the game {game}: its channel is gone, or hidden from me, "
        "so the game can't start there.",
        game=voice.say(game),
    )
