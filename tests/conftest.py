"""Shared pytest configuration: the fake Discord fixtures (tests/fakediscord), and an
empty endgame-table directory, so no test plays by tables a developer has built."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterator

import pytest

pytest_plugins = ["tests.fakediscord.fixtures"]


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
