"""Where a :class:`~bot.service.replies.Said` becomes words: a :class:`Voice`.

An adapter names the reader of every message it shows and speaks to them with a voice:
their translator, how its surface writes a player and a channel, and the surface itself
(for the sentences that name a control). ``voice.say(said)`` looks the id up among the
sentences (:data:`~bot.words.registry.SENTENCES`) and writes each value in the same voice
before the sentence is.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

from bot.service.replies import BotName, Channel, Said, User
from bot.words.registry import SENTENCES, Sentence
from bot.words.terms import Surface
from shax_i18n import Translator


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
        sentence = SENTENCES[said.id]
        args = [self._written(a) for a in said.args]
        values = {k: self._written(v) for k, v in said.values.items()}
        takes = _takes(sentence)
        if "surface" in takes:
            values["surface"] = self.surface
        if "t" in takes:
            values["t"] = self.t
        return sentence(*args, **values)

    def _written(self, value: object) -> object:
        if isinstance(value, Said):
            return self.say(value)
        if isinstance(value, BotName):
            return self.say(Said("bot_player", value.bot, value.level))
        if isinstance(value, User):
            return self.player(value)
        if isinstance(value, Channel):
            return self.channel(value)
        if type(value) is tuple:  # plain sequences only (not an engine NamedTuple)
            return tuple(self._written(v) for v in value)
        if type(value) is list:
            return [self._written(v) for v in value]
        return value


@cache
def _takes(sentence: Sentence) -> frozenset[str]:
    """Which of the voice's values (``t``, ``surface``) a sentence takes."""
    return frozenset(inspect.signature(sentence).parameters) & {"t", "surface"}
