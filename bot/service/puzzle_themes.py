"""Puzzle themes as players choose them and see them: what a puzzle is about
(:class:`engine.tables.puzzles.PuzzleTheme`), shown once a try is over and chosen with
``/shax puzzle theme:``. The words for each theme are :mod:`bot.words.puzzles`'."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from bot.service.replies import BadOption, Saying
from engine import Variant
from engine.tables.puzzles import PuzzleTheme

THEME_WINDOW = 300.0
"""A puzzle of a chosen theme is near the player when rated this close to them; when none
is left that near, the nearest of the theme is theirs."""
NO_THEME_LEFT: Saying[[PuzzleTheme, Variant, Sequence[PuzzleTheme]]] = Saying("no_theme_left")
"""No puzzle of the theme is left to try on this board: the theme, the board, and the
themes it still has puzzles of, in the themes' order (none: no theme is left there)."""
UNKNOWN_THEME: Saying[[str]] = Saying("unknown_puzzle_theme")
"""A theme that is none of :class:`PuzzleTheme` (as typed)."""
PUZZLE_THEMES: Saying[[Sequence[PuzzleTheme]]] = Saying("puzzle_themes")
"""What a puzzle was about, said once its try is over."""
THEME_FAR: Saying[[PuzzleTheme]] = Saying("puzzle_theme_far")
"""No puzzle of the chosen theme is left near the player's rating: this is the nearest."""


def in_order(themes: Iterable[str]) -> list[PuzzleTheme]:
    """The themes named by id, in :class:`PuzzleTheme`'s order (unknown ids are left out)."""
    named = set(themes)
    return [theme for theme in PuzzleTheme if theme.value in named]


def parse_theme(text: str | None) -> PuzzleTheme | None:
    """The theme chosen (``None``: none), by its id in any case, ``-`` or ``_``; a theme
    that is none is refused."""
    if text is None or not text.strip():
        return None
    try:
        return PuzzleTheme(text.strip().lower().replace("-", "_").replace(" ", "_"))
    except ValueError:
        raise BadOption(UNKNOWN_THEME(text)) from None
