"""The bot's own downtime is not charged to the players, across a restart of the real
process (``python -m bot``), on SQLite and on PostgreSQL: killed while a turn waits,
started again after longer than the turn, it ends no game, and tells the player on turn
once that their time starts again now."""

from __future__ import annotations

import asyncio
from pathlib import Path

from bot.storage import GameRow, Storage
from tests.bot.discord.helpers import Scene
from tests.bot.storage.conftest import database, postgres_server  # noqa: F401 - fixtures
from tests.e2e.conftest import game_version
from tests.e2e.processes import (
    ANSWER_SECONDS,
    START_SECONDS,
    BotProcess,
    assert_stopped_cleanly,
    click_first_option,
    next_board,
    process_scene,  # noqa: F401 - the fixture
    start_two_player_game,
    stop_running,
)

TURN = {"SHAX_TURN_TIMEOUT_SECONDS": "12", "SHAX_TICK_SECONDS": "0.5"}
"""A turn of 12 seconds (its warning after 6), the clock running every half second."""


async def stored(target: str | Path, game_id: int) -> GameRow:
    storage = await Storage.open(target)
    try:
        row = await storage.games.get_game(game_id)
    finally:
        await storage.close()
    assert row is not None
    return row


async def test_a_turn_waiting_while_the_bot_was_down_is_not_lost(
    process_scene: Scene,  # noqa: F811 - the fixture
    database: str | Path,  # noqa: F811 - the storage tests' fixture
) -> None:
    scene, fake = process_scene, process_scene.fake
    url = f"sqlite:///{database}" if isinstance(database, Path) else database
    settings = {**TURN, "SHAX_DATABASE_URL": url}
    first = await BotProcess(scene, "first", **settings).start()
    second: BotProcess | None = None
    try:
        board = await start_two_player_game(scene)
        game_id, version = game_version(board)
        for _ in range(2):  # each side makes its first move: a timeout now would be a loss
            await click_first_option(scene, board)
            version += 1
            board = await next_board(scene, game_id, version)
        await first.kill()
        await asyncio.sleep(14)  # longer than the whole turn

        second = await BotProcess(scene, "second", **settings).start()

        def resumed() -> str | None:
            texts = [m.content for m in fake.messages(scene.channel)]
            return next((t for t in texts if "the bot was away for" in t), None)

        said = await fake.wait_for(resumed, timeout=START_SECONDS, what="the clock resumed")
        assert said.startswith(f"⏳ {scene.amina.mention}, the bot was away for "), said
        assert "starts again now" in said
        assert (await stored(database, game_id)).status == "active"
        texts = [m.content for m in fake.messages(scene.channel)]
        assert not any("ran out of time" in t for t in texts), texts

        # Her turn then runs on as usual: the warning first, then the forfeit.
        def ran_out() -> list[str] | None:
            texts = [m.content for m in fake.messages(scene.channel)]
            return texts if any("Amina ran out of time" in t for t in texts) else None

        texts = await fake.wait_for(ran_out, timeout=ANSWER_SECONDS, what="the turn run out")
        [warned] = [i for i, t in enumerate(texts) if "or you forfeit the game" in t]
        [lost] = [i for i, t in enumerate(texts) if "Amina ran out of time" in t]
        assert warned < lost
    finally:
        await stop_running(first, second)
    assert_stopped_cleanly(second)
    fake.assert_clean()
