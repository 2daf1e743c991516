"""The fake Discord server, proven against the real discord.py client (a tiny Shax bot below)."""

from __future__ import annotations

import asyncio
import io
import re
import struct
import time
import zlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import pytest
import pytest_asyncio
from discord import app_commands
from discord.ext import commands

from tests.fakediscord import (
    FakeChannel,
    FakeDiscord,
    FakeUser,
    FormErrors,
    InteractionNotAcknowledged,
    point_discord_at,
)
from tests.fakediscord.faults import CHANNEL_MESSAGES
from tests.fakediscord.fixtures import running
from tests.fakediscord.limits import check_choices, check_commands, check_message
from tests.fakediscord.models import PERMISSION

# The 24 points of a Shax (mill) board, in the usual a1..g7 notation.
BOARD_POINTS = (
    *("a1", "a4", "a7", "b2", "b4", "b6", "c3", "c4", "c5", "d1", "d2", "d3"),
    *("d5", "d6", "d7", "e3", "e4", "e5", "f2", "f4", "f6", "g1", "g4", "g7"),
)
RULES = "Place your 12 pieces, then move them to form lines of three."


def tiny_png(width: int = 3, height: int = 2) -> bytes:
    """A valid RGB PNG built by hand (no imaging library needed)."""

    def chunk(tag: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + tag + data + struct.pack(">I", zlib.crc32(tag + data))

    rows = b"".join(
        b"\x00" + b"".join(bytes([40 * x % 256, 90 * y % 256, 200]) for x in range(width))
        for y in range(height)
    )
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows))
        + chunk(b"IEND", b"")
    )


# -- the tiny bot ------------------------------------------------------------------------------


class JoinButton(
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"shax:join:(?P<game>\d+)",
):
    """A persistent button: works on any message carrying its custom_id, even after a restart."""

    def __init__(self, game: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Join", style=discord.ButtonStyle.primary, custom_id=f"shax:join:{game}"
            )
        )
        self.game = game

    @classmethod
    async def from_custom_id(
        cls,
        interaction: discord.Interaction,
        item: discord.ui.Item[Any],
        match: re.Match[str],
        /,
    ) -> JoinButton:
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.edit_message(
            content=f"{interaction.user.display_name} joined game {self.game}", view=None
        )


class SideSelect(discord.ui.Select[discord.ui.View]):
    def __init__(self) -> None:
        super().__init__(
            custom_id="shax:side",
            options=[
                discord.SelectOption(label="Black", value="black"),
                discord.SelectOption(label="White", value="white"),
            ],
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"You play {self.values[0]}", ephemeral=True)


class ResignButton(discord.ui.Button[discord.ui.View]):
    def __init__(self) -> None:
        super().__init__(label="Resign", style=discord.ButtonStyle.danger, custom_id="shax:resign")

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer()  # type 6: update the clicked message later
        await interaction.edit_original_response(
            content=f"{interaction.user.display_name} resigned", view=None
        )


class ChallengeView(discord.ui.View):
    def __init__(self, game: int) -> None:
        super().__init__(timeout=60)
        self.add_item(JoinButton(game))
        self.add_item(ResignButton())
        self.add_item(SideSelect())


class FastShardedBot(commands.AutoShardedBot):
    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """discord.py waits 5 s before each non-initial IDENTIFY by default; not needed here."""


class ShaxTestBot(commands.Bot):
    """A bot with one app command group, synced to the fake guild on start."""

    def __init__(self, guild_id: int, *, shard_count: int | None = None) -> None:
        intents = discord.Intents.default()
        intents.members = True
        super().__init__(command_prefix="!", intents=intents, guild_ready_timeout=0.05)
        self.guild_id = guild_id
        self.ready = asyncio.Event()
        self.games = 0
        self.callback_errors: list[discord.HTTPException] = []
        self.command_errors: list[BaseException] = []
        self.seen_messages: list[discord.Message] = []
        self.slow_seconds = 3.5
        """How long ``/shax slow`` takes before answering (past Discord's 3 s)."""
        self.tree.add_command(self._shax_group(), guild=discord.Object(guild_id))
        self.tree.error(self._on_tree_error)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """Skip discord.py's 5 s pause before re-IDENTIFYing (it protects Discord's rate limit)."""

    async def setup_hook(self) -> None:
        self.add_dynamic_items(JoinButton)
        await self.tree.sync(guild=discord.Object(self.guild_id))

    async def on_ready(self) -> None:
        self.ready.set()

    async def on_message(self, message: discord.Message) -> None:
        self.seen_messages.append(message)

    async def _on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        self.command_errors.append(getattr(error, "original", error))

    def _shax_group(self) -> app_commands.Group:
        bot = self
        group = app_commands.Group(name="shax", description="Play Shax")

        @group.command(name="move", description="Place or move a piece")
        @app_commands.describe(action="A board point such as d7")
        async def move(interaction: discord.Interaction, action: str) -> None:
            await interaction.response.send_message(
                f"{interaction.user.display_name} plays {action}"
            )

        @move.autocomplete("action")
        async def move_points(
            interaction: discord.Interaction, current: str
        ) -> list[app_commands.Choice[str]]:
            points = [p for p in BOARD_POINTS if p.startswith(current.lower())]
            return [app_commands.Choice(name=p, value=p) for p in points[:25]]

        @group.command(name="challenge", description="Challenge someone to a game")
        async def challenge(interaction: discord.Interaction, opponent: discord.Member) -> None:
            bot.games += 1
            await interaction.response.send_message(
                f"{interaction.user.mention} challenges {opponent.mention}",
                view=ChallengeView(bot.games),
            )

        @group.command(name="board", description="Show the board")
        async def board(interaction: discord.Interaction) -> None:
            await interaction.response.defer(thinking=True)
            await asyncio.sleep(0.05)  # rendering
            embed = discord.Embed(title="Board").set_image(url="attachment://board.png")
            await interaction.edit_original_response(
                embed=embed, attachments=[discord.File(io.BytesIO(tiny_png()), "board.png")]
            )

        @group.command(name="rules", description="How to play")
        async def rules(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(RULES, ephemeral=True)

        @group.command(name="hint", description="A private hint, computed after deferring")
        async def hint(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)
            await interaction.followup.send("Try d7")  # replaces "thinking…"
            extra = await interaction.followup.send("Or b4", ephemeral=True, wait=True)
            await extra.edit(content="Or b4, really")

        @group.command(name="slow", description="Answers too late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(bot.slow_seconds)
            try:
                await interaction.response.send_message("finally")
            except discord.HTTPException as error:
                bot.callback_errors.append(error)

        @group.command(name="menu", description="A select that is too long")
        async def menu(interaction: discord.Interaction) -> None:
            options = [discord.SelectOption(label=f"Option {n}") for n in range(26)]
            view = discord.ui.View()
            view.add_item(discord.ui.Select(custom_id="shax:menu", options=options))
            try:
                await interaction.response.send_message("Pick one", view=view)
            except discord.HTTPException as error:
                bot.callback_errors.append(error)
                await interaction.response.send_message("menu too large", ephemeral=True)

        return group


@dataclass
class Scene:
    fake: FakeDiscord
    alice: FakeUser
    bob: FakeUser
    general: FakeChannel


@pytest.fixture
def scene(fake_discord: FakeDiscord) -> Scene:
    fake = fake_discord
    return Scene(
        fake,
        fake.add_user("alice", global_name="Alice"),
        fake.add_user("bob", global_name="Bob"),
        fake.add_channel("general", topic="Shax games"),
    )


@pytest_asyncio.fixture
async def bot(scene: Scene) -> AsyncIterator[ShaxTestBot]:
    async with running(ShaxTestBot(scene.fake.guild_id), scene.fake) as started:
        yield started


# -- login, gateway ----------------------------------------------------------------------------


async def test_login_ready_and_guild_create(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    assert bot.user is not None and bot.user.id == fake.bot_user.id
    assert bot.application_id == fake.application_id
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None and guild.name == fake.world.guild.name
    channel = guild.get_channel(scene.general.id)
    assert isinstance(channel, discord.TextChannel)
    assert (channel.name, channel.topic) == ("general", "Shax games")
    alice = guild.get_member(scene.alice.id)
    assert alice is not None and alice.display_name == "Alice" and not alice.bot
    assert guild.me is not None and guild.me.bot
    assert {m.id for m in guild.members} >= {scene.alice.id, scene.bob.id, fake.bot_user.id}
    synced = fake.commands(fake.guild_id)
    assert [c["name"] for c in synced] == ["shax"]
    subcommands = {o["name"] for o in synced[0]["options"]}
    assert subcommands == {"move", "challenge", "board", "rules", "hint", "slow", "menu"}
    ready_intents = fake.gateway.identify_payloads[0]["intents"]
    assert ready_intents == bot.intents.value
    fake.assert_clean()


async def test_users_and_channels_added_after_login_reach_the_bot(
    scene: Scene, bot: ShaxTestBot
) -> None:
    fake = scene.fake
    carol = fake.add_user("carol", global_name="Carol")
    lobby = fake.add_channel("lobby")
    thread = fake.add_thread(lobby, "game-7", owner=carol)
    guild = bot.get_guild(fake.guild_id)
    assert guild is not None
    await fake.wait_for(lambda: guild.get_member(carol.id) and guild.get_thread(thread.id))
    found = guild.get_thread(thread.id)
    assert found is not None and found.parent_id == lobby.id and found.owner_id == carol.id
    assert isinstance(guild.get_channel(lobby.id), discord.TextChannel)
    fake.assert_clean()


async def test_autosharded_bot_gets_its_shard_in_ready(scene: Scene) -> None:
    fake = scene.fake
    fake.shard_count = 2
    sharded = FastShardedBot(
        command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05
    )
    async with running(sharded, fake):
        shards = sorted(tuple(p["shard"]) for p in fake.gateway.identify_payloads)
        assert shards == [(0, 2), (1, 2)]
        guild = sharded.get_guild(fake.guild_id)
        assert guild is not None
        assert guild.shard_id == (fake.guild_id >> 22) % 2
    fake.assert_clean()


async def test_heartbeats_arrive_on_time(scene: Scene) -> None:
    fake = scene.fake
    fake.heartbeat_interval = 0.1
    async with running(ShaxTestBot(fake.guild_id), fake):
        await fake.wait_for(lambda: len(fake.heartbeat_gaps()) >= 5, timeout=10)
    gaps = fake.heartbeat_gaps()
    assert all(gap <= fake.heartbeat_interval + fake.gateway.heartbeat_tolerance for gap in gaps)
    fake.assert_clean()


async def test_blocked_event_loop_shows_as_late_heartbeat(scene: Scene) -> None:
    fake = scene.fake
    fake.heartbeat_interval = 0.1
    fake.gateway.heartbeat_tolerance = 0.5
    async with running(ShaxTestBot(fake.guild_id), fake):
        await fake.wait_for(lambda: fake.heartbeat_gaps())
        time.sleep(1.0)  # a bot doing CPU work on the event loop
        await fake.wait_for(lambda: fake.violations, timeout=5)
    assert {v.kind for v in fake.violations} == {"heartbeat_late"}


async def test_second_login_after_first_client_closed(scene: Scene) -> None:
    fake = scene.fake
    async with running(ShaxTestBot(fake.guild_id), fake):
        posted = await fake.slash(
            scene.alice, scene.general, "shax", "challenge", {"opponent": scene.bob}
        )
        assert posted.message is not None
    # A new process: nothing in memory, but the DynamicItem still answers the old button.
    async with running(ShaxTestBot(fake.guild_id), fake):
        first, second = fake.sessions
        assert first.connection is None and second.connection is not None
        clicked = await fake.click(scene.bob, posted.message, "shax:join:1")
    assert clicked.response_type == 7
    assert clicked.content == "Bob joined game 1"
    fake.assert_clean()


async def test_dropped_connection_resumes_and_replays_missed_events(
    scene: Scene, bot: ShaxTestBot
) -> None:
    fake = scene.fake
    assert fake.drop_connections() == 1
    lobby = fake.add_channel("lobby")  # dispatched while the client is away
    session = fake.sessions[0]
    await fake.wait_for(lambda: session.resumes == 1 and session.connection, timeout=10)
    await fake.wait_for(lambda: bot.get_channel(lobby.id))
    assert len(fake.sessions) == 1  # resumed, not re-identified
    result = await fake.slash(scene.alice, lobby, "shax", "move", {"action": "b4"})
    assert result.content == "Alice plays b4"
    fake.assert_clean()


async def test_reconnect_request_and_invalid_session(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    session = fake.sessions[0]
    assert fake.request_reconnect() == 1  # op 7: the client closes and RESUMEs
    await fake.wait_for(lambda: session.resumes == 1 and session.connection, timeout=10)
    assert fake.invalidate_sessions() == 1  # op 9: the client must IDENTIFY again
    await fake.wait_for(lambda: len(fake.sessions) == 2 and fake.sessions[1].connection, timeout=10)
    result = await fake.slash(scene.alice, scene.general, "shax", "move", {"action": "g7"})
    assert result.content == "Alice plays g7"
    fake.assert_clean()


async def test_member_chunk_request(scene: Scene, bot: ShaxTestBot) -> None:
    guild = bot.get_guild(scene.fake.guild_id)
    assert guild is not None
    members = await asyncio.wait_for(guild.chunk(), 5)
    assert {m.id for m in members} == set(scene.fake.world.members)
    scene.fake.assert_clean()


# -- interactions ------------------------------------------------------------------------------


async def test_slash_command_gets_a_message_reply(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    result = await fake.slash(scene.alice, scene.general, "shax", "move", {"action": "d7"})
    assert result.response_type == 4
    assert result.content == "Alice plays d7"
    assert not result.ephemeral
    message = result.message
    assert message is not None and message.author_id == fake.bot_user.id
    assert message.data["interaction_metadata"]["user"]["id"] == str(scene.alice.id)
    assert [m.id for m in fake.messages(scene.general)] == [message.id]
    options = result.payload["data"]["options"]
    assert options == [
        {"name": "move", "type": 1, "options": [{"name": "action", "type": 3, "value": "d7"}]}
    ]
    assert result.payload["data"]["id"] == fake.commands(fake.guild_id)[0]["id"]
    fake.assert_clean()


async def test_user_option_resolves_to_a_member(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    result = await fake.slash(
        scene.alice, scene.general, "shax", "challenge", {"opponent": scene.bob}
    )
    assert result.content == f"{scene.alice.mention} challenges {scene.bob.mention}"
    assert result.message is not None
    assert result.message.custom_ids() == ["shax:join:1", "shax:resign", "shax:side"]
    assert str(scene.bob.id) in result.payload["data"]["resolved"]["members"]
    fake.assert_clean()


async def test_deferred_reply_is_edited_with_an_image(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    result = await fake.slash(scene.alice, scene.general, "shax", "board")
    assert result.response_type == 5
    final = await result.wait_for_response()
    assert not final.loading and result.edit_count == 1
    image = final.attachment("board.png")
    assert image.data == tiny_png()
    assert (image.width, image.height) == (3, 2)
    assert final.embeds[0]["image"]["url"] == image.url
    async with aiohttp.ClientSession() as http, http.get(image.url) as response:
        assert await response.read() == image.data
    pil = pytest.importorskip("PIL.Image")
    assert pil.open(io.BytesIO(image.data)).size == (3, 2)
    fake.assert_clean()


async def test_autocomplete_returns_the_bots_choices(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    choices = await fake.autocomplete(
        scene.alice, scene.general, "shax", "move", {"action": "a"}, focused="action"
    )
    assert [c["value"] for c in choices] == [p for p in BOARD_POINTS if p.startswith("a")]
    everything = await fake.autocomplete(
        scene.alice, scene.general, "shax", "move", {"action": ""}, focused="action"
    )
    assert len(everything) == len(BOARD_POINTS)
    assert fake.results[-1].response_type == 8
    fake.assert_clean()


async def test_button_click_updates_the_message(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    posted = await fake.slash(
        scene.alice, scene.general, "shax", "challenge", {"opponent": scene.bob}
    )
    assert posted.message is not None
    clicked = await fake.click(scene.bob, posted.message, "shax:join:1")
    assert clicked.response_type == 7
    assert clicked.message is not None and clicked.message.id == posted.message.id
    assert clicked.content == "Bob joined game 1"
    assert clicked.components == [] and clicked.message.edited
    assert clicked.payload["message"]["id"] == str(posted.message.id)
    fake.assert_clean()


async def test_deferred_update_then_edit_changes_the_clicked_message(
    scene: Scene, bot: ShaxTestBot
) -> None:
    fake = scene.fake
    posted = await fake.slash(
        scene.alice, scene.general, "shax", "challenge", {"opponent": scene.bob}
    )
    assert posted.message is not None
    clicked = await fake.click(scene.alice, posted.message, "shax:resign")
    assert clicked.response_type == 6
    final = await clicked.wait_for_edit()
    assert final.id == posted.message.id and final.content == "Alice resigned"
    assert final.components == []
    fake.assert_clean()


async def test_followups_after_an_ephemeral_defer(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    result = await fake.slash(scene.alice, scene.general, "shax", "hint")
    assert result.response_type == 5 and result.ephemeral
    await result.wait_until(lambda r: len(r.followup_ids) == 2 and r.followups[1].edited)
    first, second = result.followups
    assert result.message is not None and first.id == result.message.id  # resolved "thinking…"
    assert (first.content, first.ephemeral, first.loading) == ("Try d7", True, False)
    assert (second.content, second.ephemeral) == ("Or b4, really", True)
    assert fake.messages(scene.general) == []
    fake.assert_clean()


async def test_select_gets_an_ephemeral_reply(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    posted = await fake.slash(
        scene.alice, scene.general, "shax", "challenge", {"opponent": scene.bob}
    )
    assert posted.message is not None
    picked = await fake.select(scene.bob, posted.message, "shax:side", ["white"])
    assert picked.response_type == 4
    assert picked.content == "You play white"
    assert picked.ephemeral and picked.flags & 64
    public = [m.id for m in fake.messages(scene.general)]
    assert picked.message is not None and picked.message.id not in public
    with pytest.raises(ValueError, match="offers"):
        await fake.select(scene.bob, posted.message, "shax:side", ["red"])
    fake.assert_clean()


async def test_ephemeral_reply(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    result = await fake.slash(scene.bob, scene.general, "shax", "rules")
    assert (result.response_type, result.flags & 64, result.content) == (4, 64, RULES)
    assert fake.messages(scene.general) == []
    fake.assert_clean()


# -- Discord's limits --------------------------------------------------------------------------


async def test_acknowledging_after_three_seconds_is_refused(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    assert fake.ack_deadline == 3.0  # Discord's deadline; shortened so the test is quick
    fake.ack_deadline = 0.2
    bot.slow_seconds = 0.4
    with pytest.raises(InteractionNotAcknowledged):
        await fake.slash(scene.alice, scene.general, "shax", "slow")
    result = fake.results[-1]
    assert result.expired and not result.acknowledged
    await fake.wait_for(lambda: bot.callback_errors, timeout=3)
    error = bot.callback_errors[0]
    assert isinstance(error, discord.NotFound) and error.code == 10062
    assert [(v.kind, v.code) for v in fake.violations] == [("ack_deadline", 10062)]


async def test_second_acknowledgement_gets_40060(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    # Two processes running the same bot both receive the interaction and both answer.
    async with running(ShaxTestBot(fake.guild_id), fake) as twin:
        result = await fake.slash(scene.alice, scene.general, "shax", "rules")
        assert result.content == RULES
        await fake.wait_for(lambda: bot.command_errors or twin.command_errors)
    errors = bot.command_errors + twin.command_errors
    assert len(errors) == 1
    assert isinstance(errors[0], discord.HTTPException) and errors[0].code == 40060
    assert [(v.kind, v.code) for v in fake.violations] == [("double_ack", 40060)]


async def test_select_with_26_options_is_rejected(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    result = await fake.slash(scene.alice, scene.general, "shax", "menu")
    error = bot.callback_errors[0]
    assert (error.status, error.code) == (400, 50035)
    assert result.content == "menu too large"  # the bot's fallback answer
    (violation,) = fake.violations
    assert violation.kind == "invalid_form_body"
    assert violation.errors is not None
    options = violation.errors["data"]["components"]["0"]["components"]["0"]["options"]
    assert options["_errors"][0]["code"] == "BASE_TYPE_BAD_LENGTH"


async def test_upload_over_the_limit_gets_413(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    fake.upload_limit = 1024
    channel = bot.get_channel(scene.general.id)
    assert isinstance(channel, discord.TextChannel)
    with pytest.raises(discord.HTTPException) as caught:
        await channel.send(file=discord.File(io.BytesIO(b"x" * 2048), "big.bin"))
    assert (caught.value.status, caught.value.code) == (413, 40005)
    assert [v.kind for v in fake.violations] == ["payload_too_large"]


@pytest.mark.parametrize(
    ("body", "path", "code"),
    [
        ({"content": "x" * 2001}, ("content",), "BASE_TYPE_MAX_LENGTH"),
        ({"embeds": [{"title": "t" * 257}]}, ("embeds", "0", "title"), "BASE_TYPE_MAX_LENGTH"),
        (
            {"embeds": [{"description": "d" * 4097}]},
            ("embeds", "0", "description"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]},
            ("embeds", "0", "fields"),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {"embeds": [{"description": "d" * 4000}, {"description": "d" * 2001}]},
            ("embeds",),
            "MAX_EMBED_SIZE_EXCEEDED",
        ),
        (
            {
                "components": [
                    {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": f"r{n}"}]}
                    for n in range(6)
                ]
            },
            ("components",),
            "BASE_TYPE_MAX_LENGTH",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "custom_id": f"b{n}"} for n in range(6)
                        ],
                    }
                ]
            },
            ("components", "0", "components"),
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {
                                "type": 3,
                                "custom_id": "s",
                                "options": [{"label": "a", "value": "a"}],
                            },
                            {"type": 2, "style": 1, "custom_id": "b"},
                        ],
                    }
                ]
            },
            ("components", "0", "components"),
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        ),
        (
            {
                "components": [
                    {"type": 1, "components": [{"type": 2, "style": 1, "custom_id": "c" * 101}]}
                ]
            },
            ("components", "0", "components", "0", "custom_id"),
            "BASE_TYPE_BAD_LENGTH",
        ),
        (
            {
                "components": [
                    {
                        "type": 1,
                        "components": [
                            {"type": 2, "style": 1, "custom_id": "same"},
                            {"type": 2, "style": 2, "custom_id": "same"},
                        ],
                    }
                ]
            },
            ("components",),
            "COMPONENT_CUSTOM_ID_DUPLICATED",
        ),
    ],
)
def test_message_limits(body: dict[str, object], path: tuple[str, ...], code: str) -> None:
    errors = FormErrors()
    check_message(body, errors)
    node = errors.body()["errors"]
    for key in path:
        node = node[key]
    assert code in [e["code"] for e in node["_errors"]]


def test_valid_message_and_choices_pass() -> None:
    errors = FormErrors()
    check_message({"content": "x" * 2000, "embeds": [{"title": "t" * 256}]}, errors)
    check_choices([{"name": p, "value": p} for p in BOARD_POINTS], errors, ("data", "choices"))
    assert not errors


def test_too_many_choices_and_bad_command_names() -> None:
    errors = FormErrors()
    check_choices([{"name": str(n), "value": str(n)} for n in range(26)], errors, ("choices",))
    check_commands([{"name": "Shax", "description": "upper case is refused"}], errors)
    nested = errors.nested()
    assert nested["choices"]["_errors"][0]["code"] == "BASE_TYPE_MAX_LENGTH"
    assert nested["0"]["name"]["_errors"][0]["code"] == "APPLICATION_COMMAND_INVALID_NAME"


# -- REST: channels, messages, threads -----------------------------------------------------------


async def test_channel_messages_threads_and_uploads(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    channel = bot.get_channel(scene.general.id)
    assert isinstance(channel, discord.TextChannel)
    async with channel.typing():
        sent = await channel.send("hello", file=discord.File(io.BytesIO(tiny_png()), "board.png"))
    stored = fake.message(sent.id)
    assert stored.content == "hello" and stored.attachment("board.png").data == tiny_png()
    assert sent.attachments[0].filename == "board.png"
    assert await sent.attachments[0].read() == tiny_png()

    edited = await sent.edit(content="hello again")
    assert edited.content == "hello again" and fake.message(sent.id).edited
    fetched = await channel.fetch_message(sent.id)
    assert fetched.content == "hello again" and len(fetched.attachments) == 1

    thread = await sent.create_thread(name="game-1")
    assert thread.id == sent.id and thread.parent_id == channel.id
    await fake.wait_for(lambda: bot.get_channel(thread.id))
    in_thread = await thread.send("your move")
    assert fake.messages(thread.id)[0].id == in_thread.id
    started = await channel.create_thread(name="game-2", type=discord.ChannelType.public_thread)
    assert fake.channel(started.id).parent_id == channel.id

    alice = await bot.fetch_user(scene.alice.id)
    dm = await alice.send("your turn")
    assert fake.messages(fake.dm_channel(scene.alice))[0].id == dm.id

    await sent.delete()
    with pytest.raises(discord.NotFound) as caught:
        await channel.fetch_message(sent.id)
    assert caught.value.code == 10008
    assert [m.id for m in fake.messages(channel.id)] == []
    fake.assert_clean()


async def test_a_thread_needs_its_permission_and_a_deleted_channel_is_gone(
    scene: Scene, bot: ShaxTestBot
) -> None:
    fake = scene.fake
    channel = bot.get_channel(scene.general.id)
    assert isinstance(channel, discord.TextChannel)
    fake.channel(channel.id).bot_permissions &= ~PERMISSION["CREATE_PUBLIC_THREADS"]
    with pytest.raises(discord.Forbidden) as refused:
        await channel.create_thread(name="game-3", type=discord.ChannelType.public_thread)
    assert refused.value.code == 50013
    fake.world.delete_channel(channel.id)
    await fake.wait_for(lambda: bot.get_channel(channel.id) is None, what="the channel gone")
    with pytest.raises(discord.NotFound):
        await channel.send("anyone?")
    fake.assert_clean()


async def test_message_content_needs_the_intent(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    assert not bot.intents.message_content
    fake.post_message(scene.alice, scene.general, "hello bot")
    fake.post_message(scene.alice, scene.general, f"{fake.bot_user.mention} hello")
    await fake.wait_for(lambda: len(bot.seen_messages) == 2)
    assert [m.content for m in bot.seen_messages] == ["", f"{fake.bot_user.mention} hello"]
    assert bot.seen_messages[1].mentions[0].id == fake.bot_user.id
    fake.assert_clean()


async def test_unknown_routes_are_logged(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    with pytest.raises(discord.NotFound):
        await bot.http.request(discord.http.Route("GET", "/nowhere/{x}", x=1))
    assert fake.unknown_routes == ["GET /api/v10/nowhere/1"]
    with pytest.raises(AssertionError, match="unknown route"):
        fake.assert_clean()


async def test_json_content_type_and_auth(scene: Scene) -> None:
    fake = scene.fake
    async with aiohttp.ClientSession() as http:
        headers = {"Authorization": f"Bot {fake.token}"}
        async with http.get(f"{fake.api_base}/users/@me", headers=headers) as response:
            assert response.headers["Content-Type"] == "application/json"
            assert (await response.json())["id"] == str(fake.bot_user.id)
        async with http.get(f"{fake.api_base}/users/@me") as response:
            assert response.status == 401


def _discord_urls() -> tuple[str, str]:
    return discord.http.Route.BASE, str(discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY)


async def test_point_discord_at_restores_the_urls() -> None:
    before = _discord_urls()
    async with FakeDiscord() as fake:
        with point_discord_at(fake.api_base, fake.gateway_url):
            assert _discord_urls() == (fake.api_base, fake.gateway_url)
        assert fake.env() == {
            "DISCORD_API_BASE_URL": fake.api_base,
            "DISCORD_GATEWAY_URL": fake.gateway_url,
        }
    assert _discord_urls() == before


async def test_posting_without_the_permission_is_forbidden(scene: Scene, bot: ShaxTestBot) -> None:
    fake = scene.fake
    quiet = fake.add_channel("announcements")
    quiet.bot_permissions &= ~PERMISSION["ATTACH_FILES"]
    channel = bot.get_partial_messageable(quiet.id)
    await channel.send("words are fine")
    with pytest.raises(discord.Forbidden) as refused:
        await channel.send(file=discord.File(io.BytesIO(b"png"), "board.png"))
    assert refused.value.code == 50013
    quiet.bot_permissions &= ~PERMISSION["SEND_MESSAGES"]
    with pytest.raises(discord.Forbidden):
        await channel.send("no words either")
    assert [m.content for m in fake.messages(quiet)] == ["words are fine"]
    result = await fake.slash(scene.alice, quiet, "shax", "rules")
    assert int(result.payload["app_permissions"]) == quiet.bot_permissions


# -- fault injection ------------------------------------------------------------------------------


async def test_faults_fail_requests_as_discord_would_until_cleared(
    scene: Scene, bot: ShaxTestBot
) -> None:
    fake = scene.fake
    channel = bot.get_partial_messageable(scene.general.id)
    # Cloudflare's 429 (no Via header) is not retried by discord.py: it fails at once.
    fake.faults.add(CHANNEL_MESSAGES, status=429, via=False)
    with pytest.raises(discord.HTTPException) as banned:
        await channel.send("not delivered")
    assert banned.value.status == 429 and fake.faults.injected == 1
    fake.faults.clear()
    # Discord's own 429 (with Via) is retried after retry_after; a fault for two hits clears.
    fake.faults.add(CHANNEL_MESSAGES, status=429, times=2, retry_after=0.01)
    sent = await channel.send("after the rate limit")
    assert fake.faults.injected == 3 and fake.message(sent.id).content == "after the rate limit"
    # A 503 fails at once; a 502 for one POST is retried (after a second) and handled.
    fake.faults.add(CHANNEL_MESSAGES, status=503, method="POST", times=1)
    with pytest.raises(discord.DiscordServerError):
        await channel.send("not delivered either")
    fake.faults.add(CHANNEL_MESSAGES, status=502, method="POST", times=1)
    retried = await channel.send("after a 502")
    assert fake.faults.injected == 5
    assert [m.content for m in fake.messages(scene.general.id)][-2:] == [
        "after the rate limit",
        "after a 502",
    ]
    # A delay only: the request is handled as usual, late.
    fake.faults.add(CHANNEL_MESSAGES, status=None, method="PATCH", delay=0.2)
    started = time.monotonic()
    await retried.edit(content="slowly")
    assert time.monotonic() - started >= 0.2 and fake.message(retried.id).content == "slowly"
    assert fake.faults.injected == 6
    fake.faults.clear()
    fake.assert_clean()  # faults are the test's own, never violations
