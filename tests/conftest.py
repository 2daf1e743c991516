"""Shared pytest configuration: the fake Discord fixtures (tests/fakediscord), an empty
endgame-table directory (so no test plays by tables a developer has built), the small
boards' tables built once (``tests/tables_cache.py``), and the markers each test earns by
what it uses (``tests/markers.py``)."""

from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import markers
from tests.tables_cache import SHAX_SMALL_STONES, cached_tables

pytest_plugins = ["tests.fakediscord.fixtures"]


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the xdist_group markers
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    markers.mark(items)


def pytest_sessionfinish(session: pytest.Session) -> None:
    """Stop the process's throwaway PostgreSQL server, if a test started it, and remove
    the migrated database the services' files are copied from."""
    from tests.bot.storage.pgserver import stop_shared_server

    stop_shared_server()
    services = sys.modules.get("tests.services")  # not imported where no test used it
    if services is not None:
        services.forget_migrated_database()


@pytest.fixture(autouse=True, scope="session")
def _no_endgame_tables() -> Iterator[None]:
    """Point ``SHAX_TABLES_DIR`` at an empty directory for the whole session (worker
    processes inherit it), and no background build of them (``SHAX_BUILD_TABLES``); tests
    of the tables build their own into a temporary one."""
    from engine.tables import forget_open_tables

    saved = os.environ.get("SHAX_TABLES_DIR")
    with tempfile.TemporaryDirectory(prefix="shax-no-tables-") as empty:
        os.environ["SHAX_TABLES_DIR"] = empty
        os.environ["SHAX_BUILD_TABLES"] = "off"
        forget_open_tables()
        yield
    forget_open_tables()
    if saved is None:
        os.environ.pop("SHAX_TABLES_DIR", None)
    else:
        os.environ["SHAX_TABLES_DIR"] = saved


def _build_shax_small(folder: Path) -> None:
    from engine.tables import build

    build("shax-small", SHAX_SMALL_STONES, folder, threads=2)


@pytest.fixture(scope="session")
def shax_small_tables_root() -> Path:
    """Every shax-small endgame table (read only: the folder is kept between sessions)."""
    return cached_tables(f"shax-small-{SHAX_SMALL_STONES}", _build_shax_small)


@pytest.fixture
def shax_small_tables(
    shax_small_tables_root: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[Path]:
    """Every shax-small endgame table, the default tables for one test."""
    from engine.tables import forget_open_tables

    monkeypatch.setenv("SHAX_TABLES_DIR", str(shax_small_tables_root))
    forget_open_tables()
    yield shax_small_tables_root
    forget_open_tables()
