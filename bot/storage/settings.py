"""The bot's facts, server settings and player preferences: three small key-value tables,
with the same SQL on both engines (``?`` placeholders; PostgreSQL's engine numbers them).
Each write is one statement, committed when it returns."""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any


class KeyValues(ABC):
    """The key-value part of :class:`bot.storage.Storage`, over one method per engine."""

    @abstractmethod
    async def _rows(self, sql: str, *params: Any) -> list[dict[str, Any]]:
        """Run one statement (on its own, committed) and return its rows."""

    async def get_meta(self, key: str) -> str | None:
        rows = await self._rows("SELECT value FROM meta WHERE key = ?", key)
        return str(rows[0]["value"]) if rows else None

    async def set_meta(self, key: str, value: str) -> None:
        await self._rows(
            "INSERT INTO meta (key, value) VALUES (?, ?) "
            "ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            key,
            value,
        )

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        rows = await self._rows(
            "SELECT key, value FROM guild_settings WHERE guild_id = ?", guild_id
        )
        return {str(r["key"]): str(r["value"]) for r in rows}

    async def set_guild_setting(self, guild_id: int, key: str, value: str | None) -> None:
        if value is None:
            await self._rows(
                "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", guild_id, key
            )
            return
        await self._rows(
            "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
            guild_id,
            key,
            value,
        )

    async def settings_named(self, key: str) -> dict[int, str]:
        rows = await self._rows("SELECT guild_id, value FROM guild_settings WHERE key = ?", key)
        return {int(r["guild_id"]): str(r["value"]) for r in rows}

    async def player_prefs(self, user_id: int) -> dict[str, str]:
        rows = await self._rows("SELECT key, value FROM player_prefs WHERE user_id = ?", user_id)
        return {str(r["key"]): str(r["value"]) for r in rows}

    async def set_player_pref(self, user_id: int, key: str, value: str | None) -> None:
        if value is None:
            await self._rows("DELETE FROM player_prefs WHERE user_id = ? AND key = ?", user_id, key)
            return
        await self._rows(
            "INSERT INTO player_prefs (user_id, key, value) VALUES (?, ?, ?) "
            "ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value",
            user_id,
            key,
            value,
        )
