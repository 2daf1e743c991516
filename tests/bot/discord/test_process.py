"""``python -m bot`` as a real process against the fake Discord: start, play, SIGTERM, exit 0."""

from __future__ import annotations

import asyncio
import gc
import signal
import socket

from bot.discord.runner import settle_when_ready
from tests.bot.discord.helpers import (  # noqa: F401 (the *_fixture names are fixtures)
    Scene,
    act_select,
    board_image,
    option_values,
    process_scene_fixture,
    start_bot_process,
)


async def test_the_bot_process_plays_and_stops_cleanly_on_sigterm(process_scene: Scene) -> None:
    scene, fake = process_scene, process_scene.fake
    process = await start_bot_process(scene)
    try:
        await fake.wait_for_sessions(1, timeout=30)
        await fake.wait_for(lambda: fake.commands(fake.guild_id), timeout=10, what="commands")

        rules = await fake.slash(scene.amina, scene.channel, "shax", "rules", {"variant": "jar"})
        await rules.wait_for_response(timeout=30)  # the first picture starts a worker
        started = await fake.slash(
            scene.amina,
            scene.channel,
            "shax",
            "play-bot",
            {"level": "easy", "variant": "jar", "first": "bot"},
        )
        board = await started.wait_for_response(timeout=20)
        board_image(board)
        clicked = await fake.select(
            scene.amina, board, act_select(board)["custom_id"], option_values(act_select(board))[:1]
        )
        await fake.wait_for(
            lambda: clicked.acknowledged and fake.message(board.id).content != board.content,
            timeout=20,
            what="the bot's answer",
        )
        # Resigning ends the game: its replay is drawn by the bot's picture process.
        await fake.slash(scene.amina, scene.channel, "shax", "resign")
        final = await fake.wait_for(
            lambda: next(
                (
                    m
                    for m in fake.messages(scene.channel)
                    if any(a.filename == "replay.gif" for a in m.attachments)
                ),
                None,
            ),
            timeout=30,
            what="the final board with its replay",
        )
        assert final.attachment("replay.gif").data.startswith(b"GIF8")
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGTERM)
        _, stderr = await asyncio.wait_for(process.communicate(), 30)
    log = stderr.decode()
    assert process.returncode == 0, log
    assert "Stopped" in log
    assert "Traceback" not in log
    fake.assert_clean()


async def test_sync_registers_the_commands_globally_and_exits(process_scene: Scene) -> None:
    scene, fake = process_scene, process_scene.fake
    process = await start_bot_process(scene, "sync")
    _, stderr = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0, stderr.decode()
    assert [c["name"] for c in fake.commands(None)] == ["shax", "Challenge to Shax"]
    assert fake.sessions == []  # it never connected to the gateway
    fake.assert_clean()


async def sync_refused(scene: Scene, **env: str) -> list[str]:
    """``python -m bot sync`` that must fail: its exit code 1, its lines on stderr."""
    process = await start_bot_process(scene, "sync", **env)
    _, stderr = await asyncio.wait_for(process.communicate(), 60)
    log = stderr.decode()
    assert process.returncode == 1, log
    assert "Traceback" not in log, log
    return [line for line in log.splitlines() if line.startswith("shax-bot: ")]


async def test_sync_without_a_network_says_so_in_one_sentence_and_exits_1(
    process_scene: Scene,
) -> None:
    with socket.socket() as closed:  # a port nobody listens on
        closed.bind(("127.0.0.1", 0))
        api = f"http://127.0.0.1:{closed.getsockname()[1]}/api/v10"
    [said] = await sync_refused(process_scene, DISCORD_API_BASE_URL=api)
    assert said.startswith(
        f"shax-bot: Could not register the slash commands: Discord's API at {api} did not answer"
    )
    assert said.endswith("check the network, then run python -m bot sync again.")


async def test_sync_refused_by_discord_says_so_in_one_sentence_and_exits_1(
    process_scene: Scene,
) -> None:
    process_scene.fake.faults.add(r"/commands$", status=403, method="PUT")
    [said] = await sync_refused(process_scene)
    assert "Discord refused to register the slash commands (Forbidden: 403" in said
    assert process_scene.fake.commands(None) == []


async def test_start_up_objects_leave_the_collectors_way_once_the_bot_is_ready() -> None:
    ready = asyncio.Event()

    class Bot:
        async def wait_until_ready(self) -> None:
            await ready.wait()

    gc.unfreeze()
    try:
        settling = asyncio.create_task(settle_when_ready(Bot()))  # type: ignore[arg-type]
        await asyncio.sleep(0.01)
        assert gc.get_freeze_count() == 0 and not settling.done()
        ready.set()
        await settling
        assert gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
