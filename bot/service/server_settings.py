"""Each server's settings (``/shax settings``): the turn timeout, how long a challenge stays
open, where games are played (which channels; threads when busy, always or never), the
board theme, the language, and the channel and hour of the puzzle of the day. The bot's
environment gives the defaults; a server stores only what it changed, and a member with
Manage Server changes it.

Values are read often (every challenge, every clock tick), so they are kept for a short
while; a change made through this process is seen at once, one made by another process
(shards) within :data:`FRESH_FOR`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from enum import StrEnum

from bot.service import messages
from bot.service.replies import Channel, Place, Said, Saying, UserError
from bot.storage import Storage
from shax_i18n.codes import LANGUAGES as CATALOGUE_LANGUAGES

FRESH_FOR = timedelta(seconds=30)
THREAD_MODES = ("busy", "always", "never")
THEMES = ("dark", "light")
LANGUAGES = tuple(CATALOGUE_LANGUAGES)
TURN_TIMEOUT_RANGE = (timedelta(minutes=10), timedelta(days=14))
CHALLENGE_EXPIRY_RANGE = (timedelta(minutes=1), timedelta(days=7))
MAX_CHANNELS = 25
_UNITS = {"d": 86_400, "h": 3_600, "m": 60, "s": 1}
_DURATION = re.compile(r"(?<!\d)(\d++)\s*+(d|h|m|s)", re.IGNORECASE)
"""A number and its unit. A number starts after a non-digit only, and is never given back
once read: a long run of digits is read once, not once from each of its digits."""
_DIGITS_BEYOND_EVERY_RANGE = 12
"""A number of seconds with more digits than this (a million days and more) is beyond every
range; it is never converted (a number of thousands of digits takes a while)."""
_SHOWN = 40
"""The most of a refused text said back to its writer."""


OUTSIDE_SERVERS = 0
"""The key of the settings outside servers (direct messages, the console), as the clock
and the tallies key them."""

NOT_A_SETTING: Saying[[str]] = Saying("not_a_setting")
"""What ``reset:`` was given, not a setting's name."""
NOT_A_DURATION: Saying[[str]] = Saying("not_a_duration")
DURATION_OUT_OF_RANGE: Saying[[str, float, float]] = Saying("duration_out_of_range")
"""The setting, and its shortest and longest (seconds)."""
NOT_A_CHOICE: Saying[[str, str, Sequence[str]]] = Saying("not_a_choice")
"""The setting, the value given, and the values it takes."""
NOT_AN_HOUR: Saying[[int | str]] = Saying("not_an_hour")
CHANNEL_NOT_LISTED: Saying[[Channel]] = Saying("channel_not_listed")
TOO_MANY_CHANNELS: Saying[[int]] = Saying("too_many_channels")
SETTINGS_SUMMARY: Saying[[ServerSettings, Sequence[Channel], bool, Channel | None, bool]] = Saying(
    "settings_summary"
)
"""Every setting, the game channels, whether they were saved just now, the puzzle of the
day's channel, and whether they are the settings outside servers."""


class Setting(StrEnum):
    """A server setting, by its stored name (and the ``/shax settings`` option)."""

    TURN_TIMEOUT = "turn_timeout"
    CHALLENGE_EXPIRY = "challenge_expiry"
    THREADS = "threads"
    CHANNELS = "channels"
    THEME = "theme"
    LANGUAGE = "language"
    PUZZLE_CHANNEL = "puzzle_channel"
    PUZZLE_HOUR = "puzzle_hour"


@dataclass(frozen=True)
class DailyPlan:
    """Where and at which hour (UTC) a server wants its puzzle of the day."""

    channel_id: int
    hour: int


@dataclass(frozen=True)
class ServerSettings:
    """A server's settings in effect (its own where it chose, else the defaults)."""

    turn_timeout: timedelta = timedelta(hours=24)
    challenge_expiry: timedelta = timedelta(minutes=10)
    threads: str = "busy"
    channels: frozenset[int] = frozenset()
    """The channels games may start in (and their threads); empty: every channel."""
    theme: str = "dark"
    language: str = "en"
    puzzle_channel: int | None = None
    """Where the puzzle of the day is posted; ``None``: no puzzle of the day."""
    puzzle_hour: int = 9
    """The hour (UTC) it is posted at."""
    changed: frozenset[Setting] = frozenset()
    """The settings this server chose (the others are the defaults)."""

    def allows(self, place: Place) -> bool:
        """Whether a game may start at ``place`` (a thread counts as its channel)."""
        if not self.channels or place.guild_id is None:
            return True
        return (place.parent_channel_id or place.channel_id) in self.channels


@dataclass(frozen=True)
class SettingsChange:
    """What ``/shax settings`` asked to change; ``None`` leaves a setting as it is."""

    turn_timeout: str | None = None
    challenge_expiry: str | None = None
    threads: str | None = None
    theme: str | None = None
    language: str | None = None
    puzzle_channel: int | None = None
    puzzle_hour: int | None = None
    allow_channel: int | None = None
    disallow_channel: int | None = None
    every_channel: bool = False
    reset: Setting | None = None

    @property
    def names_puzzle(self) -> bool:
        """Whether it changes the puzzle of the day (a server's own)."""
        puzzle = (Setting.PUZZLE_CHANNEL, Setting.PUZZLE_HOUR)
        return (
            self.puzzle_channel is not None
            or self.puzzle_hour is not None
            or (self.reset in puzzle)
        )

    @property
    def empty(self) -> bool:
        return self == SettingsChange()

    @property
    def names_channels(self) -> bool:
        """Whether it changes the game channels."""
        return (
            self.allow_channel is not None
            or self.disallow_channel is not None
            or self.every_channel
            or self.reset is Setting.CHANNELS
        )


_LONGEST = timedelta.max // timedelta(seconds=1)


def parse_duration(text: str) -> timedelta:
    """``"30m"``, ``"24h"``, ``"2d"``, ``"1h30m"``, ``"90 minutes"`` → a duration."""
    cleaned = text.strip().lower()
    for word, unit in (("minute", "m"), ("hour", "h"), ("day", "d"), ("second", "s")):
        cleaned = re.sub(rf"{word}s?\b", unit, cleaned)
    parts = _DURATION.findall(cleaned)
    if not parts or _DURATION.sub("", cleaned).strip(" ,"):
        shown = text if len(text) <= _SHOWN else text[: _SHOWN - 1] + "…"
        raise UserError(NOT_A_DURATION(shown))
    numbers = [(n.lstrip("0") or "0", u) for n, u in parts]
    if any(len(n) > _DIGITS_BEYOND_EVERY_RANGE for n, _ in numbers):
        return timedelta(seconds=_LONGEST)
    seconds = sum(int(n) * _UNITS[u.lower()] for n, u in numbers)
    # Beyond what a timedelta holds is beyond every range: the range check says so.
    return timedelta(seconds=min(seconds, _LONGEST))


def _in_range(setting: Setting, text: str, bounds: tuple[timedelta, timedelta]) -> timedelta:
    value = parse_duration(text)
    low, high = bounds
    if not low <= value <= high:
        raise UserError(
            DURATION_OUT_OF_RANGE(setting.value, low.total_seconds(), high.total_seconds())
        )
    return value


def _choice(setting: Setting, value: str, allowed: tuple[str, ...]) -> str:
    chosen = value.strip().lower()
    if chosen not in allowed:
        raise UserError(NOT_A_CHOICE(setting.value, value, allowed))
    return chosen


@dataclass
class _Kept:
    settings: ServerSettings
    until: datetime


@dataclass
class ServerSettingsBook:
    """Reads and changes servers' settings over the storage, with the defaults given."""

    storage: Storage
    defaults: ServerSettings
    now: Callable[[], datetime]
    _kept: dict[int, _Kept] = field(default_factory=dict)
    _timeouts: _Kept | None = None
    _timeout_overrides: dict[int, timedelta] = field(default_factory=dict)
    _plans: _Kept | None = None
    _plan_values: dict[int, DailyPlan] = field(default_factory=dict)

    async def of(self, guild_id: int | None) -> ServerSettings:
        """The settings in effect on a server; outside one (``None``: direct messages, the
        console), the settings only the operator's console changes, kept under 0."""
        guild_id = guild_id or OUTSIDE_SERVERS
        now = self.now()
        kept = self._kept.get(guild_id)
        if kept is not None and kept.until > now:
            return kept.settings
        stored = await self.storage.settings.guild_settings(guild_id)
        settings = self._apply(stored)
        self._kept[guild_id] = _Kept(settings, now + FRESH_FOR)
        return settings

    async def theme(self, guild_id: int | None) -> str:
        """The board theme of the server's players who chose none: its ``/shax settings``
        choice, else the service's (dark on Discord, light at the console)."""
        return (await self.of(guild_id)).theme

    async def language(self, guild_id: int | None) -> str:
        """The server's language: its ``/shax settings`` choice, else the bot's
        (``SHAX_LANGUAGE``, the defaults' language)."""
        return (await self.of(guild_id)).language

    def _apply(self, stored: dict[str, str]) -> ServerSettings:
        s = self.defaults
        changed: set[Setting] = set()
        for name, value in stored.items():
            try:
                setting = Setting(name)
                if setting is Setting.TURN_TIMEOUT:
                    s = replace(s, turn_timeout=timedelta(seconds=int(value)))
                elif setting is Setting.CHALLENGE_EXPIRY:
                    s = replace(s, challenge_expiry=timedelta(seconds=int(value)))
                elif setting is Setting.THREADS:
                    s = replace(s, threads=value)
                elif setting is Setting.CHANNELS:
                    s = replace(s, channels=frozenset(int(c) for c in value.split(",") if c))
                elif setting is Setting.THEME:
                    s = replace(s, theme=value)
                elif setting is Setting.PUZZLE_CHANNEL:
                    s = replace(s, puzzle_channel=int(value))
                elif setting is Setting.PUZZLE_HOUR:
                    s = replace(s, puzzle_hour=_hour(value))
                else:
                    s = replace(s, language=value)
            except ValueError:
                continue  # a value this version cannot read: the default stands
            changed.add(setting)
        return replace(s, changed=frozenset(changed))

    async def change(self, guild_id: int | None, change: SettingsChange) -> ServerSettings:
        """Validate every requested change first (a bad one changes nothing), then store
        them in one transaction: the game channels change from the list as stored at that
        moment, so that changes sent at once all count, as if sent one after another."""
        guild_id = guild_id or OUTSIDE_SERVERS
        writes: dict[Setting, str | None] = {}
        if guild_id == OUTSIDE_SERVERS and change.names_channels:
            raise UserError(Said.message(messages.CHANNELS_ON_SERVERS))
        if guild_id == OUTSIDE_SERVERS and change.names_puzzle:
            raise UserError(Said.message(messages.PUZZLE_ON_SERVERS))
        if change.reset is not None:
            writes[change.reset] = None
        if change.turn_timeout is not None:
            value = _in_range(Setting.TURN_TIMEOUT, change.turn_timeout, TURN_TIMEOUT_RANGE)
            writes[Setting.TURN_TIMEOUT] = str(round(value.total_seconds()))
        if change.challenge_expiry is not None:
            value = _in_range(
                Setting.CHALLENGE_EXPIRY, change.challenge_expiry, CHALLENGE_EXPIRY_RANGE
            )
            writes[Setting.CHALLENGE_EXPIRY] = str(round(value.total_seconds()))
        if change.threads is not None:
            writes[Setting.THREADS] = _choice(Setting.THREADS, change.threads, THREAD_MODES)
        if change.theme is not None:
            writes[Setting.THEME] = _choice(Setting.THEME, change.theme, THEMES)
        if change.language is not None:
            writes[Setting.LANGUAGE] = _choice(Setting.LANGUAGE, change.language, LANGUAGES)
        if change.puzzle_channel is not None:
            writes[Setting.PUZZLE_CHANNEL] = str(change.puzzle_channel)
        if change.puzzle_hour is not None:
            if not 0 <= change.puzzle_hour <= 23:
                raise UserError(NOT_AN_HOUR(change.puzzle_hour))
            writes[Setting.PUZZLE_HOUR] = str(change.puzzle_hour)

        def changed(stored: dict[str, str]) -> dict[str, str | None]:
            all_writes = dict(writes)
            self._channel_writes(self._apply(stored), change, all_writes)
            return {setting.value: value for setting, value in all_writes.items()}

        await self.storage.settings.change_guild_settings(guild_id, changed)
        self._kept.pop(guild_id, None)
        self._timeouts = None
        self._plans = None
        return await self.of(guild_id)

    def _channel_writes(
        self, current: ServerSettings, change: SettingsChange, writes: dict[Setting, str | None]
    ) -> None:
        """The game channels ``change`` asks for, from ``current``'s, into ``writes``."""
        channels = set(current.channels)
        if change.every_channel:
            channels.clear()
        if change.allow_channel is not None:
            channels.add(change.allow_channel)
        if change.disallow_channel is not None:
            if change.disallow_channel not in channels:
                raise UserError(CHANNEL_NOT_LISTED(Channel(change.disallow_channel)))
            channels.discard(change.disallow_channel)
        if channels != set(current.channels):
            if len(channels) > MAX_CHANNELS:
                raise UserError(TOO_MANY_CHANNELS(MAX_CHANNELS))
            writes[Setting.CHANNELS] = ",".join(str(c) for c in sorted(channels)) or None

    async def turn_timeouts(self) -> dict[int, timedelta]:
        """The servers whose turn timeout is not the default, and theirs (for the clock)."""
        now = self.now()
        if self._timeouts is None or self._timeouts.until <= now:
            stored = await self.storage.settings.settings_named(Setting.TURN_TIMEOUT.value)
            self._timeout_overrides = {
                guild: timedelta(seconds=int(value))
                for guild, value in stored.items()
                if value.isdigit()
            }
            self._timeouts = _Kept(self.defaults, now + FRESH_FOR)
        return self._timeout_overrides

    async def daily_plans(self) -> dict[int, DailyPlan]:
        """The servers that chose a channel for the puzzle of the day, and its hour (for
        the clock)."""
        now = self.now()
        if self._plans is None or self._plans.until <= now:
            channels = await self.storage.settings.settings_named(Setting.PUZZLE_CHANNEL.value)
            hours = await self.storage.settings.settings_named(Setting.PUZZLE_HOUR.value)
            plans = {}
            for guild, channel in channels.items():
                try:
                    hour = _hour(hours[guild]) if guild in hours else self.defaults.puzzle_hour
                    plans[guild] = DailyPlan(int(channel), hour)
                except ValueError:
                    continue  # a value this version cannot read: no puzzle there
            self._plan_values = plans
            self._plans = _Kept(self.defaults, now + FRESH_FOR)
        return self._plan_values


def _hour(value: str) -> int:
    hour = int(value)
    if not 0 <= hour <= 23:
        raise ValueError(value)
    return hour


def settings_said(place: Place, settings: ServerSettings, *, changed_now: bool) -> Said:
    """The answer of ``/shax settings``: every setting of ``place``'s server (or outside
    servers) with its value, the channels written as the surface writes them."""
    channels = [Channel(c) for c in sorted(settings.channels)]
    puzzle = None if settings.puzzle_channel is None else Channel(settings.puzzle_channel)
    return SETTINGS_SUMMARY(settings, channels, changed_now, puzzle, place.guild_id is None)
