"""A game against the bot at its strongest level, with the real AI in its process pool.

The master bot thinks ~4.5 s per action, longer than Discord's 3 s acknowledgement
deadline: the bot must defer first, keep answering everyone else meanwhile, and never
let the gateway heartbeat fall behind. Two bot actions keep the test short.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable
from typing import Any

import pytest

from bot.discord.custom_ids import resign_id
from bot.workers.ai import AIPool
from tests.bot.discord.helpers import Scene, act_select, bot_running, option_values
from tests.e2e.conftest import (
    assert_board_png,
    assert_refused,
    game_state,
    game_version,
    open_service,
)

HEARTBEAT = 0.5
"""Seconds between heartbeats the fake asks for (Discord: ~41 s; short here for many samples)."""
SLACK = 0.5
"""How late a heartbeat may be before the fake records it as a violation."""
BOT_TURN = 20.0
"""Seconds to wait for the bot's action: the level's budget plus its grace, with room."""


async def while_thinking(*interactions: Awaitable[Any]) -> list[Any]:
    """Other interactions sent while the AI thinks; each must be acknowledged in time
    (``FakeDiscord`` raises ``InteractionNotAcknowledged`` otherwise)."""
    return list(await asyncio.gather(*interactions))


@pytest.mark.process  # the real AI pool: the master thinks in a worker process
async def test_the_master_bot_thinks_without_missing_a_deadline_or_a_heartbeat(
    scene: Scene,
) -> None:
    fake = scene.fake
    fake.heartbeat_interval = HEARTBEAT
    fake.gateway.heartbeat_tolerance = SLACK
    pool = AIPool(1)
    try:
        async with (
            open_service(scene, ai=pool) as service,
            bot_running(scene, service) as bot,
        ):
            started = asyncio.ensure_future(
                fake.slash(
                    scene.amina,
                    scene.channel,
                    "shax",
                    "play-bot",
                    {"level": "master", "variant": "shax", "first": "bot"},
                )
            )
            await fake.wait_for(
                lambda: fake.results and fake.results[-1].acknowledged, what="the deferral"
            )
            others = await while_thinking(
                fake.slash(scene.cawo, scene.channel, "shax", "rules", {"variant": "jar"}),
                fake.slash(scene.bashir, scene.channel, "shax", "streak"),
                fake.slash(scene.amina, scene.channel, "shax", "move", {"action": "d7"}),
                fake.autocomplete(
                    scene.amina, scene.channel, "shax", "move", {"action": ""}, focused="action"
                ),
            )
            for other in others[:3]:
                await other.wait_until(lambda r: r.message is not None and not r.message.loading)
            assert "thinking" in assert_refused(others[2])
            assert others[3] == []  # nothing to offer while it is the bot's turn

            command = await started
            assert command.response_type == 5, "the bot must defer while it thinks"
            board = await command.wait_for_response(timeout=BOT_TURN)
            assert_board_png(board, "shax")
            game_id, version = game_version(board)
            record, stored_version, _ = game_state(scene.db_path, game_id)
            assert len(record) == 1 and stored_version == version
            assert scene.amina.mention in board.content

            select = act_select(board)
            move = await fake.select(
                scene.amina, board, select["custom_id"], [option_values(select)[0]]
            )
            assert move.response_type == 6, "a deferred update while the bot thinks"
            # Meanwhile: the same player again on the not yet updated board, a bystander.
            again, nosy, resign = await while_thinking(
                fake.select(scene.amina, board, select["custom_id"], [option_values(select)[1]]),
                fake.select(scene.cawo, board, select["custom_id"], [option_values(select)[1]]),
                fake.click(scene.cawo, board, resign_id(game_id, version)),
            )
            assert "out of date" in assert_refused(again)
            assert_refused(nosy, "only they can play")
            assert_refused(resign, "only they can play")

            # The bot's answer edits the board in place: Amina, who clicked, is on turn again.
            await move.wait_until(lambda r: r.edit_count or r.followup_ids, timeout=BOT_TURN)
            assert await bot.responder.wait_idle(10)
            final = fake.message(board.id)
            assert game_version(final) == (game_id, version + 2)
            assert_board_png(final, "shax")
            record, stored_version, status = game_state(scene.db_path, game_id)
            assert len(record) == 3 and stored_version == version + 2 and status == "active"
            assert record[1] == option_values(select)[0]
    finally:
        pool.shutdown()

    gaps = fake.heartbeat_gaps()
    assert len(gaps) >= 10, gaps
    assert max(gaps) < HEARTBEAT + SLACK, f"a heartbeat came {max(gaps):.2f}s after the last"
    assert all(r.acknowledged and not r.expired for r in fake.results)
    assert fake.violations == []
    fake.assert_clean()
