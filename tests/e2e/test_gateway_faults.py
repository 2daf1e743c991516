"""What the network throws at the bot never ends it: bad frames and unreadable events.

One malformed gateway message used to end the whole process. Now an event discord.py
cannot read is logged and dropped (the connection stays), and a frame that is not even
JSON makes the bot close that connection and connect again; either way the next
command is answered.
"""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from typing import Any

import pytest

import tests.fakediscord.server
from bot.service.replies import RULES_FILENAME
from tests.bot.discord.helpers import PROCESS_TOKEN, make_scene, shown, start_bot_process
from tests.e2e.conftest import Live
from tests.fakediscord import FakeDiscord
from tests.fakediscord.payloads import interaction_payload


async def rules_answered(live: Live) -> None:
    """A command after the fault is answered as usual."""
    result = await live.fake.slash(live.scene.amina, live.scene.channel, "shax", "rules")
    answer = await shown(live.bot, result)
    assert answer.attachment(RULES_FILENAME).data.startswith(b"\x89PNG")


async def test_a_frame_that_is_not_json_is_logged_and_the_bot_connects_again(
    live: Live, caplog: pytest.LogCaptureFixture
) -> None:
    fake = live.fake
    identified = len(fake.gateway.identify_payloads)
    assert fake.send_malformed_frame() == 1
    await fake.wait_for(
        lambda: (
            len(fake.gateway.identify_payloads) > identified
            and fake.gateway.identified_connections()
        ),
        timeout=10,
        what="a new connection",
    )
    await fake.wait_for(lambda: live.bot.is_ready(), what="the bot ready again")
    assert not live.bot.is_closed()
    assert "The gateway connection failed; reconnecting" in caplog.text
    await rules_answered(live)


async def test_an_interaction_discord_py_cannot_read_is_dropped(
    live: Live, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fake = live.fake

    def damaged(*args: Any, **kwargs: Any) -> dict[str, Any]:
        payload = interaction_payload(*args, **kwargs)
        del payload["member"]["user"]  # who acted is missing: discord.py cannot read it
        return payload

    monkeypatch.setattr(tests.fakediscord.server, "interaction_payload", damaged)
    connections = fake.gateway.identified_connections()
    fake.ack_deadline = 0.5  # the dropped interaction is never answered: don't wait 3 s
    broken = await fake.slash(
        live.scene.amina, live.scene.channel, "shax", "rules", expect_ack=False
    )
    assert not broken.acknowledged
    assert "Dropped a INTERACTION_CREATE event that could not be read" in caplog.text
    assert {v.code for v in fake.violations} == {10062}
    fake.violations.clear()
    fake.ack_deadline = 3.0
    monkeypatch.undo()

    assert fake.gateway.identified_connections() == connections  # the same connection
    await rules_answered(live)


FRAME_LINES = ("The gateway connection failed", "The gateway sent a frame that is not JSON")
"""What the log says of a frame that is not JSON: on one connection it connects again; with
shards the bot starts again."""


@pytest.mark.parametrize("shards", [1, 2])
async def test_the_log_says_each_bad_frame_in_one_warning_line_without_colours(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, shards: int
) -> None:
    """The bot's own log (``python -m bot``, written to a file or a pipe, not a terminal):
    a frame that is not JSON and an event that cannot be read are one WARNING line each,
    with no traceback, and no line carries a terminal's colour codes."""
    async with FakeDiscord(token=PROCESS_TOKEN, shard_count=shards) as fake:
        scene = make_scene(fake, tmp_path / "shax.db")
        sharded = {"SHAX_SHARDS": str(shards)} if shards > 1 else {}
        process = await start_bot_process(scene, **sharded)
        try:
            await fake.wait_for_sessions(shards, timeout=30)
            await fake.wait_for(lambda: fake.commands(fake.guild_id), timeout=10, what="commands")
            identified = len(fake.gateway.identify_payloads)
            assert fake.send_malformed_frame() == shards
            await fake.wait_for(
                lambda: (
                    len(fake.gateway.identify_payloads) >= identified + 1
                    and len(fake.gateway.identified_connections()) == shards
                ),
                timeout=30,
                what="connected again",
            )

            def damaged(*args: Any, **kwargs: Any) -> dict[str, Any]:
                payload = interaction_payload(*args, **kwargs)
                del payload["member"]["user"]
                return payload

            monkeypatch.setattr(tests.fakediscord.server, "interaction_payload", damaged)
            fake.ack_deadline = 0.5
            await fake.slash(scene.amina, scene.channel, "shax", "rules", expect_ack=False)
            fake.violations.clear()
        finally:
            process.send_signal(signal.SIGTERM)
            _, stderr = await asyncio.wait_for(process.communicate(), 30)
    log = stderr.decode()
    assert process.returncode == 0, log
    assert "\x1b[" not in log
    assert "Traceback" not in log and " ERROR " not in log, log
    frames = [line for line in log.splitlines() if any(said in line for said in FRAME_LINES)]
    [event] = [line for line in log.splitlines() if "Dropped a INTERACTION_CREATE" in line]
    assert frames and all(" WARNING " in line for line in frames), log
    assert " WARNING " in event and "KeyError: 'user'" in event
