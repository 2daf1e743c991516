"""Every sentence by its name: the ids a :class:`~bot.service.replies.Said` carries.

A sentence is a function of its values and, if it takes them, the keywords ``t`` (the
reader's translator) and ``surface`` (for the few that name a control) → words. It is
registered with :func:`sentence` where it is written; a test checks that every id the
service and the adapters say is registered here (``tests/bot/words/test_ids.py``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ParamSpec, TypeVar

from bot.service.replies import JOIN, MESSAGE, Saying
from shax_i18n import Translator

Sentence = Callable[..., str]
S = TypeVar("S", bound=Sentence)
P = ParamSpec("P")

_SENTENCES: dict[str, Sentence] = {}
SENTENCES: Mapping[str, Sentence] = _SENTENCES
"""Each sentence by its name (complete once :mod:`bot.words` is imported)."""


def sentence(function: S) -> S:
    """Register ``function`` as the sentence named by its name."""
    name = function.__name__
    if name in _SENTENCES:
        raise ValueError(f"two sentences are named {name}")
    _SENTENCES[name] = function
    return function


def speaks(saying: Saying[P], words: Callable[P, str]) -> None:
    """Register ``words`` as the sentence ``saying`` names; mypy checks that the words take
    the values the service passes it (and the reader's ``t`` and ``surface`` only as
    keywords with defaults)."""
    if words.__name__ != saying.id:
        raise ValueError(f"{words.__name__} does not speak {saying.id}")
    sentence(words)


def _message(message: str, *, t: Translator, **values: object) -> str:
    return t.gettext(message, **values)


def _join(parts: Sequence[str], separator: str) -> str:
    return separator.join(part for part in parts if part)


_SENTENCES[MESSAGE] = _message
_SENTENCES[JOIN] = _join
