"""Every click and command is answered in words, whatever a client sends.

A control whose custom id is none of the bot's (cut short, unknown, written with other
digits than 0–9) reaches no component; a Rematch button moved onto another message
names a game that message is not; a command whose ``options`` or ``resolved`` is null
cannot be read. Each gets a short private sentence (never Discord's "This interaction
failed"), nothing changes, and the log has one line about it.
"""

from __future__ import annotations

import logging
from typing import Any

import pytest

from bot.discord.custom_ids import rematch_id
from bot.discord.errors import UNKNOWN_CONTROL, UNREADABLE_COMMAND
from tests.bot.discord.helpers import button_ids
from tests.e2e.conftest import (
    Live,
    assert_refused,
    db_rows,
    game_version,
    stale_click,
    start_game,
)
from tests.fakediscord import FakeMessage

FORGED = [
    "shax:act:12",  # cut short
    "shax:act:",
    "shax:resign:",
    "shax:teleport:1:2",  # no such control
    "shax:resign:١٢:0",  # Arabic-Indic digits
    "shax:act:１２:３",  # fullwidth digits
    "shax:accept:٣",
    "not-ours-at-all",
]


def forged_message(live: Live, custom_id: str) -> FakeMessage:
    """A message of the bot's in #shax with one button whose custom id is ``custom_id``."""
    button = {"type": 2, "style": 2, "label": "?", "custom_id": custom_id}
    stored = live.fake.world.create_message(
        live.scene.channel,
        live.fake.bot_user,
        {"content": "a board", "components": [{"type": 1, "components": [button]}]},
    )
    return live.fake.message(stored.id)


@pytest.mark.parametrize("custom_id", FORGED)
async def test_a_control_that_is_none_of_the_bots_is_answered_in_words(
    live: Live, custom_id: str
) -> None:
    before = db_rows(live.scene.db_path)
    message = forged_message(live, custom_id)
    result = await stale_click(live.fake, live.scene.amina, message, custom_id)
    await result.wait_until(lambda r: r.message is not None)
    assert assert_refused(result) == UNKNOWN_CONTROL
    assert db_rows(live.scene.db_path) == before


async def test_a_rematch_button_moved_onto_another_message_is_answered_in_words(
    live: Live,
) -> None:
    scene, fake = live.scene, live.fake
    board = await start_game(live)
    game_id, _ = game_version(board)
    # Cawo, who did not play, presses a Rematch button that names Amina's game, on a
    # message of another game's.
    other = forged_message(live, rematch_id(game_id))
    before = db_rows(scene.db_path)
    result = await stale_click(fake, scene.cawo, other, rematch_id(game_id))
    await result.wait_until(lambda r: r.message is not None)
    assert_refused(result)
    assert db_rows(scene.db_path) == before
    # The same id, for a game that never was
    result = await stale_click(fake, scene.amina, other, rematch_id(game_id + 1000))
    await result.wait_until(lambda r: r.message is not None)
    assert_refused(result)
    assert db_rows(scene.db_path) == before
    assert rematch_id(game_id) not in button_ids(board)


def shax_command(live: Live) -> dict[str, Any]:
    command = live.fake.world.find_command("shax", live.fake.guild_id)
    assert command is not None
    return command


@pytest.mark.parametrize(
    "broken",
    [
        {"options": None},
        {"options": [{"name": "challenge", "type": 1, "options": None}]},
        {
            "options": [
                {
                    "name": "challenge",
                    "type": 1,
                    "options": [{"name": "opponent", "type": 6, "value": "1"}],
                }
            ],
            "resolved": None,
        },
    ],
    ids=["options null", "sub-options null", "resolved null"],
)
async def test_a_command_discord_sent_incomplete_is_answered_in_words(
    live: Live, broken: dict[str, Any], caplog: pytest.LogCaptureFixture
) -> None:
    scene = live.scene
    data = {"id": shax_command(live)["id"], "name": "shax", "type": 1, **broken}
    before = db_rows(scene.db_path)
    with caplog.at_level(logging.INFO):
        result = await live.fake.raw_command(scene.amina, scene.channel, data)
        await result.wait_until(lambda r: r.message is not None)
    assert assert_refused(result) == UNREADABLE_COMMAND
    assert db_rows(scene.db_path) == before
    about = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(about) == 1, [r.getMessage() for r in about]
    assert "Could not read a /shax command" in about[0].getMessage()
    assert about[0].exc_info is None
    assert "Task exception was never retrieved" not in caplog.text
