"""The C compiler flags of the AI core and the endgame tables, in one place: ``setup.py``
builds the installed libraries with them, :mod:`engine.ai.core` and
:mod:`engine.tables.native` the cached ones. Standard library only, so that
``setup.py`` can load this file on its own before anything is installed."""

from __future__ import annotations

import platform
from pathlib import Path


def optimisation_flags() -> list[str]:
    """Flags for ``_core.c`` on this machine: C99, POSIX clocks, popcnt where the CPU has it."""
    flags = ["-O3", "-std=c99", "-D_POSIX_C_SOURCE=199309L"]
    if platform.machine() in ("x86_64", "AMD64"):
        try:
            cpu = Path("/proc/cpuinfo").read_text()
        except OSError:
            cpu = ""
        if " popcnt" in cpu:
            flags.append("-mpopcnt")
    return flags


def tables_flags() -> list[str]:
    """Flags for the endgame-table builder ``engine/tables/_tables.c``: the core's, with
    POSIX 2008 (threads) in place of the core's POSIX clocks."""
    flags = [f for f in optimisation_flags() if not f.startswith("-D_POSIX_C_SOURCE")]
    return [*flags, "-D_POSIX_C_SOURCE=200809L", "-pthread"]


SHARED_LIBRARY_FLAGS = ("-fPIC", "-shared")
"""Added when :mod:`engine.ai.core` compiles the core itself (setuptools adds its own)."""
