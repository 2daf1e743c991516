"""Fixtures for the bot's core: a temporary database, an injected clock, an in-thread AI."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

from bot.discord.render import MAX_CHOICES as MENU_SIZE
from bot.service.facade import ShaxService
from bot.service.replies import BoardControls, Place, Reply, User
from bot.workers.ai import Chooser, random_chooser
from tests.services import FakeClock, open_service

AMINA = User(101, "Amina")
BASHIR = User(102, "Bashir")
CAWO = User(103, "Cawo")
BOT = User(999, "Shax bot", is_bot=True)
OTHER_BOT = User(998, "Some other bot", is_bot=True)
GUILD = 10
HERE = Place(GUILD, 500)
THREAD = Place(GUILD, 501, parent_channel_id=500)
ELSEWHERE = Place(GUILD, 502)


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2024, 5, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "shax.db"


ServiceFactory = Callable[..., Awaitable[ShaxService]]


@pytest.fixture
async def make_service(db_path: Path, clock: FakeClock) -> AsyncIterator[ServiceFactory]:
    """Opens services over the test's database file (several may be opened, as after a
    restart); all are closed at the end."""
    async with contextlib.AsyncExitStack() as stack:

        async def factory(chooser: Chooser = random_chooser, **options: Any) -> ShaxService:
            return await stack.enter_async_context(
                open_service(db_path, bot_user=BOT, clock=clock, chooser=chooser, **options)
            )

        yield factory


@pytest.fixture
async def service(make_service: ServiceFactory) -> ShaxService:
    return await make_service()


async def start_game(service: ShaxService, variant: str = "shax", place: Place = HERE) -> Reply:
    """Amina challenges Bashir, Bashir accepts: Amina (the challenger) is white."""
    await service.challenges.challenge(AMINA, BASHIR, place, variant)
    return await service.challenges.accept(BASHIR, place)


def on_turn(reply: Reply) -> User:
    """The player the board reply asks to act (the first mention)."""
    return {AMINA.id: AMINA, BASHIR.id: BASHIR, CAWO.id: CAWO}[reply.mentions[0]]


def board_controls(reply: Reply) -> BoardControls:
    assert isinstance(reply.controls, BoardControls)
    return reply.controls


async def play_random_game(
    service: ShaxService, reply: Reply, seed: int, place: Place = HERE, limit: int = 2000
) -> Reply:
    """Click random legal choices on the live board (both players) until the game ends."""
    rng = random.Random(seed)
    for _ in range(limit):
        controls = board_controls(reply)
        if controls.rematch:
            return reply
        user = on_turn(reply)
        menu = controls.menu(MENU_SIZE)
        value = rng.choice(menu.choices).value
        if menu.two_step:
            step = await service.play(user, place, value, controls.game_id, controls.version)
            value = rng.choice(step.controls.choices).value  # type: ignore[union-attr]
        reply = await service.play(user, place, value, controls.game_id, controls.version)
    raise AssertionError("the game did not end")
