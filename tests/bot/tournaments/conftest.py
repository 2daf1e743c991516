"""Tournaments over a real service, on SQLite and on PostgreSQL: the storage tests'
``database`` (each test that takes ``events`` runs on both engines), a clock the test
moves, four players, and the adapter's part played by hand (each pairing opened in a
thread of its own)."""

from __future__ import annotations

import random
from datetime import UTC, datetime

import pytest

from bot.service.facade import ShaxService
from bot.service.replies import (
    BoardControls,
    DestinationControls,
    Notice,
    Place,
    Reply,
    User,
)
from bot.tournaments.notices import OpenedGame, PairingToOpen
from bot.tournaments.rows import Event
from tests.bot.conftest import AMINA, BASHIR, CAWO
from tests.bot.storage.conftest import (  # noqa: F401 - fixtures
    Processes,
    database,
    postgres_server,
    processes,
)
from tests.services import FakeClock

DAHIR = User(104, "Dahir")
PLAYERS = (AMINA, BASHIR, CAWO, DAHIR)
GUILD = 10
HALL = Place(GUILD, 700)
"""The channel the tournaments are made in."""
THREADS = 50_000
"""Pairing ``n``'s game is played in the thread ``THREADS + n`` of the hall."""

Open = Processes


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock(datetime(2024, 5, 1, 12, 0, tzinfo=UTC))


@pytest.fixture
def events(processes: Open) -> Open:  # noqa: F811 - the storage tests' fixture
    """Opens services (bot processes) over the test's database; all closed at the end."""
    return processes


def thread(pairing_id: int) -> Place:
    return Place(GUILD, THREADS + pairing_id, parent_channel_id=HALL.channel_id)


async def tick(service: ShaxService) -> tuple[list[Notice], list[OpenedGame]]:
    """One run of the tournaments, with the adapter's part: each pairing that wants a
    place is opened in its thread. The announcements, and the games opened."""
    said: list[Notice] = []
    opened: list[OpenedGame] = []
    for item in await service.tournaments.tick():
        if isinstance(item, PairingToOpen):
            opened.append(
                await service.tournaments.open_game(item.pairing_id, thread(item.pairing_id))
            )
        else:
            said.append(item)
    return said, opened


async def event_in(service: ShaxService, place: Place = HALL) -> Event:
    found = await service.tournaments.store.last_in(place.channel_id)
    assert found is not None
    event = await service.tournaments.store.event(found.id)
    assert event is not None
    return event


async def started(service: ShaxService, *more: User, **options: str) -> None:
    """A tournament in the hall, made by Amina with Bashir, Cawo and ``more`` joined, and
    started (``options``: ``/shax tournament create``'s)."""
    t = service.tournaments
    await t.create(AMINA, HALL, **options)
    for player in (BASHIR, CAWO, *more):
        await t.join(player, HALL)
    await t.start(AMINA, HALL, may_manage=False)


def by_id(user_id: int) -> User:
    return next(u for u in PLAYERS if u.id == user_id)


async def white_wins(service: ShaxService, games: list[OpenedGame]) -> None:
    """Every game ends, white the winner (black resigns)."""
    for game in games:
        controls = game.reply
        assert controls.game_id is not None
        row = await service.kernel.game(controls.game_id)
        await service.turns.resign(by_id(row.black_id), game.place)


async def play_out(service: ShaxService, game: OpenedGame, seed: int) -> Reply:
    """Both players click random legal choices until the game ends: its final board."""
    rng = random.Random(seed)
    reply = game.reply
    while True:
        controls = reply.controls
        assert isinstance(controls, BoardControls)
        if controls.rematch:
            return reply
        user = await service.on_turn(controls.game_id)
        assert user is not None
        menu = controls.menu(25)
        value = rng.choice(menu.choices).value
        if menu.two_step:
            step = await service.play(user, game.place, value, controls.game_id, controls.version)
            assert isinstance(step.controls, DestinationControls)
            value = rng.choice(step.controls.choices).value
        reply = await service.play(user, game.place, value, controls.game_id, controls.version)
