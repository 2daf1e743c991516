"""``python -m bot`` stays under its owner's control, whatever Discord does.

* A signal (SIGTERM, Ctrl-C) stops it also while Discord is unreachable: its API refusing
  connections or never answering, the bot still logging in.
* Unreachable Discord is said once, not at every retry (nor is discord.py's line about
  logging in); the retries go on with growing pauses. discord.py's warnings about
  voice (the bot has none) are not shown.
* A command sync that fails at start is a warning: the bot plays with the commands
  Discord already knows, and registers them when Discord takes them again.
* A gateway connection Discord closes is a one-line warning, not an error with a traceback,
  said once however often connecting again fails.

Each test runs the real entry point as a subprocess against the fake Discord; the
bounds are timeouts for a loaded machine, never a measure of speed.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import AsyncIterator

import pytest
import pytest_asyncio

from bot.service.replies import RULES_FILENAME
from tests.bot.discord.helpers import (  # noqa: F401 (the *_fixture names are fixtures)
    Scene,
    process_scene_fixture,
    start_bot_process,
)
from tests.fakediscord import FakeDiscord

EXIT_SECONDS = 30.0
"""The bound on an exit after a signal (the bot takes a few seconds at most)."""
WAIT_SECONDS = 60.0
COMMANDS = r"^/applications/\d+/guilds/\d+/commands$"


class Watched:
    """A bot process whose log (its stderr) is collected while it runs."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.lines: list[str] = []
        self._reading = asyncio.create_task(self._read())

    async def _read(self) -> None:
        assert self.process.stderr is not None
        async for line in self.process.stderr:
            self.lines.append(line.decode(errors="replace").rstrip())

    @property
    def log(self) -> str:
        return "\n".join(self.lines)

    def count(self, text: str) -> int:
        return sum(text in line for line in self.lines)

    async def until(self, text: str, times: int = 1) -> None:
        """Wait until ``text`` was logged ``times`` times (or the process ended)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + WAIT_SECONDS
        while self.count(text) < times:
            assert self.process.returncode is None, f"the bot ended:\n{self.log}"
            assert loop.time() < end, f"{text!r} was not logged {times} times:\n{self.log}"
            await asyncio.sleep(0.1)

    async def stop(self, sig: signal.Signals = signal.SIGTERM) -> int:
        """Send ``sig``, wait for the exit; the exit status."""
        self.process.send_signal(sig)
        try:
            status = await asyncio.wait_for(self.process.wait(), EXIT_SECONDS)
        except TimeoutError:
            self.process.kill()
            await self.process.wait()
            pytest.fail(f"the bot did not stop after {sig.name}:\n{self.log}")
        await self._reading
        return status


@pytest_asyncio.fixture
async def watched(process_scene: Scene) -> AsyncIterator[list[Watched]]:
    """The bot processes a test starts; any still running at its end are killed."""
    started: list[Watched] = []
    yield started
    for bot in started:
        if bot.process.returncode is None:
            bot.process.kill()
            await bot.process.wait()


async def launch(scene: Scene, started: list[Watched], **settings: str) -> Watched:
    bot = Watched(await start_bot_process(scene, **settings))
    started.append(bot)
    return bot


async def refusing(fake: FakeDiscord) -> None:
    """Discord's API and gateway refuse connections (the port no longer listens)."""
    await fake.stop()


async def silent(fake: FakeDiscord) -> None:
    """Discord's API accepts connections and never answers."""
    fake.faults.add(r"^/users/@me$", status=None, delay=3600.0)


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
@pytest.mark.parametrize("outage", [refusing, silent], ids=["refusing", "silent"])
async def test_a_signal_stops_the_bot_while_discord_is_unreachable(
    process_scene: Scene, watched: list[Watched], sig: signal.Signals, outage: object
) -> None:
    assert callable(outage)
    await outage(process_scene.fake)
    bot = await launch(process_scene, watched)
    await bot.until("logging in using static token")
    if outage is refusing:
        await bot.until("did not answer")
    assert await bot.stop(sig) in (0, 130), bot.log
    assert "Stopped" in bot.log and "Traceback" not in bot.log, bot.log


async def test_unreachable_discord_is_said_once_and_retried(
    process_scene: Scene, watched: list[Watched]
) -> None:
    await refusing(process_scene.fake)
    bot = await launch(process_scene, watched, SHAX_LOG_LEVEL="DEBUG")
    await bot.until("Discord's API still does not answer", times=3)  # the retries, in debug
    assert bot.count("did not answer (ClientConnectorError)") == 1, bot.log
    assert bot.count("logging in using static token") == 1, bot.log  # discord.py's, once
    assert "trying again, with growing pauses" in bot.log
    assert await bot.stop() == 0, bot.log


async def test_the_log_has_no_words_about_voice(
    process_scene: Scene, watched: list[Watched]
) -> None:
    bot = await launch(process_scene, watched)
    await bot.until("Ready as")
    assert await bot.stop() == 0, bot.log
    assert "voice" not in bot.log.lower(), bot.log
    assert "PyNaCl" not in bot.log and "davey" not in bot.log


async def rules_answered(scene: Scene) -> None:
    """/shax rules is answered with its picture."""
    result = await scene.fake.slash(scene.amina, scene.channel, "shax", "rules")
    answer = await result.wait_for_response(timeout=WAIT_SECONDS)
    assert answer.attachment(RULES_FILENAME).data.startswith(b"\x89PNG")


async def test_a_failed_command_sync_is_retried_while_the_bot_plays(
    process_scene: Scene, watched: list[Watched]
) -> None:
    scene, fake = process_scene, process_scene.fake
    first = await launch(scene, watched)  # registers the commands, as an earlier start did
    await first.until("Ready as")
    assert await first.stop() == 0, first.log

    [failing] = fake.faults.add(COMMANDS, status=503, method="PUT")
    bot = await launch(scene, watched)
    await bot.until("Could not register the slash commands with Discord")
    await bot.until("Ready as")
    await rules_answered(scene)  # the commands Discord already knew work meanwhile

    fake.faults.clear()
    await bot.until("The slash commands are registered now")
    assert failing.hits >= 1
    await rules_answered(scene)
    assert await bot.stop() == 0, bot.log
    assert "ExtensionAlreadyLoaded" not in bot.log and "Traceback" not in bot.log, bot.log


async def test_a_gateway_reconnect_is_a_warning_without_a_traceback(
    process_scene: Scene, watched: list[Watched]
) -> None:
    scene, fake = process_scene, process_scene.fake
    bot = await launch(scene, watched)
    await bot.until("Ready as")
    identified = len(fake.gateway.identify_payloads)
    # The connection closes; connecting again fails three times.
    assert fake.gateway_outage(attempts=3) == 1
    await bot.until("Attempting a reconnect")
    await fake.wait_for(
        lambda: (
            fake.gateway.identified_connections()
            and len(fake.gateway.identify_payloads) >= identified
        ),
        timeout=WAIT_SECONDS,
        what="the bot connected again",
    )
    await rules_answered(scene)
    assert await bot.stop() == 0, bot.log
    [reconnect] = [line for line in bot.lines if "Attempting a reconnect" in line]  # said once
    assert "WARNING" in reconnect and "ERROR" not in reconnect, reconnect
    assert "Traceback" not in bot.log, bot.log
