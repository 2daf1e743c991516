"""Running the bot: endpoints, logging, the service, signals, and a clean shutdown.

``python -m bot`` calls :func:`run`; ``python -m bot sync`` can call :func:`sync`
(register the slash commands globally once, after they changed, then exit).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import json
import logging
import os
import signal
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
import yarl
from discord.backoff import ExponentialBackoff

from bot.config import DEFAULT_API_BASE_URL, DEFAULT_GATEWAY_URL, ConfigError
from bot.discord.app import SYNC_FAILURES, ShaxBotBase, cause, create_bot, is_fatal
from bot.service.facade import ShaxService
from bot.service.replies import User
from bot.workers.tables import stop_building

if TYPE_CHECKING:
    from bot.config import Settings

log = logging.getLogger(__name__)

NO_TOKEN = "DISCORD_TOKEN is not set, so the bot cannot log in to Discord."
ANSWER_SECONDS = 20.0
"""How long Discord's API or gateway may stay silent at start-up before the bot says so."""
MAX_RETRY_SECONDS = 60.0
STOP_SECONDS = 4.0
"""After a signal, how long a connected bot may take to close by itself (the answers in
flight placed, the gateway closed) before its connection is cut short (its close still
ends the answers and background work under way, each within its own bound); a bot still
logging in or reconnecting is cut short at once."""


class SyncFailed(Exception):
    """``python -m bot sync`` could not register the commands; the message is one sentence
    saying why and what to do."""


def use_endpoints(settings: Settings) -> None:
    """Point discord.py at the configured REST API and gateway when they are not Discord's
    (a Discord-compatible server, such as the tests' fake)."""
    if settings.api_base_url != DEFAULT_API_BASE_URL:
        discord.http.Route.BASE = settings.api_base_url
    if settings.gateway_url != DEFAULT_GATEWAY_URL:
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.gateway_url)


PLAIN_LOG = logging.Formatter(
    "%(asctime)s %(levelname)-8s %(name)s %(message)s", "%Y-%m-%d %H:%M:%S"
)
"""discord.py's log line without its colours: for a log written to a file or a pipe."""


def setup_logging(settings: Settings) -> None:
    """discord.py's log format on stderr at ``SHAX_LOG_LEVEL`` (kept as is when the
    program already configured the root logger), coloured only in a terminal (and not
    with ``NO_COLOR`` set), without discord.py's words about voice (the bot has none) and
    with its reconnections as one-line warnings and its login line said once."""
    quiet_discord()
    root = logging.getLogger()
    if root.handlers:
        root.setLevel(settings.log_level_number)
        return
    handler = logging.StreamHandler()
    coloured = handler.stream.isatty() and not os.environ.get("NO_COLOR")
    discord.utils.setup_logging(
        handler=handler,
        # discord.py colours a stream that is no terminal too, inside a container.
        formatter=discord.utils.MISSING if coloured else PLAIN_LOG,
        level=settings.log_level_number,
        root=True,
    )


def quiet_discord() -> None:
    """The bot plays no voice: discord.py need not warn that its voice libraries (PyNaCl,
    davey) are missing. A gateway reconnection is routine: discord.py logs it as an error
    with a traceback, here it becomes one warning line naming the cause, said once while
    the gateway stays unreachable. Its "logging in using static token", said at every
    try to log in, is said once."""
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    loggers = [logging.getLogger(f"discord.{name}") for name in ("client", "shard", "gateway")]
    if not any(isinstance(f, ReconnectAsWarning) for f in loggers[0].filters):
        reconnects = ReconnectAsWarning()
        for logger in loggers:
            logger.addFilter(reconnects)
        loggers[0].addFilter(LoginSaidOnce())


class LoginSaidOnce(logging.Filter):
    """discord.py's login line, only the first time: a login retried while Discord does
    not answer (or a bot started again) has its own lines."""

    LINE = "logging in using static token"

    def __init__(self) -> None:
        super().__init__()
        self.said = False

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg != self.LINE:
            return True
        if self.said:
            return False
        self.said = True
        return True


class ReconnectAsWarning(logging.Filter):
    """discord.py's "Attempting a reconnect …" records: a warning with the cause's name
    and message in place of the traceback, once per kind of failure until the gateway
    connects again (its "has connected" or "RESUMED" record)."""

    def __init__(self) -> None:
        super().__init__()
        self.said: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        message = str(record.msg)
        if " has connected to Gateway" in message or " has successfully RESUMED" in message:
            self.said.clear()
            return True
        if not message.startswith("Attempting a reconnect"):
            return True
        error = record.exc_info[1] if record.exc_info else None
        kind = type(error).__name__ if error is not None else ""
        if kind in self.said:
            return False
        self.said.add(kind)
        if error is not None:
            record.msg = f"{message} (%s); said once until it connects again"
            record.args = (*(record.args or ()), cause(error))
        record.exc_info = None
        record.exc_text = None
        record.levelno = logging.WARNING
        record.levelname = logging.getLevelName(logging.WARNING)
        return True


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
    try:
        asyncio.run(_sync(settings.model_copy(update={"sync_commands": "always"})))
    except discord.LoginFailure as error:
        raise ConfigError(fatal_sentence(error)) from None
    except discord.DiscordServerError as error:
        raise SyncFailed(sync_unreachable(settings, error)) from None
    except discord.HTTPException as error:
        raise SyncFailed(
            f"Discord refused to register the slash commands ({cause(error)}); if it says "
            "Missing Access, invite the bot again with the link its log prints."
        ) from None
    except SYNC_FAILURES as error:
        raise SyncFailed(sync_unreachable(settings, error)) from None


def sync_unreachable(settings: Settings, error: BaseException) -> str:
    return (
        f"Could not register the slash commands: Discord's API at {settings.api_base_url} did "
        f"not answer ({cause(error)}); check the network, then run python -m bot sync again."
    )


async def serve(settings: Settings, **options: Any) -> None:
    """Run the bot until a signal stops it; the supervisor of ``python -m bot``.

    The service (database, AI and picture workers) is built once, when the first bot
    has logged in (the bot's own account is the bot player), and closed at the very
    end. A bot that stops for any reason but a signal or a fatal error (a refused token,
    a bad setting: :class:`~bot.config.ConfigError`) is replaced by a new one after a
    growing pause, so one bad event never ends the game for everyone.
    """
    opening: list[asyncio.Task[ShaxService]] = []

    async def make_service(bot_user: User) -> ShaxService:
        # Opened apart from the bot's start, so that a stop cutting the start short
        # still finds the service whole, and closes it.
        if not opening or failed(opening[0]):
            opening[:] = [asyncio.create_task(ShaxService.open(settings, bot_user=bot_user))]
        return await asyncio.shield(opening[0])

    stopping = asyncio.Event()
    backoff = ExponentialBackoff(base=1)
    try:
        while not stopping.is_set():
            bot = create_bot(settings, make_service=make_service, **options)
            stop_on_signals(bot, stopping)
            try:
                await until_stopped(run_bot(bot, settings), bot, stopping)
            except ConfigError:
                raise
            except Exception as error:
                if is_fatal(error):
                    raise ConfigError(fatal_sentence(error)) from None
                if stopping.is_set():
                    break
                delay = backoff.delay()
                if isinstance(error, json.JSONDecodeError):  # Discord's frame, not the bot
                    log.warning(
                        "The gateway sent a frame that is not JSON; starting the bot again in "
                        "%.1f s (%s)",
                        delay,
                        cause(error),
                    )
                else:
                    log.exception(
                        "The bot stopped unexpectedly; starting it again in %.1f s", delay
                    )
                with contextlib.suppress(TimeoutError):  # a signal ends the pause
                    async with asyncio.timeout(delay):
                        await stopping.wait()
            else:
                if not stopping.is_set():
                    log.warning("The bot's connection ended; starting it again")
    finally:
        # The bot is closed, its background work ended: now the database and the
        # workers, then the background build of the tables and its log.
        for started in opening:
            await asyncio.wait({started})
            if not failed(started):
                await started.result().close()
        await asyncio.to_thread(stop_building)
        log.info("Stopped")


def failed(task: asyncio.Task[Any]) -> bool:
    """Whether ``task`` ended without its result (it failed, or was cancelled)."""
    return task.done() and (task.cancelled() or task.exception() is not None)


async def until_stopped(
    run: Coroutine[Any, Any, None], bot: ShaxBotBase, stopping: asyncio.Event
) -> None:
    """Run ``run`` (the bot's life) until it ends; once a signal sets ``stopping``, close
    the bot, give a ready bot :data:`STOP_SECONDS` to end by itself, and cut the rest
    short: logging in or reconnecting to a Discord that does not answer would otherwise
    go on for ever. Returns when the bot is closed, its background work ended."""
    life = asyncio.create_task(run)
    signalled = asyncio.create_task(stopping.wait())
    closing: asyncio.Task[None] | None = None
    try:
        await asyncio.wait({life, signalled}, return_when=asyncio.FIRST_COMPLETED)
        if not life.done():
            closing = asyncio.create_task(bot.close())
            await asyncio.wait({life}, timeout=STOP_SECONDS if bot.is_ready() else 0)
        if not life.done():
            life.cancel()
        try:
            await life
        except (asyncio.CancelledError, Exception):
            if not stopping.is_set():
                raise
    finally:
        signalled.cancel()
        if not life.done():  # the supervisor itself is being cancelled
            life.cancel()
        await bot.close()  # (once: whoever began it, this waits for its end)
        if closing is not None:
            await closing


async def run_bot(bot: ShaxBotBase, settings: Settings) -> None:
    """Log in (retrying, and saying so, while Discord does not answer), then stay
    connected until the bot is closed."""
    bot.background.start("the settling after the start", settle_when_ready(bot))
    bot.background.start("the watch on the start", say_while_not_ready(bot, settings))
    async with bot:
        await log_in(bot, settings)
        await bot.connect()


async def log_in(bot: ShaxBotBase, settings: Settings) -> None:
    """Log in to Discord's API. While it does not answer within :data:`ANSWER_SECONDS`,
    or answers with a server error, try again after a growing pause (at most
    :data:`MAX_RETRY_SECONDS`). Each kind of failure is said once, not at every attempt;
    the bot says when the API answers again."""
    backoff = ExponentialBackoff(base=1)
    said: set[str] = set()
    while True:
        try:
            if await _log_in_once(bot, settings):
                if said:
                    log.info("Discord's API at %s answers again", settings.api_base_url)
                return
            problem = f"no answer within {ANSWER_SECONDS:.0f} s"
        except (OSError, aiohttp.ClientError, discord.DiscordServerError) as error:
            problem = type(error).__name__
        delay = min(backoff.delay(), MAX_RETRY_SECONDS)
        if problem in said:
            log.debug(
                "Discord's API still does not answer (%s); next try in %.0f s", problem, delay
            )
        else:
            said.add(problem)
            log.warning(
                "Discord's API at %s did not answer (%s); trying again, with growing pauses "
                "up to %.0f s, until it does",
                settings.api_base_url,
                problem,
                MAX_RETRY_SECONDS,
            )
        await bot.http.close()
        # Closing the session closed its connector too: the next login makes new ones.
        bot.http.connector = discord.utils.MISSING
        await asyncio.sleep(delay)


async def _log_in_once(bot: ShaxBotBase, settings: Settings) -> bool:
    """One login; ``False`` if the API stayed silent (the attempt was given up before the
    bot started setting itself up, so it can be made again)."""
    attempt = asyncio.create_task(bot.login(settings.discord_token or ""))
    try:
        while True:
            done, _ = await asyncio.wait({attempt}, timeout=ANSWER_SECONDS)
            if done:
                attempt.result()
                return True
            if bot.user is None:  # still waiting for the API: safe to start over
                return False
            log.warning("Logged in; still setting up (the database, the workers, the commands)")
    finally:  # given up, or the bot is stopping: the attempt ends with it
        if not attempt.done():
            attempt.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await attempt


async def say_while_not_ready(bot: ShaxBotBase, settings: Settings) -> None:
    """Start-up never sits silent: when the gateway has not said READY within
    :data:`ANSWER_SECONDS` of a login, the bot says once that it is still waiting (and
    retrying); it does not repeat it while the wait goes on."""
    while not bot.is_ready():
        await asyncio.sleep(ANSWER_SECONDS)
        if bot.user is not None and not bot.is_ready() and not bot.is_closed():
            log.warning(
                "Still waiting for Discord's gateway (%s) after %.0f s; retrying until it answers",
                settings.gateway_url,
                ANSWER_SECONDS,
            )
            return


def fatal_sentence(error: BaseException) -> str:
    """One sentence for an error only the operator can mend."""
    if isinstance(error, discord.LoginFailure) or (
        isinstance(error, discord.ConnectionClosed) and error.code == 4004
    ):
        return (
            "Discord refused the token (401 Unauthorized): DISCORD_TOKEN is wrong or was "
            "reset. Copy the bot's token from the Developer Portal (your application → Bot → "
            "Reset Token) into .env, then start the bot again."
        )
    if isinstance(error, discord.PrivilegedIntentsRequired):
        return "Discord refused a privileged intent this bot does not need; check SHAX_SHARDS."
    code = error.code if isinstance(error, discord.ConnectionClosed) else None
    return f"Discord closed the connection for good (code {code}); check SHAX_SHARDS."


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


def stop_on_signals(bot: ShaxBotBase, stopping: asyncio.Event) -> None:
    """SIGTERM (and Ctrl-C) close the bot gracefully: from that moment nothing new starts
    (:meth:`~bot.discord.background.Background.refuse`); :func:`until_stopped` closes the
    bot (interactions in flight finish, the background work ends, the gateway closes),
    then :func:`serve` the service (the database is closed, the workers end)."""
    loop = asyncio.get_running_loop()

    def stop() -> None:
        log.info("Stopping…")
        bot.background.refuse()
        stopping.set()

    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop)
