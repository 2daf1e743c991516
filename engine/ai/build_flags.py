"""The C compiler flags of the AI core, in one place: ``setup.py`` builds the installed core
with them and :mod:`engine.ai.core` the cached one. Standard library only, so that
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


SHARED_LIBRARY_FLAGS = ("-fPIC", "-shared")
"""Added when :mod:`engine.ai.core` compiles the core itself (setuptools adds its own)."""
