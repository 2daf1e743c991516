"""What used to be answered "Something went wrong" is answered in words: a setting far
beyond its range names the range; a game thread Discord would not open (it answered
500) says so and what to do. Nothing changes in either case. A game whose thread opened
but whose first board Discord would not take says the board is on its way, and shows it."""

from __future__ import annotations

import logging

import discord.http
import pytest

from bot.discord.threads import THREAD_FAILED
from tests.bot.discord.helpers import live_boards, shown
from tests.e2e.conftest import Live, assert_refused, db_rows
from tests.fakediscord.faults import QuickerRetries

MANAGE_GUILD = 1 << 5
THREADS = r"^/channels/\d+/threads$"
MESSAGES = r"^/channels/\d+/messages$"


@pytest.mark.parametrize(
    ("setting", "value"),
    [
        ("turn-timeout", "99999999999999999d"),
        ("turn-timeout", "9" * 20),
        ("turn-timeout", "9" * 20 + "m"),
        ("challenge-expiry", "99999999999999999999h"),
    ],
)
async def test_a_value_far_beyond_its_range_names_the_range(
    live: Live, setting: str, value: str
) -> None:
    scene, fake = live.scene, live.fake
    fake.world.members[scene.cawo.id].permissions |= MANAGE_GUILD
    before = db_rows(scene.db_path)
    result = await fake.slash(scene.cawo, scene.channel, "shax", "settings", {setting: value})
    text = assert_refused(result)
    assert "must be between" in text or "is not a length of time" in text, text
    assert db_rows(scene.db_path) == before


async def test_a_thread_discord_would_not_open_is_refused_in_words(
    live: Live, monkeypatch: pytest.MonkeyPatch
) -> None:
    scene, fake = live.scene, live.fake
    # discord.py retries a 500 five times over 25 s; a tenth of that (2.5 s) still
    # outlasts the bot's second before it says "thinking…".
    monkeypatch.setattr(discord.http, "asyncio", QuickerRetries(0.1))
    fake.world.members[scene.cawo.id].permissions |= MANAGE_GUILD
    saved = await fake.slash(scene.cawo, scene.channel, "shax", "settings", {"threads": "always"})
    assert saved.ephemeral
    before = db_rows(scene.db_path)
    [failing] = fake.faults.add(THREADS, status=500, method="POST")
    started = await fake.slash(scene.amina, scene.channel, "shax", "play-bot", {"variant": "jar"})
    # discord.py retries a 500 for a while: meanwhile the command shows "thinking…",
    # which then gives way to the private refusal.
    assert await live.bot.responder.wait_idle(60)
    assert started.response_type == 5  # "thinking…" first
    refusal = await shown(live.bot, started)
    assert refusal.ephemeral and refusal.content == THREAD_FAILED, refusal.content
    assert failing.hits >= 1
    assert db_rows(scene.db_path) == before
    assert not fake.world.threads() and not live_boards(fake, scene.channel)

    fake.faults.clear()  # Discord takes threads again: the same command works
    again = await fake.slash(scene.amina, scene.channel, "shax", "play-bot", {"variant": "jar"})
    pointer = await shown(live.bot, again)
    (thread,) = fake.world.threads()
    assert f"<#{thread.id}>" in pointer.content and live_boards(fake, thread)


async def test_a_first_board_discord_would_not_take_in_a_new_thread_is_on_its_way(
    live: Live, caplog: pytest.LogCaptureFixture
) -> None:
    scene, fake = live.scene, live.fake
    fake.world.members[scene.cawo.id].permissions |= MANAGE_GUILD
    saved = await fake.slash(scene.cawo, scene.channel, "shax", "settings", {"threads": "always"})
    assert saved.ephemeral
    # A 503 fails at once (discord.py tries a 500 five times over some seconds, then
    # fails the same way).
    fake.faults.add(MESSAGES, status=503, method="POST")
    with caplog.at_level(logging.WARNING):
        started = await fake.slash(
            scene.amina, scene.channel, "shax", "play-bot", {"variant": "jar"}
        )
        assert await live.bot.responder.wait_idle(60)
        answer = await shown(live.bot, started)
    (thread,) = fake.world.threads()
    assert answer.content == (
        f"Your game has started in a thread of its own: <#{thread.id}>. Discord did not "
        "take its board just now; it will appear there in a moment."
    )
    assert "Traceback" not in caplog.text and "ERROR" not in caplog.text
    [said] = [r for r in caplog.records if "first board of the game thread" in r.getMessage()]
    assert said.levelno == logging.WARNING and said.exc_info is None
    assert not live_boards(fake, thread)

    fake.faults.clear()  # Discord takes messages again: the board is shown in the thread
    [board] = await fake.wait_for(
        lambda: live_boards(fake, thread), timeout=40, what="the board in the thread"
    )
    assert f"<@{scene.amina.id}>" in (board.content or "")
