"""A player's rating over their rated games as a small picture.

Plain numbers in, PNG bytes out: the rating before the first game and after each one as
a line, the ratings written up the left, the rated games counted along the bottom, each
axis titled in the reader's language, the best rating and the rating now marked.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from renderer.plot import SS, TITLE_SIZE, Chart, axis_ticks, png
from renderer.text import draw_text, fit
from shax_i18n import translator

RATING_FILENAME = "rating.png"
WIDTH = 560
HEIGHT = 240
MARGIN_LEFT = 64
MARGIN_RIGHT = 60
MARGIN_TOP = 30
"""Above the chart: the title of the ratings up the left."""
MARGIN_BOTTOM = 44
"""Below the chart: the games' numbers, then their title."""
RATING_STEPS = (10, 20, 25, 50, 100, 200, 250, 500)
"""The steps the ratings up the left may be written at: three to six of them."""


def render_rating_history(
    ratings: Sequence[float], theme: str = "sand", language: str = "en"
) -> bytes:
    """PNG bytes of ``ratings`` (the rating before the first rated game and after each
    one, oldest first), the axes' titles in ``language``. Raises ``ValueError`` for no
    ratings or an unknown theme."""
    if not ratings:
        raise ValueError("a rating history has at least the rating before the first game")
    c = Chart.open(theme, (WIDTH, HEIGHT), (MARGIN_LEFT, MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM))
    t, d, left, right, top, bottom = c.theme, c.draw, c.left, c.right, c.top, c.bottom
    low, high, step = rating_axis(min(ratings), max(ratings))
    n = len(ratings)

    def x_of(i: int) -> float:
        return left + (right - left) * (i / (n - 1) if n > 1 else 0.5)

    def y_of(value: float) -> float:
        return bottom - (bottom - top) * (value - low) / (high - low)

    ticks = range(round(low), round(high) + 1, step)
    for value in ticks:
        d.line((left, y_of(value), right, y_of(value)), fill=t.ground_edge, width=SS)
    points = [(x_of(i), y_of(v)) for i, v in enumerate(ratings)]
    if n > 1:
        d.line(points, fill=t.line, width=3 * SS, joint="curve")
    best = max(range(n), key=lambda i: (ratings[i], i))
    for i, fill in ((best, t.mark), (n - 1, t.select)):
        x, y = points[i]
        r = 6 * SS
        d.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=t.mark_edge, width=SS)
    img = c.big.reduce(SS)
    for value in ticks:
        y = y_of(value) / SS
        draw_text(img, (MARGIN_LEFT - 8, y), str(value), 13, t.muted, "rm")
    for k in axis_ticks(n):
        draw_text(img, (x_of(k) / SS, HEIGHT - MARGIN_BOTTOM + 6), str(k), 12, t.muted, "ma")
    last_x, last_y = (c / SS for c in points[-1])
    draw_text(img, (last_x + 10, last_y), str(round(ratings[-1])), 15, t.text, "lm")
    words = translator(language)
    room = WIDTH - MARGIN_RIGHT
    rating = fit(words.pgettext("chart", "rating"), TITLE_SIZE, room)
    draw_text(img, (MARGIN_LEFT - 8, 4), rating, TITLE_SIZE, t.muted, "ra")
    games = fit(words.pgettext("chart", "rated games"), TITLE_SIZE, room)
    x_middle = (MARGIN_LEFT + WIDTH - MARGIN_RIGHT) / 2
    draw_text(img, (x_middle, HEIGHT - 4), games, TITLE_SIZE, t.muted, "md")
    return png(img)


def rating_axis(lowest: float, highest: float) -> tuple[float, float, int]:
    """The range the chart shows (whole steps around the ratings, at least two steps
    high) and the step its ratings are written at."""
    span = max(highest - lowest, 1.0)
    step = next((s for s in RATING_STEPS if span / s <= 5), RATING_STEPS[-1])
    low = math.floor(lowest / step) * step
    high = math.ceil(highest / step) * step
    if high - low < 2 * step:
        low, high = low - step, high + step
    return float(low), float(high), step
