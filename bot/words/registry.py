"""The words of every sentence, registered for the :class:`~bot.service.replies.Saying`
that names it.

A sentence's words are a function of the reader and the values the service says it with:
the reader comes first and is required, never a default, so that words cannot speak
English to a reader nobody named. The reader is what the words need: the reader's
``Translator`` (:func:`speaks`), or the whole :class:`~bot.words.voice.Voice`
(:func:`speaks_with_voice`) for the words that write a player, a channel or another
sentence among their values, or name a control (``voice.surface``). mypy checks both
sides: the values the service passes the ``Saying`` and that the words take exactly them
(``@speaks(SAYING)`` fixes the values first; ``tests/bot/words/test_ids.py`` checks that
every ``Saying`` has its words).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Concatenate, ParamSpec

from bot.service.replies import JOIN, MESSAGE, Said, Saying
from bot.words.voice import SPOKEN, Spoken, Voice, register
from shax_i18n import Translator

P = ParamSpec("P")

SENTENCES: Mapping[str, Spoken] = SPOKEN
"""Each sentence's words by its id (complete once :mod:`bot.words` is imported)."""


TranslatorWords = Callable[Concatenate[Translator, P], str]
"""Words of a sentence that take the reader's translator, then the sentence's values."""
VoiceWords = Callable[Concatenate[Voice, P], str]
"""Words of a sentence that take the reader's whole voice, then the sentence's values."""


def speaks(saying: Saying[P]) -> Callable[[TranslatorWords[P]], TranslatorWords[P]]:
    """``@speaks(SAYING)`` above the words of the sentence ``saying`` names registers them:
    they take the reader's translator, then exactly the values the service says it with
    (mypy holds them to the Saying's, which are fixed before the words are read). A bot's
    name among the values comes already in the reader's words
    (:meth:`~bot.words.voice.Voice.named`)."""

    def register_words(words: TranslatorWords[P]) -> TranslatorWords[P]:
        _named_for(saying, words)

        def spoken(voice: Voice, said: Said) -> str:
            args = [voice.named(a) for a in said.args]
            values = {k: voice.named(v) for k, v in said.values.items()}
            return words(voice.t, *args, **values)  # type: ignore[arg-type]

        register(saying.id, spoken)
        return words

    return register_words


def speaks_with_voice(saying: Saying[P]) -> Callable[[VoiceWords[P]], VoiceWords[P]]:
    """``@speaks_with_voice(SAYING)``: as :func:`speaks`, for words that take the whole
    voice: they write the players, channels and sentences among their values with it
    (``voice.player(user)``, ``voice.say(said)``), or name its ``voice.surface``'s
    controls."""

    def register_words(words: VoiceWords[P]) -> VoiceWords[P]:
        _named_for(saying, words)

        def spoken(voice: Voice, said: Said) -> str:
            args = [voice.named(a) for a in said.args]
            values = {k: voice.named(v) for k, v in said.values.items()}
            return words(voice, *args, **values)  # type: ignore[arg-type]

        register(saying.id, spoken)
        return words

    return register_words


def _named_for(saying: Saying[P], words: Callable[..., str]) -> None:
    if words.__name__ != saying.id:
        raise ValueError(f"{words.__name__} does not speak {saying.id}")


def _message(voice: Voice, said: Said) -> str:
    """A plain message of the catalogue, its placeholders' values written first."""
    [message] = said.args
    values = {k: voice.written(v) for k, v in said.values.items()}
    return voice.t.gettext(str(message), **values)


def _join(voice: Voice, said: Said) -> str:
    parts, separator = said.args
    assert isinstance(parts, tuple) and isinstance(separator, str)
    return separator.join(text for part in parts if (text := voice.say(part)))


register(MESSAGE, _message)
register(JOIN, _join)
