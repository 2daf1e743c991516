"""What needs no words: our languages by code, how a code is read, and the marker of a
message's id.

Code that says *what* to say but never *how* (the game service) may import this module
and nothing else of the catalogue: it translates nothing and holds no language's words
(a language's name in itself is the same in every language).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

LANGUAGES: Final[Mapping[str, str]] = {"en": "English", "so": "Soomaali"}
"""Our languages: code → its name in itself (for a language choice)."""
DEFAULT_LANGUAGE: Final = "en"

DISCORD_LOCALES: Final[Mapping[str, str]] = {"en-US": "en", "en-GB": "en"}
"""Discord's locales that are one of ours. Discord has no Somali locale: Somali players
choose it with ``/shax language``."""


def N_(message: str) -> str:
    """Mark a message for the catalogue where it is defined; translate it where it is used
    (``t.gettext(MESSAGE, ...)``)."""
    return message


def language_code(code: str | None) -> str | None:
    """Our language for a code such as ``"so"``, ``"SO"``, ``"so_SO"``, ``"en-GB"`` or a
    Discord locale; ``None`` when it is not one of :data:`LANGUAGES`."""
    if not code:
        return None
    text = str(code).strip()
    if text in DISCORD_LOCALES:
        return DISCORD_LOCALES[text]
    base = text.replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


def pick_language(*preferences: str | None) -> str:
    """The first preference that is one of our languages, else :data:`DEFAULT_LANGUAGE`.

    Pass them strongest first, e.g. ``pick_language(player_choice, str(interaction.locale),
    server_default, environment_default)``.
    """
    for preference in preferences:
        found = language_code(preference)
        if found is not None:
            return found
    return DEFAULT_LANGUAGE
