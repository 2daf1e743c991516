"""The state of the fake Discord: guilds, users, channels, messages, commands, interactions."""

from __future__ import annotations

import asyncio
import copy
import mimetypes
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, TypeVar

from .models import (
    DM,
    GUILD_TEXT,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    FakeChannel,
    FakeGuild,
    FakeMember,
    FakeUser,
    Snowflakes,
    iso_now,
)
from .results import (
    EPHEMERAL,
    LOADING,
    FakeAttachment,
    FakeMessage,
    InteractionResult,
    RecordedRequest,
    Violation,
)

JSON = dict[str, Any]
T = TypeVar("T")
EventSink = Callable[[str, JSON, int | None], object]

SUPPRESS_EMBEDS = 1 << 2
SUPPRESS_NOTIFICATIONS = 1 << 12
IS_COMPONENTS_V2 = 1 << 15
CREATE_FLAGS = EPHEMERAL | SUPPRESS_EMBEDS | SUPPRESS_NOTIFICATIONS | IS_COMPONENTS_V2
EDIT_FLAGS = SUPPRESS_EMBEDS | IS_COMPONENTS_V2
HAS_THREAD = 1 << 5

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_USER_MENTION = re.compile(r"<@!?(\d+)>")
_POLL_SECONDS = 0.05


@dataclass
class Upload:
    """A file part of a multipart request (``files[n]``)."""

    filename: str
    data: bytes
    content_type: str | None = None


@dataclass
class StoredMessage:
    id: int
    channel_id: int
    data: JSON
    deleted: bool = False
    pinged: tuple[int, ...] = ()
    """Users notified when the message was created (mentions that ``allowed_mentions``
    let through); Discord notifies nobody for an edit."""

    @property
    def flags(self) -> int:
        return int(self.data.get("flags") or 0)

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & EPHEMERAL)


@dataclass(frozen=True)
class MessageEvent:
    """One change of a message, as users saw it: ``kind`` is ``create``, ``edit`` or
    ``delete``; ``content`` is the text after the change."""

    kind: str
    channel_id: int
    message_id: int
    content: str


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data.startswith(PNG_SIGNATURE) and data[12:16] == b"IHDR":
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    return None


class World:
    """Everything the fake server knows, with no networking: tests and handlers both change it.

    It starts with one guild (:attr:`guild`, the default wherever a guild may be named);
    :meth:`add_guild` adds more, each with its own members and channels.

    Gateway events caused by a change are handed to ``event_sink(name, payload, guild_id)``.
    Every change should be followed by :meth:`changed`, which wakes :meth:`wait_for`.
    """

    def __init__(
        self,
        *,
        guild_name: str = "Shax Club",
        guild_id: int | None = None,
        bot_name: str = "ShaxBot",
        upload_limit: int = 10 * 1024 * 1024,
        ack_deadline: float = 3.0,
    ) -> None:
        self.ids = Snowflakes()
        self.upload_limit = upload_limit
        self.ack_deadline = ack_deadline
        self.bot_user = FakeUser(self.ids.next(), bot_name, bot=True)
        self.owner = FakeUser(self.ids.next(), "owner", global_name="Guild Owner")
        self.guild = FakeGuild(guild_id or self.ids.next(), guild_name, owner_id=self.owner.id)
        self.guilds: dict[int, FakeGuild] = {self.guild.id: self.guild}
        self.guild_members: dict[int, dict[int, FakeMember]] = {self.guild.id: {}}
        self.users: dict[int, FakeUser] = {}
        self.channels: dict[int, FakeChannel] = {}
        self.commands: dict[int | None, list[JSON]] = {}
        self.command_syncs: list[tuple[int | None, list[JSON]]] = []
        self.interactions: dict[int, InteractionResult] = {}
        self.violations: list[Violation] = []
        self.unknown_routes: list[str] = []
        self.server_errors: list[str] = []
        self.requests: list[RecordedRequest] = []
        self.message_log: list[MessageEvent] = []
        """Every change of a message that is not ephemeral, in order."""
        self.cdn_base = ""
        self.event_sink: EventSink = lambda name, payload, guild_id: None
        self._messages: dict[int, StoredMessage] = {}
        self._blobs: dict[int, bytes] = {}
        self._waiters: set[asyncio.Future[None]] = set()
        for user in (self.bot_user, self.owner):
            self.users[user.id] = user
            self.members[user.id] = FakeMember(user)

    @property
    def application_id(self) -> int:
        return self.bot_user.id

    @property
    def members(self) -> dict[int, FakeMember]:
        """The members of the first guild (:attr:`guild`)."""
        return self.guild_members[self.guild.id]

    def members_of(self, guild: FakeGuild | int | None) -> dict[int, FakeMember]:
        """The members of a guild by id (``None``: the first guild)."""
        return self.guild_members[self.guild_of(guild).id]

    def guild_of(self, guild: FakeGuild | int | None) -> FakeGuild:
        """A guild of the world by id (``None``: the first guild); KeyError if unknown."""
        return self.guild if guild is None else self.guilds[_id(guild)]

    # -- change notification ----------------------------------------------------------------

    def changed(self) -> None:
        """Wake every :meth:`wait_for` so it re-checks its predicate."""
        waiters, self._waiters = self._waiters, set()
        for waiter in waiters:
            if not waiter.done():
                waiter.set_result(None)

    async def wait_for(
        self, predicate: Callable[[], T | None], timeout: float = 5.0, what: str = "condition"
    ) -> T:
        """Return the first truthy value of ``predicate()``, re-checked on every change."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            value = predicate()
            if value:
                return value
            remaining = deadline - loop.time()
            if remaining <= 0:
                raise TimeoutError(f"timed out after {timeout:g}s waiting for {what}")
            waiter: asyncio.Future[None] = loop.create_future()
            self._waiters.add(waiter)
            try:
                await asyncio.wait_for(waiter, min(remaining, _POLL_SECONDS))
            except TimeoutError:
                pass
            finally:
                self._waiters.discard(waiter)

    def record_violation(self, violation: Violation) -> None:
        self.violations.append(violation)
        interaction = self.interactions.get(violation.interaction_id or 0)
        if interaction is not None:
            interaction.violations.append(violation)
        self.changed()

    # -- interactions ------------------------------------------------------------------------

    def interaction_by_token(self, token: str) -> InteractionResult | None:
        return next((r for r in self.interactions.values() if r.token == token), None)

    def expire(self, result: InteractionResult) -> None:
        """Past the deadline unacknowledged: Discord forgets the interaction (recorded once)."""
        if result.acknowledged or result.expired:
            return
        result.expired = True
        self.record_violation(
            Violation(
                "ack_deadline",
                f"{result.label} was not acknowledged within {self.ack_deadline:g}s "
                "(Discord answers 10062 Unknown interaction)",
                status=404,
                code=10062,
                interaction_id=result.id,
            )
        )

    # -- users, members, channels -------------------------------------------------------------

    def add_guild(
        self,
        name: str,
        *,
        guild_id: int | None = None,
        shard: tuple[int, int] | None = None,
    ) -> FakeGuild:
        """Add a guild the bot is in (GUILD_CREATE to the session of its shard). Its id is
        ``guild_id``, or one on ``shard`` — ``(shard_id, shard_count)`` — or the next id.
        The bot and the owner are its first members."""
        if guild_id is None:
            guild_id = self.ids.next() if shard is None else self.ids.next_on_shard(*shard)
        if guild_id in self.guilds:
            raise ValueError(f"guild {guild_id} already exists")
        guild = FakeGuild(guild_id, name, owner_id=self.owner.id)
        self.guilds[guild.id] = guild
        self.guild_members[guild.id] = {
            user.id: FakeMember(user) for user in (self.bot_user, self.owner)
        }
        self.event_sink("GUILD_CREATE", self.guild_create_payload(guild.id), guild.id)
        self.changed()
        return guild

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
        """Create a user; unless ``member=False`` they also join ``guild`` (default: the
        first guild; GUILD_MEMBER_ADD)."""
        user = FakeUser(self.ids.next(), username, global_name=global_name, bot=bot)
        self.users[user.id] = user
        if member:
            self.add_member(user, nick=nick, guild=guild)
        self.changed()
        return user

    def add_member(
        self, user: FakeUser, *, nick: str | None = None, guild: FakeGuild | int | None = None
    ) -> FakeMember:
        """``user`` joins ``guild`` (default: the first guild; GUILD_MEMBER_ADD)."""
        target = self.guild_of(guild)
        member = FakeMember(user, nick=nick)
        self.guild_members[target.id][user.id] = member
        payload = member.payload()
        payload["guild_id"] = str(target.id)
        self.event_sink("GUILD_MEMBER_ADD", payload, target.id)
        self.changed()
        return member

    def add_channel(
        self, name: str, *, topic: str | None = None, guild: FakeGuild | int | None = None
    ) -> FakeChannel:
        """Create a text channel in ``guild`` (default: the first guild; CHANNEL_CREATE)."""
        target = self.guild_of(guild)
        position = sum(1 for c in self.guild_channels(target.id) if c.type == GUILD_TEXT)
        channel = FakeChannel(
            self.ids.next(), name, GUILD_TEXT, target.id, position=position, topic=topic
        )
        self.channels[channel.id] = channel
        self.event_sink("CHANNEL_CREATE", channel.payload(), target.id)
        self.changed()
        return channel

    def add_thread(
        self,
        parent: FakeChannel | int,
        name: str,
        *,
        owner: FakeUser | int | None = None,
        private: bool = False,
        thread_id: int | None = None,
        auto_archive_duration: int = 1440,
    ) -> FakeChannel:
        """Create a thread under a text channel (THREAD_CREATE)."""
        parent_channel = self.channel(parent)
        owner_id = self.bot_user.id if owner is None else _id(owner)
        thread = FakeChannel(
            thread_id or self.ids.next(),
            name,
            PRIVATE_THREAD if private else PUBLIC_THREAD,
            parent_channel.guild_id,
            parent_id=parent_channel.id,
            owner_id=owner_id,
            auto_archive_duration=auto_archive_duration,
            thread_member_ids={owner_id},
        )
        self.channels[thread.id] = thread
        self.event_sink(
            "THREAD_CREATE", {**thread.payload(), "newly_created": True}, thread.guild_id
        )
        self.changed()
        return thread

    def delete_channel(self, channel: FakeChannel | int) -> None:
        """A server admin deletes a channel (CHANNEL_DELETE); its messages go with it."""
        gone = self.channels.pop(_id(channel))
        self.event_sink("CHANNEL_DELETE", gone.payload(), gone.guild_id)
        self.changed()

    def dm_channel(self, user: FakeUser | int) -> FakeChannel:
        """The bot's DM channel with ``user`` (created on first use)."""
        recipient = self.user(user)
        for channel in self.channels.values():
            if channel.type == DM and channel.recipients[0].id == recipient.id:
                return channel
        channel = FakeChannel(self.ids.next(), "", DM, recipients=[recipient])
        self.channels[channel.id] = channel
        self.changed()
        return channel

    def update_channel(self, channel: FakeChannel, changes: JSON) -> FakeChannel:
        for key in ("name", "topic"):
            if key in changes:
                setattr(channel, key, changes[key])
        metadata = changes.get("thread_metadata") or changes
        for key in ("archived", "locked", "auto_archive_duration"):
            if key in metadata:
                setattr(channel, key, metadata[key])
        event = "THREAD_UPDATE" if channel.is_thread else "CHANNEL_UPDATE"
        self.event_sink(event, channel.payload(), channel.guild_id)
        self.changed()
        return channel

    def user(self, user: FakeUser | int) -> FakeUser:
        return self.users[_id(user)]

    def channel(self, channel: FakeChannel | int) -> FakeChannel:
        return self.channels[_id(channel)]

    def guild_channels(self, guild: FakeGuild | int | None = None) -> list[FakeChannel]:
        """The channels (not threads) of ``guild`` (default: the first guild)."""
        guild_id = self.guild_of(guild).id
        return [c for c in self.channels.values() if c.guild_id == guild_id and not c.is_thread]

    def threads(self, guild: FakeGuild | int | None = None) -> list[FakeChannel]:
        """The threads of ``guild``, or of every guild when it is not given."""
        return [
            c
            for c in self.channels.values()
            if c.is_thread and (guild is None or c.guild_id == _id(guild))
        ]

    def guild_create_payload(self, guild: FakeGuild | int | None = None) -> JSON:
        """The GUILD_CREATE payload of ``guild`` (default: the first guild): the guild, its
        channels, active threads and all members."""
        target = self.guild_of(guild)
        members = self.guild_members[target.id]
        data = target.payload()
        bot_member = members[self.bot_user.id]
        data.update(
            channels=[c.payload() for c in self.guild_channels(target.id)],
            threads=[c.payload() for c in self.threads(target.id) if not c.archived],
            members=[m.payload() for m in members.values()],
            member_count=len(members),
            presences=[],
            voice_states=[],
            stage_instances=[],
            guild_scheduled_events=[],
            soundboard_sounds=[],
            large=False,
            unavailable=False,
            lazy=True,
            joined_at=bot_member.joined_at,
            max_members=500000,
        )
        return data

    # -- messages ----------------------------------------------------------------------------

    def create_message(
        self,
        channel: FakeChannel | int,
        author: FakeUser | int,
        body: JSON,
        uploads: Iterable[Upload] = (),
        *,
        message_type: int = 0,
        extra: JSON | None = None,
    ) -> StoredMessage:
        """Store a new message (MESSAGE_CREATE unless ephemeral) and return it."""
        target = self.channel(channel)
        sender = self.user(author)
        message_id = self.ids.next()
        data: JSON = {
            "id": str(message_id),
            "channel_id": str(target.id),
            "author": sender.payload(),
            "content": "",
            "timestamp": iso_now(),
            "edited_timestamp": None,
            "tts": bool(body.get("tts", False)),
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [],
            "embeds": [],
            "components": [],
            "pinned": False,
            "type": message_type,
            "flags": int(body.get("flags") or 0) & CREATE_FLAGS,
        }
        if target.guild_id is not None:
            data["guild_id"] = str(target.guild_id)
        if target.is_thread:
            data["position"] = target.message_count
        data.update(extra or {})
        stored = StoredMessage(message_id, target.id, data)
        self._apply(stored, body, list(uploads), creating=True)
        if not stored.ephemeral:
            stored.pinged = self._pinged(stored.data["content"], body.get("allowed_mentions"))
        self._messages[message_id] = stored
        if not stored.ephemeral:
            target.last_message_id = message_id
            target.message_count += 1
            self._log("create", stored)
            self._emit_message("MESSAGE_CREATE", stored)
        self.changed()
        return stored

    def edit_message(
        self, stored: StoredMessage, body: JSON, uploads: Iterable[Upload] = ()
    ) -> None:
        """Apply an edit; the first edit of a deferred ("loading") message resolves it."""
        was_loading = bool(stored.flags & LOADING)
        self._apply(stored, body, list(uploads), creating=False)
        if was_loading:
            stored.data["flags"] = stored.flags & ~LOADING
        else:
            stored.data["edited_timestamp"] = iso_now()
        if not stored.ephemeral:
            self._log("edit", stored)
            self._emit_message("MESSAGE_UPDATE", stored)
        self.changed()

    def delete_message(self, stored: StoredMessage) -> None:
        stored.deleted = True
        if not stored.ephemeral:
            self._log("delete", stored)
            channel = self.channels.get(stored.channel_id)
            payload: JSON = {"id": str(stored.id), "channel_id": str(stored.channel_id)}
            guild_id = channel.guild_id if channel else None
            if guild_id is not None:
                payload["guild_id"] = str(guild_id)
            self.event_sink("MESSAGE_DELETE", payload, guild_id)
        self.changed()

    def stored(self, message_id: int) -> StoredMessage:
        """A live (not deleted) message; KeyError otherwise."""
        stored = self._messages[message_id]
        if stored.deleted:
            raise KeyError(message_id)
        return stored

    def find_stored(self, message_id: int | None) -> StoredMessage | None:
        """A live message, or None."""
        stored = self._messages.get(message_id or 0)
        return None if stored is None or stored.deleted else stored

    def snapshot(self, message: FakeMessage | StoredMessage | int) -> FakeMessage:
        """A copy of a message (deleted ones too), with attachment bytes."""
        stored = self._messages[message if isinstance(message, int) else message.id]
        attachments = tuple(
            FakeAttachment(
                id=int(a["id"]),
                filename=a["filename"],
                size=a["size"],
                url=a["url"],
                content_type=a.get("content_type"),
                data=self._blobs[int(a["id"])],
                description=a.get("description"),
                width=a.get("width"),
                height=a.get("height"),
            )
            for a in stored.data.get("attachments") or []
        )
        return FakeMessage(copy.deepcopy(stored.data), attachments, stored.deleted, stored.pinged)

    def messages(
        self, channel: FakeChannel | int, *, include_ephemeral: bool = False
    ) -> list[FakeMessage]:
        """Live messages of a channel, oldest first."""
        channel_id = _id(channel)
        return [
            self.snapshot(m)
            for m in self._messages.values()
            if m.channel_id == channel_id
            and not m.deleted
            and (include_ephemeral or not m.ephemeral)
        ]

    def channel_history(self, channel_id: int) -> list[StoredMessage]:
        """Live, non-ephemeral messages of a channel, newest first (as the API lists them)."""
        found = [
            m
            for m in self._messages.values()
            if m.channel_id == channel_id and not m.deleted and not m.ephemeral
        ]
        return sorted(found, key=lambda m: m.id, reverse=True)

    def attachment_bytes(self, attachment_id: int) -> bytes:
        return self._blobs[attachment_id]

    def message_payload(self, stored: StoredMessage) -> JSON:
        return copy.deepcopy(stored.data)

    def _log(self, kind: str, stored: StoredMessage) -> None:
        content = str(stored.data.get("content") or "")
        self.message_log.append(MessageEvent(kind, stored.channel_id, stored.id, content))

    def _emit_message(self, event: str, stored: StoredMessage) -> None:
        payload = self.message_payload(stored)
        guild_id = self.channels[stored.channel_id].guild_id
        member = (
            None
            if guild_id is None
            else self.guild_members[guild_id].get(int(payload["author"]["id"]))
        )
        if member is not None:
            payload["member"] = member.payload(with_user=False)
        self.event_sink(event, payload, guild_id)

    def _apply(
        self, stored: StoredMessage, body: JSON, uploads: list[Upload], *, creating: bool
    ) -> None:
        data = stored.data
        if "content" in body:
            data["content"] = body["content"] or ""
            data["mentions"] = self._mentions(data["content"], stored.channel_id)
        for key in ("embeds", "components"):
            if key in body:
                data[key] = copy.deepcopy(body[key] or [])
        if not creating and body.get("flags") is not None:
            data["flags"] = (stored.flags & ~EDIT_FLAGS) | (int(body["flags"]) & EDIT_FLAGS)
        if body.get("attachments") is not None or uploads:
            data["attachments"] = self._attachments(
                stored, body.get("attachments"), uploads, creating=creating
            )
        self._resolve_attachment_urls(data)

    def _attachments(
        self,
        stored: StoredMessage,
        listed: list[JSON] | None,
        uploads: list[Upload],
        *,
        creating: bool,
    ) -> list[JSON]:
        existing = {a["id"]: a for a in stored.data.get("attachments") or []}
        if listed is None:
            return [*existing.values(), *(self._new_attachment(stored, u) for u in uploads)]
        result: list[JSON] = []
        used: set[int] = set()
        for item in listed:
            key = str(item.get("id"))
            if key in existing:
                result.append(existing[key])
            elif key.isdigit() and int(key) < len(uploads):
                used.add(int(key))
                result.append(
                    self._new_attachment(
                        stored, uploads[int(key)], item.get("filename"), item.get("description")
                    )
                )
        if creating:
            result += [
                self._new_attachment(stored, u) for i, u in enumerate(uploads) if i not in used
            ]
        return result

    def _new_attachment(
        self,
        stored: StoredMessage,
        upload: Upload,
        filename: str | None = None,
        description: str | None = None,
    ) -> JSON:
        attachment_id = self.ids.next()
        name = filename or upload.filename
        url = f"{self.cdn_base}/attachments/{stored.channel_id}/{attachment_id}/{name}"
        content_type = mimetypes.guess_type(name)[0] or upload.content_type
        attachment: JSON = {
            "id": str(attachment_id),
            "filename": name,
            "size": len(upload.data),
            "url": url,
            "proxy_url": url,
            "content_type": content_type,
        }
        if description is not None:
            attachment["description"] = description
        if stored.ephemeral:
            attachment["ephemeral"] = True
        size = _png_size(upload.data)
        if size is not None:
            attachment["width"], attachment["height"] = size
        self._blobs[attachment_id] = upload.data
        return attachment

    @staticmethod
    def _resolve_attachment_urls(data: JSON) -> None:
        """Point ``attachment://name`` embed images at the attachment's URL, as Discord does."""
        by_name = {a["filename"]: a for a in data.get("attachments") or []}
        for embed in data.get("embeds") or []:
            for key in ("image", "thumbnail"):
                media = embed.get(key)
                url = media.get("url", "") if isinstance(media, dict) else ""
                if url.startswith("attachment://") and url[13:] in by_name:
                    attachment = by_name[url[13:]]
                    media.update(url=attachment["url"], proxy_url=attachment["proxy_url"])
                    if "width" in attachment:
                        media.update(width=attachment["width"], height=attachment["height"])

    def _pinged(self, content: str, allowed: JSON | None) -> tuple[int, ...]:
        """Who a new message notifies: its user mentions, as ``allowed_mentions`` permits
        (no ``allowed_mentions`` at all: every mention pings)."""
        ids = [int(m.group(1)) for m in _USER_MENTION.finditer(content)]
        ids = [i for i in dict.fromkeys(ids) if i in self.users]
        if allowed is None or "users" in (allowed.get("parse") or []):
            return tuple(ids)
        permitted = {int(u) for u in allowed.get("users") or []}
        return tuple(i for i in ids if i in permitted)

    def _mentions(self, content: str, channel_id: int) -> list[JSON]:
        mentioned: list[JSON] = []
        guild_id = self.channels[channel_id].guild_id
        members = {} if guild_id is None else self.guild_members[guild_id]
        for match in _USER_MENTION.finditer(content):
            user = self.users.get(int(match.group(1)))
            if user is None:
                continue
            payload = user.payload()
            member = members.get(user.id)
            if member is not None:
                payload["member"] = member.payload(with_user=False)
            mentioned.append(payload)
        return mentioned

    # -- application commands ----------------------------------------------------------------

    def put_commands(self, guild_id: int | None, commands: list[JSON]) -> list[JSON]:
        """Bulk overwrite; a command keeps its id when its name and type are unchanged."""
        previous = {(c["name"], c["type"]): c for c in self.commands.get(guild_id, [])}
        stored = []
        for command in commands:
            kind = int(command.get("type", 1))
            old = previous.get((command["name"], kind))
            stored.append(self._command_entry(guild_id, command, old["id"] if old else None))
        self.commands[guild_id] = stored
        self.command_syncs.append((guild_id, copy.deepcopy(stored)))
        self.changed()
        return copy.deepcopy(stored)

    def upsert_command(self, guild_id: int | None, command: JSON) -> JSON:
        kind = int(command.get("type", 1))
        current = self.commands.setdefault(guild_id, [])
        for index, old in enumerate(current):
            if (old["name"], old["type"]) == (command["name"], kind):
                current[index] = self._command_entry(guild_id, command, old["id"])
                return copy.deepcopy(current[index])
        current.append(self._command_entry(guild_id, command, None))
        self.changed()
        return copy.deepcopy(current[-1])

    def delete_command(self, guild_id: int | None, command_id: int) -> bool:
        current = self.commands.get(guild_id, [])
        kept = [c for c in current if int(c["id"]) != command_id]
        self.commands[guild_id] = kept
        return len(kept) != len(current)

    def find_command(self, name: str, guild_id: int | None, kind: int = 1) -> JSON | None:
        """A synced command by name: the guild's own first, then the global one."""
        scopes = [guild_id, None] if guild_id is not None else [None]
        for scope in scopes:
            for command in self.commands.get(scope, []):
                if command["name"] == name and command["type"] == kind:
                    return command
        return None

    def _command_entry(self, guild_id: int | None, command: JSON, command_id: str | None) -> JSON:
        entry: JSON = {
            "type": 1,
            "description": "",
            "options": [],
            "default_member_permissions": None,
            "dm_permission": True,
            "nsfw": False,
            **copy.deepcopy(command),
        }
        entry.update(
            id=command_id or str(self.ids.next()),
            application_id=str(self.application_id),
            version=str(self.ids.next()),
            type=int(command.get("type", 1)),
        )
        if guild_id is not None:
            entry["guild_id"] = str(guild_id)
        return entry


def _id(thing: Any) -> int:
    return thing if isinstance(thing, int) else int(thing.id)
