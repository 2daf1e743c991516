"""The fake Discord with several guilds and shards, proven against discord.py's AutoShardedBot:
each guild's events go only to the session of its shard, ``(guild_id >> 22) % num_shards``,
and direct messages to shard 0."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator

import aiohttp
import discord
import pytest
from discord.ext import commands

from tests.fakediscord import FakeDiscord
from tests.fakediscord.fixtures import running
from tests.fakediscord.models import Snowflakes

SHARDS = 2


class ShardBot(commands.AutoShardedBot):
    """Runs some of the shards, as one of several processes does; ``/where`` says which."""

    def __init__(self, shard_ids: list[int]) -> None:
        super().__init__(
            command_prefix="!",
            intents=discord.Intents.default(),
            shard_count=SHARDS,
            shard_ids=shard_ids,
            guild_ready_timeout=0.05,
        )
        self.answered: list[int | None] = []

        @self.tree.command(name="where", description="Which shard answers")
        async def where(interaction: discord.Interaction) -> None:
            guild_id = interaction.guild_id
            self.answered.append(guild_id)
            await interaction.response.send_message(f"shards {self.shard_ids}")

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before each non-initial IDENTIFY by default; not needed here."""


@contextlib.asynccontextmanager
async def two_processes(fake: FakeDiscord) -> AsyncIterator[tuple[ShardBot, ShardBot]]:
    """Two bots on one fake, one per shard, as two bot processes would be."""
    async with running(ShardBot([0]), fake) as zero, running(ShardBot([1]), fake) as one:
        yield zero, one


def test_guild_ids_can_be_chosen_on_a_shard() -> None:
    ids = Snowflakes()
    made = [ids.next_on_shard(shard, 3) for shard in (2, 0, 1, 1, 0)]
    assert [(made_id >> 22) % 3 for made_id in made] == [2, 0, 1, 1, 0]
    assert made == sorted(set(made))  # unique and increasing, as snowflakes are
    with pytest.raises(ValueError, match=r"0\.\.2"):
        ids.next_on_shard(3, 3)


async def test_gateway_bot_reports_the_shard_count(fake_discord: FakeDiscord) -> None:
    fake_discord.shard_count = 3
    headers = {"Authorization": f"Bot {fake_discord.token}"}
    async with (
        aiohttp.ClientSession() as http,
        http.get(f"{fake_discord.api_base}/gateway/bot", headers=headers) as answer,
    ):
        body = await answer.json()
    assert body["shards"] == 3
    assert body["url"] == fake_discord.gateway_url


async def test_each_process_gets_only_the_guilds_of_its_shard(fake_discord: FakeDiscord) -> None:
    fake = fake_discord
    fake.shard_count = SHARDS
    north = fake.add_guild("North", shard=0)
    south = fake.add_guild("South", shard=1)
    async with two_processes(fake) as (zero, one):
        assert sorted(tuple(p["shard"]) for p in fake.gateway.identify_payloads) == [
            (0, SHARDS),
            (1, SHARDS),
        ]
        on_zero = {g.id for g in zero.guilds}
        on_one = {g.id for g in one.guilds}
        assert north.id in on_zero and south.id in on_one
        assert not on_zero & on_one
        assert on_zero | on_one == set(fake.world.guilds)
        assert all(fake.shard_of(g) == 0 for g in on_zero)
        assert all(fake.shard_of(g) == 1 for g in on_one)
    fake.assert_clean()


async def test_events_after_login_reach_only_the_shard_of_their_guild(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    fake.shard_count = SHARDS
    async with two_processes(fake) as (zero, one):
        east = fake.add_guild("East", shard=1)  # the bot joins a server: GUILD_CREATE
        await fake.wait_for(lambda: one.get_guild(east.id), what="the new guild on shard 1")
        amina = fake.add_user("amina", guild=east)
        lobby = fake.add_channel("lobby", guild=east)
        await fake.wait_for(lambda: one.get_channel(lobby.id), what="the new channel")
        guild = one.get_guild(east.id)
        assert guild is not None and guild.shard_id == 1
        assert zero.get_guild(east.id) is None and zero.get_channel(lobby.id) is None

        result = await fake.slash(amina, lobby, "where")
        assert result.shards == ((1, SHARDS),)
        assert result.content == "shards [1]"
        assert (zero.answered, one.answered) == ([], [east.id])
    fake.assert_clean()


async def test_interactions_go_to_the_shard_of_their_guild_and_dms_to_shard_0(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    fake.shard_count = SHARDS
    guilds = [fake.add_guild(f"Server {n}", shard=n % SHARDS) for n in range(4)]
    bashir = fake.add_user("bashir")
    channels = []
    for guild in guilds:
        fake.add_member(bashir, guild)
        channels.append(fake.add_channel("shax", guild=guild))
    async with two_processes(fake) as (zero, one):
        for guild, channel in zip(guilds, channels, strict=True):
            result = await fake.slash(bashir, channel, "where")
            shard = fake.shard_of(guild)
            assert result.shards == ((shard, SHARDS),)
            assert result.content == f"shards [{shard}]"
        direct = await fake.slash(bashir, fake.dm_channel(bashir), "where")
        assert direct.shards == ((0, SHARDS),)
        assert direct.content == "shards [0]"
        assert zero.answered == [g.id for g in guilds if fake.shard_of(g) == 0] + [None]
        assert one.answered == [g.id for g in guilds if fake.shard_of(g) == 1]
    fake.assert_clean()


async def test_a_member_of_one_guild_is_not_a_member_of_another(
    fake_discord: FakeDiscord,
) -> None:
    fake = fake_discord
    west = fake.add_guild("West")
    cawo = fake.add_user("cawo")  # the first guild only
    channel = fake.add_channel("shax", guild=west)
    assert cawo.id in fake.world.members and cawo.id not in fake.world.members_of(west)
    with pytest.raises(ValueError, match="not a member of the guild West"):
        await fake.slash(cawo, channel, "where")
