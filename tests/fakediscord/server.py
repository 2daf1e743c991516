"""FakeDiscord: a Discord-compatible REST API and gateway on 127.0.0.1, plus simulated users."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, TypeVar

from aiohttp import web

from .faults import Faults
from .gateway import PRIVILEGED_INTENTS, Gateway, GatewaySession
from .limits import STRING_SELECT
from .models import FakeChannel, FakeGuild, FakeMember, FakeUser
from .payloads import (
    APPLICATION_COMMAND,
    AUTOCOMPLETE,
    MESSAGE_COMPONENT,
    CommandDataBuilder,
    interaction_payload,
)
from .rest import API_PREFIX, RestApi
from .results import FakeMessage, InteractionNotAcknowledged, InteractionResult, Violation
from .world import StoredMessage, Upload, World

JSON = dict[str, Any]
T = TypeVar("T")

ENV_API_BASE = "DISCORD_API_BASE_URL"
ENV_GATEWAY = "DISCORD_GATEWAY_URL"
MiB = 1024 * 1024


def _id(thing: Any) -> int:
    return thing if isinstance(thing, int) else int(thing.id)


class FakeDiscord:
    """A Discord-compatible server for the real discord.py client, with a scriptable world.

    ``await start()`` listens on an ephemeral port of 127.0.0.1; point discord.py at it with
    :meth:`patch_client` (this process) or :meth:`env` (a bot started as a subprocess). The state
    lives in :attr:`world`, the websocket side in :attr:`gateway`, the HTTP side in :attr:`rest`.
    """

    def __init__(
        self,
        *,
        token: str = "ZmFrZS1ib3Q.ZmFrZQ.dG9rZW4",  # shaped like a real one: three base64url parts
        guild_name: str = "Shax Club",
        guild_id: int | None = None,
        bot_name: str = "ShaxBot",
        ack_deadline: float = 3.0,
        heartbeat_interval: float = 1.0,
        heartbeat_tolerance: float = 1.0,
        upload_limit: int = 10 * MiB,
        shard_count: int = 1,
        privileged_intents: int = PRIVILEGED_INTENTS,
        host: str = "127.0.0.1",
    ) -> None:
        self.token = token
        self.host = host
        self.port = 0
        self.world = World(
            guild_name=guild_name,
            guild_id=guild_id,
            bot_name=bot_name,
            upload_limit=upload_limit,
            ack_deadline=ack_deadline,
        )
        self.gateway = Gateway(
            self.world,
            token=token,
            heartbeat_interval=heartbeat_interval,
            heartbeat_tolerance=heartbeat_tolerance,
            privileged_intents=privileged_intents,
            shard_count=shard_count,
        )
        self.world.event_sink = self.gateway.dispatch
        self.rest = RestApi(self.world, self.gateway, token=token)
        self.results: list[InteractionResult] = []
        self._commands = CommandDataBuilder(self.world)
        self._timers: list[asyncio.TimerHandle] = []
        self._runner: web.AppRunner | None = None

    # -- lifecycle ----------------------------------------------------------------------------

    async def start(self) -> FakeDiscord:
        app = web.Application(client_max_size=self.world.upload_limit * 2 + MiB)
        self.rest.install(app)
        app.router.add_get("/gateway", self.gateway.handle)
        self.rest.install_catch_all(app)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=1.0)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])
        self.world.cdn_base = self.base_url
        self.gateway.url = self.gateway_url
        return self

    async def stop(self) -> None:
        for timer in self._timers:
            timer.cancel()
        self._timers.clear()
        await self.gateway.close_all()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> FakeDiscord:
        return await self.start()

    async def __aexit__(self, *exc_info: object) -> None:
        await self.stop()

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        """The value for ``discord.http.Route.BASE``."""
        return f"{self.base_url}{API_PREFIX}"

    @property
    def gateway_url(self) -> str:
        """The value for ``DiscordWebSocket.DEFAULT_GATEWAY`` (as a ``yarl.URL``)."""
        return f"ws://{self.host}:{self.port}/gateway"

    def env(self) -> dict[str, str]:
        """Environment variables telling a bot subprocess where this server is."""
        return {ENV_API_BASE: self.api_base, ENV_GATEWAY: self.gateway_url}

    @contextlib.contextmanager
    def patch_client(self) -> Iterator[None]:
        """Point discord.py (this process) at this server; restore the old URLs on exit."""
        with point_discord_at(self.api_base, self.gateway_url):
            yield

    # -- settings tests may change after construction ------------------------------------------

    @property
    def ack_deadline(self) -> float:
        """Seconds a bot has to acknowledge an interaction (Discord: 3)."""
        return self.world.ack_deadline

    @ack_deadline.setter
    def ack_deadline(self, seconds: float) -> None:
        self.world.ack_deadline = seconds

    @property
    def heartbeat_interval(self) -> float:
        """Seconds announced in HELLO; applies to connections opened after a change."""
        return self.gateway.heartbeat_interval

    @heartbeat_interval.setter
    def heartbeat_interval(self, seconds: float) -> None:
        self.gateway.heartbeat_interval = seconds

    @property
    def upload_limit(self) -> int:
        """Bytes of files allowed per request (413 above it); sent as attachment_size_limit."""
        return self.world.upload_limit

    @upload_limit.setter
    def upload_limit(self, size: int) -> None:
        self.world.upload_limit = size

    @property
    def shard_count(self) -> int:
        """The shard count ``GET /gateway/bot`` recommends (used by AutoShardedBot)."""
        return self.gateway.shard_count

    @shard_count.setter
    def shard_count(self, count: int) -> None:
        self.gateway.shard_count = count

    # -- the world ------------------------------------------------------------------------------

    @property
    def bot_user(self) -> FakeUser:
        return self.world.bot_user

    @property
    def application_id(self) -> int:
        return self.world.application_id

    @property
    def guild_id(self) -> int:
        return self.world.guild.id

    @property
    def violations(self) -> list[Violation]:
        return self.world.violations

    @property
    def unknown_routes(self) -> list[str]:
        return self.world.unknown_routes

    @property
    def server_errors(self) -> list[str]:
        return self.world.server_errors

    @property
    def sessions(self) -> list[GatewaySession]:
        return list(self.gateway.sessions.values())

    def add_guild(
        self, name: str, *, guild_id: int | None = None, shard: int | None = None
    ) -> FakeGuild:
        """Another guild with the bot in it; ``shard`` picks an id on that shard of
        :attr:`shard_count` (``(guild_id >> 22) % shard_count == shard``)."""
        on = None if shard is None else (shard, self.shard_count)
        return self.world.add_guild(name, guild_id=guild_id, shard=on)

    def add_user(
        self,
        username: str,
        *,
        global_name: str | None = None,
        bot: bool = False,
        member: bool = True,
        nick: str | None = None,
        guild: FakeGuild | int | None = None,
    ) -> FakeUser:
        """A new user, a member of ``guild`` (default: the first) unless ``member=False``."""
        return self.world.add_user(
            username, global_name=global_name, bot=bot, member=member, nick=nick, guild=guild
        )

    def add_member(
        self, user: FakeUser | int, guild: FakeGuild | int, *, nick: str | None = None
    ) -> FakeMember:
        """An existing user joins another guild."""
        return self.world.add_member(self.world.user(user), nick=nick, guild=guild)

    def add_channel(
        self, name: str, *, topic: str | None = None, guild: FakeGuild | int | None = None
    ) -> FakeChannel:
        """A text channel in ``guild`` (default: the first)."""
        return self.world.add_channel(name, topic=topic, guild=guild)

    def shard_of(self, guild: FakeGuild | int | None) -> int:
        """The shard of :attr:`shard_count` that gets a guild's events (DMs: shard 0)."""
        return 0 if guild is None else (_id(guild) >> 22) % self.shard_count

    def add_thread(
        self,
        parent: FakeChannel | int,
        name: str,
        *,
        owner: FakeUser | int | None = None,
        private: bool = False,
    ) -> FakeChannel:
        return self.world.add_thread(parent, name, owner=owner, private=private)

    def channel(self, channel: FakeChannel | int) -> FakeChannel:
        return self.world.channel(channel)

    def dm_channel(self, user: FakeUser | int) -> FakeChannel:
        return self.world.dm_channel(user)

    def messages(
        self, channel: FakeChannel | int, *, include_ephemeral: bool = False
    ) -> list[FakeMessage]:
        return self.world.messages(channel, include_ephemeral=include_ephemeral)

    def message(self, message_id: int) -> FakeMessage:
        return self.world.snapshot(message_id)

    def commands(self, guild: int | None = None) -> list[JSON]:
        """The commands the bot synced, globally (``None``) or for a guild id."""
        return list(self.world.commands.get(guild, []))

    def post_message(
        self,
        user: FakeUser | int,
        channel: FakeChannel | int,
        content: str = "",
        *,
        files: Mapping[str, bytes] | None = None,
    ) -> FakeMessage:
        """A user posts a message (the bot gets MESSAGE_CREATE, subject to its intents)."""
        uploads = [Upload(name, data) for name, data in (files or {}).items()]
        stored = self.world.create_message(channel, user, {"content": content}, uploads)
        return self.world.snapshot(stored)

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "condition"
    ) -> T:
        """Wait until ``predicate()`` is truthy (re-checked on every change and every 50 ms)."""
        return await self.world.wait_for(predicate, timeout=timeout, what=what)

    async def wait_for_sessions(self, count: int = 1, timeout: float = 10.0) -> None:
        """Wait until ``count`` gateway connections have identified (or resumed)."""
        await self.wait_for(
            lambda: len(self.gateway.identified_connections()) >= count,
            timeout=timeout,
            what=f"{count} identified gateway session(s)",
        )

    def heartbeat_gaps(self) -> list[float]:
        return self.gateway.heartbeat_gaps()

    def assert_clean(self) -> None:
        """Fail if any violation, unknown route or fake-server error was recorded."""
        problems = [str(v) for v in self.violations]
        problems += [f"unknown route: {route}" for route in self.unknown_routes]
        problems += [f"fake server error: {error}" for error in self.server_errors]
        assert not problems, "Discord would have refused:\n" + "\n".join(problems)

    # -- faults ---------------------------------------------------------------------------------

    @property
    def faults(self) -> Faults:
        """REST faults: ``fake.faults.add(CALLBACKS, status=500)``; ``fake.faults.clear()``."""
        return self.rest.faults

    def drop_connections(self, code: int = 4000) -> int:
        """Close every gateway connection; clients reconnect and RESUME."""
        return self.gateway.drop_connections(code)

    def gateway_outage(self, attempts: int) -> int:
        """An outage of the gateway: every connection closes (as with
        :meth:`drop_connections`) and the next ``attempts`` connection attempts are
        answered 503 instead of being upgraded to a WebSocket."""
        self.gateway.unavailable = attempts
        return self.gateway.drop_connections(4000)

    def request_reconnect(self) -> int:
        """Send op 7 RECONNECT; clients close and RESUME."""
        return self.gateway.request_reconnect()

    def invalidate_sessions(self) -> int:
        """Send op 9; clients must IDENTIFY again."""
        return self.gateway.invalidate_sessions()

    def send_malformed_frame(self, text: str = '{"op": 0, "t": "MESSAGE_CR') -> int:
        """Send a text frame that is not valid JSON (or ``text``) to every connection."""
        return self.gateway.send_malformed(text)

    # -- simulated users ------------------------------------------------------------------------

    async def slash(
        self,
        user: FakeUser | int,
        channel: FakeChannel | int,
        command: str,
        subcommand: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        locale: str = "en-US",
        expect_ack: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """A user runs ``/command [group] sub option:value…`` (``subcommand`` may be
        ``"group sub"``). Returns once the bot acknowledged; raises
        :class:`InteractionNotAcknowledged` past the deadline unless ``expect_ack=False``."""
        target = self.world.channel(channel)
        data, label = self._commands.build(
            command, subcommand, dict(options or {}), target, focused=None
        )
        return await self._interact(
            APPLICATION_COMMAND,
            user,
            target,
            data,
            label=label,
            locale=locale,
            expect_ack=expect_ack,
            timeout=timeout,
        )

    async def raw_command(
        self,
        user: FakeUser | int,
        channel: FakeChannel | int,
        data: Mapping[str, Any],
        *,
        expect_ack: bool = True,
    ) -> InteractionResult:
        """A command interaction with ``data`` exactly as given, unchecked: for what a
        client of another version (or a tampered one) may send."""
        target = self.world.channel(channel)
        return await self._interact(
            APPLICATION_COMMAND,
            user,
            target,
            dict(data),
            label=f"raw /{data.get('name')}",
            expect_ack=expect_ack,
            timeout=None,
        )

    async def user_command(
        self,
        user: FakeUser | int,
        channel: FakeChannel | int,
        name: str,
        target: FakeUser | int,
        *,
        resolved: bool = True,
    ) -> InteractionResult:
        """A user runs the context-menu command ``name`` on ``target`` (right-click →
        Apps); with ``resolved=False`` the target is missing from ``resolved``."""
        where = self.world.channel(channel)
        synced = self.world.find_command(name, where.guild_id, kind=2)
        if synced is None:
            raise ValueError(f"no user command {name!r} is registered")
        who = self.world.user(target)
        data: JSON = {"id": synced["id"], "name": name, "type": 2, "target_id": str(who.id)}
        if resolved:
            data["resolved"] = {"users": {str(who.id): who.payload()}}
            in_guild = where.guild_id is not None
            member = self.world.members_of(where.guild_id).get(who.id) if in_guild else None
            if member is not None:
                data["resolved"]["members"] = {
                    str(who.id): member.payload(with_user=False, with_permissions=True)
                }
        return await self._interact(
            APPLICATION_COMMAND,
            user,
            where,
            data,
            label=f"user command {name!r}",
            expect_ack=True,
            timeout=None,
        )

    async def autocomplete(
        self,
        user: FakeUser | int,
        channel: FakeChannel | int,
        command: str,
        subcommand: str | None = None,
        options: Mapping[str, Any] | None = None,
        *,
        focused: str,
        locale: str = "en-US",
        timeout: float | None = None,
    ) -> list[JSON]:
        """A user types into option ``focused``; returns the bot's choices (callback type 8)."""
        target = self.world.channel(channel)
        data, label = self._commands.build(
            command, subcommand, dict(options or {}), target, focused=focused
        )
        result = await self._interact(
            AUTOCOMPLETE,
            user,
            target,
            data,
            label=f"autocomplete {label} {focused}",
            locale=locale,
            expect_ack=True,
            timeout=timeout,
        )
        return list(result.choices or [])

    async def click(
        self,
        user: FakeUser | int,
        message: FakeMessage | int,
        custom_id: str,
        *,
        expect_ack: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """A user clicks the button ``custom_id`` on the current state of ``message``."""
        stored, snapshot = self._usable_message(user, message)
        component = snapshot.component(custom_id)
        if component.get("type") != 2:
            raise ValueError(f"{custom_id!r} is not a button (type {component.get('type')})")
        if component.get("disabled"):
            raise ValueError(f"button {custom_id!r} is disabled: a user cannot click it")
        return await self._interact(
            MESSAGE_COMPONENT,
            user,
            stored.channel_id,
            {"custom_id": custom_id, "component_type": 2},
            message=stored,
            label=f"button {custom_id!r}",
            expect_ack=expect_ack,
            timeout=timeout,
        )

    async def select(
        self,
        user: FakeUser | int,
        message: FakeMessage | int,
        custom_id: str,
        values: Sequence[str],
        *,
        expect_ack: bool = True,
        timeout: float | None = None,
    ) -> InteractionResult:
        """A user picks ``values`` in the string select ``custom_id`` on ``message``."""
        stored, snapshot = self._usable_message(user, message)
        component = snapshot.component(custom_id)
        if component.get("type") != STRING_SELECT:
            raise ValueError(f"{custom_id!r} is not a string select (type {component.get('type')})")
        if component.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled: a user cannot use it")
        offered = [option["value"] for option in component.get("options") or []]
        unknown = [value for value in values if value not in offered]
        if unknown:
            raise ValueError(f"select {custom_id!r} offers {offered}, not {unknown}")
        low, high = component.get("min_values", 1), component.get("max_values", 1)
        if not low <= len(values) <= high:
            raise ValueError(f"select {custom_id!r} takes {low}..{high} values, got {len(values)}")
        return await self._interact(
            MESSAGE_COMPONENT,
            user,
            stored.channel_id,
            {"custom_id": custom_id, "component_type": STRING_SELECT, "values": list(values)},
            message=stored,
            label=f"select {custom_id!r}",
            expect_ack=expect_ack,
            timeout=timeout,
        )

    def _usable_message(
        self, user: FakeUser | int, message: FakeMessage | int
    ) -> tuple[StoredMessage, FakeMessage]:
        """The live message; an ephemeral one only for the user it was shown to."""
        stored = self.world.stored(_id(message))
        if stored.ephemeral:
            owner = (stored.data.get("interaction_metadata") or {}).get("user", {}).get("id")
            if owner != str(_id(user)):
                raise ValueError("only the user who received an ephemeral message can use it")
        return stored, self.world.snapshot(stored)

    async def _interact(
        self,
        kind: int,
        user: FakeUser | int,
        channel: FakeChannel | int,
        data: JSON,
        *,
        label: str,
        message: StoredMessage | None = None,
        locale: str = "en-US",
        expect_ack: bool,
        timeout: float | None,
    ) -> InteractionResult:
        """Dispatch INTERACTION_CREATE, start the deadline, wait for the acknowledgement."""
        target = self.world.channel(channel)
        result = InteractionResult(
            world=self.world,
            id=self.world.ids.next(),
            token="aW50ZXJhY3Rpb24" + secrets.token_urlsafe(96),
            type=kind,
            user=self.world.user(user),
            channel_id=target.id,
            payload={},
            label=label,
            component_message_id=None if message is None else message.id,
        )
        result.payload = interaction_payload(
            self.world, result, target, data, message=message, locale=locale
        )
        loop = asyncio.get_running_loop()
        self.world.interactions[result.id] = result
        result.dispatched_at = loop.time()
        reached = self.gateway.dispatch_to("INTERACTION_CREATE", result.payload, target.guild_id)
        if not reached:
            del self.world.interactions[result.id]
            raise RuntimeError(f"{label}: no connected gateway session to receive it")
        result.shards = tuple(session.shard for session in reached)
        self.results.append(result)
        self._timers.append(loop.call_later(self.ack_deadline, self.world.expire, result))
        with contextlib.suppress(TimeoutError):
            await self.world.wait_for(
                lambda: result.acknowledged or result.expired,
                timeout=self.ack_deadline + 1.0 if timeout is None else timeout,
                what=f"acknowledgement of {label}",
            )
        if expect_ack and not result.acknowledged:
            problems = "; ".join(str(v) for v in result.violations) or "no callback received"
            raise InteractionNotAcknowledged(f"{label} was not acknowledged: {problems}")
        return result


@contextlib.contextmanager
def point_discord_at(api_base: str, gateway_url: str) -> Iterator[None]:
    """Set ``Route.BASE`` and ``DiscordWebSocket.DEFAULT_GATEWAY``; restore them afterwards."""
    import discord.gateway
    import discord.http
    import yarl

    old_base = discord.http.Route.BASE
    old_gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    discord.http.Route.BASE = api_base
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway_url)
    try:
        yield
    finally:
        discord.http.Route.BASE = old_base
        discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = old_gateway
