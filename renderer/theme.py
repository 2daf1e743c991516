"""Colour themes: the ground, the lines, the two kinds of stones and the marks.

Stones differ by luminance, never by hue alone, so they read for everyone
(colour-blind players included) and in Discord's dark and light themes alike.
Marks (last action, new jare) use one strong hue per theme that stands apart
from both stones and from the ground: deep blue on sand, amber at night.
"""

from __future__ import annotations

from dataclasses import dataclass

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Theme:
    """Every colour a picture uses. ``point`` is what an empty point's centre shows.

    Colours are either equal or clearly apart (RGB distance over 8): pictures
    are stored with a shared palette that keeps each theme colour exact.
    """

    name: str
    ground: RGB
    """The board's ground: sand, or dark earth."""
    ground_edge: RGB
    """A slightly darker rim around the ground."""
    line: RGB
    point: RGB
    """The dot on an empty point (its centre pixel, which tests sample)."""
    label: RGB
    """Point names on the edges."""
    panel: RGB
    card: RGB
    text: RGB
    muted: RGB
    white_stone: RGB
    white_rim: RGB
    black_stone: RGB
    black_rim: RGB
    shadow: RGB
    tray: RGB
    """Behind rows of pebbles (in hand, taken, the series), so both colours read."""
    mark: RGB
    """Last action and new jare."""
    mark_edge: RGB
    """A thin contrasting edge around marks, so they stand out on any ground."""
    select: RGB
    """Extra points the view asks to ring."""


SAND = Theme(
    name="sand",
    ground=(226, 196, 146),
    ground_edge=(196, 160, 106),
    line=(92, 62, 36),
    point=(92, 62, 36),
    label=(120, 86, 52),
    panel=(244, 232, 210),
    card=(247, 244, 236),
    text=(52, 36, 22),
    muted=(122, 98, 72),
    white_stone=(247, 244, 236),
    white_rim=(70, 56, 44),
    black_stone=(34, 31, 30),
    black_rim=(70, 64, 60),
    shadow=(92, 62, 36),
    tray=(226, 196, 146),
    mark=(28, 96, 214),
    mark_edge=(247, 244, 236),
    select=(0, 140, 150),
)

NIGHT = Theme(
    name="night",
    ground=(58, 45, 36),
    ground_edge=(36, 32, 30),
    line=(200, 172, 128),
    point=(214, 188, 146),
    label=(176, 152, 116),
    panel=(36, 32, 30),
    card=(48, 43, 40),
    text=(238, 228, 212),
    muted=(170, 156, 138),
    white_stone=(240, 236, 226),
    white_rim=(22, 20, 20),
    black_stone=(22, 20, 20),
    black_rim=(186, 176, 164),
    shadow=(10, 8, 6),
    tray=(150, 128, 100),
    mark=(255, 176, 32),
    mark_edge=(22, 20, 20),
    select=(110, 200, 255),
)

THEMES: dict[str, Theme] = {t.name: t for t in (SAND, NIGHT)}
THEME_NAMES: tuple[str, ...] = tuple(THEMES)
THEME_ALIASES: dict[str, str] = {"dark": NIGHT.name, "light": SAND.name}
"""The names players choose (``/shax theme``): Discord's own words for its themes."""


def get_theme(name: str) -> Theme:
    """The theme with this name or alias (``"dark"``, ``"light"``); raises ``ValueError``
    listing the themes."""
    try:
        return THEMES[THEME_ALIASES.get(name, name)]
    except KeyError:
        names = ", ".join((*THEME_ALIASES, *THEME_NAMES))
        raise ValueError(f"unknown theme {name!r}; choose one of: {names}") from None
