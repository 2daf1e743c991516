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
import getpass
import hashlib
import shlex
import signal
import sys
from collections.abc import Awaitable, Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

from bot.config import Settings
from bot.console.markup import terminal_text, wants_ansi
from bot.console.reader import LineReader, last_word, make_reader
from bot.console.textboard import text_board
from bot.service import board_words, texts
from bot.service.facade import ShaxService
from bot.service.replies import (
    MENTION_RE,
    BoardControls,
    ChallengeControls,
    DestinationControls,
    Place,
    Reply,
    User,
    UserError,
)
from engine import VARIANT_IDS, Variant, get_variant, replay
from engine.ai import LEVELS

BOT_USER = User(1, "Shax bot", True)
MENU_SIZE = 25
"""At most this many legal actions are listed; more moves are listed by their stones."""
PICTURES = Path("shax-pictures")
"""Where pictures go unless ``--out`` says otherwise (relative to the working directory)."""
SHAX_COMMANDS = (
    "challenge",
    "accept",
    "decline",
    "cancel",
    "play-bot",
    "move",
    "board",
    "resign",
    "draw",
    "decline-draw",
    "rematch",
    "hint",
    "review",
    "streak",
    "leaderboard",
    "rules",
    "theme",
)
CONSOLE_COMMANDS = ("/shax", "/as", "/help", "/quit")
OPTIONS = {
    "challenge": ("opponent:", "variant:"),
    "play-bot": ("level:", "variant:", "first:"),
    "move": ("action:",),
    "streak": ("user:",),
    "rules": ("variant:",),
    "theme": ("theme:",),
}
"""The options each command takes (the others take none)."""


def help_text(variant: Variant) -> str:
    """The commands, with notation examples that exist on ``variant``'s board."""
    ex = board_words.examples(variant)
    notation = f"{ex.move} moves" + (f", {ex.remove} removes" if ex.remove else "")
    return f"""\
Commands (as in Discord):
  /shax challenge opponent:@name [variant:{"|".join(VARIANT_IDS)}]
  /shax accept · /shax decline · /shax cancel      (a challenge's buttons)
  /shax play-bot [level:{"|".join(LEVELS)}] [variant:…] [first:me|bot|random]
  /shax move action:{ex.place}      (or /shax move {ex.place}; {notation})
  /shax board · /shax resign · /shax draw · /shax decline-draw · /shax rematch
  /shax hint  (the best move, a few per game against the bot) · /shax review (the last game)
  /shax streak [user:@name] · /shax leaderboard · /shax rules [variant:…]
  /shax theme [theme:dark|light]      (the look of the pictures you ask for)
On {variant.title}: points {board_words.point_names(variant)}.
Console only:
  /as NAME    switch who is typing (the game hands over by itself)
  /help       this text        /quit (or Ctrl-D)    leave
Tab completes commands, options and the legal actions; the up arrow recalls a line."""


def local_user(name: str) -> User:
    """A console player: a stable id from the name, so the database remembers them."""
    digest = hashlib.sha256(name.lower().encode()).digest()
    return User(1_000_000 + int.from_bytes(digest[:6], "big"), name)


def system_name() -> str:
    """The name of the person at this computer (their login), or ``player``."""
    try:
        return getpass.getuser() or "player"
    except Exception:  # no login name: no USER variable and no password entry
        return "player"


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

    def __post_init__(self) -> None:
        self.users[self.user.name.lower()] = self.user
        self.users[BOT_USER.name.lower()] = BOT_USER

    def say(self, text: str) -> None:
        """A reply's text: mentions as @names, Discord's markdown as terminal text."""
        self.write(terminal_text(self.names(text), ansi=self.ansi))

    def person(self, text: str) -> User:
        name = text.strip().removeprefix("@")
        if not name:
            raise UserError("Name a player, like @amina.")
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
        self._said_thinking = False
        try:
            if head in ("/quit", "/exit"):
                return False
            if head == "/help" or (head == "/shax" and len(words) == 1):
                self.write(help_text(self.variant))
            elif head == "/as":
                if len(words) < 2:
                    raise UserError("Say who is typing now: /as NAME.")
                user = self.person(words[1])
                if user.is_bot:
                    raise UserError("The bot plays by itself; choose a person's name.")
                self.user = user
                self.write(f"Now typing: {self.user.name}")
            elif head == "/shax":
                await self.shax(words[1].lower(), words[2:])
            else:
                own = ", ".join(CONSOLE_COMMANDS)
                raise UserError(f"Commands start with /shax; the console's own are {own}.")
        except UserError as exc:
            self.say(f"✗ {exc}")
        await self.show_notices()
        await self.refresh()
        return True

    def thinking(self) -> None:
        """The service's callback: the bot starts to think (said once per command)."""
        if not self._said_thinking:
            self._said_thinking = True
            self.write(texts.thinking(BOT_USER.name))

    async def shax(self, command: str, args: list[str]) -> None:
        opts, rest = _options(args)
        s, me, here = self.service, self.user, self.place
        simple: dict[str, Callable[[User, Place], Awaitable[Reply]]] = {  # no options
            "accept": s.accept,
            "decline": s.decline,
            "cancel": s.cancel,
            "resign": s.resign,
            "draw": s.draw,
            "decline-draw": s.decline_draw,
        }

        def opt(name: str, default: str | None = None) -> str | None:
            if name in opts:
                return opts[name]
            return rest.pop(0) if rest else default

        stem = None
        if command == "challenge":
            opponent = opt("opponent")
            if opponent is None:
                raise UserError("Name your opponent: /shax challenge opponent:@name.")
            reply = await s.challenge(me, self.person(opponent), here, opt("variant", "shax") or "")
        elif command in simple:
            reply = await simple[command](me, here)
        elif command == "board":
            reply = await s.board(me, here, thinking=self.thinking)
        elif command == "play-bot":
            level = opt("level", "medium") or "medium"
            variant = opt("variant", "shax") or "shax"
            first = opt("first")
            reply = await s.play_bot(me, here, level, variant, first, thinking=self.thinking)
        elif command == "move":
            action = opt("action")
            if action is None:
                example = board_words.examples(self.variant).place
                raise UserError(f"Say which action: /shax move action:{example}.")
            reply = await s.play(me, here, action, thinking=self.thinking)
        elif command == "rematch":
            if self.last_game_id is None:
                raise UserError("There is no finished game to rematch yet.")
            reply = await s.rematch(me, here, self.last_game_id, thinking=self.thinking)
        elif command == "hint":
            reply = await s.hint(me, here, thinking=self.thinking)
            if self.last_game_id is not None:
                _, record = await s.record(self.last_game_id)
                stem = f"game{self.last_game_id}-ply{len(record)}"
        elif command == "review":
            self.write(texts.REVIEWING)
            reply = await s.review(me, here, self.last_game_id)
            stem = f"game{self.last_game_id}" if self.last_game_id else None
        elif command == "streak":
            who = opt("user")
            reply = await s.streak(here, self.person(who) if who else me)
        elif command == "leaderboard":
            reply = await s.leaderboard(here)
        elif command == "theme":
            reply = await s.theme(me, opt("theme"))
        elif command == "rules":
            variant = opt("variant", self.variant.id) or self.variant.id
            reply = await s.rules(variant)
            stem = f"rules-{variant.strip().lower()}"
        else:
            raise UserError(
                f"Unknown command /shax {command} — choose one of: {', '.join(SHAX_COMMANDS)}."
            )
        await self.show(reply, stem)
        await self.follow(reply)

    async def show(self, reply: Reply, stem: str | None = None) -> None:
        prefix = "(only you see this) " if reply.ephemeral else ""
        self.say(prefix + reply.text)
        record: tuple[str, ...] = ()
        if reply.game_id is not None:
            self.last_game_id = reply.game_id
            variant, record = await self.service.record(reply.game_id)
            self.variant = get_variant(variant)
            stem = f"game{reply.game_id}-ply{len(record)}-v{reply.version}"
        for attachment in reply.attachments:
            path = await self.save(stem or "picture", attachment.filename, attachment.data)
            if attachment.filename.endswith(".png") and reply.game_id is not None:
                self.write(text_board(replay(self.variant, record)))
            if attachment.filename.endswith(".gif"):
                kind = "Replay"
            else:
                kind = "Board image" if reply.game_id is not None else "Picture"
            self.write(f"{kind}: {path}")
        self.show_controls(reply)
        await self.service.shown(reply)  # seen here: the Discord bot need not show it

    def show_controls(self, reply: Reply) -> None:
        c = reply.controls
        if isinstance(c, BoardControls):
            if c.rematch:
                self.write("Game over — /shax rematch to play again.")
                return
            menu = c.menu(MENU_SIZE)
            labels = " ".join(choice.label for choice in menu.choices)
            if menu.two_step:
                self.write(f"Stones that can move: {labels} (/shax move a stone to see where)")
            else:
                self.write(f"Legal: {labels}")
            if c.draw_offered_by is not None:
                self.write("Draw offered: /shax draw to accept, /shax decline-draw to decline.")
        elif isinstance(c, DestinationControls):
            moves = " ".join(choice.value for choice in c.choices)
            self.write(f"Destinations: {moves} (play one with /shax move {c.choices[0].value})")

    async def follow(self, reply: Reply) -> None:
        """Hand the keyboard to whoever must act next: the challenged player, or the
        local player on turn (never to the bot)."""
        if isinstance(reply.controls, ChallengeControls) and reply.mentions:
            by_id = {u.id: u for u in self.users.values()}
            next_user = by_id.get(reply.mentions[0])
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

    def names(self, text: str) -> str:
        by_id = {u.id: u.name for u in self.users.values()}
        return MENTION_RE.sub(lambda m: "@" + by_id.get(int(m.group(1)), m.group(1)), text)

    async def show_notices(self) -> None:
        for notice in await self.service.tick():
            await self.show(notice.reply)
            await self.follow(notice.reply)

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
            candidates = [u.name for u in self.users.values() if not u.is_bot]
        elif before[0].lower() != "/shax":
            candidates = []
        elif len(before) == 1:
            candidates = list(SHAX_COMMANDS)
        else:
            candidates = self._option_words(before[1].lower(), word)
        return [c for c in candidates if c.lower().startswith(word.lower()) and c != word]

    def _option_words(self, command: str, word: str) -> list[str]:
        key, sep, _ = word.partition(":")
        values = {
            "variant": list(VARIANT_IDS),
            "level": list(LEVELS),
            "first": ["me", "bot", "random"],
            "theme": ["dark", "light"],
            "opponent": [f"@{u.name}" for u in self.users.values() if u.id != self.user.id],
            "user": [f"@{u.name}" for u in self.users.values()],
            "action": self.legal,
        }
        if sep:
            return [f"{key}:{value}" for value in values.get(key.lower(), [])]
        words = list(OPTIONS.get(command, ()))
        return words + self.legal if command == "move" else words


def _options(args: list[str]) -> tuple[dict[str, str], list[str]]:
    """``opponent:@amina variant:jar`` → options; other words stay positional."""
    opts: dict[str, str] = {}
    rest: list[str] = []
    for word in args:
        key, sep, value = word.partition(":")
        if sep and key.isidentifier() and value:
            opts[key.lower()] = value
        else:
            rest.append(word)
    return opts, rest


@contextmanager
def workers_ignore_ctrl_c() -> Iterator[None]:
    """Ctrl-C interrupts the console, not its worker processes.

    In a terminal Ctrl-C signals every process of the foreground group, worker
    processes too, and each would print a traceback. Worker processes started while
    SIGINT is ignored inherit that (their fork server keeps it for every later worker),
    so the console alone handles Ctrl-C and ends them itself.
    """
    try:
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    except ValueError:  # not the main thread: signals are not ours to change
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


async def console_main(
    settings: Settings,
    *,
    db: Path | None,
    out: Path | None,
    name: str | None,
    channel: int,
    stdin: TextIO,
    stdout: TextIO,
) -> int:
    def write(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    console: Console | None = None

    def completions(line: str) -> list[str]:
        return console.completions(line) if console is not None else []

    reader = make_reader(stdin, stdout, completions)
    out_dir = out or PICTURES
    out_dir.mkdir(parents=True, exist_ok=True)
    db_path = db or settings.db_path
    if name is None:
        name = await ask_name(reader)
        if name is None:
            return 0
    with workers_ignore_ctrl_c():
        service = await ShaxService.open(
            _with_db(settings, db_path), bot_user=BOT_USER, surface=texts.Surface.CONSOLE
        )
    console = Console(
        service, out_dir, Place(None, channel), local_user(name), write, ansi=wants_ansi(stdout)
    )
    write(f"Shax console — database {db_path}, pictures in {out_dir}/. /help for commands.")
    try:
        await console.refresh()
        while True:
            line = await reader.read(f"{console.user.name}> ")
            if line is None:
                break
            if not reader.interactive and line.strip():
                write(f"[{console.user.name}] {line.strip()}")
            if not await console.handle(line):
                break
    finally:
        await service.close()
    return 0


async def ask_name(reader: LineReader) -> str | None:
    """The local player's name: asked once in a terminal (Enter keeps the login name),
    the login name otherwise; ``None`` if input ends first."""
    default = system_name()
    if not reader.interactive:
        return default
    answer = await reader.read(f"Your name [{default}]: ")
    if answer is None:
        return None
    return answer.strip().removeprefix("@") or default


def _with_db(settings: Settings, db_path: Path) -> Settings:
    # The console keeps its own SQLite file, even when the bot uses PostgreSQL; the bot's
    # daily backups are the bot's.
    return replace(settings, db_path=db_path, database_url=None, backup_dir=None)


def run_console(
    settings: Settings,
    *,
    db: Path | None = None,
    out: Path | None = None,
    name: str | None = None,
    channel: int = 1,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
) -> int:
    """The console over standard input and output (``python -m bot local``). Ctrl-C and
    Ctrl-D end it with the cursor on a fresh line; Ctrl-C exits with status 130."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    try:
        status = asyncio.run(
            console_main(
                settings,
                db=db,
                out=out,
                name=name,
                channel=channel,
                stdin=stdin,
                stdout=stdout,
            )
        )
    except KeyboardInterrupt:
        status = 130
    if stdin.isatty():
        stdout.write("\n")  # the shell's prompt starts on a line of its own
        stdout.flush()
    return status
