"""Who reads what: the language of every message the adapters show.

The service says what to say (:class:`bot.service.replies.Said`); the adapter that shows
it names who will read it and speaks their language (docs/ARCHITECTURE.md, "Who reads
what"):

1. an answer to one person's own request (rules, streak, leaderboard, hint, review,
   help, settings, language, theme, every refusal and error) speaks *that person's*
   language, public or ephemeral: :func:`requester_language`;
2. a game's messages (the board line, challenges, results, turn warnings, forfeits:
   replies with :attr:`~bot.service.replies.Reply.players`) speak the players' language
   when both chose the same one, else the server's: :func:`players_language`; so do
   announcements to everyone (:attr:`~bot.service.replies.Reply.announcement`: a
   tournament's opening and rounds), which have no players: the server's;
3. the console speaks the language of whoever is at the keyboard, everywhere
   (:mod:`bot.console.session` asks :func:`requester_language` for them);
4. pictures follow the message they are attached to (they are drawn with its voice);
   logs stay English.

A person's language is their ``/shax language`` choice, else (on Discord, for their own
requests) the locale their app sends when it is one of ours, else the server's. The
choices a reply was composed with (:attr:`~bot.service.replies.Reply.chosen`) are
``known``: they are not asked for again.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from shax_i18n import pick_language

if TYPE_CHECKING:
    from bot.service.facade import ShaxService


NOTHING_KNOWN: Mapping[int, str | None] = {}


async def chosen_language(
    service: ShaxService, user_id: int, known: Mapping[int, str | None]
) -> str | None:
    """The language ``user_id`` chose, if any: from ``known``, else asked for."""
    return known[user_id] if user_id in known else await service.chosen_language(user_id)


async def requester_language(
    service: ShaxService,
    user_id: int,
    guild_id: int | None,
    locale: str | None = None,
    known: Mapping[int, str | None] = NOTHING_KNOWN,
) -> str:
    """Rule 1 (and 3): the language of the person who asked."""
    chosen = await chosen_language(service, user_id, known)
    return pick_language(chosen, locale, await service.server_language(guild_id))


async def players_language(
    service: ShaxService,
    players: Sequence[int],
    guild_id: int | None,
    known: Mapping[int, str | None] = NOTHING_KNOWN,
) -> str:
    """Rule 2: the language both players chose (the one person's, against the bot), else
    the server's."""
    people = [p for p in dict.fromkeys(players) if p != service.bot_user.id]
    chosen = {await chosen_language(service, p, known) for p in people}
    if len(chosen) == 1:
        (language,) = chosen
        if language is not None:
            return language
    return await service.server_language(guild_id)
