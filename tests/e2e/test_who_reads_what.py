"""Who reads what, through the fake Discord (bot/readers.py; docs/ARCHITECTURE.md): a
person's own answers speak their language, public or not; a game's messages speak the
players' common language, else the server's; pictures follow their message. (Rule 3, the
keyboard's language, is the console's: tests/bot/console/test_who_reads_what.py.)"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest_asyncio

from bot.discord.custom_ids import accept_id, decline_id
from tests.bot.discord.helpers import Scene, shown
from tests.e2e.conftest import Live, assert_refused, challenge_of, running
from tests.fakediscord import FakeMessage, FakeUser
from tests.services import Drawn, assert_no_english


@pytest_asyncio.fixture
async def drawing(scene: Scene) -> AsyncIterator[tuple[Live, Drawn]]:
    """A ready bot (on an English server) whose boards are drawn by :class:`Drawn`."""
    drawn = Drawn()
    async with running(scene, render_board=drawn) as live:
        yield live, drawn


async def choose(live: Live, user: FakeUser, language: str) -> None:
    chosen = await live.fake.slash(
        user, live.scene.channel, "shax", "language", {"language": language}
    )
    assert_refused(chosen)  # the private answer


async def ask(live: Live, user: FakeUser, command: str, **options: Any) -> FakeMessage:
    return await shown(
        live.bot, await live.fake.slash(user, live.scene.channel, "shax", command, options)
    )


async def challenge(live: Live) -> FakeMessage:
    return await ask(live, live.scene.amina, "challenge", opponent=live.scene.bashir, variant="jar")


def labels(message: FakeMessage) -> list[str]:
    return [b["label"] for b in message.buttons()]


async def test_rule_1_a_persons_own_answer_speaks_their_language_even_in_public(
    live: Live,
) -> None:
    scene = live.scene
    await choose(live, scene.bashir, "so")
    rules = await ask(live, scene.bashir, "rules", variant="jar")
    assert not rules.ephemeral
    assert rules.content.startswith("**Jar (ciyaarta carruurta)** — 3 dhagax midkiiba")
    english = await ask(live, scene.amina, "rules", variant="jar")
    assert english.content.startswith("**Jar (children's game)** — 3 stones each")
    board = await ask(live, scene.bashir, "leaderboard")
    assert not board.ephemeral and board.content.startswith("**Kaalinta sare**")
    streak = await ask(live, scene.bashir, "streak")
    assert "weli halkan ciyaar ma dhammaystirin" in streak.content
    refused = await live.fake.slash(scene.bashir, scene.channel, "shax", "move", {"action": "b2"})
    assert "Kanaalkan ciyaar kuma socoto." in assert_refused(refused)
    refused = await live.fake.slash(scene.amina, scene.channel, "shax", "move", {"action": "b2"})
    assert "There is no game in this channel." in assert_refused(refused)


async def test_rule_2_a_games_messages_speak_the_players_common_language(live: Live) -> None:
    scene, fake = live.scene, live.fake
    await choose(live, scene.bashir, "so")
    # Amina chose nothing: the server's language (English), buttons too.
    posted = await challenge(live)
    assert "Amina challenges you to a game of Jar" in posted.content
    assert labels(posted) == ["Accept", "Decline"]
    declined = await fake.click(scene.bashir, posted, decline_id(challenge_of(posted)))
    assert (await shown(live.bot, declined)).content == "Bashir declined Amina's challenge."
    # Both chose Somali: their game speaks Somali on an English server.
    await choose(live, scene.amina, "so")
    posted = await challenge(live)
    assert "Amina wuxuu kuugu yeerayaa ciyaar Jar (ciyaarta carruurta) ah!" in posted.content
    assert labels(posted) == ["Aqbal", "Diid"]
    board = await shown(
        live.bot, await fake.click(scene.bashir, posted, accept_id(challenge_of(posted)))
    )
    assert f"{scene.amina.mention} — waa doorkaaga (cad ○)" in board.content
    assert labels(board) == ["Isdhiib", "Soo jeedi barbaro"]
    # Whoever asks to see it, the board is the game's: Cawo (English) sees it in Somali...
    seen = await ask(live, scene.cawo, "board")
    assert "waa doorkaaga" in seen.content
    # ...while her own refusal is hers, in English.
    refused = await live.fake.slash(scene.cawo, scene.channel, "shax", "resign", {})
    assert "only they can play it" in assert_refused(refused)
    resigned = await ask(live, scene.amina, "resign")
    assert "**Waxaa guuleystay Bashir: Amina wuu isdhiibay.**" in resigned.content
    assert labels(resigned) == ["Ciyaar kale", "Eeg ciyaarta"]


async def test_rule_4_pictures_follow_the_message_they_are_attached_to(
    drawing: tuple[Live, Drawn],
) -> None:
    live, drawn = drawing
    scene, fake = live.scene, live.fake
    await choose(live, scene.amina, "so")
    await choose(live, scene.bashir, "so")
    posted = await challenge(live)
    await shown(live.bot, await fake.click(scene.bashir, posted, accept_id(challenge_of(posted))))
    assert drawn.languages == ["so"]  # the game's board: Somali, as its words
    await ask(live, scene.cawo, "rules", variant="jar")
    await ask(live, scene.amina, "rules", variant="jar")
    assert drawn.languages == ["so", "en", "so"]  # each asker's rules picture, their words


async def test_a_somali_players_whole_session_on_discord_is_somali(live: Live) -> None:
    """After ``/shax language language:so``: a bot game (moves, a hint, a wrong move),
    resigning, the review, the rules, the streak and the leaderboard — no English."""
    scene, fake = live.scene, live.fake
    await choose(live, scene.bashir, "so")
    read: list[str] = []
    board = await ask(live, scene.bashir, "play-bot", level="easy", variant="jar", first="me")
    read.append(board.content)
    assert "waa doorkaaga" in board.content and labels(board) == ["Isdhiib"]
    moved = await ask(live, scene.bashir, "move", action="b2")
    read.append(moved.content)
    hint = await ask(live, scene.bashir, "hint")
    assert hint.ephemeral and "Tilmaan 1 ka mid ah 3" in hint.content
    read.append(hint.content)
    wrong = await fake.slash(scene.bashir, scene.channel, "shax", "move", {"action": "zz"})
    read.append(assert_refused(wrong, "'zz' uma akhrin karo dhaqaaq"))
    resigned = await ask(live, scene.bashir, "resign")
    read.append(resigned.content)
    assert "Bashir wuu isdhiibay" in resigned.content
    assert labels(resigned) == ["Ciyaar kale", "Eeg ciyaarta"]
    asked = await fake.slash(scene.bashir, scene.channel, "shax", "review", {})
    assert asked.ephemeral and asked.content == "Ciyaarta ayaa la eegayaa…"
    review = await asked.wait_for_edit(timeout=30)
    assert review.ephemeral and "**Eegista Bashir iyo Bot-ka (fudud)**" in review.content
    read.append(review.content)
    for command in ("rules", "streak", "leaderboard"):
        read.append((await ask(live, scene.bashir, command)).content)
    for text in read:
        assert_no_english(text)
