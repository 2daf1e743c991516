"""The message catalogue: gettext translations with named placeholders.

English is the source language: the message ids are the English sentences, so English
needs no catalogue. Every other language has ``locales/<lang>/LC_MESSAGES/messages.po``,
read with Babel and compiled in memory the first time a translator for it is asked
for (once per process), so a checkout or a plain ``pip install -e .`` works without a
build step and no compiled ``.mo`` can fall out of step with its ``.po``.

A message is one whole sentence with named placeholders, filled in after translation::

    t = translator("so")
    t.gettext("{player} placed a stone on {point}", player="Amina", point="d7")
    t.ngettext("{n} stone in hand", "{n} stones in hand", n)      # {n} is the count
    t.pgettext("button", "Resign")
    t.npgettext("series", "{n} stone", "{n} stones", n)

A translation that does not fit its placeholders (which the catalogue tests forbid)
falls back to the English sentence rather than failing in front of a player.

Keeping the catalogue up to date (``babel.cfg`` says where the messages are)::

    pybabel extract -F babel.cfg --sort-by-file -w 100 --add-comments=Translators: \\
        -o shax_i18n/locales/messages.pot .
    pybabel update -i shax_i18n/locales/messages.pot -d shax_i18n/locales -w 100
    # translate the new or fuzzy entries of locales/so/LC_MESSAGES/messages.po

``pybabel compile`` is not needed: the ``.po`` files are read as they are.
"""

from __future__ import annotations

import gettext as _gettext
import io
import logging
import threading
from collections.abc import Mapping
from importlib import resources
from importlib.resources.abc import Traversable
from typing import Final

from shax_i18n.codes import DEFAULT_LANGUAGE, language_code

log = logging.getLogger(__name__)

SOURCE_LANGUAGE: Final = "en"
"""The language of the message ids."""
DOMAIN: Final = "messages"


class Translator:
    """The messages of one language. Thread-safe; get one with :func:`translator`."""

    def __init__(self, language: str, translations: _gettext.NullTranslations) -> None:
        self.language = language
        self._translations = translations

    def __repr__(self) -> str:
        return f"<Translator {self.language}>"

    def gettext(self, message: str, /, **params: object) -> str:
        """``message`` in this language, its ``{placeholders}`` filled from ``params``."""
        return _fill(self._translations.gettext(message), message, params)

    def ngettext(self, singular: str, plural: str, n: int, /, **params: object) -> str:
        """The form for the count ``n`` (also the placeholder ``{n}``)."""
        params.setdefault("n", n)
        english = singular if n == 1 else plural
        return _fill(self._translations.ngettext(singular, plural, n), english, params)

    def pgettext(self, context: str, message: str, /, **params: object) -> str:
        """``message`` in ``context`` (a short word such as ``"button"``): the same English
        can need different translations."""
        return _fill(self._translations.pgettext(context, message), message, params)

    def npgettext(
        self, context: str, singular: str, plural: str, n: int, /, **params: object
    ) -> str:
        params.setdefault("n", n)
        english = singular if n == 1 else plural
        return _fill(self._translations.npgettext(context, singular, plural, n), english, params)

    _ = gettext


def _fill(text: str, english: str, params: Mapping[str, object]) -> str:
    try:
        return text.format_map(params)
    except (KeyError, IndexError, ValueError):
        if text == english:
            raise  # the caller's own mistake: a placeholder it did not pass
        log.error("Translation of %r does not fit its placeholders; using English", english)
        return english.format_map(params)


def catalogue_path(language: str) -> Traversable:
    """The ``.po`` file of a language (English has none: it is the source)."""
    return resources.files(__package__) / "locales" / language / "LC_MESSAGES" / f"{DOMAIN}.po"


def template_path() -> Traversable:
    """The ``.pot`` template: every message id and where it is used."""
    return resources.files(__package__) / "locales" / f"{DOMAIN}.pot"


def compile_catalogue(language: str) -> _gettext.GNUTranslations:
    """A language's ``.po`` read with Babel and compiled to gettext translations (fuzzy
    entries are left out, as ``pybabel compile`` does)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with catalogue_path(language).open("rb") as po:
        catalog = read_po(po, locale=language, domain=DOMAIN)
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return _gettext.GNUTranslations(buffer)


_cache: dict[str, Translator] = {}
_lock = threading.Lock()


def translator(language: str | None) -> Translator:
    """The translator for ``language`` (any code :func:`language_code` reads); English for
    ``None`` or a language we do not have."""
    code = language_code(language) or DEFAULT_LANGUAGE
    found = _cache.get(code)
    if found is not None:
        return found
    with _lock:
        found = _cache.get(code)
        if found is None:
            translations = (
                _gettext.NullTranslations() if code == SOURCE_LANGUAGE else compile_catalogue(code)
            )
            found = _cache[code] = Translator(code, translations)
    return found
