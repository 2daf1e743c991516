"""The bot's facts, server settings and player preferences on both engines."""

from __future__ import annotations

from datetime import UTC, datetime

from bot.storage import (
    Storage,
)

NOW = datetime(2024, 5, 1, 12, 0, tzinfo=UTC)


async def test_meta_settings_and_preferences_are_kept_and_forgotten(storage: Storage) -> None:
    assert await storage.settings.get_meta("commands") is None
    await storage.settings.set_meta("commands", "abc")
    await storage.settings.set_meta("commands", "def")
    assert await storage.settings.get_meta("commands") == "def"
    await storage.settings.set_guild_setting(1, "theme", "light")
    await storage.settings.set_guild_setting(2, "theme", "dark")
    assert await storage.settings.guild_settings(1) == {"theme": "light"}
    assert await storage.settings.settings_named("theme") == {1: "light", 2: "dark"}
    await storage.settings.set_guild_setting(1, "theme", None)
    assert await storage.settings.guild_settings(1) == {}
    await storage.settings.set_player_pref(9, "language", "so")
    assert await storage.settings.player_prefs(9) == {"language": "so"}
    assert await storage.settings.player_prefs(8) == {}
    await storage.settings.set_player_pref(9, "language", None)
    assert await storage.settings.player_prefs(9) == {}
