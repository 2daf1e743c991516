"""The clocks' last runs and the time given back, on both engines: what a clock knows of
its last run (its own, another clock's, or a database's newest activity), and the time
given back once, even by two processes of one clock at the same moment."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from bot.storage import GameRow, NewChallenge, Storage
from tests.bot.storage.conftest import new_game

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)
HOUR = timedelta(hours=1)


def from_start(row: GameRow) -> tuple[datetime, bool]:
    """Every waiting turn counts from a fresh start (a test's rule, simpler than the
    clock's)."""
    return NOW + 10 * HOUR, False


async def test_a_clock_knows_its_last_run_else_the_newest_run_else_the_newest_activity(
    storage: Storage,
) -> None:
    assert await storage.clock.last_ran("all") is None  # an empty database
    await storage.games.create_game(new_game(7), NOW)
    challenge = NewChallenge(1, 8, None, 11, "Amina", 12, "Bashir", "jar", NOW + 2 * HOUR)
    made = await storage.challenges.create_challenge(challenge, NOW + HOUR)
    assert await storage.clock.last_ran("all") == NOW + HOUR  # written by an older bot
    await storage.challenges.resolve_challenge(made.id, "declined", NOW + 2 * HOUR)
    assert await storage.clock.last_ran("all") == NOW + 2 * HOUR
    await storage.clock.ran("0 of 2", NOW + 3 * HOUR)
    await storage.clock.ran("1 of 2", NOW + 4 * HOUR)
    assert await storage.clock.last_ran("0 of 2") == NOW + 3 * HOUR
    assert await storage.clock.last_ran("0,1 of 2") == NOW + 4 * HOUR  # a new layout


async def test_the_time_is_given_back_only_from_the_last_run_read(storage: Storage) -> None:
    game = await storage.games.create_game(new_game(7), NOW)
    await storage.clock.ran("all", NOW)
    assert (
        await storage.clock.give_time_back("all", NOW - HOUR, NOW + 10 * HOUR, from_start) is None
    )
    unchanged = await storage.games.get_game(game.id)
    assert unchanged is not None and unchanged.turn_started_at == NOW
    [given] = await storage.clock.give_time_back("all", NOW, NOW + 10 * HOUR, from_start) or []
    assert given.turn_started_at == NOW + 10 * HOUR
    assert given.version == game.version  # the board shown is still the game's
    assert await storage.clock.last_ran("all") == NOW + 10 * HOUR


async def test_two_processes_of_one_clock_give_the_time_back_once(
    two: tuple[Storage, Storage],
) -> None:
    first, second = two
    await first.games.create_game(new_game(7), NOW)
    await first.clock.ran("all", NOW)
    given = await asyncio.gather(
        *(s.clock.give_time_back("all", NOW, NOW + 10 * HOUR, from_start) for s in (first, second))
    )
    assert sorted(len(g) if g is not None else 0 for g in given) == [0, 1]
    assert given.count(None) == 1
