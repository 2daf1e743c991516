"""Antialiased sprites: stones, rings, marks. Drawn once at 4x and shrunk, then cached.

Pillow's ``ImageDraw`` does not antialias, so every curved shape is drawn
supersampled and reduced with premultiplied alpha. A sprite is an RGBA image
whose centre pixel sits on the point centre when pasted at ``centre - half``.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFilter

from renderer.theme import RGB, Theme

SS = 4
"""Supersampling factor."""

Painter = Callable[[ImageDraw.ImageDraw, float, float], None]
"""Draws on a supersampled canvas, given the sprite centre (cx, cy) in its coordinates."""


def supersample(half: int, paint: Painter, blur: float = 0.0) -> Image.Image:
    """An RGBA sprite of side ``2 * half + 1`` painted at ``SS`` times and reduced."""
    side = (2 * half + 1) * SS
    big = Image.new("RGBA", (side, side), (0, 0, 0, 0))
    c = side / 2
    paint(ImageDraw.Draw(big), c, c)
    premultiplied = big.convert("RGBa")  # so edges blend with the colour, not with black
    if blur:
        premultiplied = premultiplied.filter(ImageFilter.GaussianBlur(blur * SS))
    return premultiplied.reduce(SS).convert("RGBA")


Fill = tuple[int, ...]


def _disc(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, fill: Fill) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)


def _ring(
    draw: ImageDraw.ImageDraw, cx: float, cy: float, r: float, width: float, fill: Fill
) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=fill, width=max(1, round(width)))


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


@lru_cache(maxsize=64)
def stone(theme: Theme, black: bool, r: int) -> Image.Image:
    """A stone of radius ``r``: soft shadow, a rim, a gently domed body, a sheen.

    The middle (a disc of radius ``r / 3``) is exactly the stone colour, so a
    test can read the colour of any occupied point from its centre pixel.
    """
    body = theme.black_stone if black else theme.white_stone
    rim = theme.black_rim if black else theme.white_rim
    edge = _mix(body, (255, 255, 255), 0.10) if black else _mix(body, (96, 84, 70), 0.16)
    sheen = (255, 255, 255, 40) if black else (255, 255, 255, 150)
    half = r + max(3, r // 4)
    fall = r * 0.10 * SS

    def shade(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
        _disc(d, cx, cy + fall, r * SS, (*theme.shadow, 120))

    img = supersample(half, shade, blur=max(0.8, r / 9))

    def paint(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
        R = r * SS
        rim_w = max(1.4, r / 13) * SS
        _disc(d, cx, cy, R, rim)
        # The dome: from the edge tone at the rim to the body colour at r / 3.
        inner = R - rim_w
        steps = 24
        for k in range(steps + 1):
            t = k / steps
            rad = inner - (inner - R / 3) * t
            _disc(d, cx, cy, rad, _mix(edge, body, t * t * (3 - 2 * t)))

    img.alpha_composite(supersample(half, paint))

    def shine(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
        sr = r * 0.2 * SS
        sx, sy = cx - r * 0.42 * SS, cy - r * 0.42 * SS
        _disc(d, sx, sy, sr, sheen)

    img.alpha_composite(supersample(half, shine, blur=r / 9))
    # Rounding in the blends may stray by a level; the middle is the stone colour exactly.
    k = r / 3
    ImageDraw.Draw(img).ellipse((half - k, half - k, half + k, half + k), fill=(*body, 255))
    return img


@lru_cache(maxsize=64)
def ring(color: RGB, edge: RGB, inner: float, width: float) -> Image.Image:
    """A ring from radius ``inner`` outwards: a thin ``edge`` halo, ``width`` of ``color``,
    and the halo again, so it stands out on the ground, on lines and on stones."""
    e = max(1.0, width / 3)
    half = round(inner + width + 2 * e) + 2

    def paint(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
        _ring(d, cx, cy, (inner + width + 2 * e) * SS, (width + 2 * e) * SS, edge)
        _ring(d, cx, cy, (inner + width + e) * SS, width * SS, color)

    return supersample(half, paint)


@lru_cache(maxsize=64)
def removed_mark(color: RGB, edge: RGB, r: int, hole: float) -> Image.Image:
    """Where a stone was removed: its outline dashed, and an X whose arms stop
    short of the point's dot (radius ``hole``), so the empty point still reads."""
    half = r + 4
    w = max(2.0, r / 7)

    def paint(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
        R = (r - w / 2) * SS
        for stroke, col in ((w + 2.4, edge), (w, color)):
            ww = stroke * SS
            for k in range(12):  # the dashed outline of the stone that was there
                start = k * 30 + 6
                box = (cx - R - ww / 2, cy - R - ww / 2, cx + R + ww / 2, cy + R + ww / 2)
                d.arc(box, start, start + 16 + (stroke - w) * 3, fill=col, width=round(ww))
            for ang in (45, 135, 225, 315):
                a = math.radians(ang)
                ux, uy = math.cos(a) * SS, math.sin(a) * SS
                x0, y0 = cx + ux * (hole + stroke / 2), cy + uy * (hole + stroke / 2)
                x1, y1 = cx + ux * r * 0.62, cy + uy * r * 0.62
                d.line((x0, y0, x1, y1), fill=col, width=round(ww))
                for x, y in ((x0, y0), (x1, y1)):
                    _disc(d, x, y, ww / 2, col)

    return supersample(half, paint)


@lru_cache(maxsize=64)
def arrow_head(color: RGB, edge: RGB, size: float, direction: str) -> Image.Image:
    """A triangular arrow head pointing ``direction`` (``"n"``, ``"s"``, ``"e"``, ``"w"``).

    Its tip is the sprite's centre pixel, so it is pasted at the point it touches.
    """
    half = round(size) + 3

    def paint(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
        s = size * SS
        e = 1.6 * SS
        # Pointing east with the tip at the centre; rotated below.
        tri = [(cx, cy), (cx - s, cy - s * 0.62), (cx - s, cy + s * 0.62)]
        big = [
            (cx + e * 1.6, cy),
            (cx - s - e, cy - s * 0.62 - e * 1.4),
            (cx - s - e, cy + s * 0.62 + e * 1.4),
        ]
        d.polygon(big, fill=edge)
        d.polygon(tri, fill=color)

    east = supersample(half, paint)
    turn = {
        "e": None,
        "n": Image.Transpose.ROTATE_90,
        "w": Image.Transpose.ROTATE_180,
        "s": Image.Transpose.ROTATE_270,
    }[direction]
    return east if turn is None else east.transpose(turn)


@lru_cache(maxsize=64)
def pebble(theme: Theme, black: bool, r: float) -> Image.Image:
    """A small stone for the hand, the captures and the series score."""
    body = theme.black_stone if black else theme.white_stone
    rim = theme.black_rim if black else theme.white_rim
    half = round(r) + 2

    def paint(d: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
        _disc(d, cx, cy + 0.8 * SS, r * SS, (*theme.shadow, 90))
        _disc(d, cx, cy, r * SS, rim)
        _disc(d, cx, cy, (r - max(1.2, r / 6)) * SS, body)

    return supersample(half, paint)


def paste(canvas: Image.Image, sprite: Image.Image, centre: tuple[int, int]) -> None:
    """Paste a sprite so that its centre pixel lands on ``centre``."""
    half = sprite.width // 2
    canvas.paste(sprite, (centre[0] - half, centre[1] - half), sprite)
