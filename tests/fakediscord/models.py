"""Entities of the fake Discord world (users, members, channels, guild) and their payloads."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

JSON = dict[str, Any]

DISCORD_EPOCH_MS = 1_420_070_400_000

# Channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types).
GUILD_TEXT = 0
DM = 1
ANNOUNCEMENT_THREAD = 10
PUBLIC_THREAD = 11
PRIVATE_THREAD = 12
THREAD_TYPES = frozenset({ANNOUNCEMENT_THREAD, PUBLIC_THREAD, PRIVATE_THREAD})

# Permission bits used for members and the bot.
_PERMISSION_BITS = {
    "CREATE_INSTANT_INVITE": 1 << 0,
    "ADD_REACTIONS": 1 << 6,
    "VIEW_CHANNEL": 1 << 10,
    "SEND_MESSAGES": 1 << 11,
    "EMBED_LINKS": 1 << 14,
    "ATTACH_FILES": 1 << 15,
    "READ_MESSAGE_HISTORY": 1 << 16,
    "USE_EXTERNAL_EMOJIS": 1 << 18,
    "CHANGE_NICKNAME": 1 << 26,
    "USE_APPLICATION_COMMANDS": 1 << 31,
    "CREATE_PUBLIC_THREADS": 1 << 35,
    "CREATE_PRIVATE_THREADS": 1 << 36,
    "SEND_MESSAGES_IN_THREADS": 1 << 38,
}
MEMBER_PERMISSIONS = sum(_PERMISSION_BITS.values())
MANAGE_MESSAGES = 1 << 13
MANAGE_THREADS = 1 << 34
BOT_PERMISSIONS = MEMBER_PERMISSIONS | MANAGE_MESSAGES | MANAGE_THREADS
PERMISSION = dict(_PERMISSION_BITS)
"""Permission bits by Discord's name (``PERMISSION["ATTACH_FILES"]``)."""


def iso_now() -> str:
    """The current time as Discord writes timestamps (ISO 8601, UTC)."""
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Unique, increasing ids shaped like Discord's: ``ms_since_2015 << 22 | counter``."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        candidate = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(candidate, self._last + 1)
        return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next id whose server would be on shard ``shard_id`` of ``shard_count``
        (Discord's rule: ``(guild_id >> 22) % shard_count``); it moves the clock of the ids
        on by at most ``shard_count - 1`` milliseconds."""
        if not 0 <= shard_id < shard_count:
            raise ValueError(f"shard {shard_id} is not one of 0..{shard_count - 1}")
        stamp = (self.next() >> 22) + 1
        stamp += (shard_id - stamp) % shard_count
        self._last = stamp << 22
        return self._last


@dataclass
class FakeUser:
    """A Discord user (a person or a bot)."""

    id: int
    username: str
    global_name: str | None = None
    bot: bool = False

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    @property
    def display_name(self) -> str:
        return self.global_name or self.username

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "username": self.username,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
        }


@dataclass
class FakeMember:
    """A user's membership of the guild."""

    user: FakeUser
    joined_at: str = field(default_factory=iso_now)
    nick: str | None = None
    permissions: int = MEMBER_PERMISSIONS

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> JSON:
        data: JSON = {
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "roles": [],
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "flags": 0,
            "pending": False,
            "communication_disabled_until": None,
        }
        if with_user:
            data["user"] = self.user.payload()
        if with_permissions:
            data["permissions"] = str(self.permissions)
        return data


@dataclass
class FakeGuild:
    """A guild (server) of the fake world."""

    id: int
    name: str
    owner_id: int
    created_at: str = field(default_factory=iso_now)

    def everyone_role(self) -> JSON:
        return {
            "id": str(self.id),
            "name": "@everyone",
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": 0,
            "permissions": str(MEMBER_PERMISSIONS),
            "managed": False,
            "mentionable": False,
            "flags": 0,
        }

    def payload(self) -> JSON:
        """The guild object without channels, members or threads."""
        return {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [self.everyone_role()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }


@dataclass
class FakeChannel:
    """A text channel, a thread (``parent_id`` set) or a DM channel."""

    id: int
    name: str
    type: int = GUILD_TEXT
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    auto_archive_duration: int = 1440
    created_at: str = field(default_factory=iso_now)
    recipients: list[FakeUser] = field(default_factory=list)
    thread_member_ids: set[int] = field(default_factory=set)
    last_message_id: int | None = None
    message_count: int = 0
    bot_permissions: int = BOT_PERMISSIONS
    """The bot's permissions here (a server admin may take some away in one channel):
    sent as interactions' ``app_permissions`` and checked when the bot posts."""

    @property
    def is_thread(self) -> bool:
        return self.type in THREAD_TYPES

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    def payload(self, *, permissions: int | None = None) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "name": self.name,
            "last_message_id": None if self.last_message_id is None else str(self.last_message_id),
            "flags": 0,
        }
        if permissions is not None:
            data["permissions"] = str(permissions)
        if self.type == DM:
            data.pop("name")
            data["recipients"] = [user.payload() for user in self.recipients]
            return data
        data["guild_id"] = str(self.guild_id)
        data["parent_id"] = None if self.parent_id is None else str(self.parent_id)
        data["rate_limit_per_user"] = 0
        data["nsfw"] = False
        if self.is_thread:
            data.update(
                owner_id=str(self.owner_id),
                message_count=self.message_count,
                total_message_sent=self.message_count,
                member_count=min(len(self.thread_member_ids), 50),
                thread_metadata={
                    "archived": self.archived,
                    "auto_archive_duration": self.auto_archive_duration,
                    "archive_timestamp": self.created_at,
                    "locked": self.locked,
                    "invitable": True,
                    "create_timestamp": self.created_at,
                },
            )
        else:
            data.update(
                position=self.position,
                topic=self.topic,
                permission_overwrites=[],
                default_auto_archive_duration=1440,
            )
        return data
