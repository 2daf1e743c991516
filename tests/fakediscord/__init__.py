"""A Discord-compatible server on 127.0.0.1 for testing the real discord.py client offline.

Usage::

    async with FakeDiscord() as fake:
        alice = fake.add_user("alice")
        general = fake.add_channel("general")
        with fake.patch_client():
            ...  # log a discord.py bot in with fake.token, then:
            result = await fake.slash(alice, general, "shax", "move", {"action": "d7"})
            assert result.content == "..."
        fake.assert_clean()

Several servers and shards: ``FakeDiscord(shard_count=2)``, then ``fake.add_guild("North",
shard=1)`` makes a server whose events (GUILD_CREATE, INTERACTION_CREATE, …) go only to the
gateway session that identified with ``[1, 2]`` — Discord's ``(guild_id >> 22) % 2`` —
while direct messages go to shard 0; ``add_user``/``add_channel`` take ``guild=``, and an
interaction's result says which shard received it (``result.shards``).
"""

from .limits import FormErrors
from .models import FakeChannel, FakeGuild, FakeMember, FakeUser
from .rest import ApiError
from .results import (
    FakeAttachment,
    FakeMessage,
    InteractionNotAcknowledged,
    InteractionResult,
    RecordedRequest,
    Violation,
)
from .server import ENV_API_BASE, ENV_GATEWAY, FakeDiscord, point_discord_at
from .world import World

__all__ = [
    "ENV_API_BASE",
    "ENV_GATEWAY",
    "ApiError",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeUser",
    "FormErrors",
    "InteractionNotAcknowledged",
    "InteractionResult",
    "RecordedRequest",
    "Violation",
    "World",
    "point_discord_at",
]
