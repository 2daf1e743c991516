"""``/shax settings`` through Discord: shown to everyone, changed by Manage Server only,
and a change takes effect on the next game."""

from __future__ import annotations

from tests.bot.discord.helpers import live_boards, shown
from tests.e2e.conftest import Live, assert_refused, db_rows

MANAGE_GUILD = 1 << 5


async def test_a_server_manager_sends_every_game_to_a_thread(live: Live) -> None:
    scene, fake = live.scene, live.fake
    seen = await fake.slash(scene.amina, scene.channel, "shax", "settings")
    assert seen.ephemeral and "Game threads" in (seen.content or "")
    before = db_rows(scene.db_path)
    refused = await fake.slash(
        scene.amina, scene.channel, "shax", "settings", {"threads": "always"}
    )
    assert_refused(refused, "Manage Server")
    assert db_rows(scene.db_path) == before
    fake.world.members[scene.cawo.id].permissions |= MANAGE_GUILD
    bad = await fake.slash(
        scene.cawo, scene.channel, "shax", "settings", {"turn-timeout": "forever"}
    )
    assert_refused(bad, "30m", "24h")
    saved = await fake.slash(
        scene.cawo,
        scene.channel,
        "shax",
        "settings",
        {"threads": "always", "turn-timeout": "12h"},
    )
    text = saved.content or ""
    assert saved.ephemeral and "Settings saved" in text and "every game in a thread" in text
    started = await fake.slash(scene.amina, scene.channel, "shax", "play-bot", {"variant": "jar"})
    pointer = await shown(live.bot, started)
    (thread,) = fake.world.threads()
    assert f"<#{thread.id}>" in (pointer.content or "")
    assert live_boards(fake, thread) and not live_boards(fake, scene.channel)
    fake.assert_clean()


async def test_games_only_in_the_game_channel(live: Live) -> None:
    scene, fake = live.scene, live.fake
    games = fake.add_channel("shax-games")
    fake.world.members[scene.cawo.id].permissions |= MANAGE_GUILD
    await fake.slash(scene.cawo, scene.channel, "shax", "settings", {"allow-channel": games})
    elsewhere = await fake.slash(
        scene.amina, scene.channel, "shax", "challenge", {"opponent": scene.bashir}
    )
    assert_refused(elsewhere, f"<#{games.id}>")
    there = await fake.slash(scene.amina, games, "shax", "challenge", {"opponent": scene.bashir})
    assert not there.ephemeral
    fake.assert_clean()
