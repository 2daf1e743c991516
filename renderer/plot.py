"""The evaluation over a game as a small picture: who stood better after each action.

Plain numbers in, PNG bytes out. The curve is white's value (centi-stones, already
within ±``limit``): above the middle line white stands better, below it black, each
side filled in its stone's colour. Turning points are numbered rings on the curve,
numbered as the review lists them. The scale on the right counts the stones the side
above or below stands ahead by (the edge: that many or more, or a forced win), the
numbers along the bottom the actions; each axis has its title in the reader's language.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from renderer.text import draw_text, fit, fit_shrinking
from renderer.theme import Theme, get_theme
from shax_i18n import translator

PLOT_FILENAME = "review.png"
WIDTH = 720
HEIGHT = 264
MARGIN_LEFT = 150
MARGIN_RIGHT = 42
"""Room for the scale of stones right of the chart."""
MARGIN_TOP = 30
"""Above the chart: the scale's title."""
MARGIN_BOTTOM = 40
"""Below the chart: the action numbers, then their title."""
TITLE_SIZE = 12
CENTI = 100
"""Centi-stones in a stone: the scale is written in stones."""
NAME_SIZE = 15
NAME_MIN = 12
"""A long name shrinks from ``NAME_SIZE`` to this before it is cut."""
NAME_GAP = 10
"""Between a name and the chart."""
NAME_EDGE = 6
"""Kept clear at the picture's left edge."""
TICK_STEPS = (1, 2, 5, 10, 20, 25, 50, 100, 250, 500)
SS = 2
"""Supersampling of the curve and its fill."""


def render_evaluation(
    values: Sequence[int],
    marks: Sequence[int] = (),
    *,
    limit: int = 1000,
    white_name: str = "White",
    black_name: str = "Black",
    theme: str = "sand",
    language: str = "en",
) -> bytes:
    """PNG bytes of the curve of ``values`` (white's value before each action and after
    the last), with ``marks`` (indices into ``values``: the turning points) numbered
    1, 2, 3… in order, the axes' titles in ``language``. Raises ``ValueError`` for an
    unknown theme or a bad limit."""
    if limit <= 0:
        raise ValueError("limit must be positive")
    c = Chart.open(theme, (WIDTH, HEIGHT), (MARGIN_LEFT, MARGIN_TOP, MARGIN_RIGHT, MARGIN_BOTTOM))
    t, big, d = c.theme, c.big, c.draw
    left, right, top, bottom = c.left, c.right, c.top, c.bottom
    middle = (top + bottom) / 2
    n = len(values)

    def x_of(i: int) -> float:
        return left + (right - left) * (i / (n - 1) if n > 1 else 0.5)

    def y_of(value: int) -> float:
        clipped = max(-limit, min(limit, value))
        return middle - (bottom - top) / 2 * clipped / limit

    points = [(x_of(i), y_of(v)) for i, v in enumerate(values)]
    scale = (-limit, -limit // 2, 0, limit // 2, limit)
    for value in (scale[1], scale[3]):
        d.line((left, y_of(value), right, y_of(value)), fill=t.ground_edge, width=SS)
    if len(points) >= 2:
        above = [(x, min(y, middle)) for x, y in points]
        below = [(x, max(y, middle)) for x, y in points]
        ends = [(points[-1][0], middle), (points[0][0], middle)]
        d.polygon(above + ends, fill=t.white_stone)
        d.polygon(below + ends, fill=t.black_stone)
        d.line(points, fill=t.line, width=2 * SS, joint="curve")
    d.line((left, middle, right, middle), fill=t.muted, width=SS)
    img = big.reduce(SS)
    draw = ImageDraw.Draw(img)
    for number, index in enumerate(marks, start=1):
        if not 0 <= index < n:
            continue
        x, y = (round(c / SS) for c in points[index])
        r = 9
        draw.ellipse((x - r, y - r, x + r, y + r), fill=t.mark, outline=t.mark_edge, width=2)
        draw_text(img, (x, y), str(number), 13, t.mark_edge, "mm")
    room = MARGIN_LEFT - NAME_GAP - NAME_EDGE
    for name, y, anchor in (
        (white_name, MARGIN_TOP + 4, "ra"),
        (black_name, HEIGHT - MARGIN_BOTTOM - 4, "rd"),
    ):
        shown, size = fit_shrinking(name, NAME_SIZE, NAME_MIN, room)
        draw_text(img, (MARGIN_LEFT - NAME_GAP, y), shown, size, t.text, anchor)
    for k in axis_ticks(n):
        x = round(x_of(k) / SS)
        draw_text(img, (x, HEIGHT - MARGIN_BOTTOM + 4), str(k), 12, t.muted, "ma")
    for value in scale:
        written = f"{abs(value) / CENTI:g}"
        draw_text(img, (WIDTH - MARGIN_RIGHT + 6, y_of(value) / SS), written, 12, t.muted, "lm")
    words = translator(language)
    ahead = fit(words.pgettext("chart", "stones ahead"), TITLE_SIZE, WIDTH - MARGIN_LEFT)
    draw_text(img, (WIDTH - 6, 4), ahead, TITLE_SIZE, t.muted, "ra")
    actions = fit(words.pgettext("chart", "actions"), TITLE_SIZE, WIDTH - MARGIN_LEFT)
    x_middle = (MARGIN_LEFT + WIDTH - MARGIN_RIGHT) / 2
    draw_text(img, (x_middle, HEIGHT - 4), actions, TITLE_SIZE, t.muted, "md")
    return png(img)


@dataclass(frozen=True)
class Chart:
    """A small chart being drawn: the picture at ``SS`` times its size (for smooth
    lines; :meth:`Image.reduce` it before writing words), and its plotting box there."""

    theme: Theme
    big: Image.Image
    draw: ImageDraw.ImageDraw
    left: int
    right: int
    top: int
    bottom: int

    @classmethod
    def open(cls, theme: str, size: tuple[int, int], margins: tuple[int, int, int, int]) -> Chart:
        """A ``size`` picture on the theme's panel with its plotting box drawn inside the
        ``margins`` (left, top, right, bottom). ``ValueError`` for an unknown theme."""
        t = get_theme(theme)
        (width, height), (m_left, m_top, m_right, m_bottom) = size, margins
        big = Image.new("RGB", (width * SS, height * SS), t.panel)
        d = ImageDraw.Draw(big)
        box = (m_left * SS, m_top * SS, (width - m_right) * SS, (height - m_bottom) * SS)
        d.rectangle(box, fill=t.ground, outline=t.muted, width=SS)
        return cls(t, big, d, box[0], box[2], box[1], box[3])


def png(img: Image.Image) -> bytes:
    """A chart's PNG bytes."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=False, compress_level=6)
    return buf.getvalue()


def axis_ticks(n: int) -> list[int]:
    """The action numbers written under a curve of ``n`` values: every 1, 2, 5, 10,
    25… so that a short game is numbered too and a long one four to seven times."""
    if n < 2:
        return []
    actions = n - 1
    step = next((s for s in TICK_STEPS if actions / s <= 7), TICK_STEPS[-1])
    return list(range(0, n, step))
