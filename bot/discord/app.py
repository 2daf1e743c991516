"""The bot: dependencies in the constructor, extensions and persistent components in ``setup_hook``.

Build one for tests with ``ShaxBot(service=..., settings=...)``; :func:`create_bot`
picks an ``AutoShardedBot`` when ``SHAX_SHARDS`` is set. The bot uses no privileged
intent (no message content, no members): everything arrives as interactions.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

import aiohttp
import discord
from discord import app_commands
from discord.backoff import ExponentialBackoff
from discord.ext import commands

from bot.discord.background import Background
from bot.discord.components import as_user
from bot.discord.custom_ids import is_ours
from bot.discord.errors import UnknownControl, UnreadableCommand
from bot.discord.intime import DEFAULT_ACK_BUDGET, DEFAULT_CALLBACK_WINDOW
from bot.discord.invite import invite_url
from bot.discord.items import DYNAMIC_ITEMS
from bot.discord.respond import Responder
from bot.discord.threads import GameThreads
from bot.service.replies import User

if TYPE_CHECKING:
    from bot.config import Settings
    from bot.service.facade import ShaxService

log = logging.getLogger(__name__)

EXTENSIONS = ("bot.discord.cogs.play", "bot.discord.cogs.notices")
DEFAULT_TICK_SECONDS = 30.0
CLOSE_GRACE_SECONDS = 10.0
SYNC_RETRY_SECONDS = 10.0
"""After a failed command sync, the pause before the next try; it doubles after each
failure, up to :data:`SYNC_RETRY_MAX_SECONDS`."""
SYNC_RETRY_MAX_SECONDS = 1800.0
SYNC_FAILURES = (discord.HTTPException, OSError, aiohttp.ClientError, TimeoutError)
"""What a command sync may fail with when Discord (or the way to it) fails."""

ServiceFactory = Callable[[User], Awaitable["ShaxService"]]
"""Builds the service once the bot knows its own account (the bot player of bot games)."""


class ShaxTree(app_commands.CommandTree[Any]):
    """The command tree with the one tree-wide error handler (a refusal is said in the
    language of whoever it answers: bot/readers.py)."""

    async def _call(self, interaction: discord.Interaction[Any]) -> None:
        # discord.py lets an error reading the command's data (``options`` or ``resolved``
        # sent as null) escape the task that runs it: nobody would be answered. It is
        # reported here (discord.py's own error dispatch would read the data again).
        try:
            await super()._call(interaction)
        except app_commands.AppCommandError:
            raise
        except Exception as error:
            if interaction.type is discord.InteractionType.autocomplete:
                log.warning("Could not read an autocomplete request (%s)", cause(error))
                return
            interaction.command_failed = True
            unreadable = UnreadableCommand()
            unreadable.__cause__ = error
            await self.on_error(interaction, unreadable)

    async def on_error(
        self, interaction: discord.Interaction[Any], error: app_commands.AppCommandError, /
    ) -> None:
        client = self.client
        if isinstance(client, ShaxBotBase):
            await client.responder.report(interaction, error)
        else:  # pragma: no cover - the tree only ever belongs to a ShaxBot
            await super().on_error(interaction, error)


def command_digest(tree: app_commands.CommandTree[Any]) -> str:
    """A hash of every global command's definition as Discord receives it."""
    payload = sorted(
        (command.to_dict(tree) for command in tree.get_commands()),
        key=lambda c: (c.get("type", 1), c["name"]),
    )
    return hashlib.sha256(json.dumps(payload, sort_keys=True).encode()).hexdigest()


def intents() -> discord.Intents:
    """Only guilds (channels and threads for the cache); no privileged intent."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class ShaxBotBase(commands.Bot):
    """Everything of the Shax bot; :class:`ShaxBot` and :class:`ShardedShaxBot` add the base."""

    def __init__(
        self,
        *,
        settings: Settings,
        service: ShaxService | None = None,
        make_service: ServiceFactory | None = None,
        tick_seconds: float = DEFAULT_TICK_SECONDS,
        ack_budget: float = DEFAULT_ACK_BUDGET,
        callback_window: float = DEFAULT_CALLBACK_WINDOW,
        **options: Any,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            tree_cls=ShaxTree,
            intents=intents(),
            allowed_mentions=discord.AllowedMentions.none(),
            **options,
        )
        self.settings = settings
        self._service = service
        self._make_service = make_service
        self.tick_seconds = tick_seconds
        self.background = Background()
        """Everything the bot runs beside its answers (the clock, the look for unseen
        boards, retries): none starts once it is closing, all end before it is closed."""
        self._shutdown: asyncio.Task[None] | None = None
        self.threads = GameThreads(self, lambda: self.service, settings.game_threads)
        self.responder = Responder(
            self,
            lambda: self.service,
            ack_budget=ack_budget,
            callback_window=callback_window,
            on_result=self.threads.finish,
        )
        guard_parsers(self._connection.parsers)

    @property
    def service(self) -> ShaxService:
        if self._service is None:
            raise RuntimeError("no service: pass service= or make_service= to the bot")
        return self._service

    async def setup_hook(self) -> None:
        if self._service is None and self._make_service is not None:
            assert self.user is not None
            self._service = await self._make_service(as_user(self.user))
        self.add_dynamic_items(*DYNAMIC_ITEMS.values())
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        try:
            await self.sync_configured()
        except SYNC_FAILURES as error:
            if self._service is None:  # `python -m bot sync`: nothing plays meanwhile
                raise
            self._sync_later(error)

    def _sync_later(self, error: BaseException) -> None:
        """A failed sync never keeps the bot from playing (the commands Discord already
        has keep working): say so, and try again later, in the background."""
        log.warning(
            "Could not register the slash commands with Discord (%s); playing meanwhile "
            "with the commands Discord already knows, and trying again in %.0f s",
            cause(error),
            SYNC_RETRY_SECONDS,
        )
        self.background.start("the retry of the command sync", self._retry_sync())

    async def _retry_sync(self) -> None:
        delay = SYNC_RETRY_SECONDS
        while True:
            await asyncio.sleep(delay)
            try:
                await self.sync_configured()
            except SYNC_FAILURES as error:
                delay = min(delay * 2, SYNC_RETRY_MAX_SECONDS)
                log.debug(
                    "The command sync failed again (%s); next try in %.0f s", cause(error), delay
                )
            else:
                log.info("The slash commands are registered now")
                return

    async def sync_configured(self) -> None:
        """Sync the commands where the settings ask: always to the development server when
        one is set (instant, and not counted against the daily global limit); globally
        when they changed since the last global sync (``SHAX_SYNC_COMMANDS=auto``, the
        default, compares a hash of their definitions with the stored one), at every start
        (``always``) or never."""
        guild_id = self.settings.dev_guild_id
        if guild_id is not None:
            guild = discord.Object(id=guild_id)
            self.tree.copy_global_to(guild=guild)
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to the development server %s", len(synced), guild_id)
        mode = self.settings.sync_commands
        if mode == "never" or (mode == "auto" and guild_id is not None):
            return
        digest = command_digest(self.tree)
        service = self._service  # `python -m bot sync` runs without one: it just syncs
        if mode == "auto" and service is not None and await service.synced_commands() == digest:
            log.info("Slash commands unchanged since they were registered; not syncing")
            return
        synced = await self.tree.sync()
        if service is not None:
            await service.commands_synced(digest)
        log.info(
            "Registered %d commands globally (Discord may take a few minutes to show them)",
            len(synced),
        )

    @property
    def closing(self) -> bool:
        """Whether the bot's close has begun (its first step refuses new work)."""
        return self.background.refusing

    async def close(self) -> None:
        """Close the bot once, however many ask (a signal, the end of ``async with``,
        discord.py after a close code), each returning when it is closed: nothing new
        starts from the first moment; the interactions in progress place their replies
        (a few seconds at most); the background work ends (a tick under way finishes
        showing what it shows, for a while); the gateway closes; replies begun meanwhile
        are placed. Whoever made the service closes it after."""
        if self._shutdown is None:
            self.background.refuse()
            self._shutdown = asyncio.create_task(self._close(), name="shax-close")
        await asyncio.shield(self._shutdown)

    async def _close(self) -> None:
        if not await self.responder.wait_idle(CLOSE_GRACE_SECONDS):
            log.warning("Closing with interactions still being answered")
        await self.background.stop()
        for name in list(self.cogs):
            await self.remove_cog(name)
        await super().close()
        if not await self.responder.wait_idle(CLOSE_GRACE_SECONDS):
            log.warning("Closed with interactions still being answered")

    def dispatch(self, event: str, /, *args: Any, **kwargs: Any) -> None:
        """A closed bot hears nothing. discord.py says "ready" from a task of its own that
        closing does not end (after its wait for more servers, 2 s past READY): to a bot
        closed meanwhile (a stop, a token revoked) it would fail there, its loop gone, and
        leave "Task exception was never retrieved" in the log."""
        if self.is_closed():
            log.debug("Not dispatching %s: the bot is closed", event)
            return
        super().dispatch(event, *args, **kwargs)

    async def on_interaction(self, interaction: discord.Interaction[Any]) -> None:
        """A click on a control that is none of the bot's (a truncated or forged custom
        id) reaches no component: it is answered here, so that Discord does not show
        "This interaction failed"."""
        if interaction.type is not discord.InteractionType.component:
            return
        custom_id = str(dict(interaction.data or {}).get("custom_id", ""))
        if not reaches_a_component(interaction, custom_id):
            await self.responder.report(interaction, UnknownControl(custom_id))

    async def on_ready(self) -> None:
        if self.closing:  # a READY that came after the stop began: nothing starts
            log.debug("Discord said READY while the bot is closing; not starting anything")
            return
        log.info("Ready as %s in %d servers", self.user, len(self.guilds))
        log.info("Invite link (scopes and permissions the bot needs): %s", self.invite_url)

    @property
    def invite_url(self) -> str:
        return invite_url(self.application_id)


class ShaxBot(ShaxBotBase):
    """The Shax bot on one gateway connection.

    discord.py reconnects by itself after the failures it expects (a dropped connection,
    a close code, Discord's RECONNECT); anything else it lets escape, such as a frame
    that is not JSON. Then the old connection is closed and a new one made, after a
    growing pause, so that only a refused token or a fatal setting ends the bot.
    """

    async def connect(self, *, reconnect: bool = True) -> None:
        backoff = ExponentialBackoff(base=1)
        while True:
            try:
                await super().connect(reconnect=reconnect)
                return
            except Exception as error:
                if self.is_closed() or not reconnect or is_fatal(error):
                    raise
                delay = backoff.delay()
                log.warning(
                    "The gateway connection failed; reconnecting in %.1f s (%s)",
                    delay,
                    cause(error),
                )
                if self.ws is not None:
                    with contextlib.suppress(Exception):
                        await self.ws.close(code=4000)
                await asyncio.sleep(delay)


class ShardedShaxBot(ShaxBotBase, commands.AutoShardedBot):
    """The Shax bot on several shards (``SHAX_SHARDS``)."""


FATAL_CLOSE_CODES = frozenset({4004, 4010, 4011, 4012, 4013, 4014})
"""Gateway close codes no reconnection can mend: a refused token, a bad shard or intent
setting, an API version Discord no longer speaks."""


def is_fatal(error: BaseException) -> bool:
    """Whether an error that ended the bot needs the operator (a token, a setting)."""
    if isinstance(error, discord.LoginFailure | discord.PrivilegedIntentsRequired):
        return True
    return isinstance(error, discord.ConnectionClosed) and error.code in FATAL_CLOSE_CODES


def reaches_a_component(interaction: discord.Interaction[Any], custom_id: str) -> bool:
    """Whether discord.py routes a click to one of the bot's components: its custom id
    matches a template, and the clicked message holds a component of that kind with that
    id (a Rematch id moved onto another message is dropped silently, otherwise)."""
    message = interaction.message
    if not is_ours(custom_id) or message is None:
        return False
    kind = dict(interaction.data or {}).get("component_type")
    return any(
        item.type.value == kind and getattr(item, "custom_id", None) == custom_id
        for item in discord.ui.View.from_message(message, timeout=None).walk_children()
    )


def cause(error: BaseException) -> str:
    """An error in a few words, for a log line without a traceback: its kind, and its
    message when it has one."""
    text = str(error).strip()
    return f"{type(error).__name__}: {text}" if text else type(error).__name__


def guard_parsers(parsers: dict[str, Callable[[Any], None]]) -> None:
    """Make every gateway event parser log and drop an event it cannot read (a malformed
    interaction, say) instead of ending the connection, and with it the bot."""
    for event, parse in list(parsers.items()):
        parsers[event] = _guarded(event, parse)


def _guarded(event: str, parse: Callable[[Any], None]) -> Callable[[Any], None]:
    def guarded(data: Any) -> None:
        try:
            parse(data)
        except Exception as error:  # Discord's data, not the bot's fault: one line says it
            log.warning("Dropped a %s event that could not be read (%s)", event, cause(error))

    return guarded


def create_bot(
    settings: Settings,
    *,
    service: ShaxService | None = None,
    make_service: ServiceFactory | None = None,
    **options: Any,
) -> ShaxBotBase:
    """A :class:`ShardedShaxBot` when ``settings.shards`` is set, else a :class:`ShaxBot`;
    the clock ticks every ``settings.tick_seconds`` unless ``tick_seconds=`` says otherwise."""
    options.setdefault("tick_seconds", settings.tick_seconds)
    if settings.shards is not None:
        return ShardedShaxBot(
            settings=settings,
            service=service,
            make_service=make_service,
            shard_count=settings.shards,
            shard_ids=list(settings.shard_ids) if settings.shard_ids is not None else None,
            **options,
        )
    return ShaxBot(settings=settings, service=service, make_service=make_service, **options)
