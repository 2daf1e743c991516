"""The C compiler flags of the AI core and the endgame tables, in one place: ``setup.py``
builds the installed libraries with them, :mod:`engine.ai.core` and
:mod:`engine.tables.native` the cached ones. Standard library only, so that
``setup.py`` can load this file on its own before anything is installed."""

from __future__ import annotations

import hashlib
import os
import platform
import shutil
import subprocess
import sysconfig
import tempfile
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


def find_compiler() -> str | None:
    """The C compiler: ``$CC`` when set (and only it, as setuptools does), else Python's own
    or ``cc`` / ``gcc`` on the PATH."""
    chosen = os.environ.get("CC", "").split()
    if chosen:
        return shutil.which(chosen[0])
    configured = str(sysconfig.get_config_var("CC") or "").split()
    for name in (*configured[:1], "cc", "gcc"):
        found = shutil.which(name)
        if found:
            return found
    return None


class BuildError(Exception):
    """A C library could not be compiled; the message says why in a few words."""


def compile_cached(source: Path, flags: list[str], temp_folder: str) -> Path:
    """Compile ``source`` into a shared library named after its contents and ``flags``, in
    ``__pycache__`` beside it or else in the temporary folder ``temp_folder``; an existing
    build is reused, older builds of the same source are removed. Concurrent builders agree
    (the file appears atomically)."""
    stem = source.stem
    digest = hashlib.sha256(source.read_bytes() + " ".join(flags).encode()).hexdigest()[:16]
    name = f"{stem}_{digest}.so"
    for cache in (source.parent / "__pycache__", Path(tempfile.gettempdir()) / temp_folder):
        target = cache / name
        if target.exists():
            return target
        try:
            cache.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if not os.access(cache, os.W_OK):
            continue
        compiler = find_compiler()
        if compiler is None:
            cc = os.environ.get("CC")
            raise BuildError(
                "it is not built and no C compiler was found" + (f" (CC={cc})" if cc else "")
            )
        fd, tmp = tempfile.mkstemp(suffix=".so", dir=cache)
        os.close(fd)
        try:
            subprocess.run(
                [compiler, *flags, "-o", tmp, str(source)],
                check=True,
                capture_output=True,
                text=True,
            )
            os.replace(tmp, target)  # atomic: concurrent builders agree
            for old in cache.glob(f"{stem}_*.so"):
                if old != target:
                    old.unlink(missing_ok=True)  # builds of older sources
        except (OSError, subprocess.CalledProcessError) as exc:
            detail = exc.stderr if isinstance(exc, subprocess.CalledProcessError) else str(exc)
            raise BuildError(f"building {source.name} failed:\n{detail}") from exc
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        return target
    raise BuildError(f"no writable directory to build {source.name} in")
