"""Puzzles answered at the same moment through two bot processes (two services over one
database), on SQLite and on PostgreSQL: the same player's answer to the same moment of
their puzzle (a double click on its menu) applies once, and players solving the same
puzzle at once all move its rating."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.service.facade import ShaxService
from bot.service.replies import Reply, StaleBoard, User
from tests.bot.conftest import BOT, HERE
from tests.bot.storage.conftest import database, postgres_server  # noqa: F401 - fixtures
from tests.services import FakeClock, open_service


@pytest.fixture
async def two(
    database: str | Path,  # noqa: F811 - the storage tests' fixture
    clock: FakeClock,
) -> AsyncIterator[tuple[ShaxService, ShaxService]]:
    async with contextlib.AsyncExitStack() as stack:
        services = [
            await stack.enter_async_context(
                open_service(database, bot_user=BOT, clock=clock, puzzle_rng=random.Random(n))
            )
            for n in (1, 2)
        ]
        yield services[0], services[1]


async def test_the_same_answer_from_two_processes_applies_once(
    two: tuple[ShaxService, ShaxService],
) -> None:
    a, b = two
    player = User(201, "Amina")
    await a.puzzles.puzzle(player, HERE, "shax-small")
    found = await a.puzzles.desk.open_try(player.id)
    assert found is not None
    first, seen = found.puzzle.solution[0], found.attempt
    results = await asyncio.gather(
        *(s.puzzles.answer(player, HERE, first, seen.id, seen.version) for s in (a, b, a, b)),
        return_exceptions=True,
    )
    assert sum(isinstance(r, Reply) for r in results) == 1
    assert all(isinstance(r, StaleBoard) for r in results if not isinstance(r, Reply))
    stored = await b.storage.puzzles.last_attempt(player.id, found.puzzle.id)
    assert stored is not None and stored.version == 1


async def test_players_solving_the_same_puzzle_at_once_all_move_its_rating(
    two: tuple[ShaxService, ShaxService],
) -> None:
    a, b = two
    players = [User(300 + n, f"p{n}") for n in range(6)]
    await a.puzzles.desk.ready()
    puzzle_id = (await a.storage.puzzles.puzzle_ids("shax-small"))[0]
    for player in players:
        await a.puzzles.desk.start_puzzle(player, puzzle_id, None)
    puzzle = await a.storage.puzzles.get_puzzle(puzzle_id)
    assert puzzle is not None

    async def solve(service: ShaxService, player: User) -> None:
        while (found := await service.puzzles.desk.open_try(player.id)) is not None:
            await service.play(player, HERE, found.puzzle.solution[len(found.attempt.played)])

    async def fail(service: ShaxService, player: User) -> None:
        await service.puzzles.give_up(player, HERE)

    await asyncio.gather(
        *((solve if n % 3 else fail)((a, b)[n % 2], p) for n, p in enumerate(players))
    )
    after = await b.storage.puzzles.get_puzzle(puzzle_id)
    assert after is not None and (after.tries, after.solves) == (6, 4)
    for n, player in enumerate(players):
        solver = await b.storage.puzzles.solver(player.id)
        assert solver is not None and solver.glicko is not None
        assert (solver.glicko.rating > 1500) == bool(n % 3)
