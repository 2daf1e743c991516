"""Starting the console (``python -m bot local``): the player's name, the service on the
console's own SQLite file, and the loop that reads lines until Ctrl-D, ``/quit`` or Ctrl-C.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TextIO

import renderer
from bot.config import Settings
from bot.console.clock import keep_time
from bot.console.handover import remember_name, remembered_name, system_name
from bot.console.markup import wants_ansi
from bot.console.reader import LineReader, make_reader
from bot.console.session import BOT_USER, PICTURES, Console, local_user
from bot.service.facade import ShaxService
from bot.service.replies import Place

CONSOLE_THEME = "light"
"""The theme of the console's boards for players who chose none (a terminal's is light)."""


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


def ctrl_c_ends_it() -> None:
    """In a terminal Ctrl-C ends the console, even when it was started with Ctrl-C ignored
    (a job a script starts in the background, ``nohup``): Python then leaves it ignored,
    and the console would go on past it."""
    with contextlib.suppress(ValueError):  # not the main thread: not ours to change
        signal.signal(signal.SIGINT, signal.default_int_handler)


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

    warm_here(CONSOLE_THEME)
    console: Console | None = None

    def completions(line: str) -> list[str]:
        return console.completions(line) if console is not None else []

    reader = make_reader(stdin, stdout, completions)
    out_dir = out or PICTURES
    out_dir.mkdir(parents=True, exist_ok=True)
    db_path = db or settings.db_path
    if name is None:
        name = await player_name(reader)
        if name is None:
            return 0
    with workers_ignore_ctrl_c():
        service = await ShaxService.open(
            _with_db(settings, db_path), bot_user=BOT_USER, default_theme=CONSOLE_THEME
        )
    console = Console(
        service, out_dir, Place(None, channel), local_user(name), write, ansi=wants_ansi(stdout)
    )
    write(
        (await console.reader()).gettext(
            "Shax console — database {database}, pictures in {folder}/. /help for commands.",
            database=db_path,
            folder=out_dir,
        )
    )
    ticking: asyncio.Task[None] | None = None
    try:
        await console.resume()
        # The clock runs while the console waits for a line, as the bot's loop does.
        ticking = asyncio.create_task(keep_time(console, reader, settings.tick_seconds))
        while True:
            line = await reader.read(f"{console.user.name}> ")
            if line is None:
                break
            if not reader.interactive and line.strip():
                write(f"[{console.user.name}] {line.strip()}")
            if not await console.handle(line):
                break
    finally:
        if ticking is not None:
            ticking.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await ticking
        await service.close()
    return 0


def warm_here(theme: str) -> None:
    """Draw the usual board's fixed parts in this process, in a thread, while the prompt
    waits: until the picture worker has warmed up (seconds on a busy machine) the boards
    are drawn here, and the first one then costs no more than the later ones."""
    threading.Thread(
        target=renderer.warm_up, args=(("shax",), (theme,)), name="warm-up", daemon=True
    ).start()


async def player_name(reader: LineReader) -> str | None:
    """The local player's name when ``--name`` gives none: the one remembered, else, in
    a terminal, asked once (Enter takes the login name) and remembered for the next
    starts; without a terminal the login name. ``None`` if input ends first."""
    remembered = remembered_name()
    if remembered is not None:
        return remembered
    default = system_name()
    if not reader.interactive:
        return default
    answer = await reader.read(f"Your name [{default}]: ")
    if answer is None:
        return None
    name = answer.strip().removeprefix("@") or default
    remember_name(name)
    return name


def _with_db(settings: Settings, db_path: Path) -> Settings:
    # The console keeps its own SQLite file, even when the bot uses PostgreSQL; the bot's
    # daily backups are the bot's.
    return settings.model_copy(
        update={"db_path": db_path, "database_url": None, "backup_dir": None}
    )


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
    if stdin.isatty():
        ctrl_c_ends_it()
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
