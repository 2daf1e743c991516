"""The gateway: websocket sessions, heartbeats, IDENTIFY/RESUME, event dispatch (text frames)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import logging
import uuid
from collections import deque
from typing import Any

from aiohttp import WSMsgType, web

from .results import Violation
from .world import World

JSON = dict[str, Any]
log = logging.getLogger(__name__)

# Opcodes.
DISPATCH, HEARTBEAT, IDENTIFY, PRESENCE, VOICE_STATE = 0, 1, 2, 3, 4
RESUME, RECONNECT, REQUEST_MEMBERS, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 6, 7, 8, 9, 10, 11

# Intents.
GUILDS = 1 << 0
GUILD_MEMBERS = 1 << 1
GUILD_PRESENCES = 1 << 8
GUILD_MESSAGES = 1 << 9
DIRECT_MESSAGES = 1 << 12
MESSAGE_CONTENT = 1 << 15
PRIVILEGED_INTENTS = GUILD_MEMBERS | GUILD_PRESENCES | MESSAGE_CONTENT

_EVENT_INTENTS = {
    "CHANNEL_CREATE": GUILDS,
    "CHANNEL_UPDATE": GUILDS,
    "CHANNEL_DELETE": GUILDS,
    "THREAD_CREATE": GUILDS,
    "THREAD_UPDATE": GUILDS,
    "THREAD_DELETE": GUILDS,
    "GUILD_MEMBER_ADD": GUILD_MEMBERS,
    "GUILD_MEMBER_UPDATE": GUILD_MEMBERS,
    "GUILD_MEMBER_REMOVE": GUILD_MEMBERS,
}
_MESSAGE_EVENTS = frozenset({"MESSAGE_CREATE", "MESSAGE_UPDATE", "MESSAGE_DELETE"})
_REPLAY_BUFFER = 1000


class GatewaySession:
    """An identified session: id, intents, shard, sequence and the frames kept for RESUME.

    With a shard (``IDENTIFY`` with ``[shard_id, shard_count]``) it gets the events of the
    guilds on that shard — ``(guild_id >> 22) % shard_count`` — and, on shard 0, those of
    direct messages.
    """

    def __init__(self, session_id: str, intents: int, shard: tuple[int, int] | None) -> None:
        self.id = session_id
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.sent: deque[JSON] = deque(maxlen=_REPLAY_BUFFER)
        self.connection: GatewayConnection | None = None
        self.resumable = True
        self.resumes = 0

    @property
    def alive(self) -> bool:
        """Connected now, or dropped in a way the client may RESUME."""
        return self.connection is not None or self.resumable

    def covers(self, guild_id: int | None) -> bool:
        if self.shard is None:
            return True
        shard_id, shard_count = self.shard
        if guild_id is None:
            return shard_id == 0
        return (guild_id >> 22) % shard_count == shard_id

    def wants(self, event: str, guild_id: int | None) -> bool:
        if event in _MESSAGE_EVENTS:
            needed = GUILD_MESSAGES if guild_id is not None else DIRECT_MESSAGES
        else:
            needed = _EVENT_INTENTS.get(event, 0)
        return not needed or bool(self.intents & needed)

    def frame(self, event: str, data: JSON) -> JSON:
        self.seq += 1
        frame = {"op": DISPATCH, "t": event, "s": self.seq, "d": data}
        self.sent.append(frame)
        return frame


class GatewayConnection:
    """One websocket. Frames are queued and written by one task, so they keep their order."""

    def __init__(self, ws: web.WebSocketResponse, opened_at: float) -> None:
        self.ws = ws
        self.opened_at = opened_at
        self.session: GatewaySession | None = None
        self.heartbeats: list[float] = []
        self.closed = False
        self._queue: asyncio.Queue[str | tuple[int, bytes]] = asyncio.Queue()
        self._writer = asyncio.create_task(self._write())

    def send(self, frame: JSON) -> None:
        if not self.closed:
            self._queue.put_nowait(json.dumps(frame, separators=(",", ":")))

    def send_text(self, text: str) -> None:
        """Send ``text`` as it is: a frame that need not be JSON (a fault)."""
        if not self.closed:
            self._queue.put_nowait(text)

    def close(self, code: int, reason: str = "") -> None:
        """Close after the frames already queued have been written."""
        if not self.closed:
            self.closed = True
            self._queue.put_nowait((code, reason.encode()))

    async def drained(self, timeout: float) -> None:
        """Wait (bounded) until the writer has written everything, including a queued close."""
        if not self._writer.done():
            await asyncio.wait({self._writer}, timeout=timeout)

    async def finish(self) -> None:
        self.closed = True
        if not self._writer.done():
            self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer

    async def _write(self) -> None:
        while True:
            item = await self._queue.get()
            try:
                if isinstance(item, tuple):
                    await self.ws.close(code=item[0], message=item[1])
                    return
                await self.ws.send_str(item)
            except (ConnectionError, RuntimeError) as error:
                log.debug("gateway write failed: %r", error)
                return


class Gateway:
    """Accepts gateway websockets and sends each session the events it should see."""

    def __init__(
        self,
        world: World,
        *,
        token: str,
        heartbeat_interval: float,
        heartbeat_tolerance: float,
        privileged_intents: int,
        shard_count: int = 1,
    ) -> None:
        self.world = world
        self.token = token
        self.heartbeat_interval = heartbeat_interval
        self.heartbeat_tolerance = heartbeat_tolerance
        self.privileged_intents = privileged_intents
        self.shard_count = shard_count  # what GET /gateway/bot recommends
        self.url = ""
        self.sessions: dict[str, GatewaySession] = {}
        self.connections: list[GatewayConnection] = []
        self.identify_payloads: list[JSON] = []
        self.unavailable = 0
        """How many more connection attempts are answered 503 before the upgrade, as
        Discord's edge answers during an outage."""
        self.holding_ready = False
        """While set, an IDENTIFY is accepted but its READY (and GUILD_CREATEs) wait for
        :meth:`release_ready`, as when Discord is slow to say READY."""
        self.held_ready: list[tuple[GatewayConnection, list[JSON]]] = []

    # -- queries --------------------------------------------------------------------------

    def live_connections(self) -> list[GatewayConnection]:
        return [c for c in self.connections if not c.closed]

    def identified_connections(self) -> list[GatewayConnection]:
        return [c for c in self.live_connections() if c.session is not None]

    def heartbeat_gaps(self) -> list[float]:
        """Seconds between consecutive heartbeats of each connection, all connections together."""
        gaps: list[float] = []
        for connection in self.connections:
            beats = connection.heartbeats
            gaps += [later - earlier for earlier, later in itertools.pairwise(beats)]
        return gaps

    # -- dispatch -------------------------------------------------------------------------

    def dispatch(self, event: str, payload: JSON, guild_id: int | None) -> int:
        """Send an event to every live session that covers the guild and has the intent.

        Returns how many sessions received it now (dropped but resumable sessions get it on RESUME).
        """
        return len(self.dispatch_to(event, payload, guild_id))

    def dispatch_to(self, event: str, payload: JSON, guild_id: int | None) -> list[GatewaySession]:
        """:meth:`dispatch`, returning the sessions that received the event now."""
        reached: list[GatewaySession] = []
        for session in self.sessions.values():
            if (
                not session.alive
                or not session.covers(guild_id)
                or not session.wants(event, guild_id)
            ):
                continue
            frame = session.frame(event, self._redact(session, event, payload, guild_id))
            if session.connection is not None and not session.connection.closed:
                session.connection.send(frame)
                reached.append(session)
        return reached

    def _redact(
        self, session: GatewaySession, event: str, payload: JSON, guild_id: int | None
    ) -> JSON:
        """Without MESSAGE_CONTENT, other users' guild messages arrive without content."""
        if event not in ("MESSAGE_CREATE", "MESSAGE_UPDATE") or session.intents & MESSAGE_CONTENT:
            return payload
        bot_id = str(self.world.bot_user.id)
        author_id = (payload.get("author") or {}).get("id")
        mentioned = any(m.get("id") == bot_id for m in payload.get("mentions") or [])
        if guild_id is None or author_id == bot_id or mentioned:
            return payload
        return {**payload, "content": "", "embeds": [], "attachments": [], "components": []}

    # -- websocket ------------------------------------------------------------------------

    async def handle(self, request: web.Request) -> web.StreamResponse:
        if self.unavailable > 0:
            self.unavailable -= 1
            return web.Response(status=503, text="upstream connect error")
        ws = web.WebSocketResponse(autoping=True, max_msg_size=0)
        await ws.prepare(request)
        loop = asyncio.get_running_loop()
        connection = GatewayConnection(ws, loop.time())
        self.connections.append(connection)
        connection.send(
            {
                "op": HELLO,
                "d": {"heartbeat_interval": round(self.heartbeat_interval * 1000)},
                "s": None,
                "t": None,
            }
        )
        try:
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    try:
                        frame = json.loads(message.data)
                    except ValueError:
                        connection.close(4002, "Error while decoding payload.")
                    else:
                        self._on_frame(connection, frame)
                elif message.type is WSMsgType.BINARY:
                    connection.close(4002, "Error while decoding payload.")
                self.world.changed()
        finally:
            self._on_closed(connection, ws.close_code)
            await connection.finish()
            self.world.changed()
        return ws

    def _on_closed(self, connection: GatewayConnection, code: int | None) -> None:
        client_closed = not connection.closed
        connection.closed = True
        session = connection.session
        if session is not None and session.connection is connection:
            session.connection = None
            if client_closed and code in (1000, 1001):
                session.resumable = False

    def _on_frame(self, connection: GatewayConnection, frame: JSON) -> None:
        op, data = frame.get("op"), frame.get("d")
        if op == HEARTBEAT:
            self._heartbeat(connection)
        elif op == IDENTIFY:
            self._identify(connection, data or {})
        elif op == RESUME:
            self._resume(connection, data or {})
        elif connection.session is None:
            connection.close(4003, "Not authenticated.")
        elif op == REQUEST_MEMBERS:
            self._request_members(connection.session, data or {})
        elif op not in (PRESENCE, VOICE_STATE):
            connection.close(4001, "Unknown opcode.")

    def _heartbeat(self, connection: GatewayConnection) -> None:
        now = asyncio.get_running_loop().time()
        if connection.heartbeats:
            gap = now - connection.heartbeats[-1]
            if gap > self.heartbeat_interval + self.heartbeat_tolerance:
                self.world.record_violation(
                    Violation(
                        "heartbeat_late",
                        f"heartbeat came {gap:.2f}s after the previous one "
                        f"(interval {self.heartbeat_interval:g}s, "
                        f"tolerance {self.heartbeat_tolerance:g}s)",
                    )
                )
        connection.heartbeats.append(now)
        connection.send({"op": HEARTBEAT_ACK, "d": None, "s": None, "t": None})

    def _identify(self, connection: GatewayConnection, data: JSON) -> None:
        if connection.session is not None:
            connection.close(4005, "Already authenticated.")
            return
        if data.get("token") != self.token:
            connection.close(4004, "Authentication failed.")
            return
        intents = data.get("intents")
        if not isinstance(intents, int):
            connection.close(4013, "Invalid intent(s).")
            return
        if intents & PRIVILEGED_INTENTS & ~self.privileged_intents:
            connection.close(4014, "Disallowed intent(s).")
            return
        shard: tuple[int, int] | None = None
        if data.get("shard") is not None:
            shard_id, shard_count = (int(x) for x in data["shard"])
            if not 0 <= shard_id < shard_count:
                connection.close(4010, "Invalid shard.")
                return
            shard = (shard_id, shard_count)
        self.identify_payloads.append(data)
        session = GatewaySession(uuid.uuid4().hex, intents, shard)
        self.sessions[session.id] = session
        session.connection = connection
        connection.session = session
        guild_ids = [guild_id for guild_id in self.world.guilds if session.covers(guild_id)]
        bot = self.world.bot_user
        ready: JSON = {
            "v": 10,
            "user": {**bot.payload(), "verified": True, "mfa_enabled": False, "flags": 0},
            "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in guild_ids],
            "session_id": session.id,
            "session_type": "normal",
            "resume_gateway_url": self.url,
            "application": {"id": str(self.world.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "user_settings": {},
        }
        if shard is not None:
            ready["shard"] = list(shard)
        frames = [session.frame("READY", ready)] + [
            session.frame("GUILD_CREATE", self.world.guild_create_payload(guild_id))
            for guild_id in guild_ids
        ]
        if self.holding_ready:
            self.held_ready.append((connection, frames))
            return
        for frame in frames:
            connection.send(frame)

    def release_ready(self) -> int:
        """Send the READY frames held back (:attr:`holding_ready`) to the connections
        still open, and hold no more; how many were sent."""
        self.holding_ready = False
        held, self.held_ready = self.held_ready, []
        for connection, frames in held:
            for frame in frames:
                connection.send(frame)
        return sum(not connection.closed for connection, _ in held)

    def _resume(self, connection: GatewayConnection, data: JSON) -> None:
        session = self.sessions.get(str(data.get("session_id")))
        seq = int(data.get("seq") or 0)
        oldest = session.sent[0]["s"] if session and session.sent else 1
        if (
            session is None
            or not session.resumable
            or data.get("token") != self.token
            or seq < oldest - 1
        ):
            connection.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
            return
        previous = session.connection
        if previous is not None and previous is not connection:
            previous.session = None
            previous.close(4000, "Session resumed elsewhere.")
        session.connection = connection
        connection.session = session
        session.resumes += 1
        for frame in list(session.sent):
            if frame["s"] > seq:
                connection.send(frame)
        connection.send(session.frame("RESUMED", {}))

    def _request_members(self, session: GatewaySession, data: JSON) -> None:
        guild_id = int(data.get("guild_id") or self.world.guild.id)
        if guild_id not in self.world.guilds or not session.covers(guild_id):
            return  # Discord ignores a request for a guild the session does not have
        members = list(self.world.members_of(guild_id).values())
        user_ids = {int(x) for x in data.get("user_ids") or []}
        if user_ids:
            members = [m for m in members if m.user.id in user_ids]
        query = str(data.get("query") or "").lower()
        members = [m for m in members if m.user.username.lower().startswith(query)]
        if data.get("limit"):
            members = members[: int(data["limit"])]
        chunk = {
            "guild_id": str(guild_id),
            "members": [m.payload() for m in members],
            "chunk_index": 0,
            "chunk_count": 1,
            "not_found": [],
        }
        if data.get("nonce") is not None:
            chunk["nonce"] = data["nonce"]
        if session.connection is not None:
            session.connection.send(session.frame("GUILD_MEMBERS_CHUNK", chunk))

    # -- faults and shutdown ----------------------------------------------------------------

    def drop_connections(self, code: int = 4000) -> int:
        """Close every connection with ``code``; sessions stay resumable."""
        live = self.live_connections()
        for connection in live:
            connection.close(code, "Dropped by the fake server.")
        return len(live)

    def request_reconnect(self) -> int:
        """Send op 7 RECONNECT to every connection (the client closes and RESUMEs)."""
        live = self.identified_connections()
        for connection in live:
            connection.send({"op": RECONNECT, "d": None, "s": None, "t": None})
        return len(live)

    def send_malformed(self, text: str) -> int:
        """Send a frame that is not a gateway message (``text``, e.g. invalid JSON) to
        every identified connection."""
        live = self.identified_connections()
        for connection in live:
            connection.send_text(text)
        return len(live)

    def invalidate_sessions(self) -> int:
        """Send op 9 (not resumable): clients must IDENTIFY again."""
        live = self.identified_connections()
        for connection in live:
            if connection.session is not None:
                connection.session.resumable = False
            connection.send({"op": INVALID_SESSION, "d": False, "s": None, "t": None})
        return len(live)

    async def close_all(self) -> None:
        for connection in self.live_connections():
            if connection.session is not None:
                connection.session.resumable = False
            connection.close(1001, "Server stopping.")
        for connection in list(self.connections):
            await connection.drained(2.0)
