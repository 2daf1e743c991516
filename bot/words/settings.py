"""The sentences of ``/shax settings`` (the others are in the rest of :mod:`bot.words`).
Each takes the translator of the one who reads it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from bot.words.registry import sentence
from bot.words.terms import EN, duration
from shax_i18n import LANGUAGES, N_, Translator

if TYPE_CHECKING:
    from bot.service.server_settings import ServerSettings

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


def label(name: str, t: Translator = EN) -> str:
    """A setting's name in ``t``'s language (``name`` itself if it is not a setting)."""
    return t.gettext(LABELS[name]) if name in LABELS else name


@sentence
def not_a_setting(name: str, t: Translator = EN) -> str:
    return t.gettext(
        "`{name}` is not a setting: choose one of {settings}.",
        name=name,
        settings=", ".join(RESET_CHOICES),
    )


@sentence
def not_a_duration(text: str, t: Translator = EN) -> str:
    return t.gettext(
        "`{text}` is not a length of time. Write it like `30m`, `24h`, `2d` or `1h30m` "
        "(d = days, h = hours, m = minutes).",
        text=text,
    )


@sentence
def duration_out_of_range(name: str, low: float, high: float, t: Translator = EN) -> str:
    return t.gettext(
        "The {setting} must be between {low} and {high}.",
        setting=label(name, t).lower(),
        low=duration(low, t),
        high=duration(high, t),
    )


@sentence
def not_a_choice(name: str, value: str, allowed: Sequence[str], t: Translator = EN) -> str:
    return t.gettext(
        "`{value}` is not a {setting} setting: choose one of {choices}.",
        setting=label(name, t).lower(),
        value=value,
        choices=", ".join(allowed),
    )


@sentence
def channel_not_listed(channel: str, t: Translator = EN) -> str:
    """``channel`` as the surface writes a channel."""
    return t.gettext(
        "{channel} is not one of the game channels. `/shax settings` shows them; "
        "`all-channels: True` lets games start anywhere again.",
        channel=channel,
    )


@sentence
def not_an_hour(hour: int | str, t: Translator = EN) -> str:
    return t.gettext(
        "`{hour}` is not an hour: the puzzle of the day's hour is a whole hour from 0 to 23 (UTC).",
        hour=hour,
    )


@sentence
def too_many_channels(limit: int, t: Translator = EN) -> str:
    return t.gettext(
        "At most {limit} game channels. Remove one with `disallow-channel` first.", limit=limit
    )


@sentence
def games_not_here(channels: Sequence[str], t: Translator = EN) -> str:
    """``channels`` as the surface writes channels."""
    return t.gettext(
        "Games on this server are played in {channels} (and their threads). Start yours there.",
        channels=", ".join(channels),
    )


@sentence
def settings_summary(
    settings: ServerSettings,
    channels: Sequence[str],
    *,
    changed_now: bool,
    puzzle_channel: str | None = None,
    outside: bool = False,
    t: Translator = EN,
) -> str:
    """Every setting with its value, marked when the server chose it, and how to change;
    ``channels`` are the game channels and ``puzzle_channel`` the puzzle of the day's, as
    the surface writes them."""
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
