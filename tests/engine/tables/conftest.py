"""The small endgame tables, built once for every session (``tests/tables_cache.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.tables import Tables, build, forget_open_tables, open_tables
from engine.tables.solved import SOLVED_BOARDS, solve
from tests.tables_cache import SHAX_SMALL_STONES, cached_tables, link_tables

SMALL = {"jar": 3, "shax-small": SHAX_SMALL_STONES, "shax": 4}
"""The tables the suite builds: every material of the small boards (and their placement,
solved), shax up to 4 v 4."""


@pytest.fixture(scope="session")
def tables_root(shax_small_tables_root: Path) -> Path:
    """Every table of :data:`SMALL`, and the small boards solved (read only: the folder is
    kept between sessions)."""

    def make(folder: Path) -> None:
        link_tables(shax_small_tables_root, folder)  # built already: not built again
        for variant, stones in SMALL.items():
            build(variant, stones, folder, threads=2)
        for variant in SOLVED_BOARDS:
            solve(variant, folder, threads=2)

    name = "+".join(f"{variant}-{stones}" for variant, stones in SMALL.items())
    return cached_tables(f"{name}+solved", make)


@pytest.fixture(scope="session")
def small_tables(tables_root: Path) -> dict[str, Tables]:
    found = {v: open_tables(v, tables_root) for v in SMALL}
    out = {v: t for v, t in found.items() if t is not None}
    assert set(out) == set(SMALL)
    return out


@pytest.fixture
def use_tables(tables_root: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Make the built tables the default ones for one test."""
    monkeypatch.setenv("SHAX_TABLES_DIR", str(tables_root))
    forget_open_tables()
    yield tables_root
    forget_open_tables()
