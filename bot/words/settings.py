"""The sentences of ``/shax settings`` (the others are in the rest of :mod:`bot.words`).
Each takes the translator of the one who reads it."""

from __future__ import annotations

from collections.abc import Sequence

from bot.service.challenges import GAMES_NOT_HERE
from bot.service.replies import Channel
from bot.service.server_settings import (
    CHANNEL_NOT_LISTED,
    DURATION_OUT_OF_RANGE,
    NOT_A_CHOICE,
    NOT_A_DURATION,
    NOT_A_SETTING,
    NOT_AN_HOUR,
    SETTINGS_SUMMARY,
    TOO_MANY_CHANNELS,
    ServerSettings,
)
from bot.words.registry import speaks, speaks_with_voice
from bot.words.terms import duration
from bot.words.voice import Voice
from shax_i18n import LANGUAGES, N_, Translator

LABELS = {
    "turn_timeout": N_("Turn timeout"),
    "challenge_expiry": N_("Challenge expiry"),
    "threads": N_("Game threads"),
    "channels": N_("Game channels"),
    "theme": N_("Board theme"),
    "language": N_("Language"),
    "puzzle_channel": N_("Puzzle of the day"),
    "puzzle_hour": N_("Puzzle of the day's hour"),
}
"""Each setting's name, as the settings' answer lists them."""
RESET_CHOICES = tuple(name.replace("_", "-") for name in LABELS)
"""Each setting as ``reset:`` takes it, on every surface: the name of the option that sets
it (``puzzle-channel``; ``channels`` for the game channels' list)."""
PUZZLE_SETTINGS = ("puzzle_channel", "puzzle_hour")
THREAD_MODES = {
    "busy": N_("a thread of its own when the channel already has a game"),
    "always": N_("every game in a thread of its own"),
    "never": N_("no threads: one game per channel"),
}
THEMES = {"dark": N_("dark (for Discord's dark theme)"), "light": N_("light")}


def label(name: str, t: Translator) -> str:
    """A setting's name in ``t``'s language (``name`` itself if it is not a setting)."""
    return t.gettext(LABELS[name]) if name in LABELS else name


@speaks(NOT_A_SETTING)
def not_a_setting(t: Translator, name: str) -> str:
    return t.gettext(
        "`{name}` is not a setting: choose one of {settings}.",
        name=name,
        settings=", ".join(RESET_CHOICES),
    )


@speaks(NOT_A_DURATION)
def not_a_duration(t: Translator, text: str) -> str:
    return t.gettext(
        "`{text}` is not a length of time. Write it like `30m`, `24h`, `2d` or `1h30m` "
        "(d = days, h = hours, m = minutes).",
        text=text,
    )


@speaks(DURATION_OUT_OF_RANGE)
def duration_out_of_range(t: Translator, name: str, low: float, high: float) -> str:
    return t.gettext(
        "The {setting} must be between {low} and {high}.",
        setting=label(name, t).lower(),
        low=duration(low, t),
        high=duration(high, t),
    )


@speaks(NOT_A_CHOICE)
def not_a_choice(t: Translator, name: str, value: str, allowed: Sequence[str]) -> str:
    return t.gettext(
        "`{value}` is not a {setting} setting: choose one of {choices}.",
        setting=label(name, t).lower(),
        value=value,
        choices=", ".join(allowed),
    )


@speaks_with_voice(CHANNEL_NOT_LISTED)
def channel_not_listed(voice: Voice, channel: Channel) -> str:
    return voice.t.gettext(
        "{channel} is not one of the game channels. `/shax settings` shows them; "
        "`all-channels: True` lets games start anywhere again.",
        channel=voice.channel(channel),
    )


@speaks(NOT_AN_HOUR)
def not_an_hour(t: Translator, hour: int | str) -> str:
    return t.gettext(
        "`{hour}` is not an hour: the puzzle of the day's hour is a whole hour from 0 to 23 (UTC).",
        hour=hour,
    )


@speaks(TOO_MANY_CHANNELS)
def too_many_channels(t: Translator, limit: int) -> str:
    return t.gettext(
        "At most {limit} game channels. Remove one with `disallow-channel` first.", limit=limit
    )


@speaks_with_voice(GAMES_NOT_HERE)
def games_not_here(voice: Voice, channels: Sequence[Channel]) -> str:
    return voice.t.gettext(
        "Games on this server are played in {channels} (and their threads). Start yours there.",
        channels=", ".join(voice.channel(channel) for channel in channels),
    )


@speaks_with_voice(SETTINGS_SUMMARY)
def settings_summary(
    voice: Voice,
    settings: ServerSettings,
    game_channels: Sequence[Channel],
    changed_now: bool,
    puzzle: Channel | None,
    outside: bool,
) -> str:
    """Every setting with its value, marked when the server chose it, and how to change;
    ``game_channels`` are the game channels and ``puzzle`` the puzzle of the day's."""
    t, channels = voice.t, [voice.channel(channel) for channel in game_channels]
    puzzle_channel = None if puzzle is None else voice.channel(puzzle)
    games_in = ", ".join(channels) if channels else t.gettext("every channel")
    threads, theme = THREAD_MODES.get(settings.threads), THEMES.get(settings.theme)
    values = {
        "turn_timeout": t.gettext(
            "{duration} to move, then the turn is forfeited",
            duration=duration(settings.turn_timeout.total_seconds(), t),
        ),
        "challenge_expiry": duration(settings.challenge_expiry.total_seconds(), t),
        "threads": t.gettext(threads) if threads else settings.threads,
        "channels": games_in,
        "theme": t.gettext(theme) if theme else settings.theme,
        "language": LANGUAGES.get(settings.language, settings.language),
        "puzzle_channel": puzzle_channel or t.gettext("none (no puzzle of the day)"),
        "puzzle_hour": t.gettext("{hour}:00 UTC", hour=settings.puzzle_hour),
    }
    chosen = {s.value for s in settings.changed}
    if changed_now:
        heading = t.gettext("**Settings saved.**")
    elif outside:
        heading = t.gettext("**Shax settings outside servers** (direct messages, the console)")
    else:
        heading = t.gettext("**Shax settings on this server**")
    lines = [heading]
    default = t.gettext("*(default)*")
    for name in LABELS:
        if outside and name in PUZZLE_SETTINGS:
            continue  # the puzzle of the day is a server's
        mark = "" if name in chosen else f" {default}"
        lines.append(f"• {label(name, t)}: {values[name]}{mark}")
    lines.append(
        t.gettext(
            "Change one with `/shax settings` and its option (Manage Server), for example "
            "`turn-timeout: 12h` or `threads: always`; `reset:` returns one to its default."
        )
    )
    return "\n".join(lines)
