"""Endgame tables for the tests, built once and kept between sessions.

They take half a minute to build and depend only on the code that builds them, so they
are built into ``~/.cache/shax-test-tables/<digest>/<name>`` (``SHAX_TEST_TABLES_CACHE``
moves it), ``<digest>`` a hash of that code: the Python and C files of ``engine/tables``,
the boards' geometry (``engine/variants.py``) and the compiler flags
(``engine/build_flags.py``). A change to any of them builds them anew. A set is built under
a lock, so parallel test workers (``pytest -n``) build it once while the others wait, and
it is used only once whole (a killed build is finished by the next session, keeping the
whole files it left). Tests only read these folders.
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
KEEP_OTHERS = 3
"""How many other versions' tables are kept (the most recently used), for a switch back."""


def cache_root() -> Path:
    configured = os.environ.get("SHAX_TEST_TABLES_CACHE")
    return Path(configured) if configured else Path.home() / ".cache" / "shax-test-tables"


def sources() -> list[Path]:
    """The files the tables are built by."""
    tables = [p for p in (ENGINE / "tables").rglob("*") if p.suffix in (".py", ".c", ".h")]
    return sorted([*tables, ENGINE / "variants.py", ENGINE / "build_flags.py"])


@cache
def sources_digest() -> str:
    """A hash of :func:`sources`, by path and contents."""
    digest = hashlib.sha256()
    for path in sources():
        digest.update(str(path.relative_to(ENGINE)).encode() + b"\0")
        digest.update(path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


def cached_tables(name: str, build: Callable[[Path], object]) -> Path:
    """The folder ``name`` of the cached tables of these sources, made by ``build(folder)``
    the first time (under a lock: other processes asking for it meanwhile wait)."""
    root = cache_root() / sources_digest()
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
    """Remove the cached tables of other sources but the :data:`KEEP_OTHERS` most recently
    used."""

    def last_used(folder: Path) -> float:
        stamps = [s.stat().st_mtime for s in folder.glob(f"*/{DONE}")]
        return max(stamps, default=folder.stat().st_mtime)

    others = [f for f in current.parent.iterdir() if f != current and f.is_dir()]
    for other in sorted(others, key=last_used, reverse=True)[KEEP_OTHERS:]:
        with contextlib.suppress(OSError):
            shutil.rmtree(other)
