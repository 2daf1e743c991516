"""The real entry point (``python -m bot``) as a subprocess against the fake server, for
the tests that kill it, stop it and start it again: the fake server's fixture, the
process, and the steps of a game seen from Discord."""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import AsyncIterator
from pathlib import Path

import pytest_asyncio

from tests.bot.discord.helpers import (
    PROCESS_TOKEN,
    Scene,
    act_select,
    live_boards,
    make_scene,
    option_values,
    process_env,
)
from tests.bot.processes import bot_subprocess
from tests.e2e.conftest import game_version, on_turn
from tests.fakediscord import FakeDiscord, FakeMessage, InteractionResult

ROOT = Path(__file__).resolve().parents[2]
START_SECONDS = 30.0
ANSWER_SECONDS = 30.0  # a bound, not a speed target: generous for a loaded 2-core machine


@pytest_asyncio.fixture
async def process_scene(tmp_path: Path) -> AsyncIterator[Scene]:
    """A fake server that accepts the bot token a real process presents. Heartbeats far
    apart, as Discord's (41 s): a loaded test machine may hold a process back for a second
    or two, which is no concern of these tests (tests/e2e/test_master_bot.py is the one
    about heartbeats)."""
    async with FakeDiscord(token=PROCESS_TOKEN, heartbeat_interval=5.0) as fake:
        yield make_scene(fake, tmp_path / "shax.db")


class BotProcess:
    """``python -m bot`` against the scene's fake server, its output in a log file."""

    def __init__(self, scene: Scene, name: str, **settings: str) -> None:
        self.scene = scene
        self.log_path = scene.db_path.parent / f"{name}.log"
        self.process: asyncio.subprocess.Process | None = None
        self.settings = settings

    async def start(self) -> BotProcess:
        fake = self.scene.fake
        env = process_env(self.scene, **self.settings)
        identified = len(fake.gateway.identify_payloads)
        with self.log_path.open("wb") as log:
            self.process = await bot_subprocess(self.scene.db_path.parent, env, log)
        await fake.wait_for(
            lambda: (
                len(fake.gateway.identify_payloads) > identified
                and fake.gateway.identified_connections()
            ),
            timeout=START_SECONDS,
            what=f"IDENTIFY from the bot process ({self.log()})",
        )
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def log(self) -> str:
        return self.log_path.read_text(errors="replace") if self.log_path.exists() else ""

    async def kill(self) -> None:
        """SIGKILL: no shutdown code runs, nothing is flushed or closed."""
        os.kill(self.pid, signal.SIGKILL)
        assert self.process is not None
        assert await asyncio.wait_for(self.process.wait(), 10) == -signal.SIGKILL
        fake = self.scene.fake
        await fake.wait_for(
            lambda: not fake.gateway.identified_connections(), what="the dead connection closed"
        )

    async def stop(self) -> int:
        """SIGTERM and wait for a clean exit."""
        assert self.process is not None
        if self.process.returncode is None:
            self.process.send_signal(signal.SIGTERM)
        return await asyncio.wait_for(self.process.wait(), 30)


async def next_board(
    scene: Scene,
    game_id: int,
    version: int,
    *,
    may_linger: int | None = None,
    timeout: float = ANSWER_SECONDS,
) -> FakeMessage:
    """The game's live board once it shows ``version`` and the bot deleted the old one.

    ``may_linger`` is a board the killed process may not have got round to deleting
    (it reports the new board's id before deleting the old one)."""
    fake = scene.fake

    def ready() -> FakeMessage | None:
        boards = [b for b in live_boards(fake, scene.channel) if b.id != may_linger]
        newest = boards[-1] if boards else None
        if newest is None or game_version(newest) != (game_id, version):
            return None
        return newest if len(boards) == 1 else None

    return await fake.wait_for(ready, timeout=timeout, what=f"board v{version}")


async def click_first_option(scene: Scene, board: FakeMessage) -> tuple[InteractionResult, str]:
    """The player on turn picks the first action the board offers."""
    select = act_select(board)
    action = option_values(select)[0]
    result = await scene.fake.select(on_turn(scene, board), board, select["custom_id"], [action])
    return result, action


async def start_two_player_game(scene: Scene) -> FakeMessage:
    """Amina challenges Bashir and he accepts; the first board (version 0)."""
    fake = scene.fake
    await fake.wait_for(lambda: fake.commands(fake.guild_id), what="the commands synced")
    challenge = await fake.slash(
        scene.amina, scene.channel, "shax", "challenge", {"opponent": scene.bashir}
    )
    posted = await challenge.wait_for_response(timeout=ANSWER_SECONDS)
    accept = next(b["custom_id"] for b in posted.buttons() if "accept" in b["custom_id"])
    await fake.click(scene.bashir, posted, accept)
    # (The first board of a process waits for its picture workers to start.)
    return await next_board(scene, 1, 0, timeout=START_SECONDS)


async def stop_running(*processes: BotProcess | None) -> None:
    """SIGTERM to each of the processes still running, and wait for each to exit."""
    for process in processes:
        if process and process.process and process.process.returncode is None:
            await process.stop()


def assert_stopped_cleanly(process: BotProcess | None) -> None:
    """The process ran, exited with 0 and logged no traceback."""
    assert process is not None and process.process is not None
    log = process.log()
    assert process.process.returncode == 0, log
    assert "Traceback" not in log, log
