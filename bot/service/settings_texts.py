"""The sentences of ``/shax settings`` (the rest of the service's words are in
:mod:`bot.service.texts`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.service.texts import duration

if TYPE_CHECKING:
    from bot.service.server_settings import ServerSettings

LABELS = {
    "turn_timeout": "Turn timeout",
    "challenge_expiry": "Challenge expiry",
    "threads": "Game threads",
    "channels": "Game channels",
    "theme": "Board theme",
    "language": "Language",
}
THREAD_MODES = {
    "busy": "a thread of its own when the channel already has a game",
    "always": "every game in a thread of its own",
    "never": "no threads: one game per channel",
}
THEMES = {"dark": "dark (for Discord's dark theme)", "light": "light"}
LANGUAGE_NAMES = {"en": "English", "so": "Soomaali"}
ONLY_ON_A_SERVER = "Settings belong to a server: use `/shax settings` in one of its channels."
ONLY_MANAGERS = (
    "Only members with the **Manage Server** permission can change the settings. "
    "`/shax settings` with no options shows them to everyone."
)


def not_a_setting(name: str) -> str:
    return f"`{name}` is not a setting: choose one of {', '.join(LABELS)}."


def not_a_duration(text: str) -> str:
    return (
        f"`{text}` is not a length of time. Write it like `30m`, `24h`, `2d` or `1h30m` "
        "(d = days, h = hours, m = minutes)."
    )


def duration_out_of_range(name: str, low: float, high: float) -> str:
    return f"The {LABELS[name].lower()} must be between {duration(low)} and {duration(high)}."


def not_a_choice(name: str, value: str, allowed: Sequence[str]) -> str:
    return f"`{value}` is not a {LABELS[name].lower()} setting: choose one of {', '.join(allowed)}."


def channel_not_listed(channel_id: int) -> str:
    return (
        f"<#{channel_id}> is not one of the game channels. `/shax settings` shows them; "
        "`all-channels: True` lets games start anywhere again."
    )


def too_many_channels(limit: int) -> str:
    return f"At most {limit} game channels. Remove one with `disallow-channel` first."


def games_not_here(channels: Sequence[int]) -> str:
    where = ", ".join(f"<#{c}>" for c in sorted(channels))
    return f"Games on this server are played in {where} (and their threads). Start yours there."


def summary(settings: ServerSettings, *, changed_now: bool) -> str:
    """Every setting with its value, marked when the server chose it, and how to change."""
    channels = (
        ", ".join(f"<#{c}>" for c in sorted(settings.channels))
        if settings.channels
        else "every channel"
    )
    values = {
        "turn_timeout": f"{duration(settings.turn_timeout.total_seconds())} to move, "
        "then the turn is forfeited",
        "challenge_expiry": f"{duration(settings.challenge_expiry.total_seconds())}",
        "threads": THREAD_MODES.get(settings.threads, settings.threads),
        "channels": channels,
        "theme": THEMES.get(settings.theme, settings.theme),
        "language": LANGUAGE_NAMES.get(settings.language, settings.language),
    }
    chosen = {s.value for s in settings.changed}
    lines = ["**Settings saved.**" if changed_now else "**Shax settings on this server**"]
    for name, label in LABELS.items():
        mark = "" if name in chosen else " *(default)*"
        lines.append(f"• {label}: {values[name]}{mark}")
    lines.append(
        "Change one with `/shax settings` and its option (Manage Server), for example "
        "`turn-timeout: 12h` or `threads: always`; `reset:` returns one to its default."
    )
    return "\n".join(lines)
