"""The values a choice option offers (:class:`Pick`), each with its label: the boards, the
bot's levels, the languages, the settings' values, the leaderboard's tables and the
puzzles' themes. The labels are catalogue messages, as Discord's menus show them."""

from __future__ import annotations

from bot.commands.declare import Kind, Option, Pick
from bot.words.puzzles import THEME_NAMES
from bot.words.settings import RESET_CHOICES
from engine.ai import LEVELS as AI_LEVELS
from shax_i18n import LANGUAGES, N_

VARIANTS = (
    Pick("shax", N_("Shax — 12 stones each, three squares")),
    Pick("shax-small", N_("Shax small — 8 stones each, two squares")),
    Pick("jar", N_("Jar — 3 stones each, the children's game")),
)
LEVELS = tuple(Pick(level, level.capitalize()) for level in AI_LEVELS)
LANGUAGE_PICKS = tuple(Pick(code, name) for code, name in LANGUAGES.items())
"""Each language under its own name: English, Soomaali."""
FIRST = (Pick("me", N_("Me")), Pick("bot", N_("The bot")), Pick("random", N_("Random")))
THREADS = (
    Pick("busy", N_("When the channel is busy")),
    Pick("always", N_("Always")),
    Pick("never", N_("Never")),
)
THEMES = (Pick("dark", N_("Dark — as Discord's dark theme")), Pick("light", N_("Light — sand")))
RESETS = tuple(Pick(name, name) for name in RESET_CHOICES)
HOURS = tuple(Pick(str(hour), f"{hour:02d}:00") for hour in range(24))
PUZZLE_THEMES = tuple(Pick(theme.value, name) for theme, name in THEME_NAMES.items())
"""Each puzzle theme under its name in the game's words."""
TABLES = (
    Pick("streaks", N_("Streaks — current and all-time best")),
    Pick("ratings", N_("Ratings — established ratings")),
    Pick("both", N_("Both")),
    Pick("puzzles", N_("Puzzles — puzzle ratings and puzzles solved")),
)

VARIANT = Option(
    "variant", Kind.CHOICE, N_("The board (default: Shax)"), default="shax", choices=VARIANTS
)
"""The board of a new game, Shax unless another is chosen."""
