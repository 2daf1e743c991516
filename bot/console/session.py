"""The local console: the same service in a terminal, with no Discord token.

Commands are typed exactly as in Discord (``/shax move action:b2``, or the shorthand
``/shax move b2``); ``@name`` names another local player. In a game between two local
players the keyboard follows the game: whoever must act next is the one typing (and a
challenge hands it to the challenged player); ``/as NAME`` switches by hand. After
every move the board is printed with box-drawing lines and its PNG is saved in the
pictures folder (``--out``, by default ``./shax-pictures``) under a name unique to the
game and ply. Lines come from a terminal (with editing, history and completion) or
from a pipe, one by one.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bot.commands import Asked, Command, command_named
from bot.console.handover import draw_answerer, elsewhere, elsewhere_line, is_bare_action
from bot.console.markup import terminal_text
from bot.console.places import News, news, opened_line, place_of
from bot.console.reader import last_word
from bot.console.textboard import text_board
from bot.console.typed import (
    CONSOLE_COMMANDS,
    Offers,
    command_names,
    find_command,
    group_names,
    help_for,
    help_text,
    option_words,
    read_options,
    sample,
    unquoted,
    written,
)
from bot.readers import requester_language
from bot.service.compose import THINKING
from bot.service.facade import ShaxService
from bot.service.replies import (
    Attachment,
    BoardControls,
    ChallengeControls,
    DestinationControls,
    NoGameHere,
    Notice,
    Place,
    PuzzleControls,
    Reply,
    Said,
    User,
    UserError,
    drawn,
)
from bot.tournaments.notices import PairingToOpen
from bot.words.strength import strength_words
from bot.words.terms import Surface
from bot.words.voice import Voice
from bot.workers.tables import master_strength
from engine import Variant, get_variant, replay
from shax_i18n import N_, Translator, translator

BOT_USER = User(1, "Shax bot", True)
MENU_SIZE = 25
"""At most this many legal actions are listed; more moves are listed by their stones."""
PICTURES = Path("shax-pictures")
"""Where pictures go unless ``--out`` says otherwise (relative to the working directory)."""


def voice(t: Translator) -> Voice:
    """How the console speaks to a reader of ``t``'s language: a player as ``@name`` (the
    bot by its name), a channel as ``#id``, and typed commands for controls."""
    return Voice(
        t,
        lambda user: user.name if user.is_bot else f"@{user.name}",
        lambda channel: f"#{channel.id}",
        Surface.CONSOLE,
    )


def local_user(name: str) -> User:
    """A console player: a stable id from the name, so the database remembers them."""
    digest = hashlib.sha256(name.lower().encode()).digest()
    return User(1_000_000 + int.from_bytes(digest[:6], "big"), name)


@dataclass
class Console:
    """Turns typed lines into service calls and replies into terminal output."""

    service: ShaxService
    out_dir: Path
    place: Place
    user: User
    write: Callable[[str], None]
    ansi: bool = False
    users: dict[str, User] = field(default_factory=dict)
    last_game_id: int | None = None
    variant: Variant = field(default_factory=lambda: get_variant("shax"))
    """The variant in play here (or last played): its examples are the ones shown."""
    legal: list[str] = field(default_factory=list)
    """The typing player's legal actions, for completion."""
    _said_thinking: bool = False
    speaking: Voice = field(default_factory=lambda: voice(translator(None)))
    """The voice of the line being answered: the language of whoever typed it (rule 3 of
    bot/readers.py: everything the console says is read at the keyboard)."""
    turn: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held by a command, and by the clock's tick between commands (bot/console/clock.py)."""

    def __post_init__(self) -> None:
        self.home = self.place  # the console's own channel (a tournament game's is under it)
        self.users[self.user.name.lower()] = self.user
        self.users[BOT_USER.name.lower()] = BOT_USER

    async def reader(self) -> Translator:
        """The language of whoever is at the keyboard: their ``/shax language`` choice,
        else the console's (``SHAX_LANGUAGE``, ``--lang``)."""
        return translator(await requester_language(self.service, self.user.id, self.place.guild_id))

    async def listen(self) -> Voice:
        """Speak to whoever is typing now (after the keyboard changed hands, or they
        chose another language)."""
        self.speaking = voice(await self.reader())
        return self.speaking

    def say(self, said: Said | str) -> None:
        """Words for the terminal: Discord's markdown as terminal text."""
        text = said if isinstance(said, str) else self.speaking.say(said)
        self.write(terminal_text(text, ansi=self.ansi))

    def person(self, text: str) -> User:
        name = text.strip().removeprefix("@")
        if not name:
            raise UserError(Said.message(N_("Name a player, like @amina.")))
        key = name.lower()
        if key in ("bot", "shax", "shaxbot", BOT_USER.name.lower()):
            return BOT_USER
        if key not in self.users:
            self.users[key] = local_user(name)
        return self.users[key]

    async def handle(self, line: str) -> bool:
        """Run one line; ``False`` after ``/quit``."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        try:
            words = shlex.split(line)
        except ValueError:
            words = line.split()
        head = words[0].lower()
        if head in ("/quit", "/exit"):
            return False
        async with self.turn:
            self._said_thinking = False
            await self.listen()
            await self._handle(head, words)
        return True

    async def _handle(self, head: str, words: list[str]) -> None:
        t = self.speaking.t
        try:
            if head == "/help" and len(words) > 1:
                self.write(help_for(words[1:], self.variant, t))
            elif head == "/help" or (head == "/shax" and len(words) == 1):
                self.write(help_text(self.variant, t))
                self.write(strength_words(*master_strength(), t=t))
            elif head == "/as":
                if len(words) < 2:
                    raise UserError(Said.message(N_("Say who is typing now: /as NAME.")))
                user = self.person(words[1])
                if user.is_bot:
                    raise UserError(
                        Said.message(N_("The bot plays by itself; choose a person's name."))
                    )
                self.user = user
                t = (await self.listen()).t
                self.write(t.gettext("Now typing: {name}", name=self.user.name))
                await self.go_to(await place_of(self.service, user, self.home))
            elif is_bare_action(words):
                await self.shax("move", words)
            elif head == "/shax":
                await self.shax(words[1].lower(), words[2:])
            elif head[1:] in group_names():  # ``/tournament create``
                await self.shax(head[1:], words[1:])
            else:
                raise UserError(
                    Said.message(
                        N_("Commands start with /shax; the console's own are {commands}."),
                        commands=", ".join(CONSOLE_COMMANDS),
                    )
                )
        except UserError as exc:
            self.say("✗ " + self.speaking.say(exc.message))
        await self.show_notices()
        await self.refresh()

    def thinking(self) -> None:
        """The service's callback: the bot starts to think (said once per command)."""
        if not self._said_thinking:
            self._said_thinking = True
            self.say(THINKING(BOT_USER.name))

    def waiting(self, notice: str) -> Callable[[], None]:
        """The callback of a slow command (a review): once the service has accepted it and
        starts its work, ``notice`` (a catalogue message) says it is under way."""
        return lambda: self.write(self.speaking.t.gettext(notice))

    async def shax(self, name: str, args: list[str]) -> None:
        """Run ``/shax <name>`` with the options typed, as the command table declares it
        (Manage Server is always allowed at the local console)."""
        command, args = find_command(name, args)
        options = read_options(
            command,
            args,
            person=self.person,
            here=self.place.channel_id,
            example=lambda option: sample(option, self.variant),
        )
        asked = Asked(
            self.service,
            self.user,
            self.place,
            options,
            thinking=self.thinking if command.waiting is None else self.waiting(command.waiting),
            may_change_settings=True,
            operator=True,
            game_id=self.last_game_id,
            variant=self.variant.id,
        )
        reply = await command.run(asked)
        await self.listen()  # a language chosen now speaks from this answer on
        await self.show(reply, await self.picture_stem(command, asked))
        await self.follow(reply)

    async def picture_stem(self, command: Command, asked: Asked) -> str | None:
        """The start of the names of the pictures a reply without a game of its own
        brings: a hint's the game and ply, a review's the game, the rules' the board."""
        game = self.last_game_id
        if command.name == "hint" and game is not None:
            _, record = await self.service.record(game)
            return f"game{game}-ply{len(record)}"
        if command.name == "review" and game is not None:
            return f"game{game}"
        if command.name == "rules":
            return f"rules-{(asked.text('variant') or self.variant.id).strip().lower()}"
        return None

    async def show(self, reply: Reply, stem: str | None = None) -> None:
        t = self.speaking.t
        reply = await drawn(reply, self.speaking)
        text = self.speaking.say(reply.text)
        self.say(t.gettext("(only you see this) {text}", text=text) if reply.ephemeral else text)
        record: tuple[str, ...] = ()
        board = self.variant
        shows_board = reply.game_id is not None or isinstance(reply.controls, PuzzleControls)
        if reply.game_id is not None:
            self.last_game_id = reply.game_id
            variant, record = await self.service.record(reply.game_id)
            self.variant = board = get_variant(variant)
            stem = f"game{reply.game_id}-ply{len(record)}-v{reply.version}"
        elif isinstance(reply.controls, PuzzleControls):
            c = reply.controls
            board, record = get_variant(c.variant), c.record
            stem = f"puzzle{c.attempt_id}-v{c.version}"
        for attachment in reply.attachments:
            assert isinstance(attachment, Attachment)  # drawn above
            path = await self.save(stem or "picture", attachment.filename, attachment.data)
            if attachment.filename.endswith(".png") and shows_board:
                self.write(text_board(replay(board, record)))
            if attachment.filename.endswith(".gif"):
                self.write(t.gettext("Replay: {path}", path=path))
            elif reply.game_id is not None:
                self.write(t.gettext("Board image: {path}", path=path))
            else:
                self.write(t.gettext("Picture: {path}", path=path))
        self.show_controls(reply)
        await self.service.shown(reply)  # seen here: the Discord bot need not show it

    def show_controls(self, reply: Reply) -> None:
        c = reply.controls
        t = self.speaking.t
        if isinstance(c, BoardControls):
            if c.rematch:
                self.write(t.gettext("Game over — /shax rematch to play again."))
                return
            menu = c.menu(MENU_SIZE)
            labels = " ".join(choice.label for choice in menu.choices)
            if menu.two_step:
                self.write(
                    t.gettext(
                        "Stones that can move: {stones} (/shax move a stone to see where)",
                        stones=labels,
                    )
                )
            else:
                self.write(t.gettext("Legal: {actions}", actions=labels))
            if c.draw_offered_by is not None:
                self.write(
                    t.gettext("Draw offered: /shax draw to accept, /shax decline-draw to decline.")
                )
        elif isinstance(c, PuzzleControls):
            if c.over and c.theme is not None:
                self.write(
                    t.gettext(
                        "/shax puzzle variant:{variant} theme:{theme} gives you the next "
                        "puzzle of this theme.",
                        variant=c.variant,
                        theme=c.theme,
                    )
                )
                return
            if c.over:
                self.write(t.gettext("/shax puzzle gives you the next puzzle."))
                return
            actions = " ".join(choice.value for choice in c.choices)
            self.write(t.gettext("Legal: {actions}", actions=actions))
        elif isinstance(c, DestinationControls):
            moves = " ".join(choice.value for choice in c.choices)
            self.write(
                t.gettext(
                    "Destinations: {moves} (play one with /shax move {example})",
                    moves=moves,
                    example=c.choices[0].value,
                )
            )

    async def follow(self, reply: Reply) -> None:
        """Hand the keyboard to whoever must act next: the challenged player, or the
        local player on turn (never to the bot)."""
        by_id = {u.id: u for u in self.users.values()}
        answerer = draw_answerer(reply, self.user.id)
        if isinstance(reply.controls, ChallengeControls) and reply.mentions:
            next_user = by_id.get(reply.mentions[0])
        elif answerer is not None:  # a draw offer: whoever must answer it
            next_user = by_id.get(answerer)
        elif reply.live_board and reply.game_id is not None:
            next_user = await self.service.on_turn(reply.game_id)
        else:
            return
        if next_user is None or next_user.is_bot or next_user.id == self.user.id:
            return
        self.user = self.users.setdefault(next_user.name.lower(), next_user)

    async def save(self, stem: str, filename: str, data: bytes) -> Path:
        """Save a picture in the pictures folder (a game's under a name unique to the
        game and ply; the rules' under the variant's name)."""
        path = self.out_dir / f"{stem}-{filename}"
        await asyncio.to_thread(path.write_bytes, data)
        return path

    async def show_notices(self) -> None:
        """Run the clock and show what it says."""
        await self.show_each(await news(self.service))

    async def show_each(self, notices: News) -> None:
        for notice in notices:
            if isinstance(notice, PairingToOpen):
                self.say(await opened_line(self.service, notice))
                continue
            if elsewhere(notice, self.place):
                await self.announce(notice)
                continue
            await self.show(notice.reply)
            await self.follow(notice.reply)

    async def announce(self, notice: Notice) -> None:
        """A notice about a game in another channel (a bot move that was pending when
        the console last stopped, say): one line naming the channel; the keyboard stays
        with whoever is typing here."""
        text = self.speaking.say(notice.reply.text)
        self.say(elsewhere_line(notice.channel_id, text, self.speaking.t))
        await self.service.shown(notice.reply)

    async def go_to(self, place: Place) -> None:
        """Sit at ``place`` (a tournament game's channel, or the console's own), showing its
        game's board to whoever types now."""
        if place == self.place:
            return
        self.place = place
        with contextlib.suppress(NoGameHere):
            await self.show(await self.service.board(self.user, place))

    async def resume(self) -> None:
        """At the start: the game in progress in this channel, if there is one, with the
        bot's move made if it was its turn (the console stopped while it thought), and the
        keyboard with whoever must act; then the clock's news (bot moves pending in other
        channels' games, expired challenges)."""
        await self.listen()
        try:
            reply = await self.service.board(self.user, self.place, thinking=self.thinking)
        except NoGameHere:
            pass
        else:
            await self.show(reply)
            await self.follow(reply)
            await self.listen()
        await self.show_notices()
        await self.refresh()

    async def refresh(self) -> None:
        """Learn the typing player's legal actions, for completion."""
        self.legal = [c.value for c in await self.service.legal_choices(self.user, self.place)]

    def completions(self, line: str) -> list[str]:
        """What may complete the last word of ``line``: a command, an option, an option's
        value, a player's name, or a legal action."""
        word = last_word(line)
        before = line[: len(line) - len(word)].split()
        if not before:
            candidates: list[str] = list(CONSOLE_COMMANDS)
        elif before[0].lower() == "/as":
            candidates = [written(u.name) for u in self.users.values() if not u.is_bot]
        elif before[0].lower() not in ("/shax", "/help"):
            candidates = []
        elif len(before) == 1:
            candidates = command_names()
        elif before[1].lower() in group_names() and len(before) == 2:
            candidates = command_names(before[1].lower())
        else:
            named = " ".join(before[1:3]) if before[1].lower() in group_names() else before[1]
            command = command_named(named) if before[0].lower() == "/shax" else None
            candidates = [] if command is None else self._option_words(command, word)
        typed = unquoted(word).lower()
        return [c for c in candidates if unquoted(c).lower().startswith(typed) and c != word]

    def _option_words(self, command: Command, word: str) -> list[str]:
        def players(opponents: bool) -> list[str]:
            return [
                written(f"@{u.name}")
                for u in self.users.values()
                if not (opponents and (u.id == self.user.id or u.is_bot))
            ]

        return option_words(command, word, Offers(players, self.legal, self.place.channel_id))
