"""Where a :class:`~bot.service.replies.Said` becomes words: a :class:`Voice`.

An adapter names the reader of every message it shows and speaks to them with a voice:
their translator, how its surface writes a player and a channel, and the surface itself
(for the sentences that name a control). ``voice.say(said)`` looks the id up among the
words registered for it (:func:`bot.words.registry.speaks`) and calls them with the reader
and the values the service gave: the words of a sentence take the reader as a required
first argument, so that none of them can speak English to a reader it forgot.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum

from bot.service.replies import BOT_PLAYER, BotName, Channel, Said, User
from shax_i18n import Translator


class Surface(Enum):
    """Where the service's words are shown, for the sentences that name its controls."""

    DISCORD = "discord"
    """Buttons under the messages (Accept, Decline, Rematch, Accept draw) and threads."""
    CONSOLE = "console"
    """Typed commands only (``/shax accept``, ``/shax cancel``, ``/shax rematch``)."""


Spoken = Callable[["Voice", Said], str]
"""How a voice says one sentence: the registered words, called with the reader they take."""

_SPOKEN: dict[str, Spoken] = {}
SPOKEN: Mapping[str, Spoken] = _SPOKEN
"""The words of each sentence by its id (complete once :mod:`bot.words` is imported)."""


def register(id: str, spoken: Spoken) -> None:
    """Hold ``spoken`` as the words of the sentence ``id`` (one set of words an id)."""
    if id in _SPOKEN:
        raise ValueError(f"two sentences are named {id}")
    _SPOKEN[id] = spoken


@dataclass(frozen=True)
class Voice:
    """How an adapter speaks to the reader of one message: the reader's translator, how
    its surface writes a player and a channel, and the surface (for the sentences naming
    controls)."""

    t: Translator
    player: Callable[[User], str]
    channel: Callable[[Channel], str]
    surface: Surface

    @property
    def language(self) -> str:
        """The reader's language (the words on a picture follow it)."""
        return self.t.language

    def say(self, said: Said) -> str:
        """``said`` in this reader's words."""
        return _SPOKEN[said.id](self, said)

    def named(self, value: object) -> object:
        """``value`` with each bot's name in it (a :class:`BotName`, a str) in this reader's
        words: the one value a voice writes before the words see it, since a name is a
        str wherever it stands, the bot's or a person's."""
        if isinstance(value, BotName):
            return self.say(BOT_PLAYER(value.bot, value.level))
        if type(value) is tuple:  # plain sequences only (not an engine NamedTuple)
            return tuple(self.named(v) for v in value)
        if type(value) is list:
            return [self.named(v) for v in value]
        return value

    def written(self, value: object) -> object:
        """``value`` as text where it is a player, a channel or a sentence, for the values
        of a plain message of the catalogue (whose placeholders take any value)."""
        if isinstance(value, Said):
            return self.say(value)
        if isinstance(value, BotName):
            return self.named(value)
        if isinstance(value, User):
            return self.player(value)
        if isinstance(value, Channel):
            return self.channel(value)
        if type(value) is tuple:
            return tuple(self.written(v) for v in value)
        if type(value) is list:
            return [self.written(v) for v in value]
        return value
