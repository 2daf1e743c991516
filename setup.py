"""Builds the Shax AI's compiled core (engine/ai/_core.c); everything else is in pyproject.toml."""

import platform
from pathlib import Path

from setuptools import Extension, setup

flags = ["-O3", "-std=c99", "-D_POSIX_C_SOURCE=199309L"]
tables_flags = ["-O3", "-std=c99", "-D_POSIX_C_SOURCE=200809L"]
cpuinfo = Path("/proc/cpuinfo")
if platform.machine() == "x86_64" and cpuinfo.exists() and " popcnt" in cpuinfo.read_text():
    flags.append("-mpopcnt")
    tables_flags.append("-mpopcnt")

# Plain C libraries without Python bindings, loaded with ctypes by engine/ai/core.py and
# engine/tables/native.py. The endgame tables are optional: without them the AI plays on.
setup(
    ext_modules=[
        Extension("engine.ai._core", ["engine/ai/_core.c"], extra_compile_args=flags),
        Extension(
            "engine.tables._tables",
            ["engine/tables/_tables.c"],
            extra_compile_args=[*tables_flags, "-pthread"],
            extra_link_args=["-pthread"],
            optional=True,
        ),
    ]
)
