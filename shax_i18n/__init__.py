"""Everything a player reads, in English and Somali: one gettext message catalogue.

Used by the renderer and the bot, never by the engine (which speaks in values, not
words). See :mod:`shax_i18n.catalogue` for the API (and :mod:`shax_i18n.codes` for what
needs no words); ``docs/GLOSSARY.md`` for the words.
"""

from shax_i18n.catalogue import Translator, translator
from shax_i18n.codes import (
    DEFAULT_LANGUAGE,
    DISCORD_LOCALES,
    LANGUAGES,
    N_,
    language_code,
    pick_language,
)

__all__ = [
    "DEFAULT_LANGUAGE",
    "DISCORD_LOCALES",
    "LANGUAGES",
    "N_",
    "Translator",
    "language_code",
    "pick_language",
    "translator",
]
