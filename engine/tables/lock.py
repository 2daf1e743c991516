"""One builder a tables folder at a time, and stopping a builder cleanly.

Every builder (``python -m engine.tables build``, ``solve``, ``full``, the bot's
background build) holds :func:`build_lock` on the folder while it writes there, so two
processes never build the same file at once: the second waits, or (the bot's
background build) leaves the building to the first. The lock is the folder's
``.build.lock``, held with ``flock``: the system lets it go when its holder ends,
however it ends. Inside one process it is reentrant (a build of what is missing holds
it while it builds each part).

:func:`signals_stop_builds` turns SIGTERM into the same exception as Ctrl-C, so a
builder stopped either way ends at once, keeping each whole file and no part of one;
what a process killed outright left part way is removed by the next builder.
"""

from __future__ import annotations

import contextlib
import fcntl
import signal
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from types import FrameType

LOCK_FILE = ".build.lock"
"""The lock file in a tables folder."""

PARTIAL_SUFFIX = ".part"
"""A file being written: renamed to its name when whole."""

_held: dict[str, int] = {}
_guard = threading.Lock()


class BuildStopped(KeyboardInterrupt):
    """SIGTERM arrived: the builder stops as it does on Ctrl-C."""


@contextlib.contextmanager
def build_lock(
    folder: Path, *, wait: bool = True, waiting: Callable[[], None] | None = None
) -> Iterator[bool]:
    """Hold ``folder``'s build lock while inside; yields ``True``. When another process
    holds it: with ``wait``, call ``waiting`` (to say so) and wait for it (Ctrl-C ends
    the wait); without, yield ``False`` at once. Raises ``OSError`` when the folder
    cannot be made or written to. Files a killed builder left part way are removed
    once the lock is held."""
    key = str(folder.resolve())
    with _guard:
        if key in _held:
            _held[key] += 1
            reentered = True
        else:
            reentered = False
    if reentered:
        try:
            yield True
        finally:
            with _guard:
                _held[key] -= 1
        return
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / LOCK_FILE).open("a") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not wait:
                yield False
                return
            if waiting is not None:
                waiting()
            fcntl.flock(lock, fcntl.LOCK_EX)
        with _guard:
            _held[key] = 1
        try:
            remove_partial(folder)
            yield True
        finally:
            with _guard:
                del _held[key]
            fcntl.flock(lock, fcntl.LOCK_UN)


def remove_partial(folder: Path) -> list[Path]:
    """Remove the files a killed builder left part way in ``folder`` and its boards'
    folders (only while holding the lock: another builder's are in progress)."""
    removed = []
    for path in [*folder.glob(f"*{PARTIAL_SUFFIX}"), *folder.glob(f"*/*{PARTIAL_SUFFIX}")]:
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    return removed


def _stop(signum: int, frame: FrameType | None) -> None:
    raise BuildStopped(f"signal {signum}")


@contextlib.contextmanager
def signals_stop_builds() -> Iterator[None]:
    """While inside, SIGTERM stops a build as Ctrl-C does (:class:`BuildStopped`, a
    ``KeyboardInterrupt``). Changes nothing outside the main thread."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, _stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
