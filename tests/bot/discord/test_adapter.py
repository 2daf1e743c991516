"""The Discord adapter without a network: the command tree, the dynamic items, the messages."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
import pytest_asyncio
import yarl
from discord import app_commands

import engine
import engine.ai
from bot.commands import BUTTONS
from bot.config import DEFAULT_API_BASE_URL, Settings
from bot.discord import ShardedShaxBot, ShaxBot, ShaxBotBase, create_bot, use_endpoints
from bot.discord.context import pings_someone_else
from bot.discord.custom_ids import (
    CUSTOM_ID_MAX,
    TEMPLATES,
    accept_id,
    act_id,
    daily_id,
    decline_id,
    destination_action,
    draw_id,
    giveup_id,
    nextpuzzle_id,
    nodraw_id,
    parse_custom_id,
    puzzle_id,
    rematch_id,
    resign_id,
    review_id,
    to_id,
)
from bot.discord.items import DYNAMIC_ITEMS
from bot.discord.message import DiscordMessage
from bot.discord.render import build_view, to_discord, truncate, voice
from bot.service.replies import (
    BOARD_FILENAME,
    RULES_FILENAME,
    Attachment,
    BoardControls,
    ChallengeControls,
    Choice,
    DestinationControls,
    Reply,
    Said,
)
from shax_i18n import translator
from tests.fakediscord.limits import FormErrors, check_commands, check_message

BIG = 2**62  # a game id and version longer than any real one, for the 100-character limit
SUBCOMMANDS = {
    "challenge": ["opponent", "variant"],
    "play-bot": ["level", "variant", "first"],
    "move": ["action"],
    "board": [],
    "resign": [],
    "draw": [],
    "streak": ["user"],
    "rating": ["user"],
    "leaderboard": ["table"],
    "theme": ["theme"],
    "rules": ["variant"],
    "language": ["language"],
    "settings": [
        "turn-timeout",
        "challenge-expiry",
        "threads",
        "theme",
        "language",
        "allow-channel",
        "disallow-channel",
        "all-channels",
        "puzzle-channel",
        "puzzle-hour",
        "reset",
    ],
    "hint": [],
    "review": [],
    "puzzle": ["variant", "answer", "give-up", "theme"],
    "tournament": ["create", "join", "leave", "start", "standings", "cancel"],
}
"""Each subcommand's options (a subcommand group's: its subcommands)."""
SAMPLE_IDS = {
    "act": act_id(BIG, BIG),
    "to": to_id(BIG, BIG, "g7"),
    "resign": resign_id(BIG, BIG),
    "draw": draw_id(BIG, BIG),
    "nodraw": nodraw_id(BIG, BIG),
    "rematch": rematch_id(BIG),
    "review": review_id(BIG),
    "accept": accept_id(BIG),
    "decline": decline_id(BIG),
    "puzzle": puzzle_id(BIG, BIG),
    "giveup": giveup_id(BIG),
    "nextpuzzle": nextpuzzle_id(BIG),
    "daily": daily_id(BIG),
}


class NoService:
    """Stands in for the service where none is called."""

    def __getattr__(self, name: str) -> Any:
        raise AssertionError(f"the service was called ({name}) in a test that builds only")


@pytest_asyncio.fixture
async def built_bot() -> AsyncIterator[ShaxBotBase]:
    """A bot with its cogs and dynamic items loaded, never connected."""
    settings = Settings(sync_commands="never")
    bot = ShaxBot(settings=settings, service=NoService())  # type: ignore[arg-type]
    async with bot:
        await bot.setup_hook()
        yield bot


def shax_payload(bot: ShaxBotBase) -> dict[str, Any]:
    group = bot.tree.get_command("shax")
    assert isinstance(group, app_commands.Group)
    return group.to_dict(bot.tree)


def options_of(payload: dict[str, Any], name: str) -> dict[str, dict[str, Any]]:
    sub = next(o for o in payload["options"] if o["name"] == name)
    return {o["name"]: o for o in sub["options"]}


def check(message: DiscordMessage) -> FormErrors:
    """The message as discord.py would send it, checked against Discord's limits."""
    body: dict[str, Any] = {
        "content": message.content,
        "embeds": [e.to_dict() for e in message.embeds],
        "components": message.view.to_components() if message.view else [],
        "attachments": [{"id": i} for i, _ in enumerate(message.attachments)],
    }
    errors = FormErrors()
    check_message(body, errors)
    return errors


def png(name: str = BOARD_FILENAME) -> Attachment:
    return Attachment(name, b"\x89PNG\r\n\x1a\n")


# -- the command tree --------------------------------------------------------------------------


async def test_one_shax_group_holds_every_subcommand(built_bot: ShaxBotBase) -> None:
    commands = built_bot.tree.get_commands(type=discord.AppCommandType.chat_input)
    assert [c.name for c in commands] == ["shax"]
    payload = shax_payload(built_bot)
    assert {o["name"]: list(options_of(payload, o["name"])) for o in payload["options"]} == (
        SUBCOMMANDS
    )
    errors = FormErrors()
    check_commands([payload], errors)
    assert not errors, errors.summary()


async def test_a_member_can_be_challenged_from_their_context_menu(
    built_bot: ShaxBotBase,
) -> None:
    menus = built_bot.tree.get_commands(type=discord.AppCommandType.user)
    assert [m.name for m in menus] == ["Challenge to Shax"]
    payload = menus[0].to_dict(built_bot.tree)
    assert (
        payload["type"] == 2 and payload["contexts"] == [0] and payload["integration_types"] == [0]
    )


async def test_the_group_is_installed_to_servers_and_usable_in_servers_and_dms(
    built_bot: ShaxBotBase,
) -> None:
    payload = shax_payload(built_bot)
    assert payload["contexts"] == [0, 1] and payload["integration_types"] == [0]


async def test_options_offer_menus_for_variant_level_and_first(built_bot: ShaxBotBase) -> None:
    payload = shax_payload(built_bot)
    play_bot = options_of(payload, "play-bot")
    values = {name: [c["value"] for c in play_bot[name]["choices"]] for name in play_bot}
    assert values == {
        "level": list(engine.ai.LEVELS),
        "variant": list(engine.VARIANT_IDS),
        "first": ["me", "bot", "random"],
    }
    for command in ("challenge", "rules"):
        variant = options_of(payload, command)["variant"]
        assert [c["value"] for c in variant["choices"]] == list(engine.VARIANT_IDS)
        assert not variant["required"]
    opponent = options_of(payload, "challenge")["opponent"]
    assert opponent["type"] == discord.AppCommandOptionType.user.value and opponent["required"]
    assert options_of(payload, "streak")["user"]["required"] is False


async def test_move_action_autocompletes_and_is_short(built_bot: ShaxBotBase) -> None:
    action = options_of(shax_payload(built_bot), "move")["action"]
    assert action["autocomplete"] is True
    assert action["required"] is True
    assert action["max_length"] <= 20


async def test_commands_sync_when_they_changed_by_default() -> None:
    assert Settings().sync_commands == "auto"


async def test_the_bot_asks_for_no_privileged_intent(built_bot: ShaxBotBase) -> None:
    intents = built_bot.intents
    assert not intents.message_content and not intents.members and not intents.presences
    assert intents.guilds


async def test_sharding_setting_builds_an_autosharded_bot() -> None:
    sharded = create_bot(Settings(shards=3), service=NoService())  # type: ignore[arg-type]
    single = create_bot(Settings(), service=NoService())  # type: ignore[arg-type]
    assert isinstance(sharded, ShardedShaxBot)
    assert isinstance(sharded, discord.AutoShardedClient) and sharded.shard_count == 3
    assert isinstance(single, ShaxBot) and not isinstance(single, discord.AutoShardedClient)


async def test_the_clock_ticks_as_often_as_the_settings_say() -> None:
    settings = Settings(tick_seconds=0.25, shards=2, shard_ids=(1,))
    built = create_bot(settings, service=NoService())  # type: ignore[arg-type]
    assert built.tick_seconds == 0.25 and built.shard_ids == [1]
    chosen = create_bot(settings, service=NoService(), tick_seconds=5.0)  # type: ignore[arg-type]
    assert chosen.tick_seconds == 5.0


def test_endpoints_point_discord_py_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(discord.http.Route, "BASE", DEFAULT_API_BASE_URL)
    monkeypatch.setattr(
        discord.gateway.DiscordWebSocket, "DEFAULT_GATEWAY", yarl.URL("wss://gateway.discord.gg/")
    )
    use_endpoints(Settings())
    assert discord.http.Route.BASE == DEFAULT_API_BASE_URL
    use_endpoints(
        Settings(api_base_url="http://127.0.0.1:9/api/v10", gateway_url="ws://127.0.0.1:9/gw")
    )
    assert discord.http.Route.BASE == "http://127.0.0.1:9/api/v10"
    gateway = discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY
    assert str(gateway) == "ws://127.0.0.1:9/gw"


# -- dynamic items -----------------------------------------------------------------------------


async def test_every_template_has_a_registered_dynamic_item(built_bot: ShaxBotBase) -> None:
    templates = {**TEMPLATES, **{button.kind: button.template() for button in BUTTONS}}
    assert set(DYNAMIC_ITEMS) == set(templates)
    registered = {
        pattern.pattern: item
        for pattern, item in built_bot._connection._view_store._dynamic_items.items()
    }
    assert registered == {templates[kind]: item for kind, item in DYNAMIC_ITEMS.items()}


@pytest.mark.parametrize("kind", sorted(TEMPLATES))
async def test_custom_ids_round_trip_through_from_custom_id(kind: str) -> None:
    custom_id = SAMPLE_IDS[kind]
    assert len(custom_id) <= CUSTOM_ID_MAX
    item_class = DYNAMIC_ITEMS[kind]
    match = item_class.__discord_ui_compiled_template__.fullmatch(custom_id)
    assert match is not None
    base: discord.ui.Button[Any] = discord.ui.Button(custom_id=custom_id)
    rebuilt = await item_class.from_custom_id(None, base, match)  # type: ignore[arg-type]
    assert rebuilt.custom_id == custom_id
    parsed = parse_custom_id(rebuilt.custom_id)
    assert parsed is not None and parsed.kind == kind


async def test_no_other_template_claims_a_custom_id() -> None:
    for kind, custom_id in SAMPLE_IDS.items():
        claims = [
            k
            for k, cls in DYNAMIC_ITEMS.items()
            if cls.__discord_ui_compiled_template__.fullmatch(custom_id)
        ]
        assert claims == [kind]


def test_a_destination_value_becomes_a_move() -> None:
    assert destination_action("a7", "d7") == "a7-d7"
    assert destination_action("a7", "a7-d7") == "a7-d7"
    assert destination_action("a7", "xg1") == "xg1"


# -- messages from replies ---------------------------------------------------------------------

ENGLISH = voice(translator("en"))


def said(text: str) -> Said:
    """A message already in words (what these tests place, not what they say): English
    has no catalogue, so a message id reads as itself."""
    return Said.message(text)


def board_reply(**controls: Any) -> Reply:
    choices = tuple(Choice(label=p, value=p, description=said("place here")) for p in ("a1", "b2"))
    return Reply(
        text=said("<@1> — your turn."),
        attachments=(png(),),
        controls=BoardControls(game_id=7, version=3, actions=choices, **controls),
        game_id=7,
        version=3,
        live_board=True,
        mentions=(1,),
    )


async def test_a_board_shows_its_picture_in_an_embed_and_pings_only_the_mentioned() -> None:
    message = to_discord(board_reply(), ENGLISH)
    assert message.embeds[0].image.url == f"attachment://{BOARD_FILENAME}"
    assert [f.filename for f in message.files()] == [BOARD_FILENAME]
    mentions = message.mentions.to_dict()
    assert mentions["users"] == [1] and mentions["parse"] == []
    assert not check(message)


async def test_board_controls_become_a_select_and_buttons() -> None:
    message = to_discord(board_reply(can_offer_draw=True), ENGLISH)
    assert message.view is not None
    rows = message.view.to_components()
    select = rows[0]["components"][0]
    assert select["custom_id"] == act_id(7, 3)
    assert [o["value"] for o in select["options"]] == ["a1", "b2"]
    assert [b["custom_id"] for b in rows[1]["components"]] == [resign_id(7, 3), draw_id(7, 3)]
    assert message.view.timeout is None


async def test_a_standing_draw_offer_shows_accept_and_decline() -> None:
    message = to_discord(board_reply(can_offer_draw=True, draw_offered_by=2), ENGLISH)
    assert message.view is not None
    buttons = message.view.to_components()[1]["components"]
    assert [(b["custom_id"], b["label"]) for b in buttons] == [
        (resign_id(7, 3), "Resign"),
        (draw_id(7, 3), "Accept draw"),
        (nodraw_id(7, 3), "Decline draw"),
    ]


async def test_the_end_offers_a_rematch_and_a_review_and_attaches_the_replay() -> None:
    reply = Reply(
        text=said("**Amina wins.**"),
        attachments=(png(), Attachment("replay.gif", b"GIF89a")),
        controls=BoardControls(game_id=7, version=9, rematch=True),
        game_id=7,
        live_board=True,
    )
    message = to_discord(reply, ENGLISH)
    assert message.view is not None
    assert [c["custom_id"] for row in message.view.to_components() for c in row["components"]] == [
        rematch_id(7),
        review_id(7),
    ]
    assert [f.filename for f in message.files()] == [BOARD_FILENAME, "replay.gif"]
    assert message.embeds[0].image.url == f"attachment://{BOARD_FILENAME}"


async def test_destinations_and_challenges_have_their_controls() -> None:
    destinations = to_discord(
        Reply(
            text=said("Where to?"),
            ephemeral=True,
            controls=DestinationControls(7, 3, "a7", (Choice("a7-d7", "a7-d7"),)),
        ),
        ENGLISH,
    )
    assert destinations.view is not None
    assert destinations.view.to_components()[0]["components"][0]["custom_id"] == to_id(7, 3, "a7")
    challenge = to_discord(
        Reply(text=said("<@2>, a game?"), controls=ChallengeControls(5)), ENGLISH
    )
    assert challenge.view is not None
    assert [c["custom_id"] for c in challenge.view.to_components()[0]["components"]] == [
        accept_id(5),
        decline_id(5),
    ]


async def test_rules_picture_is_shown_too() -> None:
    message = to_discord(Reply(text=said("Rules"), attachments=(png(RULES_FILENAME),)), ENGLISH)
    assert message.embeds[0].image.url == f"attachment://{RULES_FILENAME}"
    assert message.view is None


async def test_oversized_replies_are_cut_to_discords_limits() -> None:
    many = (
        *(
            Choice(label=f"{'long label ' * 20}{n}", value=f"v{n}", description=said("d" * 300))
            for n in range(40)
        ),
        Choice(label="dup", value="v0"),
    )
    reply = Reply(
        text=said("x" * 6000),
        attachments=(png(),),
        controls=BoardControls(
            game_id=BIG,
            version=BIG,
            actions=many,
            can_offer_draw=True,
            draw_offered_by=1,
            placeholder=said("p" * 400),
        ),
        mentions=tuple(range(1, 200)),
    )
    message = to_discord(reply, ENGLISH)
    assert len(message.content) == 2000 and message.content.endswith("…")
    assert message.view is not None
    components = message.view.to_components()
    assert len(components) <= 5
    options = components[0]["components"][0]["options"]
    assert len(options) == 25 and len({o["value"] for o in options}) == 25
    errors = check(message)
    assert not errors, errors.summary()


async def test_empty_controls_make_no_view() -> None:
    assert build_view(None, ENGLISH) is None
    assert build_view(DestinationControls(1, 1, "a7", ()), ENGLISH) is None


def test_truncate_cuts_politely() -> None:
    assert truncate("short", 10) == "short"
    cut = truncate("one two three four five six", 15)
    assert len(cut) <= 15 and cut.endswith("…") and not cut.startswith("one two three four")
    legal = "Legal: " + ", ".join(f"a{n}" for n in range(1000))
    assert len(truncate(legal, 2000)) <= 2000


def test_only_mentions_of_someone_else_need_a_fresh_message() -> None:
    assert not pings_someone_else(Reply(text=said(""), mentions=(1,)), 1)
    assert pings_someone_else(Reply(text=said(""), mentions=(1, 2)), 1)
    assert not pings_someone_else(Reply(text=said("")), 1)


def test_the_template_regexes_are_anchored_by_fullmatch_only() -> None:
    # discord.py matches templates with fullmatch; an id with a suffix is not ours.
    assert re.fullmatch(TEMPLATES["rematch"], rematch_id(1) + "x") is None
