"""Running the bot: endpoints, logging, the service, signals, and a clean shutdown.

``python -m bot`` calls :func:`run`; ``python -m bot sync`` can call :func:`sync`
(register the slash commands globally once, after they changed, then exit).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
import yarl

from bot.config import DEFAULT_API_BASE_URL, DEFAULT_GATEWAY_URL, ConfigError
from bot.discord.app import ShaxBotBase, create_bot
from bot.service.facade import ShaxService
from bot.service.replies import User

if TYPE_CHECKING:
    from bot.config import Settings

log = logging.getLogger(__name__)

NO_TOKEN = "DISCORD_TOKEN is not set, so the bot cannot log in to Discord."


def use_endpoints(settings: Settings) -> None:
    """Point discord.py at the configured REST API and gateway when they are not Discord's
    (a Discord-compatible server, such as the tests' fake)."""
    if settings.api_base_url != DEFAULT_API_BASE_URL:
        discord.http.Route.BASE = settings.api_base_url
    if settings.gateway_url != DEFAULT_GATEWAY_URL:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


def setup_logging(settings: Settings) -> None:
    """discord.py's log format on stderr at ``SHAX_LOG_LEVEL`` (kept as is when the
    program already configured the root logger)."""
    root = logging.getLogger()
    if root.handlers:
        root.setLevel(settings.log_level_number)
        return
    discord.utils.setup_logging(level=settings.log_level_number, root=True)


def run(settings: Settings) -> None:
    """Run the bot until it is stopped (Ctrl-C or SIGTERM), then close everything."""
    if not settings.has_token:
        raise ConfigError(NO_TOKEN)
    setup_logging(settings)
    use_endpoints(settings)
    asyncio.run(serve(settings))


def sync(settings: Settings) -> None:
    """Log in, sync the slash commands globally (and to the development server, if set),
    and exit."""
    if not settings.has_token:
        raise ConfigError(NO_TOKEN)
    setup_logging(settings)
    use_endpoints(settings)
    asyncio.run(_sync(replace(settings, sync_commands=True)))


async def serve(settings: Settings, **options: Any) -> None:
    """Build the service once logged in (the bot's own account is the bot player), run the
    bot, and close the service and its AI workers however the bot stops."""
    services: list[ShaxService] = []

    async def make_service(bot_user: User) -> ShaxService:
        service = await ShaxService.open(settings, bot_user=bot_user)
        services.append(service)
        return service

    bot = create_bot(settings, make_service=make_service, **options)
    stop_on_signals(bot)
    settling = asyncio.create_task(settle_when_ready(bot))
    try:
        async with bot:
            await bot.start(settings.discord_token or "")
    finally:
        settling.cancel()
        for service in services:
            await service.close()
        log.info("Stopped")


async def settle_when_ready(bot: ShaxBotBase) -> None:
    """Once logged in, move what start-up built (modules, the command tree, the server
    cache; it lives as long as the process) out of the garbage collector's way: a full
    collection over it pauses the event loop for tens of milliseconds."""
    await bot.wait_until_ready()
    gc.collect()
    gc.freeze()
    log.debug("Froze %d start-up objects", gc.get_freeze_count())


async def _sync(settings: Settings) -> None:
    bot = create_bot(settings)  # no service: it only registers the commands
    async with bot:
        await bot.login(settings.discord_token or "")  # runs setup_hook, which syncs


def stop_on_signals(bot: ShaxBotBase) -> None:
    """SIGTERM (and Ctrl-C) close the bot gracefully: the gateway, then the service."""
    loop = asyncio.get_running_loop()
    closing: set[asyncio.Task[None]] = set()

    def stop() -> None:
        log.info("Stopping…")
        task = loop.create_task(bot.close())
        closing.add(task)
        task.add_done_callback(closing.discard)

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop)
