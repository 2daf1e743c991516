"""The suite's markers, given to each test by what it uses (``tests/conftest.py`` applies
them at collection), so that a new test is marked without anyone remembering to:

* ``process`` — the test starts another program (``python -m bot``, the console, a
  command, a PostgreSQL server, a pool of worker processes): its code, a fixture it uses
  or a helper of the tests that either calls names such as ``subprocess``, ``Popen``,
  ``create_subprocess_exec``, ``sys.executable`` or ``ProcessPoolExecutor``.
* ``postgres`` — it uses the throwaway PostgreSQL server (the ``postgres_server``
  fixture, or a parameter naming PostgreSQL, as the storage suite's ``database``).
* ``tables`` — it builds or reads endgame tables: a test of ``tests/engine/tables``, one
  using the built tables' fixtures, or one calling a table builder.
* ``slow`` — any of the three (found or marked by hand), or marked by hand alone;
  ``pytest -m "not slow"`` is the quick everyday run.

A test that starts processes through the project's own code (a pool of worker processes)
is marked ``process`` by hand, since the search does not look there.

The search follows names only through the tests' own code (modules under ``tests``),
never into the project's packages: what the bot does inside is not what marks a test.
"""

from __future__ import annotations

import inspect
import re
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

TESTS = Path(__file__).resolve().parent

PROCESS_NAMES = frozenset(
    {
        "subprocess",
        "Popen",
        "create_subprocess_exec",
        "create_subprocess_shell",
        "executable",  # sys.executable: the running Python, started again
        "fork",
        "forkpty",
        "ProcessPoolExecutor",
        "multiprocessing",
        "start_server",  # tests/bot/storage/pgserver.py: a PostgreSQL server
    }
)
TABLE_BUILDERS = (
    ("engine.tables", "build"),
    ("engine.tables.solved", "solve"),
    ("engine.tables.fullboard", "build_full_board"),
    ("engine.tables.missing", "build_missing"),
    ("bot.workers.tables", "start_building"),
)
"""The table builders: a test that calls one (or a helper of the tests that does) builds
tables."""
TABLE_FIXTURES = frozenset({"tables_root", "shax_small_tables_root"})
POSTGRES = re.compile("postgres(ql)?", re.IGNORECASE)
"""A parameter naming the database engine (as the storage suite's ``database``)."""
SLOW_KINDS = frozenset({"process", "postgres", "tables"})
"""The markers that make a test slow, given by what it uses or by hand."""


def _is_ours(obj: object) -> bool:
    module = getattr(obj, "__module__", None) or ""
    return module == "tests" or module.startswith("tests.")


def _code_of(obj: object) -> types.CodeType | None:
    obj = inspect.unwrap(obj) if callable(obj) else obj  # type: ignore[arg-type]
    code = getattr(obj, "__code__", None)
    return code if isinstance(code, types.CodeType) else None


def _codes(code: types.CodeType) -> Iterator[types.CodeType]:
    """``code`` and every function, lambda and comprehension defined inside it."""
    yield code
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _codes(const)


class _Uses:
    """The names a test's code reaches through the tests' own functions and classes, and
    the functions of the project it calls by them."""

    def __init__(self) -> None:
        self.names: set[str] = set()
        self.calls: set[tuple[str, str]] = set()
        self.seen: set[int] = set()

    def function(self, func: object) -> None:
        code = _code_of(func)
        if code is None or id(code) in self.seen:
            return
        self.seen.add(id(code))
        space: dict[str, Any] = getattr(inspect.unwrap(func), "__globals__", {})  # type: ignore[arg-type]
        for inner in _codes(code):
            self.names.update(inner.co_names)
            for name in inner.co_names:
                self.value(space.get(name), inner.co_names)

    def value(self, obj: object, names: tuple[str, ...], depth: int = 0) -> None:
        if isinstance(obj, types.ModuleType):
            if depth < 3:  # engine.tables.build: a module's module's function
                for name in names:
                    self.value(getattr(obj, name, None), names, depth + 1)
        elif isinstance(obj, types.FunctionType) and not _is_ours(obj):
            self.calls.add((obj.__module__, obj.__name__))
        elif isinstance(obj, type):
            if _is_ours(obj) and id(obj) not in self.seen:
                self.seen.add(id(obj))
                for member in vars(obj).values():
                    if isinstance(member, property):
                        member = member.fget
                    self.function(getattr(member, "__func__", member))
        elif callable(obj) and _is_ours(obj):
            self.function(obj)


def _fixture_functions(item: pytest.Item) -> Iterator[object]:
    info = getattr(item, "_fixtureinfo", None)
    for defs in getattr(info, "name2fixturedefs", {}).values():
        for fixturedef in defs:
            yield fixturedef.func


def markers_for(item: pytest.Item) -> set[str]:
    """The markers ``item`` earns by what it uses (see the module's docstring)."""
    uses = _Uses()
    function = getattr(item, "function", None)
    if function is not None:
        uses.function(function)
    for func in _fixture_functions(item):
        if _is_ours(func) or _is_ours(inspect.unwrap(func)):  # type: ignore[arg-type]
            uses.function(func)
    fixtures = set(getattr(item, "fixturenames", ()))
    callspec = getattr(item, "callspec", None)
    params = [v for v in callspec.params.values() if isinstance(v, str)] if callspec else []

    found = {m.name for m in item.iter_markers()} & SLOW_KINDS  # marked by hand
    if uses.names & PROCESS_NAMES:
        found.add("process")
    if "postgres_server" in fixtures or any(POSTGRES.fullmatch(p) for p in params):
        found.add("postgres")
    in_tables = (TESTS / "engine" / "tables") in Path(str(item.path)).parents
    if in_tables or fixtures & TABLE_FIXTURES or uses.calls & set(TABLE_BUILDERS):
        found.add("tables")
    if found:
        found.add("slow")
    return found


def _module_fixture(item: pytest.Item) -> bool:
    info = getattr(item, "_fixtureinfo", None)
    return any(
        fixturedef.scope == "module"
        for defs in getattr(info, "name2fixturedefs", {}).values()
        for fixturedef in defs
    )


def mark(items: list[pytest.Item]) -> None:
    """Give every item the markers it earns; the tests of a module that share a fixture
    built once per module run on one worker of ``pytest -n`` (``--dist loadgroup``), so
    it is built once."""
    for item in items:
        for name in sorted(markers_for(item) - {m.name for m in item.iter_markers()}):
            item.add_marker(name)
        if _module_fixture(item) and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
