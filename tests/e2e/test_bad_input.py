"""What a client of another version, a tampered one, or Discord's own gaps can send: each
gets a sentence that says what to do, and nothing changes; never "Something went wrong".
Also the context-menu challenge and the invite link the bot logs on start."""

from __future__ import annotations

import logging
import re
from typing import Any

import pytest

from bot.discord import ShaxBotBase
from bot.discord.errors import DM_ONLY_IN_SERVERS, MENTION_AGAIN, NOT_TEXT, OUT_OF_DATE
from bot.discord.invite import PERMISSIONS, application_id_of, invite_url
from bot.discord.respond import SORRY
from tests.bot.discord.helpers import (  # noqa: F401 (the *_fixture names are fixtures)
    Scene,
    mentioned_ids,
    running_bot_fixture,
    scene_fixture,
    service_fixture,
    shown,
)
from tests.e2e.conftest import db_rows


def shax_command(scene: Scene) -> dict[str, Any]:
    command = scene.fake.world.find_command("shax", scene.fake.guild_id)
    assert command is not None
    return command


def raw(scene: Scene, sub: str, options: list[dict[str, Any]]) -> dict[str, Any]:
    command = shax_command(scene)
    return {
        "id": command["id"],
        "name": "shax",
        "type": 1,
        "options": [{"name": sub, "type": 1, "options": options}],
    }


async def test_an_option_of_the_wrong_type_is_named_not_failed(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    before = db_rows(scene.db_path)
    data = raw(scene, "play-bot", [{"name": "level", "type": 4, "value": 5}])
    result = await scene.fake.raw_command(scene.amina, scene.channel, data)
    await result.wait_until(lambda r: r.ephemeral)
    assert result.content == NOT_TEXT
    assert db_rows(scene.db_path) == before


async def test_a_missing_option_asks_for_a_sync_and_says_what_to_do(
    scene: Scene, running_bot: ShaxBotBase, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        result = await scene.fake.raw_command(
            scene.amina, scene.channel, raw(scene, "challenge", [])
        )
        await result.wait_until(lambda r: r.ephemeral)
    assert result.content == OUT_OF_DATE
    assert "python -m bot sync" in caplog.text
    assert "Traceback" not in caplog.text


async def test_an_unknown_subcommand_lists_every_registered_command(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    result = await scene.fake.raw_command(scene.amina, scene.channel, raw(scene, "nuke", []))
    await result.wait_until(lambda r: r.ephemeral)
    assert result.content is not None and result.content != SORRY
    assert "There is no /shax nuke command" in result.content
    listed = re.findall(r"/shax ([a-z-]+)", result.content.split("command", 1)[1])
    registered = [sub["name"] for sub in shax_command(scene)["options"]]
    assert listed == registered
    assert {"hint", "review", "theme", "settings", "rating", "puzzle"} <= set(listed)


async def test_a_challenge_in_a_dm_is_refused_with_a_reason(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    dm = scene.fake.dm_channel(scene.amina)
    result = await scene.fake.slash(
        scene.amina, dm, "shax", "challenge", {"opponent": scene.bashir}
    )
    await result.wait_until(lambda r: r.ephemeral)
    assert result.content == DM_ONLY_IN_SERVERS
    assert db_rows(scene.db_path)["challenges"] == []


@pytest.mark.parametrize("custom_id", [f"shax:resign:{'9' * 30}:0", f"shax:act:{2**63}:1"])
async def test_a_forged_game_id_names_no_game(
    scene: Scene, running_bot: ShaxBotBase, custom_id: str
) -> None:
    fake = scene.fake
    row = {"type": 1, "components": [{"type": 2, "style": 2, "label": "x", "custom_id": custom_id}]}
    if custom_id.startswith("shax:act:"):
        select = {"type": 3, "custom_id": custom_id, "options": [{"label": "d7", "value": "d7"}]}
        row = {"type": 1, "components": [select]}
    stored = fake.world.create_message(
        scene.channel, fake.bot_user, {"content": "a forged board", "components": [row]}
    )
    if custom_id.startswith("shax:act:"):
        result = await fake.select(scene.amina, stored.id, custom_id, ["d7"])
    else:
        result = await fake.click(scene.amina, stored.id, custom_id)
    await result.wait_until(lambda r: r.ephemeral)
    assert result.content == "That game doesn't exist any more."


async def test_a_forged_challenge_id_names_no_challenge(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    fake = scene.fake
    custom_id = f"shax:accept:{'7' * 40}"
    button = {"type": 2, "style": 3, "label": "Accept", "custom_id": custom_id}
    stored = fake.world.create_message(
        scene.channel,
        fake.bot_user,
        {"content": "a forged challenge", "components": [{"type": 1, "components": [button]}]},
    )
    result = await fake.click(scene.bashir, stored.id, custom_id)
    await result.wait_until(lambda r: r.ephemeral)
    assert result.content == "That challenge doesn't exist any more."


# -- the context menu ---------------------------------------------------------------------------


async def test_a_member_is_challenged_from_the_context_menu(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    result = await scene.fake.user_command(
        scene.amina, scene.channel, "Challenge to Shax", scene.bashir
    )
    message = await shown(running_bot, result)
    assert "challenges you" in message.content and scene.bashir.id in mentioned_ids(message)
    assert len(db_rows(scene.db_path)["challenges"]) == 1


async def test_an_opponent_discord_did_not_resolve_is_fetched(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    option = {"name": "opponent", "type": 6, "value": str(scene.bashir.id)}
    result = await scene.fake.raw_command(
        scene.amina, scene.channel, raw(scene, "challenge", [option])
    )
    message = await shown(running_bot, result)
    assert "challenges you" in message.content and scene.bashir.id in mentioned_ids(message)


async def test_a_menu_target_discord_did_not_send_is_asked_for_again(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    result = await scene.fake.user_command(
        scene.amina, scene.channel, "Challenge to Shax", scene.bashir, resolved=False
    )
    await result.wait_until(lambda r: r.ephemeral)
    assert result.content == MENTION_AGAIN
    assert db_rows(scene.db_path)["challenges"] == []


# -- the invite link ----------------------------------------------------------------------------


def test_the_invite_link_asks_for_both_scopes_and_exactly_the_permissions_used() -> None:
    url = invite_url(1234)
    assert "client_id=1234" in url and "scope=bot+applications.commands" in url
    assert f"permissions={PERMISSIONS.value}" in url
    used = {name for name, on in PERMISSIONS if on}
    assert used == {
        "read_messages",  # View Channel
        "send_messages",
        "send_messages_in_threads",
        "create_public_threads",
        "embed_links",
        "attach_files",
    }
    assert "YOUR_APPLICATION_ID" in invite_url(None)


def test_the_application_id_is_read_from_the_token() -> None:
    assert application_id_of("MTIzNDU2Nzg5.fake-bot.token_for_tests") == 123456789
    assert application_id_of("not a token") is None
    assert application_id_of(None) is None


async def test_the_bot_logs_its_invite_link_when_ready(
    scene: Scene, running_bot: ShaxBotBase, caplog: pytest.LogCaptureFixture
) -> None:
    assert running_bot.invite_url == invite_url(scene.fake.application_id)
    with caplog.at_level(logging.INFO):
        await running_bot.on_ready()
    assert running_bot.invite_url in caplog.text
