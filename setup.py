"""Builds the Shax AI's compiled core (engine/ai/_core.c) when a C compiler is at hand.

The core is optional: without a compiler the install carries on and the AI uses its
pure-Python search (engine/ai/python_search.py, on python_board.py). Everything else is
in pyproject.toml.
"""

import importlib.util
import sys
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.errors import CCompilerError, CompileError, ExecError, PlatformError

HERE = Path(__file__).resolve().parent

REINSTALL = """install a C compiler (gcc or clang; on Windows the Microsoft C++ Build
Tools) and reinstall: python3 -m pip install -e ."""
SKIPPED = {
    "engine.ai._core": """\
shax-bot: the AI's compiled core was not built ({reason}).
The install goes on; the AI will use its pure-Python search, which is slower and so weaker
in the same time. For the fast one, """
    + REINSTALL,
    "engine.tables._tables": """\
shax-bot: the endgame-table library was not built ({reason}).
The install goes on; the AI plays without the tables. For them, """
    + REINSTALL,
}


def _build_flags() -> Any:
    """engine/build_flags.py, the one place the flags are written down."""
    spec = importlib.util.spec_from_file_location(
        "shax_build_flags", HERE / "engine" / "build_flags.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compile_flags() -> list[str]:
    flags: list[str] = _build_flags().optimisation_flags()
    return flags


def tables_flags() -> list[str]:
    flags: list[str] = _build_flags().tables_flags()
    return flags


class OptionalBuildExt(build_ext):
    """build_ext that skips the core (with a message) when it cannot be compiled."""

    def run(self) -> None:
        try:
            super().run()
        except (CCompilerError, CompileError, ExecError, PlatformError, OSError) as exc:
            self._skip(exc, self.extensions)

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except (CCompilerError, CompileError, ExecError, PlatformError, OSError) as exc:
            self._skip(exc, [ext])

    def _skip(self, exc: Exception, failed: list[Extension]) -> None:
        # What was not built: later steps (the editable install's copies) must not look for it.
        self.extensions = [e for e in self.extensions if e not in failed]
        reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        for ext in failed:
            print(SKIPPED[ext.name].format(reason=reason), file=sys.stderr)

    def get_outputs(self) -> list[str]:
        return super().get_outputs() if self.extensions else []


# Plain C libraries without Python bindings, loaded with ctypes by engine/ai/core.py and
# engine/tables/native.py. Both are optional: without the core the AI uses its Python
# search; without the tables the AI plays on without them.
setup(
    ext_modules=[
        Extension(
            "engine.ai._core",
            ["engine/ai/_core.c"],
            extra_compile_args=compile_flags(),
            optional=True,
        ),
        Extension(
            "engine.tables._tables",
            ["engine/tables/_tables.c"],
            extra_compile_args=tables_flags(),
            extra_link_args=["-pthread"],
            optional=True,
        ),
    ],
    cmdclass={"build_ext": OptionalBuildExt},
)
