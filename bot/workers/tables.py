"""The endgame tables and full-board values, built in the background at the first start.

:func:`start_building` (called once the bot's log is set up, and by the console) starts
one process per bot process that builds what the tables folder lacks for full strength
(:func:`engine.tables.missing.build_missing`): the small boards in seconds, shax's
tables (six stones against up to five) in a few minutes, its full-board values in about
half an hour on two idle cores.
The process runs at the lowest priority (``SCHED_IDLE`` where Linux has it, else nice
19), so the players' answers and the AI's moves come first; it ends with the bot
however the bot ends, and a later start resumes where it stopped. ``master`` uses each
file from its next move. What it does goes to the bot's log (logger
``bot.workers.tables``) and to ``build.log`` in the tables folder.
``SHAX_BUILD_TABLES=off`` turns it off, ``small`` builds only the small boards.

Run by hand: ``python -m bot.workers.tables --parent PID [--small]``.
"""

from __future__ import annotations

import argparse
import atexit
import contextlib
import functools
import logging
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import IO

from bot.workers.processes import exit_with, lower_priority

log = logging.getLogger(__name__)

LOG_FILE = "build.log"
LEVELS = {"INFO": logging.INFO, "WARNING": logging.WARNING}
LOCK_FILE = ".build.lock"

_started: subprocess.Popen[str] | None = None


def start_building(mode: str) -> subprocess.Popen[str] | None:
    """Start the background build unless ``mode`` is ``off`` or it runs already in this
    process; ``small`` builds only jar and shax-small. Returns the build's process."""
    global _started
    if mode == "off":
        return None
    if _started is not None:
        return _started
    command = [sys.executable, "-m", __name__, "--parent", str(os.getpid())]
    if mode == "small":
        command.append("--small")
    try:
        process = subprocess.Popen(
            command,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            start_new_session=True,  # a Ctrl-C in the console's terminal is not for it
        )
    except OSError as exc:
        log.warning("Could not start building the endgame tables in the background: %s", exc)
        return None
    assert process.stdout is not None
    threading.Thread(
        target=_relay, args=(process.stdout,), name="tables-build-log", daemon=True
    ).start()
    atexit.register(stop_building)
    _started = process
    return process


def stop_building() -> None:
    """End the background build (it resumes at the next start)."""
    global _started
    process, _started = _started, None
    if process is not None and process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(5.0)


def _relay(stream: IO[str]) -> None:
    """Log the build's lines (``LEVEL<TAB>text``) in this process's log."""
    for line in stream:
        level, _, text = line.rstrip("\n").partition("\t")
        if not text:
            level, text = "WARNING", line.rstrip("\n")  # a stray line: a crash's words
        log.log(LEVELS.get(level, logging.WARNING), "%s", text)


# -- the build's own process ----------------------------------------------------------


def lowest_priority() -> None:
    """Run only on a core nothing else wants: ``SCHED_IDLE`` where Linux has it (the
    full-board search's worker processes inherit it), and nice 19."""
    lower_priority(19)
    with contextlib.suppress(AttributeError, OSError):
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


class _Log:
    """The build's log lines: to the bot (stdout, ``LEVEL<TAB>text``) and to
    ``build.log`` in the folder."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def _write(self, level: str, text: str) -> None:
        print(f"{level}\t{text}", flush=True)
        stamp = time.strftime("%Y-%m-%d %H:%M:%S")
        with contextlib.suppress(OSError), (self.folder / LOG_FILE).open("a") as f:
            f.write(f"{stamp} {text}\n")

    def info(self, text: str) -> None:
        self._write("INFO", text)

    def warning(self, text: str) -> None:
        self._write("WARNING", text)


def build_in_background(parent: int, small: bool) -> int:
    """The build process: end with ``parent``, the lowest priority, one build per tables
    folder at a time, then everything missing."""
    exit_with(parent)
    lowest_priority()
    from engine.ai.core import CoreUnavailableError
    from engine.tables import TablesUnavailableError, tables_dir
    from engine.tables.missing import BOARDS, SMALL_BOARDS, build_missing, missing_work

    folder = tables_dir()
    boards = SMALL_BOARDS if small else BOARDS
    log = _Log(folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        log.warning(f"The endgame tables cannot be built in {folder}: {exc}.")
        return 0
    if not missing_work(folder, boards):
        return 0
    with _only_builder(folder) as alone:
        if not alone:
            log.info(f"Another process is building the endgame tables in {folder}; not this one.")
            return 0
        log.info(
            f"Building what master lacks in {folder}, in the background at the lowest "
            "priority; master plays with each file as it is done."
        )
        try:
            build_missing(
                folder,
                boards,
                log.info,
                warn=log.warning,
                initializer=functools.partial(exit_with, os.getpid()),
            )
        except (TablesUnavailableError, CoreUnavailableError) as exc:
            log.warning(f"The endgame tables cannot be built here: {exc}.")
        except (RuntimeError, OSError) as exc:
            log.warning(f"Building the endgame tables stopped: {exc}; the next start resumes.")
        else:
            log.info("Master has every endgame table and full-board value it uses.")
    return 0


@contextlib.contextmanager
def _only_builder(folder: Path) -> Iterator[bool]:
    """Whether this process holds the folder's build lock (several bot processes on one
    machine share a folder: one builds)."""
    import fcntl

    with (folder / LOCK_FILE).open("a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            yield False
            return
        yield True


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.workers.tables",
        description="Build the endgame tables and full-board values master lacks.",
    )
    parser.add_argument("--parent", type=int, required=True, help="end when this process ends")
    parser.add_argument("--small", action="store_true", help="only jar and shax-small")
    args = parser.parse_args(argv)
    return build_in_background(args.parent, args.small)


if __name__ == "__main__":
    raise SystemExit(main())
