"""The small endgame tables, built once per test session into a temporary directory."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.tables import Tables, build, forget_open_tables, open_tables
from engine.tables.solved import SOLVED_BOARDS, solve

SMALL = {"jar": 3, "shax-small": 8, "shax": 4}
"""The tables the suite builds: every material of the small boards (and their placement,
solved), shax up to 4 v 4."""


@pytest.fixture(scope="session")
def tables_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("tables")
    for variant, stones in SMALL.items():
        build(variant, stones, root, threads=2)
    for variant in SOLVED_BOARDS:
        solve(variant, root, threads=2)
    return root


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
