"""End to end through the real discord.py client, against the fake Discord server.

Every test ends with ``fake.assert_clean()`` (through the ``running_bot`` fixture or
directly): nothing was acknowledged late or twice, and no payload broke Discord's limits.
"""

from __future__ import annotations

import asyncio
import logging
import random
from datetime import timedelta
from typing import Any

import discord
import pytest
from discord import app_commands

import bot.discord.render
from bot.config import Settings
from bot.discord import ShardedShaxBot, ShaxBot, ShaxBotBase, create_bot
from bot.discord.custom_ids import accept_id, decline_id, parse_custom_id, rematch_id, review_id
from bot.discord.respond import SORRY
from bot.service.facade import ShaxService
from bot.service.replies import RULES_FILENAME, Place, Reply, User
from engine import Position, replay
from tests.bot.discord.helpers import (  # noqa: F401 (the *_fixture names are fixtures)
    Scene,
    act_select,
    board_image,
    bot_running,
    button_ids,
    live_boards,
    mentioned_ids,
    open_service,
    option_values,
    running_bot_fixture,
    scene_fixture,
    service_fixture,
    shown,
)
from tests.fakediscord import FakeMessage, FakeUser

JAR_PLACEMENT = ("b1", "a1", "b2", "a3", "b3", "c1")
"""A jar placement in which white makes the first line (b1 b2 b3), so white moves first,
with two stones that can move: b2 (to a2 or c2) and b3 (to c3)."""


def user_of(fake_user: FakeUser) -> User:
    return User(fake_user.id, fake_user.display_name)


def place_of(scene: Scene) -> Place:
    return Place(scene.fake.guild_id, scene.channel.id)


def id_in(custom_id: str, field: str) -> int:
    """A number from one of our custom ids: ``game_id``, ``version`` or ``challenge_id``."""
    parsed = parse_custom_id(custom_id)
    assert parsed is not None, custom_id
    value = getattr(parsed, field)
    assert isinstance(value, int), (custom_id, field)
    return value


def game_of(message: FakeMessage) -> tuple[int, int]:
    parsed = parse_custom_id(act_select(message)["custom_id"])
    assert parsed is not None and parsed.game_id is not None and parsed.version is not None
    return parsed.game_id, parsed.version


async def start_jar_game(scene: Scene, bot: ShaxBotBase) -> FakeMessage:
    """Amina challenges Bashir to jar; Bashir accepts. Returns the live board."""
    fake = scene.fake
    challenge = await fake.slash(
        scene.amina,
        scene.channel,
        "shax",
        "challenge",
        {"opponent": scene.bashir, "variant": "jar"},
    )
    posted = await shown(bot, challenge)
    assert not posted.ephemeral
    assert scene.bashir.mention in posted.content
    challenge_id = id_in(button_ids(posted)[0], "challenge_id")
    assert button_ids(posted) == [accept_id(challenge_id), decline_id(challenge_id)]
    accepted = await fake.click(scene.bashir, posted, accept_id(challenge_id))
    board = await shown(bot, accepted)
    # Amina (the challenger) places first: a fresh board pings her; the challenge is gone.
    assert scene.amina.mention in board.content
    assert fake.world.find_stored(posted.id) is None
    return board


# -- people against people -----------------------------------------------------------------------


async def test_challenge_accept_and_play_by_select_and_by_command(
    scene: Scene, running_bot: ShaxBotBase, service: ShaxService
) -> None:
    fake = scene.fake
    board = await start_jar_game(scene, running_bot)
    assert board_image(board).size[0] > 100
    assert option_values(act_select(board)) == sorted(f"{f}{r}" for f in "abc" for r in "123")

    # Amina places by choosing in the select; the board is reposted to ping Bashir.
    picked = await fake.select(scene.amina, board, act_select(board)["custom_id"], ["a1"])
    board2 = await shown(running_bot, picked)
    assert board2.id != board.id and fake.world.find_stored(board.id) is None
    assert scene.bashir.mention in board2.content and "a1" in board2.content
    assert mentioned_ids(board2) == {scene.bashir.id}
    board_image(board2)
    assert "a1" not in option_values(act_select(board2))

    # Bashir types: autocomplete offers the legal placements that start with what he typed.
    choices = await fake.autocomplete(
        scene.bashir, scene.channel, "shax", "move", {"action": "a"}, focused="action"
    )
    assert [c["value"] for c in choices] == ["a2", "a3"]
    # ...but not to Amina, whose turn it is not.
    assert (
        await fake.autocomplete(
            scene.amina, scene.channel, "shax", "move", {"action": ""}, focused="action"
        )
        == []
    )
    moved = await fake.slash(scene.bashir, scene.channel, "shax", "move", {"action": "a2"})
    board3 = await shown(running_bot, moved)
    assert not moved.ephemeral and scene.amina.mention in board3.content
    assert mentioned_ids(board3) == {scene.amina.id}
    board_image(board3)
    assert fake.world.find_stored(board2.id) is None
    assert live_boards(fake, scene.channel) == [fake.message(board3.id)]

    # Wrong turn: Bashir again. Refused privately, with what to do.
    early = await fake.slash(scene.bashir, scene.channel, "shax", "move", {"action": "a3"})
    assert early.ephemeral and "turn" in (early.content or "").lower()

    # A bystander's click is refused privately; the board does not change.
    nosy = await fake.select(scene.cawo, board3, act_select(board3)["custom_id"], ["c3"])
    assert nosy.ephemeral and "only they can play" in (nosy.content or "")
    assert fake.message(board3.id).content == board3.content

    # An illegal move is refused with the legal ones listed.
    illegal = await fake.slash(scene.amina, scene.channel, "shax", "move", {"action": "a1"})
    assert illegal.ephemeral and "a3" in (illegal.content or "")
    malformed = await fake.slash(scene.amina, scene.channel, "shax", "move", {"action": "zz9"})
    assert malformed.ephemeral and "a3" in (malformed.content or "")
    # 6000 characters are not a move: a friendly refusal, not an exception.
    huge = await fake.slash(scene.amina, scene.channel, "shax", "move", {"action": "d" * 6000})
    assert huge.ephemeral and "too long" in (huge.content or "")

    # Amina plays on by clicking; the channel still shows one board.
    final = await fake.select(scene.amina, board3, act_select(board3)["custom_id"], ["b2"])
    board4 = await shown(running_bot, final)
    assert len(live_boards(fake, scene.channel)) == 1 and board4.id != board3.id
    game_id, _ = game_of(board4)
    assert (await service.record(game_id))[1] == ("a1", "a2", "b2")


async def test_a_click_on_a_superseded_board_is_refused(
    scene: Scene, running_bot: ShaxBotBase, service: ShaxService
) -> None:
    fake = scene.fake
    board = await start_jar_game(scene, running_bot)
    # Amina plays through another way (a command elsewhere, a second device): this board
    # message is now a version behind.
    await service.play(user_of(scene.amina), place_of(scene), "c3")
    stale = await fake.select(scene.bashir, board, act_select(board)["custom_id"], ["a1"])
    assert stale.ephemeral
    assert fake.message(board.id).content == board.content


async def test_resign_and_draw_buttons_and_commands(scene: Scene, running_bot: ShaxBotBase) -> None:
    fake = scene.fake
    board = await start_jar_game(scene, running_bot)
    game_id, version = game_of(board)
    assert f"shax:draw:{game_id}:{version}" in button_ids(board)
    # Amina offers a draw: Bashir is pinged with Accept draw / Decline draw.
    offered = await fake.click(scene.amina, board, f"shax:draw:{game_id}:{version}")
    board2 = await shown(running_bot, offered)
    assert scene.bashir.mention in board2.content
    _, version2 = game_of(board2)
    assert f"shax:nodraw:{game_id}:{version2}" in button_ids(board2)
    declined = await fake.click(scene.bashir, board2, f"shax:nodraw:{game_id}:{version2}")
    board3 = await shown(running_bot, declined)
    assert f"shax:nodraw:{game_id}:{version2}" not in button_ids(board3)
    # /shax draw offers again; /shax draw by the other accepts: the game ends drawn.
    await fake.slash(scene.bashir, scene.channel, "shax", "draw")
    ended = await fake.slash(scene.amina, scene.channel, "shax", "draw")
    final = await shown(running_bot, ended)
    assert "draw" in final.content.lower()
    assert button_ids(final) == [rematch_id(game_id), review_id(game_id)]
    assert final.attachment("board.png") and len(final.attachments) == 2
    # Nothing left to resign.
    late = await fake.slash(scene.amina, scene.channel, "shax", "resign")
    assert late.ephemeral


async def test_resign_button_ends_the_game_with_the_replay(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    fake = scene.fake
    board = await start_jar_game(scene, running_bot)
    game_id, version = game_of(board)
    resigned = await fake.click(scene.bashir, board, f"shax:resign:{game_id}:{version}")
    final = await shown(running_bot, resigned)
    assert "resign" in final.content.lower()
    assert "resigned" in final.content and scene.amina.mention in final.content
    assert button_ids(final) == [rematch_id(game_id), review_id(game_id)]
    names = [a.filename for a in final.attachments]
    assert names[0] == "board.png" and names[1].endswith(".gif")
    # Rematch against a person is a new challenge; the final board stays as the record.
    again = await fake.click(scene.bashir, final, rematch_id(game_id))
    challenge = await shown(running_bot, again)
    assert challenge.id != final.id and fake.world.find_stored(final.id) is not None
    assert any(i.startswith("shax:accept:") for i in button_ids(challenge))


async def test_two_step_move_picks_a_stone_then_its_destination(
    scene: Scene, running_bot: ShaxBotBase, service: ShaxService, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = scene.fake
    await start_jar_game(scene, running_bot)
    players = [user_of(scene.amina), user_of(scene.bashir)]
    for ply, point in enumerate(JAR_PLACEMENT):
        await service.play(players[ply % 2], place_of(scene), point)
    # Pretend more moves than a select can hold: the board offers stones first.
    monkeypatch.setattr(bot.discord.render, "MAX_CHOICES", 2)
    showing = await fake.slash(scene.cawo, scene.channel, "shax", "board")
    board = await shown(running_bot, showing)
    assert option_values(act_select(board)) == ["b2", "b3"]

    picker = await fake.select(scene.amina, board, act_select(board)["custom_id"], ["b2"])
    assert picker.ephemeral
    destinations = picker.message
    assert destinations is not None
    to_select = destinations.selects()[0]
    assert option_values(to_select) == ["b2-a2", "b2-c2"]

    moved = await fake.select(scene.amina, destinations, to_select["custom_id"], ["b2-c2"])
    new_board = await shown(running_bot, moved)
    assert not new_board.ephemeral and scene.bashir.mention in new_board.content
    assert "b2-c2" in new_board.content
    board_image(new_board)
    closed = fake.message(destinations.id)
    assert closed.components == [] and "b2-c2" in closed.content
    assert live_boards(fake, scene.channel)[-1].id == new_board.id
    assert fake.world.find_stored(board.id) is None


async def test_board_command_brings_the_one_board_down(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    fake = scene.fake
    board = await start_jar_game(scene, running_bot)
    again = await shown(running_bot, await fake.slash(scene.cawo, scene.channel, "shax", "board"))
    assert again.id != board.id
    assert [m.id for m in live_boards(fake, scene.channel)] == [again.id]


async def test_challenges_refused_for_oneself_and_bots(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    fake = scene.fake
    for opponent in (scene.amina, scene.robot, fake.bot_user):
        result = await fake.slash(
            scene.amina, scene.channel, "shax", "challenge", {"opponent": opponent}
        )
        assert result.ephemeral and "/shax play-bot" in (result.content or "")
    assert fake.messages(scene.channel) == []


async def test_declining_a_challenge_closes_it(scene: Scene, running_bot: ShaxBotBase) -> None:
    fake = scene.fake
    challenge = await fake.slash(
        scene.amina, scene.channel, "shax", "challenge", {"opponent": scene.bashir}
    )
    posted = await shown(running_bot, challenge)
    challenge_id = id_in(button_ids(posted)[0], "challenge_id")
    nosy = await fake.click(scene.cawo, posted, accept_id(challenge_id))
    assert nosy.ephemeral
    declined = await fake.click(scene.bashir, posted, decline_id(challenge_id))
    closed = await shown(running_bot, declined)
    assert closed.id == posted.id and "declined" in closed.content and closed.components == []


# -- against the bot ---------------------------------------------------------------------------


def winning_or_random(
    variant: str, record: tuple[str, ...], options: list[str], rng: random.Random
) -> str:
    position: Position = replay(variant, record)
    me = position.to_move
    for option in options:
        try:
            after = position.apply(option)
        except Exception:
            continue
        if after.outcome is not None and after.outcome.winner is me:
            return option
    return rng.choice(options)


async def test_play_bot_jar_to_the_end_with_replay_and_rematch(
    scene: Scene, running_bot: ShaxBotBase, service: ShaxService
) -> None:
    fake = scene.fake
    started = await fake.slash(
        scene.amina, scene.channel, "shax", "play-bot", {"level": "easy", "variant": "jar"}
    )
    board = await shown(running_bot, started)
    assert not started.ephemeral and scene.amina.mention in board.content
    board_image(board)
    rng = random.Random(5)
    for _ in range(200):
        if not board.selects():
            break
        game_id, _ = game_of(board)
        _, record = await service.record(game_id)
        choice = winning_or_random("jar", record, option_values(act_select(board)), rng)
        clicked = await fake.select(scene.amina, board, act_select(board)["custom_id"], [choice])
        after = await shown(running_bot, clicked)
        # Against the bot the board is edited in place: the human is on turn again.
        assert after.id == board.id and not clicked.ephemeral
        board = after
        board_image(board)
    assert not board.selects(), "the game did not end"
    game_id = id_in(button_ids(board)[0], "game_id")
    assert button_ids(board) == [rematch_id(game_id), review_id(game_id)]
    assert any(word in board.content for word in ("wins", "drawn", "draw"))
    assert [a.filename for a in board.attachments][1].endswith(".gif")

    rematch = await fake.click(scene.amina, board, rematch_id(game_id))
    fresh = await shown(running_bot, rematch)
    assert fresh.id != board.id and fake.world.find_stored(board.id) is not None
    assert game_of(fresh)[0] != game_id

    streak = await fake.slash(scene.amina, scene.channel, "shax", "streak")
    text = (await shown(running_bot, streak)).content
    assert "Amina" in text and "easy" in text
    someone = await fake.slash(scene.bashir, scene.channel, "shax", "streak", {"user": scene.amina})
    assert "Amina" in (await shown(running_bot, someone)).content
    board_top = await fake.slash(scene.cawo, scene.channel, "shax", "leaderboard")
    assert "Leaderboard" in (await shown(running_bot, board_top)).content


async def test_a_slow_bot_is_deferred_and_answered_later(scene: Scene) -> None:
    fake = scene.fake

    def slow_chooser(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
        import time

        time.sleep(0.6)
        return random.Random(seed).choice(replay(variant, record).legal_notations())

    async with (
        open_service(scene, chooser=slow_chooser) as slow_service,
        bot_running(scene, slow_service, ack_budget=0.2) as slow_bot,
    ):
        started = await fake.slash(
            scene.amina,
            scene.channel,
            "shax",
            "play-bot",
            {"level": "hard", "variant": "jar", "first": "bot"},
        )
        assert started.response_type == 5  # "thinking…" first
        board = await shown(slow_bot, started)
        assert scene.amina.mention in board.content
        board_image(board)
        clicked = await fake.select(
            scene.amina,
            board,
            act_select(board)["custom_id"],
            [option_values(act_select(board))[0]],
        )
        assert clicked.response_type == 6  # a deferred update of the board
        edited = await shown(slow_bot, clicked)
        assert edited.id == board.id and edited.content != board.content
        # A refusal after deferring still reaches only the user.
        wrong = await fake.slash(scene.bashir, scene.channel, "shax", "resign")
        assert wrong.ephemeral
    fake.assert_clean()


async def test_a_thinking_bot_is_acknowledged_at_once_and_a_quick_one_answers_directly(
    scene: Scene,
) -> None:
    """The service announces that the bot starts thinking: the click is acknowledged
    then (a tenth of a second later), not after the adapter's whole budget."""
    fake = scene.fake
    thinking = {"seconds": 0.0}

    def chooser(variant: str, record: tuple[str, ...], level: str, seed: int) -> str:
        import time

        time.sleep(thinking["seconds"])
        return random.Random(seed).choice(replay(variant, record).legal_notations())

    async with (
        open_service(scene, chooser=chooser) as service,
        bot_running(scene, service, ack_budget=2.5) as bot,  # the bot thinks well within it
    ):
        started = await fake.slash(
            scene.amina, scene.channel, "shax", "play-bot", {"level": "hard", "variant": "shax"}
        )
        board = await shown(bot, started)
        quick = await fake.select(
            scene.amina,
            board,
            act_select(board)["custom_id"],
            [option_values(act_select(board))[0]],
        )
        assert quick.response_type == 7  # the instant bot: the board, in the acknowledgement
        board = await shown(bot, quick)

        thinking["seconds"] = 0.6
        slow = await fake.select(
            scene.amina,
            board,
            act_select(board)["custom_id"],
            [option_values(act_select(board))[0]],
        )
        assert slow.response_type == 6  # acknowledged while the bot thinks
        edited = await shown(bot, slow)
        assert edited.id == board.id and scene.amina.mention in edited.content
        moved = await fake.slash(
            scene.amina,
            scene.channel,
            "shax",
            "move",
            {"action": option_values(act_select(edited))[0]},
        )
        assert moved.response_type == 5  # "thinking…" for a command
        answered = await shown(bot, moved)
        assert scene.amina.mention in answered.content and not answered.ephemeral
    fake.assert_clean()


# -- help, statistics, failures, notices ---------------------------------------------------------


async def test_rules_come_with_a_picture_of_the_points(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    fake = scene.fake
    result = await fake.slash(scene.cawo, scene.channel, "shax", "rules", {"variant": "jar"})
    message = await shown(running_bot, result)
    image = message.attachment(RULES_FILENAME)
    assert image.width and image.height
    assert message.embeds[0]["image"]["url"] == image.url
    assert "jar" in message.content.lower()


async def test_no_game_here_is_explained(scene: Scene, running_bot: ShaxBotBase) -> None:
    for command in ("board", "resign", "draw"):
        result = await scene.fake.slash(scene.amina, scene.channel, "shax", command)
        assert result.ephemeral and "/shax play-bot" in (result.content or "")


async def test_a_second_game_in_a_busy_channel_gets_a_thread_of_its_own(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    fake = scene.fake
    await fake.slash(scene.amina, scene.channel, "shax", "play-bot", {"variant": "jar"})
    busy = await fake.slash(scene.bashir, scene.channel, "shax", "play-bot", {"variant": "jar"})
    pointer = await shown(running_bot, busy)
    threads = [c for c in fake.world.threads() if c.parent_id == scene.channel.id]
    assert len(threads) == 1
    thread = threads[0]
    assert thread.name == f"{scene.bashir.display_name} vs {scene.bot_user.name}"
    assert not busy.ephemeral and f"<#{thread.id}>" in (pointer.content or "")
    (board,) = live_boards(fake, thread)
    assert scene.bashir.id in mentioned_ids(board)
    board_image(board)


async def test_a_game_in_its_own_thread_ends_with_the_result_in_the_channel(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    fake = scene.fake
    await fake.slash(scene.amina, scene.channel, "shax", "play-bot", {"variant": "jar"})
    await fake.slash(scene.bashir, scene.channel, "shax", "play-bot", {"variant": "jar"})
    (thread,) = [c for c in fake.world.threads() if c.parent_id == scene.channel.id]
    await fake.wait_for(lambda: running_bot.get_channel(thread.id), what="the thread in cache")
    resigned = await fake.slash(scene.bashir, thread, "shax", "resign")
    await shown(running_bot, resigned)
    await fake.wait_for(lambda: thread.archived, what="the thread archived")
    announced = [m for m in fake.messages(scene.channel) if f"<#{thread.id}>" in m.content]
    assert any("resigned" in m.content for m in announced)


async def test_a_busy_channel_refuses_when_the_server_wants_no_threads(
    scene: Scene, service: ShaxService
) -> None:
    async with bot_running(scene, service, settings=scene.settings(game_threads="never")) as bot:
        fake = scene.fake
        await fake.slash(scene.amina, scene.channel, "shax", "play-bot", {"variant": "jar"})
        busy = await fake.slash(scene.bashir, scene.channel, "shax", "play-bot", {"variant": "jar"})
        assert busy.ephemeral and "thread" in (busy.content or "").lower()
        assert not fake.world.threads()
        assert bot.threads.mode == "never"


async def test_every_game_gets_a_thread_when_the_server_wants_it(
    scene: Scene, service: ShaxService
) -> None:
    async with bot_running(scene, service, settings=scene.settings(game_threads="always")) as bot:
        fake = scene.fake
        first = await fake.slash(scene.amina, scene.channel, "shax", "play-bot", {"variant": "jar"})
        pointer = await shown(bot, first)
        (thread,) = fake.world.threads()
        assert f"<#{thread.id}>" in (pointer.content or "")
        assert live_boards(fake, thread) and not live_boards(fake, scene.channel)


async def test_games_in_threads_are_their_own(scene: Scene, running_bot: ShaxBotBase) -> None:
    fake = scene.fake
    thread = fake.add_thread(scene.channel, "amina vs bot", owner=scene.amina)
    await fake.wait_for(lambda: running_bot.get_channel(thread.id), what="the thread in cache")
    await fake.slash(scene.amina, scene.channel, "shax", "play-bot", {"variant": "jar"})
    inside = await fake.slash(scene.bashir, thread, "shax", "play-bot", {"variant": "jar"})
    board = await shown(running_bot, inside)
    assert board.channel_id == thread.id and not inside.ephemeral


async def test_an_unexpected_failure_is_logged_and_answered_kindly(
    scene: Scene, running_bot: ShaxBotBase, caplog: pytest.LogCaptureFixture
) -> None:
    async def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("the disk is on fire")

    running_bot.service.statistics.leaderboard = broken  # type: ignore[assignment]
    with caplog.at_level(logging.ERROR):
        result = await scene.fake.slash(scene.amina, scene.channel, "shax", "leaderboard")
        await result.wait_until(lambda r: r.ephemeral)
    assert result.content == SORRY
    assert "the disk is on fire" in caplog.text and "Traceback" in caplog.text


async def test_expired_challenges_are_closed_by_the_notice_loop(scene: Scene) -> None:
    fake = scene.fake
    async with (
        open_service(scene, challenge_expiry=timedelta(seconds=1)) as quick,
        bot_running(scene, quick, tick_seconds=0.2),
    ):
        challenge = await fake.slash(
            scene.amina, scene.channel, "shax", "challenge", {"opponent": scene.bashir}
        )
        posted = await challenge.wait_for_response()
        await fake.wait_for(
            lambda: "expired" in fake.message(posted.id).content,
            timeout=5,
            what="the expired challenge",
        )
        assert fake.message(posted.id).components == []
    fake.assert_clean()


async def test_every_interaction_was_acknowledged_in_time(
    scene: Scene, running_bot: ShaxBotBase
) -> None:
    fake = scene.fake
    await start_jar_game(scene, running_bot)
    assert fake.results and all(r.acknowledged and not r.expired for r in fake.results)
    assert all(
        r.acknowledged_at is not None and r.acknowledged_at - r.dispatched_at < 3
        for r in fake.results
    )


async def test_a_slow_service_defers_then_pings_with_a_fresh_board(
    scene: Scene, running_bot: ShaxBotBase, service: ShaxService
) -> None:
    fake = scene.fake
    board = await start_jar_game(scene, running_bot)
    play = service.play

    async def slow_play(*args: Any, **kwargs: Any) -> Reply:
        await asyncio.sleep(0.3)
        return await play(*args, **kwargs)

    service.play = slow_play  # type: ignore[method-assign]
    running_bot.responder.ack_budget = 0.05
    moved = await fake.slash(scene.amina, scene.channel, "shax", "move", {"action": "b2"})
    assert moved.response_type == 5
    new_board = await shown(running_bot, moved)
    # An edit of "thinking…" would notify nobody: the board is a fresh message.
    assert new_board.id != moved.original_message_id and not new_board.ephemeral
    assert scene.bashir.mention in new_board.content
    assert [m.id for m in live_boards(fake, scene.channel)] == [new_board.id]
    assert fake.world.find_stored(board.id) is None
    # A refusal after deferring is private too.
    again = await fake.slash(scene.amina, scene.channel, "shax", "move", {"action": "c3"})
    refusal = await shown(running_bot, again)
    assert refusal.ephemeral and "turn" in refusal.content.lower()
    assert fake.world.find_stored(again.original_message_id) is None


@pytest.mark.slow  # a turn of 8 seconds, run out in real time
async def test_turn_timeouts_warn_then_forfeit(scene: Scene) -> None:
    fake = scene.fake
    async with (
        open_service(scene, turn_timeout=timedelta(seconds=8)) as quick,
        bot_running(scene, quick, tick_seconds=0.2) as quick_bot,
    ):
        board = await start_jar_game(scene, quick_bot)
        # Each side makes its first move (before it, running out of time aborts the game).
        for player, point in ((scene.amina, "a1"), (scene.bashir, "b2")):
            picked = await fake.select(player, board, act_select(board)["custom_id"], [point])
            board = await shown(quick_bot, picked)
        warned = "or you forfeit the game"
        warning = await fake.wait_for(
            lambda: next((m for m in fake.messages(scene.channel) if warned in m.content), None),
            timeout=15,
            what="the timeout warning",
        )
        assert scene.amina.mention in warning.content
        final = await fake.wait_for(
            lambda: next(
                (m for m in fake.messages(scene.channel) if "shax:rematch:" in str(m.components)),
                None,
            ),
            timeout=15,
            what="the forfeit",
        )
        assert quick_bot.responder.busy is False
        await fake.wait_for(lambda: fake.world.find_stored(board.id) is None, what="old board gone")
        assert "time" in final.content.lower() and scene.bashir.mention in final.content
        board_image(final)
    fake.assert_clean()


async def test_sharded_bot_answers_too(scene: Scene, service: ShaxService) -> None:
    fake = scene.fake
    async with bot_running(
        scene, service, settings=scene.settings(shards=1), bot_factory=create_bot_for_test
    ) as sharded:
        assert isinstance(sharded, ShardedShaxBot)
        result = await fake.slash(scene.cawo, scene.channel, "shax", "rules")
        assert (await shown(sharded, result)).attachment(RULES_FILENAME)
    # Commands went to the development server only, never globally.
    assert [c["name"] for c in fake.commands(fake.guild_id)] == ["shax", "Challenge to Shax"]
    assert fake.commands(None) == []
    fake.assert_clean()


def create_bot_for_test(*, settings: Settings, **options: Any) -> ShaxBotBase:
    return create_bot(settings, **options)


async def test_clicks_on_a_board_from_before_a_restart_still_play(scene: Scene) -> None:
    fake = scene.fake
    async with open_service(scene) as first, bot_running(scene, first) as before:
        board = await start_jar_game(scene, before)
    # A new process: new service on the same database, new bot, no views in memory.
    async with open_service(scene) as second, bot_running(scene, second) as after:
        picked = await fake.select(scene.amina, board, act_select(board)["custom_id"], ["b2"])
        board2 = await shown(after, picked)
        assert "b2" in board2.content and scene.bashir.mention in board2.content
        assert (await second.record(game_of(board2)[0]))[1] == ("b2",)
    fake.assert_clean()


class UpgradedBot(ShaxBot):
    """The bot after an upgrade that added a command."""

    async def setup_hook(self) -> None:
        @app_commands.command(name="shaxnews", description="What changed in this version")
        async def news(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("New!")

        self.tree.add_command(news)
        await super().setup_hook()


async def test_commands_register_on_the_first_start_and_again_only_when_they_change(
    scene: Scene,
) -> None:
    fake = scene.fake
    settings = scene.settings(dev_guild_id=None)  # a real server owner's set-up: no dev server

    def global_syncs() -> int:
        return sum(1 for guild, _ in fake.world.command_syncs if guild is None)

    async with open_service(scene) as first, bot_running(scene, first, settings=settings):
        pass
    assert global_syncs() == 1
    assert {c["name"] for c in fake.commands(None)} == {"shax", "Challenge to Shax"}
    async with open_service(scene) as again, bot_running(scene, again, settings=settings):
        pass
    assert global_syncs() == 1  # an unchanged restart registers nothing
    async with (
        open_service(scene) as upgraded,
        bot_running(scene, upgraded, settings=settings, bot_factory=UpgradedBot),
    ):
        pass
    assert global_syncs() == 2
    assert "shaxnews" in {c["name"] for c in fake.commands(None)}
    async with (
        open_service(scene) as later,
        bot_running(scene, later, settings=settings, bot_factory=UpgradedBot),
    ):
        pass
    assert global_syncs() == 2
    # `python -m bot sync` (SHAX_SYNC_COMMANDS=always) registers even when nothing changed.
    always = scene.settings(dev_guild_id=None, sync_commands="always")
    async with open_service(scene) as forced, bot_running(scene, forced, settings=always):
        pass
    assert global_syncs() == 3
    fake.assert_clean()
