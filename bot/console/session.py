"""The local console: the same service in a terminal, with no Discord token.

Commands are typed exactly as in Discord (``/shax move action:d7``, or the
shorthand ``/shax move d7``); ``@name`` names another local player and ``/as
NAME`` switches who is typing (hot seat). After every move the board is printed
with box-drawing lines and the PNG is saved to a file whose path is printed.
Reads standard input line by line, so it works with a pipe as well as a terminal.
"""

from __future__ import annotations

import asyncio
import hashlib
import shlex
import sys
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TextIO

from bot.config import Settings
from bot.console.textboard import text_board
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
from engine import replay

BOT_USER = User(1, "Shax bot", True)
MENU_SIZE = 25
"""At most this many legal actions are listed; more moves are listed by their stones."""
HELP = """\
Commands (as in Discord):
  /shax challenge opponent:@name [variant:shax|shax-small|jar]
  /shax accept · /shax decline · /shax cancel        (the challenge's buttons)
  /shax play-bot [level:easy|medium|hard|master] [variant:…] [first:me|bot|random]
  /shax move action:d7      (or /shax move d7; moves a7-d7, removals xg1)
  /shax board · /shax resign · /shax draw · /shax decline-draw · /shax rematch
  /shax streak [user:@name] · /shax leaderboard · /shax rules [variant:…]
Console only:
  /as NAME    switch who is typing (hot seat)      /help    this text      /quit"""


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
    users: dict[str, User] = field(default_factory=dict)
    last_game_id: int | None = None

    def __post_init__(self) -> None:
        self.users[self.user.name.lower()] = self.user
        self.users[BOT_USER.name.lower()] = BOT_USER

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
        try:
            if head in ("/quit", "/exit"):
                return False
            if head == "/help":
                self.write(HELP)
            elif head == "/as":
                if len(words) < 2:
                    raise UserError("Say who is typing now: /as NAME.")
                self.user = self.person(words[1])
                if self.user.is_bot:
                    raise UserError("The bot plays by itself; choose a person's name.")
                self.write(f"Now typing: {self.user.name}")
            elif head == "/shax" and len(words) > 1:
                await self.shax(words[1].lower(), words[2:])
            else:
                raise UserError("Commands start with /shax (try /help).")
        except UserError as exc:
            self.write(f"✗ {exc}")
        await self.show_notices()
        return True

    async def shax(self, command: str, args: list[str]) -> None:
        opts, rest = _options(args)
        s, me, here = self.service, self.user, self.place
        simple: dict[str, Callable[[User, Place], Awaitable[Reply]]] = {  # no options
            "accept": s.accept,
            "decline": s.decline,
            "cancel": s.cancel,
            "board": s.board,
            "resign": s.resign,
            "draw": s.draw,
            "decline-draw": s.decline_draw,
        }

        def opt(name: str, default: str | None = None) -> str | None:
            if name in opts:
                return opts[name]
            return rest.pop(0) if rest else default

        if command == "challenge":
            opponent = opt("opponent")
            if opponent is None:
                raise UserError("Name your opponent: /shax challenge opponent:@name.")
            reply = await s.challenge(me, self.person(opponent), here, opt("variant", "shax") or "")
        elif command in simple:
            reply = await simple[command](me, here)
        elif command == "play-bot":
            level = opt("level", "medium") or "medium"
            variant = opt("variant", "shax") or "shax"
            reply = await s.play_bot(me, here, level, variant, opt("first"))
        elif command == "move":
            action = opt("action")
            if action is None:
                raise UserError("Say which action: /shax move action:d7.")
            reply = await s.play(me, here, action)
        elif command == "rematch":
            if self.last_game_id is None:
                raise UserError("There is no finished game to rematch yet.")
            reply = await s.rematch(me, here, self.last_game_id)
        elif command == "streak":
            who = opt("user")
            reply = await s.streak(here, self.person(who) if who else me)
        elif command == "leaderboard":
            reply = await s.leaderboard(here)
        elif command == "rules":
            reply = await s.rules(opt("variant", "shax") or "shax")
        else:
            raise UserError(f"Unknown command /shax {command} (try /help).")
        await self.show(reply)

    async def show(self, reply: Reply) -> None:
        prefix = "(only you see this) " if reply.ephemeral else ""
        self.write(prefix + self.names(reply.text))
        if reply.game_id is not None:
            self.last_game_id = reply.game_id
        for attachment in reply.attachments:
            path = await self.save(reply, attachment.filename, attachment.data)
            if attachment.filename.endswith(".png") and reply.game_id is not None:
                variant, record = await self.service.record(reply.game_id)
                self.write(text_board(replay(variant, record)))
            if attachment.filename.endswith(".gif"):
                kind = "Replay"
            else:
                kind = "Board image" if reply.game_id is not None else "Picture"
            self.write(f"{kind}: {path}")
        self.show_controls(reply)

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
        elif isinstance(c, ChallengeControls):
            self.write("The challenged player answers with /shax accept or /shax decline.")

    async def save(self, reply: Reply, filename: str, data: bytes) -> Path:
        """Save an attachment under a name unique to the game and ply (never shared)."""
        if reply.game_id is not None:
            _, record = await self.service.record(reply.game_id)
            stem = f"game{reply.game_id}-ply{len(record)}-v{reply.version}"
        else:
            stem = f"{self.place.channel_id}-{len(list(self.out_dir.iterdir()))}"
        path = self.out_dir / f"{stem}-{filename}"
        await asyncio.to_thread(path.write_bytes, data)
        return path

    def names(self, text: str) -> str:
        by_id = {u.id: u.name for u in self.users.values()}
        return MENTION_RE.sub(lambda m: "@" + by_id.get(int(m.group(1)), m.group(1)), text)

    async def show_notices(self) -> None:
        for notice in await self.service.tick():
            await self.show(notice.reply)


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


async def console_main(
    settings: Settings,
    *,
    db: Path | None,
    out: Path | None,
    name: str,
    channel: int,
    stdin: TextIO,
    stdout: TextIO,
) -> int:
    def write(text: str) -> None:
        stdout.write(text + "\n")
        stdout.flush()

    out_dir = out or Path(tempfile.mkdtemp(prefix="shax-boards-"))
    out_dir.mkdir(parents=True, exist_ok=True)
    db_path = db or settings.db_path
    service = await ShaxService.open(_with_db(settings, db_path), bot_user=BOT_USER)
    console = Console(service, out_dir, Place(None, channel), local_user(name), write)
    interactive = stdin.isatty()
    write(f"Shax console — database {db_path}, board images in {out_dir}. /help for commands.")
    try:
        while True:
            if interactive:
                stdout.write(f"{console.user.name}> ")
                stdout.flush()
            line = await asyncio.to_thread(stdin.readline)
            if not line:
                break
            if not interactive and line.strip():
                write(f"[{console.user.name}] {line.strip()}")
            if not await console.handle(line):
                break
    finally:
        await service.close()
    return 0


def _with_db(settings: Settings, db_path: Path) -> Settings:
    return replace(settings, db_path=db_path)


def run_console(
    settings: Settings,
    *,
    db: Path | None = None,
    out: Path | None = None,
    name: str = "you",
    channel: int = 1,
) -> int:
    """The console over standard input and output (``python -m bot local``)."""
    try:
        return asyncio.run(
            console_main(
                settings,
                db=db,
                out=out,
                name=name,
                channel=channel,
                stdin=sys.stdin,
                stdout=sys.stdout,
            )
        )
    except KeyboardInterrupt:
        return 130
