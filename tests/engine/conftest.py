"""Shared by the engine's tests: shax-small's endgame tables, built once a session."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from engine.tables import build, forget_open_tables


@pytest.fixture(scope="session")
def shax_small_tables_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("shax-small-tables")
    build("shax-small", 8, root, threads=2)
    return root


@pytest.fixture
def shax_small_tables(
    shax_small_tables_root: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """Every shax-small endgame table, the default tables for one test."""
    monkeypatch.setenv("SHAX_TABLES_DIR", str(shax_small_tables_root))
    forget_open_tables()
    yield shax_small_tables_root
    forget_open_tables()
