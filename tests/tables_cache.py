"""Endgame tables for the tests, built once and kept between sessions.

The tables a test needs take a minute to build and depend only on the engine's code, so
they are built into ``~/.cache/shax-test-tables/<digest>/<name>`` (``SHAX_TEST_TABLES_CACHE``
moves the cache), where ``<digest>`` is a hash of every source file of the ``engine``
package: a change to the engine builds them anew, anything else reuses them. The build
holds a lock on its folder, so parallel test workers (``pytest -n``) build each set once
and the others wait for it; a set is used only once its build finished (a killed build
is finished by the next session, which keeps the whole files it left).
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path

import engine

ENGINE = Path(engine.__file__).resolve().parent
SHAX_SMALL_STONES = 8
"""shax-small's tables for the tests: every material, up to 8 stones a side."""
DONE = ".complete"
"""Written into a set's folder when its build finished."""
UNUSED_DAYS = 14
"""Sets of other engine versions unused this long are removed when a new one is built."""


def cache_root() -> Path:
    configured = os.environ.get("SHAX_TEST_TABLES_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "shax-test-tables"


@cache
def engine_digest() -> str:
    """A hash of the engine's sources (its Python and C files, by path and contents)."""
    digest = hashlib.sha256()
    for path in sorted(ENGINE.rglob("*")):
        if path.suffix in (".py", ".c", ".h") and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(ENGINE)).encode() + b"\0")
            digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def cached_tables(name: str, build: Callable[[Path], object]) -> Path:
    """The folder ``name`` of this engine's cached tables, made by ``build(folder)`` the
    first time (under a lock: other processes asking for it meanwhile wait)."""
    root = cache_root() / engine_digest()
    folder = root / name
    done = folder / DONE
    if not done.exists():
        root.mkdir(parents=True, exist_ok=True)
        with (root / f".{name}.lock").open("a") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)
            try:
                if not done.exists():
                    _remove_unused(root)
                    folder.mkdir(exist_ok=True)
                    build(folder)
                    done.write_text(f"built in {os.getpid()} at {time.ctime()}\n")
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)
    os.utime(done)  # in use: kept by :func:`_remove_unused`
    return folder


def link_tables(source: Path, target: Path) -> None:
    """Hard-link (or copy) the boards' folders of ``source`` into ``target``: tables built
    for one set are not built again for another."""
    for board in source.iterdir():
        if board.is_dir():
            shutil.copytree(board, target / board.name, copy_function=_link, dirs_exist_ok=True)


def _link(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _remove_unused(current: Path) -> None:
    """Remove the cached sets of other engine versions that no session used for
    :data:`UNUSED_DAYS`."""
    before = time.time() - UNUSED_DAYS * 86400
    for other in current.parent.iterdir():
        if other == current or not other.is_dir():
            continue
        stamps = [s.stat().st_mtime for s in other.glob(f"*/{DONE}")]
        if max(stamps, default=other.stat().st_mtime) < before:
            with contextlib.suppress(OSError):
                shutil.rmtree(other)
