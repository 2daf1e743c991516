"""Text: Pillow's own scalable font (no system fonts), per thread, and the words shown.

The bundled font covers ASCII and little more, so player names are folded to
it (accents dropped, other characters left out) rather than drawn as empty boxes;
a name with nothing left is shown as its colour ("White").
"""

from __future__ import annotations

import threading
import unicodedata
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from engine import MOVE_LIMIT, Color, Outcome, Phase, Position, Step

_local = threading.local()


def font(size: int) -> ImageFont.FreeTypeFont:
    """Pillow's default font at ``size`` px; one instance per thread (FreeType is not shared)."""
    fonts: dict[int, ImageFont.FreeTypeFont] | None = getattr(_local, "fonts", None)
    if fonts is None:
        fonts = _local.fonts = {}
    f = fonts.get(size)
    if f is None:
        loaded = ImageFont.load_default(size=size)
        if not isinstance(loaded, ImageFont.FreeTypeFont):  # Pillow built without FreeType
            raise RuntimeError("the renderer needs Pillow with FreeType support")
        f = fonts[size] = loaded
    return f


@lru_cache(maxsize=512)
def _text_mask(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    f = font(size)
    left, top, right, bottom = (int(v) for v in f.getbbox(text, anchor=anchor))
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=f, fill=255, anchor=anchor)
    return mask, left, top


def draw_text(
    img: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: tuple[int, int, int],
    anchor: str = "la",
) -> None:
    """Draw ``text`` like ``ImageDraw.text``; the glyph masks are cached, as most text repeats."""
    if not text:
        return
    mask, left, top = _text_mask(text, size, anchor)
    x, y = round(xy[0]) + left, round(xy[1]) + top
    img.paste(fill, (x, y, x + mask.width, y + mask.height), mask)


@lru_cache(maxsize=1)
def _missing_glyph() -> bytes:
    return bytes(font(24).getmask("\uffff"))


@lru_cache(maxsize=4096)
def _has_glyph(ch: str) -> bool:
    """Whether the bundled font draws ``ch`` (else it would draw an empty box)."""
    return ch == " " or bytes(font(24).getmask(ch)) != _missing_glyph()


def printable(text: str) -> str:
    """``text`` folded to characters the bundled font can draw."""
    out = []
    for ch in unicodedata.normalize("NFKD", text):
        if (ch.isascii() and ch.isprintable()) or _has_glyph(ch):
            out.append(ch)
        elif unicodedata.combining(ch):
            continue
        elif ch.isspace():
            out.append(" ")
        # Anything else (emoji, other scripts) is left out rather than drawn as a box.
    return " ".join("".join(out).split())


def fit(text: str, f: ImageFont.FreeTypeFont, width: float) -> str:
    """``text``, cut with an ellipsis if it is wider than ``width`` pixels."""
    if f.getlength(text) <= width:
        return text
    while text and f.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, f: ImageFont.FreeTypeFont, width: float, max_lines: int = 4) -> list[str]:
    """``text`` broken into lines at most ``width`` pixels wide."""
    lines: list[str] = []
    current = ""
    for word in text.split():
        trial = f"{current} {word}" if current else word
        if f.getlength(trial) <= width or not current:
            current = trial
        else:
            lines.append(current)
            current = word
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = [*lines[: max_lines - 1], fit(" ".join(lines[max_lines - 1 :]), f, width)]
    return [fit(line, f, width) for line in lines]


def _cap(color: Color) -> str:
    return color.label.capitalize()


def status_lines(position: Position, outcome: Outcome | None = None) -> tuple[str, str]:
    """What the picture says: a short headline and a detail line.

    ``outcome`` is an ending the record cannot show (resignation, agreement,
    timeout); it takes precedence over the position's own.
    """
    outcome = outcome or position.outcome
    if outcome is not None:
        # The result as the headline ("White wins"), the reason below it.
        return outcome.headline, outcome.reason()
    me = Color(position.turn)
    them = me.other
    step = position.step
    if step is Step.PLACE:
        n = position.in_hand(me)
        detail = f"{n} stone{'s' if n != 1 else ''} in hand"
        first = position.first_jare
        if first is not None and position.variant.family == "shax":
            detail += f"; {first.label} formed the first jare and removes first"
        return f"{_cap(me)} to place", detail
    if step is Step.REMOVE:
        why = (
            "the opening removal"
            if position.phase is Phase.REMOVAL
            else f"{me.label} formed a jare"
        )
        return f"{_cap(me)} to remove", f"a {them.label} stone, any one: {why}"
    if step is Step.FREE:
        return (
            f"{_cap(me)} must free {_cap(them)}",
            f"jid i sii aan jar aheyn: {them.label} cannot move, so {me.label} moves to "
            "open a way (no capture)",
        )
    left = MOVE_LIMIT - position.clock
    if left <= MOVE_LIMIT // 2:
        return f"{_cap(me)} to move", f"{left} moves without a capture until a draw"
    return f"{_cap(me)} to move", "a stone along a line to the next empty point"


def status_text(position: Position, outcome: Outcome | None = None) -> str:
    """The status in one line, e.g. ``'White to place (12 in hand)'`` or
    ``'White must free Black (jid i sii aan jar aheyn)'``."""
    outcome = outcome or position.outcome
    if outcome is not None:
        return outcome.describe()
    me = Color(position.turn)
    if position.step is Step.PLACE:
        return f"{_cap(me)} to place ({position.in_hand(me)} in hand)"
    if position.step is Step.REMOVE:
        return f"{_cap(me)} must remove a {me.other.label} stone"
    if position.step is Step.FREE:
        return f"{_cap(me)} must free {_cap(me.other)} (jid i sii aan jar aheyn)"
    return f"{_cap(me)} to move"
