"""The endgame tables and full-board values, built in the background at the first start.

:func:`start_building` (called once the bot's log is set up, and by the console) starts
one process per bot process that builds what the tables folder lacks for full strength
(:func:`engine.tables.missing.build_missing`): the small boards in seconds, shax's
tables (six stones against up to five) in about 5 minutes of processor time (measured;
:func:`building_line` says what that is on this machine's cores). The full-board values
ship with the package (:mod:`engine.tables.shipping`); only a board whose shipped values
are missing or stale has them searched here, shax's in about 80 minutes more.
The process runs at the lowest priority (``SCHED_IDLE`` where Linux has it, else nice
19), so the players' answers and the AI's moves come first; it ends with the bot
however the bot ends (at once, keeping every whole file), and a later start resumes
where it stopped: inside the table it was solving (from its last checkpoint), or in the
full-board values. ``master``
uses each file from its next move. What it does goes to the bot's log (logger
``bot.workers.tables``) and to ``build.log`` in the tables folder: a line when it
starts, how far it is every minute, a line when ``master`` has everything.
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
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import IO, NamedTuple

from bot.workers.processes import exit_with, lower_priority
from engine.tables import TABLES_ENV

log = logging.getLogger(__name__)

LOG_FILE = "build.log"
LEVELS = {"INFO": logging.INFO, "WARNING": logging.WARNING}

_started: subprocess.Popen[str] | None = None
_relaying: threading.Thread | None = None
RELAY_SECONDS = 5.0
"""How long stopping the build waits for its last lines to reach the log."""


def start_building(mode: str) -> subprocess.Popen[str] | None:
    """Start the background build unless ``mode`` is ``off`` or it runs already in this
    process; ``small`` builds only jar and shax-small. Returns the build's process."""
    global _started, _relaying
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
    _relaying = threading.Thread(
        target=_relay, args=(process.stdout,), name="tables-build-log", daemon=True
    )
    _relaying.start()
    atexit.register(stop_building)
    _started = process
    return process


def stop_building() -> None:
    """End the background build (it resumes at the next start), and the relay of its
    lines to the log once it has passed on the last of them."""
    global _started, _relaying
    process, _started = _started, None
    relay, _relaying = _relaying, None
    if process is not None and process.poll() is None:
        process.terminate()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(5.0)
    if relay is not None:
        relay.join(RELAY_SECONDS)


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
        with contextlib.suppress(OSError):  # the bot is gone: build.log still has it
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
    folder at a time, then everything missing; SIGTERM (the bot stopping) ends it at
    once, keeping every whole file."""
    exit_with(parent)
    lowest_priority()
    from engine.tables import tables_dir
    from engine.tables.lock import signals_stop_builds
    from engine.tables.missing import BOARDS, SMALL_BOARDS

    folder = tables_dir()
    with signals_stop_builds(), contextlib.suppress(KeyboardInterrupt):  # stopped early
        build_logged(
            folder,
            SMALL_BOARDS if small else BOARDS,
            _Log(folder),
            functools.partial(exit_with, os.getpid()),
        )
    return 0


def build_logged(
    folder: Path,
    boards: Sequence[str],
    log: _Log,
    initializer: Callable[[], None] | None = None,
) -> None:
    """Build what ``folder`` lacks of ``boards`` unless another process builds there,
    saying what it does in ``log``: a sentence for each thing that stops it (the folder
    not writable, the disk full, the bot stopping), never a traceback."""
    from engine.ai.core import CoreUnavailableError
    from engine.tables import TablesUnavailableError
    from engine.tables.lock import build_lock
    from engine.tables.missing import announcement, build_missing, missing_work

    work = missing_work(folder, boards)
    if not work:
        return
    try:
        with build_lock(folder, wait=False) as alone:
            if not alone:
                log.info(
                    f"Another process is building the endgame tables in {folder}; not this one."
                )
                return
            log.info(announcement(work) + f" Into {folder}, at the lowest priority.")
            build_missing(folder, boards, log.info, warn=log.warning, initializer=initializer)
    except KeyboardInterrupt:
        log.info("Building the endgame tables stopped with the bot; the next start resumes.")
        return
    except (TablesUnavailableError, CoreUnavailableError) as exc:
        log.warning(f"The endgame tables cannot be built here: {exc}.")
        return
    except OSError as exc:
        log.warning(unwritable(folder, exc))
        return
    except RuntimeError as exc:
        log.warning(f"Building the endgame tables stopped: {exc}; the next start resumes.")
        return
    if not missing_work(folder, boards):  # else the disk was too full, and it said so
        log.info("Master has every endgame table and full-board value it uses.")


def unwritable(folder: Path, exc: OSError) -> str:
    """The sentence for a tables folder the bot cannot write to."""
    why = (exc.strerror or str(exc)).lower()
    return (
        f"The endgame tables cannot be built in {folder} ({why}): make it writable, or "
        f"set {TABLES_ENV} to a folder the bot can write to. Master plays on without "
        "the tables it lacks."
    )


class Strength(NamedTuple):
    """How far master is from full strength (:func:`master_strength`)."""

    seconds_left: float
    """The processor time what its tables folder lacks takes to build (0: nothing)."""
    building: bool
    """Whether this process's background build is at it."""


def master_strength() -> Strength:
    """How far master is from full strength, by what its tables folder lacks."""
    from engine.tables import tables_dir
    from engine.tables.missing import missing_work

    left = sum(work.seconds for work in missing_work(tables_dir()))
    return Strength(left, _started is not None and _started.poll() is None)


def building_line(mode: str) -> str | None:
    """What the background build started in ``mode`` is about to do, in the line the
    console shows at its start (the build says the same in the log); ``None`` when it
    has nothing to build."""
    from engine.tables import tables_dir
    from engine.tables.missing import BOARDS, SMALL_BOARDS, announcement, missing_work

    if mode == "off":
        return None
    work = missing_work(tables_dir(), SMALL_BOARDS if mode == "small" else BOARDS)
    return announcement(work) if work else None


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
