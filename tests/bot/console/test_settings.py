"""``/shax settings`` at the console: the operator's settings for games outside servers."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.service.facade import ShaxService
from bot.service.messages import CHANNELS_ON_SERVERS, ONLY_ON_A_SERVER
from bot.service.replies import Place, Said, UserError
from bot.service.server_settings import SettingsChange
from tests.bot.console.test_flows import HERE, make_console, typed


async def test_settings_at_the_console_are_listed_changed_and_refused_with_the_range(
    service: ShaxService, tmp_path: Path
) -> None:
    console, screen = make_console(service, tmp_path)
    await typed(console, "/shax settings")
    listing = screen.take()
    assert listing.startswith(
        "(only you see this) Shax settings outside servers (direct messages, the console)\n"
    )
    assert "Turn timeout: 24 hours to move, then the turn is forfeited (default)" in listing

    await typed(console, "/shax settings turn-timeout:12h")
    changed = screen.take()
    assert "Settings saved." in changed
    assert "Turn timeout: 12 hours to move, then the turn is forfeited\n" in changed

    await typed(console, "/shax settings turn-timeout:1m")
    assert screen.take() == "✗ The turn timeout must be between 10 minutes and 14 days."
    await typed(console, "/shax settings turn-timeout:" + "9" * 20 + "m")  # far too long
    assert screen.take() == "✗ The turn timeout must be between 10 minutes and 14 days."
    await typed(console, "/shax settings threads: always")  # as Discord writes it
    assert "Game threads: every game in a thread of its own\n" in screen.take()
    await typed(console, "/shax settings")
    assert "Turn timeout: 12 hours to move" in screen.take()  # the refusal changed nothing
    assert (await service.servers.of(None)).turn_timeout.total_seconds() == 12 * 3600

    await typed(console, "/shax settings reset:turn-timeout")
    assert "Turn timeout: 24 hours to move, then the turn is forfeited (default)" in screen.take()


async def test_game_channels_belong_to_servers_even_at_the_console(
    service: ShaxService, tmp_path: Path
) -> None:
    console, screen = make_console(service, tmp_path)
    for line in (
        "/shax settings all-channels:true",
        f"/shax settings allow-channel:#{HERE.channel_id}",
    ):
        await typed(console, line)
        assert screen.take() == f"✗ {CHANNELS_ON_SERVERS}"
    await typed(
        console, "/shax settings all-channels:maybe", "/shax settings allow-channel:general"
    )
    assert screen.take().splitlines() == [
        "✗ maybe is not true or false: write all-channels:true or all-channels:false.",
        f"✗ Name a channel by its number, like allow-channel:#{HERE.channel_id}.",
    ]


async def test_a_direct_message_on_discord_still_has_no_settings(service: ShaxService) -> None:
    with pytest.raises(UserError) as refused:
        await service.settings(Place(None, 5), SettingsChange(), may_change=True)
    assert refused.value.message == Said.message(ONLY_ON_A_SERVER)
