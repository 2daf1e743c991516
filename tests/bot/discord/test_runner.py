"""The runner: start-up never sits silent, only the operator's mistakes end the bot.

* A token Discord refuses ends ``python -m bot`` with one sentence saying what to do,
  exit code 2, no traceback.
* While Discord's API stays silent or answers with a server error, logging in says so
  and tries again.
* A bot that stops for any other reason is started again by the supervisor
  (:func:`bot.discord.runner.serve`).
* A token revoked just after READY ends the bot with nothing left failing behind it:
  discord.py's own "ready", which comes after its wait for more servers, finds the bot
  closed and is dropped.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
from pathlib import Path
from typing import Any

import discord
import pytest

from bot.config import ConfigError
from bot.discord import runner
from bot.discord.app import ShaxBot, ShaxBotBase
from tests.bot.discord.helpers import (  # noqa: F401 (the *_fixture names are fixtures)
    PROCESS_TOKEN,
    Scene,
    scene_fixture,
)
from tests.bot.processes import bot_subprocess
from tests.fakediscord import FakeDiscord


class NoWait:
    """A backoff without pauses, so retries are immediate in tests."""

    def __init__(self, **_: Any) -> None:
        pass

    def delay(self) -> float:
        return 0.0


async def test_a_refused_token_ends_the_bot_with_one_sentence(tmp_path: Path) -> None:
    async with FakeDiscord(token=PROCESS_TOKEN + "-not-this-one") as fake:
        env = {
            **os.environ,
            **fake.env(),
            "DISCORD_TOKEN": PROCESS_TOKEN,
            "SHAX_DB_PATH": str(tmp_path / "shax.db"),
        }
        process = await bot_subprocess(tmp_path, env, asyncio.subprocess.PIPE)
        _, err = await asyncio.wait_for(process.communicate(), 60)
    stderr = err.decode()
    assert process.returncode == 2, stderr
    assert "shax-bot: Discord refused the token (401 Unauthorized)" in stderr, stderr
    assert "Reset Token" in stderr and "Traceback" not in stderr, stderr
    assert PROCESS_TOKEN not in stderr  # the token itself is never echoed


async def test_logging_in_says_so_and_retries_while_the_api_is_silent_or_failing(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    fake = scene.fake
    monkeypatch.setattr(runner, "ANSWER_SECONDS", 0.3)
    monkeypatch.setattr(runner, "ExponentialBackoff", NoWait)
    me = r"^/users/@me$"
    fake.faults.add(me, status=None, delay=2.0, times=1)  # silent past the bound
    fake.faults.add(me, status=503, times=1)  # then a server error (discord.py gives up)
    bot = ShaxBot(settings=scene.settings())
    try:
        await runner.log_in(bot, scene.settings())
        assert bot.user is not None and bot.user.id == fake.bot_user.id
    finally:
        await bot.close()
    assert "did not answer (no answer within 0 s); trying again" in caplog.text
    assert "did not answer (DiscordServerError); trying again" in caplog.text
    assert fake.faults.injected == 2


async def test_the_supervisor_starts_a_bot_again_until_a_fatal_error(
    scene: Scene, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(runner, "ExponentialBackoff", NoWait)
    caplog.set_level(logging.INFO, logger=runner.__name__)
    bots: list[ShaxBotBase] = []

    async def run_bot(bot: ShaxBotBase, settings: Any) -> None:
        bots.append(bot)
        if len(bots) == 1:
            raise RuntimeError("an event nobody expected")
        if len(bots) == 2:
            return  # the connection ended without a signal
        raise discord.LoginFailure("Improper token has been passed.")

    monkeypatch.setattr(runner, "run_bot", run_bot)
    with pytest.raises(ConfigError, match="Discord refused the token"):
        await runner.serve(scene.settings())
    assert len(bots) == 3 and len({id(b) for b in bots}) == 3  # a new bot each time
    assert "The bot stopped unexpectedly; starting it again" in caplog.text
    assert "The bot's connection ended; starting it again" in caplog.text
    assert "Stopped" in caplog.text


async def test_a_token_revoked_just_after_ready_leaves_no_task_failing_after_the_close(
    scene: Scene,
) -> None:
    fake = scene.fake
    loop = asyncio.get_running_loop()
    unhandled: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _, context: unhandled.append(context))
    fake.gateway.holding_ready = True
    bot = ShaxBot(settings=scene.settings(), guild_ready_timeout=0.2)
    try:
        await bot.login(fake.token)
        connection = asyncio.create_task(bot.connect())
        await fake.wait_for(lambda: fake.gateway.held_ready, what="the IDENTIFY")
        # READY, and at once the token is refused: before discord.py's own "ready".
        [held] = fake.gateway.live_connections()
        assert fake.gateway.release_ready() == 1
        held.close(4004, "Authentication failed.")
        with pytest.raises(discord.ConnectionClosed) as closed:
            await connection
        assert closed.value.code == 4004 and bot.is_closed()
        # discord.py's "ready" comes now, to the closed bot (it sets the event first).
        await asyncio.wait_for(bot.wait_until_ready(), 10)
        await asyncio.sleep(0)
        gc.collect()
    finally:
        loop.set_exception_handler(previous)
        await bot.close()
    assert not unhandled, unhandled
