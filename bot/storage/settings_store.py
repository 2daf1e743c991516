"""The bot's own facts, each server's settings and each player's preferences
(``storage.settings``, :class:`SettingsStore`): small key-value tables."""

from __future__ import annotations

from sqlalchemy import Connection, select

from bot.storage.runner import Runner
from bot.storage.statements import SettingsChange, prefs_in
from bot.storage.tables import guild_settings, meta, player_prefs


class SettingsStore:
    """The bot's facts, server settings and player preferences."""

    def __init__(self, runner: Runner) -> None:
        self._run = runner

    async def get_meta(self, key: str) -> str | None:
        row = await self._run.row(select(meta.c.value).where(meta.c.key == key))
        return None if row is None else str(row["value"])

    async def set_meta(self, key: str, value: str) -> None:
        await self._run.rows(self._run.upsert(meta, key=key, value=value))

    async def guild_settings(self, guild_id: int) -> dict[str, str]:
        """A server's settings that differ from the defaults, by name."""
        return await self._run.run(self._settings_of, guild_id)

    @staticmethod
    def _settings_of(conn: Connection, guild_id: int) -> dict[str, str]:
        c = guild_settings.c
        rows = conn.execute(select(c.key, c.value).where(c.guild_id == guild_id))
        return {str(key): str(value) for key, value in rows}

    async def set_guild_setting(self, guild_id: int, key: str, value: str | None) -> None:
        """Set a server's setting; ``None`` returns it to the default."""
        await self.change_guild_settings(guild_id, lambda _: {key: value})

    async def change_guild_settings(self, guild_id: int, change: SettingsChange) -> dict[str, str]:
        """Change a server's settings in one transaction: ``change`` sees them as stored
        (no other change can come between) and says what to write. The settings after."""
        c = guild_settings.c

        def changing(conn: Connection) -> dict[str, str]:
            stored = self._settings_of(conn, guild_id)
            for key, value in change(dict(stored)).items():
                if value is None:
                    forgetting = guild_settings.delete().where(c.guild_id == guild_id, c.key == key)
                    conn.execute(forgetting)
                    stored.pop(key, None)
                else:
                    conn.execute(
                        self._run.upsert(guild_settings, guild_id=guild_id, key=key, value=value)
                    )
                    stored[key] = value
            return stored

        return await self._run.transaction(changing, f"guild_settings:{guild_id}")

    async def settings_named(self, key: str) -> dict[int, str]:
        """One setting across every server that changed it: server id → value."""
        c = guild_settings.c
        rows = await self._run.rows(select(c.guild_id, c.value).where(c.key == key))
        return {int(r["guild_id"]): str(r["value"]) for r in rows}

    async def player_prefs(self, user_id: int) -> dict[str, str]:
        """A player's chosen preferences (language, theme), by name."""
        return (await self._run.run(prefs_in, [user_id]))[user_id]

    async def set_player_pref(self, user_id: int, key: str, value: str | None) -> None:
        """Set a player's preference; ``None`` forgets it (one statement: the last of
        several at once stands, as if they came one after another)."""
        c = player_prefs.c
        if value is None:
            await self._run.rows(player_prefs.delete().where(c.user_id == user_id, c.key == key))
        else:
            setting = self._run.upsert(player_prefs, user_id=user_id, key=key, value=value)
            await self._run.rows(setting)
