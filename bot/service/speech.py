"""Which language a reply speaks: the player's for what only they see, the server's for
what the channel sees.

The adapter (Discord, the console) knows both languages when it answers someone: it
says so with :func:`speaking` around the service call (and around turning the reply
into a message). The service then takes :func:`to_player` for ephemeral replies and
refusals, and :func:`in_public` for everything posted to the channel — the board, a
challenge, a notice — and hands that translator to the sentences of
:mod:`bot.service.texts`.

The player's language is, strongest first: their ``/shax language`` choice, the locale
their Discord app sends when it is one of ours, the server's language. The server's
language is its ``/shax settings language:`` choice, else the environment default
(``SHAX_LANGUAGE``): :meth:`bot.service.server_settings.ServerSettingsBook.language`.
Work the service does on its own for a server (the clock, showing unshown boards) speaks
that server's language through :func:`speaking` too.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from shax_i18n import DEFAULT_LANGUAGE, Translator, language_code, translator

_player: ContextVar[str | None] = ContextVar("shax_player_language", default=None)
_public: ContextVar[str | None] = ContextVar("shax_public_language", default=None)
_server_default = DEFAULT_LANGUAGE


def set_server_default(language: str) -> None:
    """The language of every server (the environment's ``SHAX_LANGUAGE``)."""
    global _server_default
    _server_default = language_code(language) or DEFAULT_LANGUAGE


def server_default() -> str:
    return _server_default


@contextmanager
def speaking(*, player: str | None = None, public: str | None = None) -> Iterator[None]:
    """Within this block (and the tasks it starts), replies to the player speak ``player``
    and public messages ``public`` (each, when ``None``, the server default)."""
    player_token = _player.set(language_code(player))
    public_token = _public.set(language_code(public))
    try:
        yield
    finally:
        _public.reset(public_token)
        _player.reset(player_token)


def adopt(*, player: str | None = None, public: str | None = None) -> None:
    """Speak these languages for the rest of the current task (one task answers one
    Discord interaction: the command tree adopts its languages before the command runs,
    so that even a refusal raised by the command itself is in the player's words)."""
    _player.set(language_code(player))
    _public.set(language_code(public))


def public_language() -> str:
    return _public.get() or _server_default


def player_language() -> str:
    return _player.get() or public_language()


def in_public() -> Translator:
    """The translator of what the channel sees."""
    return translator(public_language())


def to_player() -> Translator:
    """The translator of what only the player who acted sees."""
    return translator(player_language())


def for_reply(ephemeral: bool) -> Translator:
    """The translator of a reply: the player's when it is ephemeral, else the channel's."""
    return to_player() if ephemeral else in_public()
