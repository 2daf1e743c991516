"""Every way a board reaches the channel records the version it shows.

The version each game's shown board displays is what the bot reconciles against on
every start and reconnect: a path that shows a board without recording it would have
its board posted again. Here: a move made from the ephemeral destination picker, which
edits the game's board message by id (in a bot game the human is on turn again, so
nobody else needs a fresh message). And a board that cannot be shown because its
channel is closed to the bot is given up once, not tried on every reconnect.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from concurrent.futures import ThreadPoolExecutor

import pytest
import pytest_asyncio

import bot.discord.render
from bot.discord import ShaxBotBase
from bot.discord.cogs import notices
from bot.service.facade import ShaxService
from bot.service.replies import Place, User
from bot.workers.ai import AIPool, random_chooser
from tests.bot.discord.helpers import (
    Scene,
    act_select,
    bot_running,
    live_boards,
    option_values,
    shown,
)
from tests.e2e.conftest import (
    Live,
    game_row,
    game_state,
    game_version,
    on_turn,
    open_service,
    start_game,
)
from tests.fakediscord.faults import ANSWERS, CALLBACKS, CHANNEL_MESSAGES

LOOKED = "Boards the players have not seen:"
PLACEMENT = ("b1", "a1", "b2", "a3", "b3", "c1")
"""A jar placement in which white makes the first line (b1 b2 b3), so white moves first,
with two stones that can move: b2 (to a2 or c2) and b3 (to c3)."""


def scripted(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
    """The bot places as :data:`PLACEMENT` says, then plays seeded random moves."""
    if len(record) < len(PLACEMENT):
        return PLACEMENT[len(record)]
    return random_chooser(variant, record, level, seed)


@pytest_asyncio.fixture
async def bot_game(scene: Scene) -> AsyncIterator[tuple[ShaxService, ShaxBotBase]]:
    executor = ThreadPoolExecutor(max_workers=1)
    ai = AIPool(1, chooser=scripted, executor=executor)
    try:
        async with open_service(scene, ai=ai) as service, bot_running(scene, service) as bot:
            yield service, bot
    finally:
        executor.shutdown(wait=True)
    scene.fake.assert_clean()


async def test_a_move_from_the_destination_picker_records_the_board_it_shows(
    scene: Scene,
    bot_game: tuple[ShaxService, ShaxBotBase],
    monkeypatch: pytest.MonkeyPatch,
    caplog: pytest.LogCaptureFixture,
) -> None:
    service, running = bot_game
    fake = scene.fake
    started = await fake.slash(
        scene.amina, scene.channel, "shax", "play-bot", {"variant": "jar", "first": "me"}
    )
    await shown(running, started)
    amina = User(scene.amina.id, scene.amina.display_name)
    here = Place(fake.guild_id, scene.channel.id)
    for point in PLACEMENT[::2]:  # the bot answers each with the next point
        await service.play(amina, here, point)
    monkeypatch.setattr(bot.discord.render, "MAX_CHOICES", 2)  # stones first, then where
    board = await shown(running, await fake.slash(scene.amina, scene.channel, "shax", "board"))
    game_id, version = game_version(board)
    assert game_row(scene.db_path, game_id)["shown_version"] == version

    # While Discord refuses answers, a picker (only for the clicker) is given up quietly.
    running.responder.callback_window = 1.5
    fake.faults.add(CALLBACKS, status=500)
    messages = [m.id for m in fake.messages(scene.channel)]
    lost = await fake.select(
        scene.amina, board, act_select(board)["custom_id"], ["b2"], expect_ack=False
    )
    assert await running.responder.wait_answered(10) and not lost.acknowledged
    assert [m.id for m in fake.messages(scene.channel)] == messages
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
    assert "could not be answered" in caplog.text
    fake.faults.clear()
    assert {v.code for v in fake.violations} == {10062}
    fake.violations.clear()

    picker = await fake.select(scene.amina, board, act_select(board)["custom_id"], ["b2"])
    assert picker.ephemeral and picker.message is not None
    to_select = picker.message.selects()[0]
    moved = await fake.select(scene.amina, picker.message, to_select["custom_id"], ["b2-c2"])
    await shown(running, moved)

    (edited,) = live_boards(fake, scene.channel)
    assert edited.id == board.id and "b2-c2" in edited.content  # edited by id, in place
    row = game_row(scene.db_path, game_id)
    assert row["version"] > version and row["shown_version"] == row["version"]
    assert row["board_message_id"] == board.id
    assert row["status"] == "active" and option_values(act_select(edited))


async def test_an_unshown_board_whose_channel_is_closed_is_given_up_once(
    live: Live, caplog: pytest.LogCaptureFixture
) -> None:
    scene, fake = live.scene, live.fake
    caplog.set_level(logging.INFO, logger=notices.__name__)
    live.bot.responder.callback_window = 1.5
    board = await start_game(live)
    game_id, version = game_version(board)
    fake.faults.add(*ANSWERS, status=503)  # nothing can be shown
    select = act_select(board)
    action = option_values(select)[0]
    await fake.select(on_turn(scene, board), board, select["custom_id"], [action], expect_ack=False)
    assert await live.bot.responder.wait_answered(10)
    assert game_state(scene.db_path, game_id)[1] == version + 1
    assert game_row(scene.db_path, game_id)["shown_version"] == version

    fake.faults.clear()
    fake.faults.add(CHANNEL_MESSAGES, status=403)  # the bot lost its access to the channel
    fake.drop_connections()  # on resuming, the bot tries to show the board: forbidden
    await fake.wait_for(
        lambda: game_row(scene.db_path, game_id)["shown_version"] == version + 1,
        what="the board given up",
    )
    fake.faults.clear()
    checks = caplog.text.count(LOOKED)
    requests = len(fake.world.requests)
    fake.drop_connections()
    await fake.wait_for(lambda: caplog.text.count(LOOKED) > checks, what="a look on resume")
    assert not [r for r in fake.world.requests[requests:] if "/messages" in r.path]
    assert {v.code for v in fake.violations} == {10062}, fake.violations
    fake.violations.clear()
