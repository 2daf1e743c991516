"""How each engine runs a call: SQLite's in one trip to its connection's thread, PostgreSQL's
on a connection kept open between calls."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from datetime import UTC, datetime
from pathlib import Path

import pytest
from sqlalchemy.pool import AsyncAdaptedQueuePool

from bot.storage import (
    ChannelTaken,
    GameResult,
    Storage,
    Termination,
)
from bot.storage.dialects import Postgres
from tests.bot.storage.conftest import fresh_postgres, new_game, scored
from tests.bot.storage.pgserver import PostgresServer

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


async def test_each_sqlite_call_is_one_trip_to_its_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A call runs whole in the connection's thread, a transaction included: one trip each."""
    storage = await Storage.open(tmp_path / "s.db")
    trips: list[object] = []
    queued = ThreadPoolExecutor.submit

    def counted(self: ThreadPoolExecutor, fn: Callable[[], object]) -> Future[object]:
        trips.append(fn)
        return queued(self, fn)

    monkeypatch.setattr(ThreadPoolExecutor, "submit", counted)
    try:
        game = await storage.games.create_game(new_game(), NOW)
        moved = await storage.games.update_game(
            game.id, 0, record=["a1"], draw_offered_by=None, now=NOW, new_turn=True
        )
        assert moved is not None and await storage.games.get_game(game.id) == moved
        finished = await storage.games.finish_game(
            game.id,
            1,
            record=["a1", "a4"],
            result=GameResult.WHITE,
            termination=Termination.RESIGNATION,
            now=NOW,
            **scored(
                [(11, "p11", "human", "win"), (12, "p12", "human", "loss")],
                ("u:11", "u:12", "u:11"),
            ),
        )
        assert finished is not None and finished.tallies[11][1].wins == 1
        assert len(trips) == 4
    finally:
        await storage.close()


async def test_postgresql_calls_keep_one_connection_open_between_them(
    postgres_server: PostgresServer,
) -> None:
    """One call after another runs on the same open connection (taking one from the
    engine's pool and giving it back costs more than most calls), an error of the call's
    own included; two at once use two."""
    storage = await Storage.open(await fresh_postgres(postgres_server))
    assert isinstance(storage._d, Postgres)
    pool = storage._d.engine.pool
    assert isinstance(pool, AsyncAdaptedQueuePool)
    try:
        game = await storage.games.create_game(new_game(), NOW)
        for _ in range(5):
            assert await storage.games.get_game(game.id) == game
        with pytest.raises(ChannelTaken):
            await storage.games.create_game(new_game(), NOW)
        assert pool.checkedout() == 1
        await asyncio.gather(*(storage.games.get_game(game.id) for _ in range(2)))
        assert pool.checkedout() == 2
    finally:
        await storage.close()
    assert pool.checkedout() == 0
