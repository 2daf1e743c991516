"""The service's composition root: :class:`ShaxService`, the parts built once
(:mod:`bot.service.parts`), and the few calls that are more than one part's.

A command or a click calls the part that does the work, directly
(``service.turns.play(...)``, ``service.challenges.accept(...)``):

* :mod:`bot.service.kernel` — loading, checking, committing and finishing games;
* :mod:`bot.service.challenges` — challenges, games against the bot, rematches;
* :mod:`bot.service.turns` — moves, the two-step move, the board, resigning, draws;
* :mod:`bot.service.bot_turns` — the bot's own turns (its AI off the event loop);
* :mod:`bot.service.clock` — challenge expiry and turn timeouts;
* :mod:`bot.service.statistics` — streaks and the leaderboard;
* :mod:`bot.service.rating_replies` — ratings as players see them;
* :mod:`bot.service.teacher` — hints in games against the bot, reviews of finished games;
* :mod:`bot.service.shown` — which boards the players have seen, and showing the others;
* :mod:`bot.service.puzzle_replies` — puzzles (:mod:`bot.service.puzzles`) and the puzzle
  of the day (:mod:`bot.service.daily`);
* :mod:`bot.service.compose` — the replies, as data (their words are said at the edge,
  by the adapters, with :mod:`bot.words`).

What stays here chooses between parts (a typed move: the game here or the player's
puzzle), tells two parts at once (a board shown), or is the settings' own.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from bot.service import messages
from bot.service.compose import (
    LANGUAGE_PREF,
    THEME_PREF,
    THEMES,
)
from bot.service.kernel import parse_variant, side
from bot.service.parts import ServiceParts
from bot.service.replies import (
    BadOption,
    Choice,
    Notice,
    Place,
    Reply,
    Said,
    Saying,
    Thinking,
    User,
    UserError,
    not_thinking,
)
from bot.service.server_settings import (
    SettingsChange,
    settings_said,
)
from shax_i18n.codes import LANGUAGES, language_code

log = logging.getLogger(__name__)

COMMANDS_DIGEST = "commands_digest"

THEME_CURRENT: Saying[[str, Sequence[str]]] = Saying("theme_current")
"""A player's board theme, and the themes to choose from."""
UNKNOWN_THEME: Saying[[str, Sequence[str]]] = Saying("unknown_theme")
THEME_CHOSEN: Saying[[str]] = Saying("theme_chosen")
LANGUAGE_SET: Saying[[]] = Saying("language_set")
"""A language chosen (the answer is read in it)."""
LANGUAGE_RESET: Saying[[]] = Saying("language_reset")
UNKNOWN_LANGUAGE: Saying[[str]] = Saying("unknown_language")


class ShaxService(ServiceParts):
    """The service: its parts (each command's and click's, called directly), and the
    calls that take more than one part.

    Every part answers with :class:`Reply` values; refusals raise
    :class:`bot.service.replies.UserError` subclasses whose text is the ephemeral answer.
    Calls that act in a game accept ``game_id``/``version`` from a clicked component (a
    superseded version raises ``StaleBoard``); slash commands leave them ``None`` and the
    game is the one in ``place``'s channel. Calls that may make the bot think take a
    ``thinking`` callback, called when it starts.

    Every accepted action is committed before its reply is built. A per-game lock
    and the stored version (``UPDATE … WHERE version = ?``) make a stale or
    concurrent action apply at most once.
    """

    # -- games -------------------------------------------------------------------------------

    async def play(
        self,
        user: User,
        place: Place,
        action: str,
        game_id: int | None = None,
        version: int | None = None,
        *,
        thinking: Thinking = not_thinking,
    ) -> Reply:
        """Play one action in notation (``d7``, ``a7-d7``, ``xg1``); in a bot game the
        bot's reply actions follow in the same reply. Returns the live board.

        In the movement phase a bare point naming one of the player's movable stones
        (``a7``) is the first step of a two-step move: the answer is an ephemeral
        ``DestinationControls``: where that stone can go.

        Typed (no ``game_id``) by a player who is not playing the game in this channel, it
        answers their open puzzle, if they have one (:meth:`PuzzleDesk.meant`).
        """
        if game_id is None and await self.puzzles.meant(user, place) is not None:
            return await self.puzzles.answer(user, place, action)
        return await self.turns.play(user, place, action, game_id, version, thinking=thinking)

    async def legal_choices(self, user: User, place: Place, typed: str = "") -> list[Choice]:
        """Autocomplete for ``/shax move action:``: the legal actions starting with ``typed``,
        of the game or the puzzle the move would go to."""
        found = await self.puzzles.meant(user, place)
        if found is not None:
            return await self.puzzles.choices(found, typed)
        return await self.turns.legal_choices(user, place, typed)

    async def board(self, user: User, place: Place, *, thinking: Thinking = not_thinking) -> Reply:
        """The game in this channel as a fresh live board (anyone may look)."""
        return await self.turns.board(place, thinking=thinking, viewer=user.id)

    async def on_turn(self, game_id: int) -> User | None:
        """Who must act now in a game being played (``None`` once it is over): in a hot
        seat game the console hands the keyboard to them."""
        row = await self.kernel.game(game_id)
        position = self.kernel.position(row)
        if not row.active or position.to_move is None:
            return None
        s = side(row, position.to_move)
        return User(s.user_id, s.name, s.is_bot)

    async def record(self, game_id: int) -> tuple[str, tuple[str, ...]]:
        """A game's variant id and record (its actions in notation)."""
        row = await self.kernel.game(game_id)
        return row.variant, row.record

    async def posted(self, reply: Reply, message_id: int) -> None:
        """Remember the message that now shows ``reply`` (see :meth:`ShownBoards.posted`;
        a puzzle of the day's, :meth:`PuzzleReplies.posted`)."""
        await self.boards.posted(reply, message_id)
        await self.puzzles.posted(reply, message_id)

    async def shown(self, reply: Reply) -> None:
        """Record that ``reply``'s board needs no showing any more (a surface without
        messages showed it, or its channel is gone or closed to the bot)."""
        await self.boards.shown(reply)
        await self.puzzles.shown(reply)

    # -- settings ------------------------------------------------------------------------

    async def settings(
        self, place: Place, change: SettingsChange, *, may_change: bool, operator: bool = False
    ) -> Reply:
        """``/shax settings``: the server's settings; with options, change them first
        (only ``may_change`` members — Manage Server — can; a bad value changes nothing).
        Outside a server only the ``operator`` at the bot's own console may: theirs are the
        settings of every game outside a server (direct messages, the console)."""
        if place.guild_id is None and not operator:
            raise UserError(Said.message(messages.ONLY_ON_A_SERVER))
        if change.empty:
            settings = await self.servers.of(place.guild_id)
            return Reply(text=settings_said(place, settings, changed_now=False), ephemeral=True)
        if not may_change:
            raise UserError(Said.message(messages.ONLY_MANAGERS))
        settings = await self.servers.change(place.guild_id, change)
        return Reply(text=settings_said(place, settings, changed_now=True), ephemeral=True)

    async def synced_commands(self) -> str | None:
        """The hash of the command definitions last registered with Discord, if any."""
        return await self.storage.settings.get_meta(COMMANDS_DIGEST)

    async def commands_synced(self, digest: str) -> None:
        """Remember that the commands with this hash are registered."""
        await self.storage.settings.set_meta(COMMANDS_DIGEST, digest)

    # -- the clock, themes and rules ---------------------------------------------------

    async def tick(self) -> list[Notice]:
        """Call every ~30 s: challenge expiry, turn timeouts, the bot's waiting moves, the
        puzzles of the day, and the daily backup when one is due."""
        notices = await self.clock.tick()
        notices += await self.puzzles.tick()
        if self.backups is not None:
            await self.backups.tick()
        return notices

    async def theme(
        self, user: User, theme: str | None = None, place: Place | None = None
    ) -> Reply:
        """Choose the theme (``dark`` or ``light``) of the boards ``user`` asks for or
        clicks; without one, say which it is (theirs, else the one ``place``'s server
        chose). Remembered per player."""
        if theme is None or not theme.strip():
            guild = None if place is None else place.guild_id
            current = await self.composer.themes.of(user.id, guild)
            return Reply(text=THEME_CURRENT(current, THEMES), ephemeral=True)
        name = theme.strip().lower()
        if name not in THEMES:
            raise BadOption(UNKNOWN_THEME(theme, THEMES))
        await self.storage.settings.set_player_pref(user.id, THEME_PREF, name)
        return Reply(text=THEME_CHOSEN(name), ephemeral=True)

    async def rules(self, variant: str = "shax") -> Reply:
        """The rules in short, with a picture of the empty board and its point names."""
        return await self.composer.rules(parse_variant(variant))

    # -- languages -----------------------------------------------------------------------

    async def chosen_language(self, user_id: int) -> str | None:
        """The language ``user_id`` chose with ``/shax language``, if any."""
        chosen = (await self.storage.settings.player_prefs(user_id)).get(LANGUAGE_PREF)
        return language_code(chosen)

    async def server_language(self, guild_id: int | None) -> str:
        """A server's language: its ``/shax settings language:``, else the bot's."""
        return await self.servers.language(guild_id)

    async def set_language(self, user: User, language: str | None) -> Reply:
        """``/shax language``: remember the player's language (``None`` forgets the choice,
        so their Discord app's or the server's applies again). The answer, ephemeral, is
        read in the language now in force."""
        if language is None:
            await self.storage.settings.set_player_pref(user.id, LANGUAGE_PREF, None)
            return Reply(text=LANGUAGE_RESET(), ephemeral=True)
        code = language_code(language)
        if code is None or code not in LANGUAGES:
            raise BadOption(UNKNOWN_LANGUAGE(language))
        await self.storage.settings.set_player_pref(user.id, LANGUAGE_PREF, code)
        return Reply(text=LANGUAGE_SET(), ephemeral=True)
