"""The clock through the fake Discord, on SQLite and on PostgreSQL: while Discord cannot
reach the bot (a gateway outage) no move can come, so no turn runs down; when the bot is
back, each waiting game is told once that its time starts again, and nobody has lost."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import cast

import pytest_asyncio

from bot.discord.cogs.notices import Notices, gateway_open
from tests import services
from tests.bot.discord.helpers import Scene, bot_running, shown
from tests.bot.storage.conftest import database, postgres_server  # noqa: F401 - fixtures
from tests.e2e.conftest import Live, game_version, start_game
from tests.fakediscord import FakeUser
from tests.services import FakeClock

HOUR = 3600.0


@pytest_asyncio.fixture
async def live(
    scene: Scene,
    database: str | Path,  # noqa: F811 - the storage tests' fixture
) -> AsyncIterator[Live]:
    """A ready in-process bot over a service on SQLite or PostgreSQL."""
    clock = FakeClock()
    async with (
        services.open_service(database, bot_user=scene.bot_user, clock=clock) as service,  # type: ignore[arg-type]
        bot_running(scene, service) as bot,
    ):
        yield Live(scene, service, bot, clock)
    scene.fake.assert_clean()


async def status(live: Live, game_id: int) -> str:
    row = await live.service.storage.games.get_game(game_id)
    assert row is not None
    return row.status


async def play(live: Live, player: FakeUser, action: str) -> None:
    result = await live.fake.slash(player, live.scene.channel, "shax", "move", {"action": action})
    await shown(live.bot, result)


def said(live: Live) -> list[str]:
    return [m.content for m in live.fake.messages(live.scene.channel)]


async def test_a_gateway_outage_is_not_charged_to_the_player_on_turn(live: Live) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live, "shax")
    game_id, _ = game_version(board)
    await play(live, scene.amina, "d7")
    await play(live, scene.bashir, "a7")  # Amina's turn; both have moved
    # The extension's own module (load_extension imports a fresh copy, hence the cast).
    notices = cast("Notices", live.bot.get_cog("Notices"))
    await notices.tick()
    before = said(live)

    assert fake.gateway_outage(attempts=3) == 1
    await fake.wait_for(lambda: not gateway_open(live.bot), what="the gateway down")
    for _ in range(30):  # the loop goes on ticking through thirty hours of outage
        live.clock.advance(seconds=HOUR)
        await notices.tick()
    assert said(live) == before, "a turn ran down while Discord could not reach the bot"
    assert await status(live, game_id) == "active"

    await fake.wait_for(lambda: gateway_open(live.bot), timeout=30, what="the bot back")
    await notices.tick()
    [back] = [text for text in said(live) if text not in before]
    assert back.startswith(f"⏳ {scene.amina.mention}, the bot was away for 30 hours")
    assert "Play within 24 hours." in back
    await notices.tick()
    assert len(said(live)) == len(before) + 1  # said once
    assert await status(live, game_id) == "active"
