"""Reusable pieces for Discord adapter tests: a world, a real service, a running bot.

Import the fixtures into a test module to use them (``from tests.bot.discord.helpers import
scene_fixture, service_fixture, running_bot_fixture  # noqa: F401``; they are named
``scene``, ``service`` and ``running_bot``), or use the async context managers directly:

* :func:`open_service` — a real :class:`ShaxService` on the scene's SQLite file whose bot
  player is the fake server's bot account (:mod:`tests.services`).
* :func:`bot_running` — a :class:`ShaxBot` logged in to a :class:`FakeDiscord` (commands
  synced to the fake guild), ready; closed on exit. Call it again with a new service on
  the same database to simulate a restart.
* :func:`start_bot_process` — ``python -m bot`` as a real process against the fake.
* :class:`Scene` — the fake world: two players, a bystander, another bot, a channel.

Helpers read what users see: :func:`board_image` opens a message's ``board.png`` with
Pillow; :func:`live_boards` lists the bot's messages in a channel that carry a move select.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import os
import sys
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from PIL import Image

from bot.config import Settings
from bot.discord import ShaxBot, ShaxBotBase
from bot.service.facade import ShaxService
from bot.service.replies import BOARD_FILENAME, User
from tests import services
from tests.fakediscord import FakeChannel, FakeDiscord, FakeMessage, FakeUser, InteractionResult
from tests.fakediscord.fixtures import running

BOT_NAME = "ShaxBot"


@dataclass
class Scene:
    """The fake world of a test."""

    fake: FakeDiscord
    amina: FakeUser
    bashir: FakeUser
    cawo: FakeUser
    robot: FakeUser
    channel: FakeChannel
    db_path: Path

    @property
    def bot_user(self) -> User:
        return User(self.fake.bot_user.id, BOT_NAME, is_bot=True)

    def settings(self, **changes: Any) -> Settings:
        """Settings for a bot on this fake: commands synced to its guild at start."""
        values: dict[str, Any] = {
            "discord_token": self.fake.token,
            "db_path": self.db_path,
            "dev_guild_id": self.fake.guild_id,
            "api_base_url": self.fake.api_base,
            "gateway_url": self.fake.gateway_url,
        }
        values.update(changes)
        return Settings(**values)


def make_scene(fake: FakeDiscord, db_path: Path) -> Scene:
    return Scene(
        fake=fake,
        amina=fake.add_user("amina", global_name="Amina"),
        bashir=fake.add_user("bashir", global_name="Bashir"),
        cawo=fake.add_user("cawo", global_name="Cawo"),
        robot=fake.add_user("robot", global_name="Robot", bot=True),
        channel=fake.add_channel("shax"),
        db_path=db_path,
    )


def open_service(
    scene: Scene, **options: Any
) -> contextlib.AbstractAsyncContextManager[ShaxService]:
    """A real service on the scene's database whose bot player is the fake server's bot
    account (options as :func:`tests.services.open_service`: ``chooser``, ``ai``,
    ``clock``, ``challenge_expiry``, ``turn_timeout``)."""
    return services.open_service(scene.db_path, bot_user=scene.bot_user, **options)


@contextlib.asynccontextmanager
async def bot_running(
    scene: Scene,
    service: ShaxService,
    *,
    settings: Settings | None = None,
    tick_seconds: float = 3600.0,
    ack_budget: float | None = None,
    bot_factory: Callable[..., ShaxBotBase] = ShaxBot,
) -> AsyncIterator[ShaxBotBase]:
    """A Shax bot logged in to the fake and ready; closed on exit."""
    # The fake sends every guild at once: no need for discord.py's 2 s wait for more.
    options: dict[str, Any] = {"tick_seconds": tick_seconds, "guild_ready_timeout": 0.05}
    if ack_budget is not None:
        options["ack_budget"] = ack_budget
    bot = bot_factory(settings=settings or scene.settings(), service=service, **options)
    async with running(bot, scene.fake):
        yield bot


PROCESS_TOKEN = "MTIzNDU2Nzg5.fake-bot.token_for_tests"
"""A token shaped like a bot token (three parts), for a fake that a bot process logs in to."""
ROOT = Path(__file__).resolve().parents[3]


def process_env(scene: Scene, **settings: str) -> dict[str, str]:
    """The environment of a ``python -m bot`` against the scene's fake, on the scene's
    database, with ``settings`` besides."""
    fake = scene.fake
    return {
        **os.environ,
        **fake.env(),
        "DISCORD_TOKEN": fake.token,
        "SHAX_DB_PATH": str(scene.db_path),
        "SHAX_DEV_GUILD_ID": str(fake.guild_id),
        "SHAX_AI_WORKERS": "1",
        "SHAX_LOG_LEVEL": "INFO",
        **settings,
    }


async def start_bot_process(
    scene: Scene, *args: str, **settings: str
) -> asyncio.subprocess.Process:
    """``python -m bot [args]`` against the scene's fake (whose token must be
    :data:`PROCESS_TOKEN`), on the scene's database, with ``settings`` besides; stderr
    holds its log. Stop it with SIGTERM (a clean shutdown) or SIGKILL (a crash) and start
    another to test restarts."""
    return await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot",
        "--env-file",
        str(scene.db_path.parent / "no.env"),  # never a developer's .env
        *args,
        cwd=ROOT,
        env=process_env(scene, **settings),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


# -- fixtures ------------------------------------------------------------------------------------


@pytest.fixture(name="scene")
def scene_fixture(fake_discord: FakeDiscord, tmp_path: Path) -> Scene:
    """The fake world (``fake_discord`` from tests/fakediscord/fixtures.py)."""
    return make_scene(fake_discord, tmp_path / "shax.db")


@pytest_asyncio.fixture(name="service")
async def service_fixture(scene: Scene) -> AsyncIterator[ShaxService]:
    async with open_service(scene) as opened:
        yield opened


@pytest_asyncio.fixture(name="process_scene")
async def process_scene_fixture(tmp_path: Path) -> AsyncIterator[Scene]:
    """A scene on its own fake whose token is :data:`PROCESS_TOKEN`, for bot processes."""
    async with FakeDiscord(token=PROCESS_TOKEN) as fake:
        yield make_scene(fake, tmp_path / "shax.db")


@pytest_asyncio.fixture(name="running_bot")
async def running_bot_fixture(scene: Scene, service: ShaxService) -> AsyncIterator[ShaxBotBase]:
    """A ready bot over ``service``; the test ends with no Discord violation recorded."""
    async with bot_running(scene, service) as bot:
        yield bot
    scene.fake.assert_clean()


# -- reading what users see ----------------------------------------------------------------------


def board_image(message: FakeMessage) -> Image.Image:
    """The board picture of a message, opened with Pillow (it must be a real PNG)."""
    attachment = message.attachment(BOARD_FILENAME)
    image = Image.open(io.BytesIO(attachment.data))
    image.load()
    assert image.format == "PNG"
    assert message.embeds and message.embeds[0]["image"]["url"] == attachment.url
    return image


def act_select(message: FakeMessage) -> dict[str, Any]:
    """The move select under a live board."""
    selects = [s for s in message.selects() if s["custom_id"].startswith("shax:act:")]
    assert len(selects) == 1, f"message {message.id} has no move select: {message.custom_ids()}"
    return selects[0]


def option_values(component: dict[str, Any]) -> list[str]:
    return [option["value"] for option in component.get("options") or []]


def button_ids(message: FakeMessage) -> list[str]:
    return [b["custom_id"] for b in message.buttons()]


def live_boards(fake: FakeDiscord, channel: FakeChannel) -> list[FakeMessage]:
    """The bot's public messages in ``channel`` that carry a move select, oldest first."""
    return [
        m
        for m in fake.messages(channel)
        if m.author_id == fake.bot_user.id
        and any(s["custom_id"].startswith("shax:act:") for s in m.selects())
    ]


async def shown(bot: ShaxBotBase, result: InteractionResult) -> FakeMessage:
    """What an interaction left for users once the bot finished answering it: the last
    follow-up, else the response (a new message, or the clicked message it updated)."""
    await result.wait_until(lambda r: r.acknowledged)
    assert await bot.responder.wait_idle(10), "the bot is still answering"
    if result.followup_ids:
        return result.followups[-1]
    message = result.message
    assert message is not None, f"{result.label} left no message"
    return message


def mentioned_ids(message: FakeMessage) -> set[int]:
    return {int(user["id"]) for user in message.data.get("mentions") or []}
