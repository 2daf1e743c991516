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

from engine import MOVE_LIMIT, Color, Outcome, Phase, Position, Step, Termination
from shax_i18n import N_, Translator, translator

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


def color_word(color: Color, t: Translator) -> str:
    """``"White"`` / ``"Black"``, capitalised as the picture writes them."""
    return t.pgettext("color", "White") if color is Color.WHITE else t.pgettext("color", "Black")


def _small(color: Color, t: Translator) -> str:
    return t.pgettext("color", "white") if color is Color.WHITE else t.pgettext("color", "black")


_REASONS = {
    Termination.TWO_PIECES: N_("{loser} has only two stones left"),
    Termination.THREE_IN_A_ROW: N_("three in a row"),
    Termination.RESIGNATION: N_("{loser} resigned"),
    Termination.TIMEOUT: N_("{loser} ran out of time"),
    Termination.MUTUAL_BLOCKADE: N_("neither player can move"),
    Termination.THREEFOLD_REPETITION: N_("the same position occurred three times"),
    Termination.MOVE_LIMIT: N_("100 moves without a capture"),
    Termination.AGREEMENT: N_("both players agreed"),
}


def outcome_lines(outcome: Outcome, t: Translator) -> tuple[str, str]:
    """``("White wins", "black has only two stones left")`` in ``t``'s language."""
    if outcome.winner is Color.WHITE:
        head = t.gettext("White wins")
    elif outcome.winner is Color.BLACK:
        head = t.gettext("Black wins")
    else:
        head = t.gettext("Draw")
    loser = _small(Color.BLACK if outcome.winner is Color.WHITE else Color.WHITE, t)
    return head, t.gettext(_REASONS[outcome.termination], loser=loser)


def status_lines(
    position: Position, outcome: Outcome | None = None, t: Translator | None = None
) -> tuple[str, str]:
    """What the picture says: a short headline and a detail line (in ``t``'s language,
    English when none).

    ``outcome`` is an ending the record cannot show (resignation, agreement,
    timeout); it takes precedence over the position's own.
    """
    t = t or translator(None)
    outcome = outcome or position.outcome
    if outcome is not None:
        # The result as the headline ("White wins"), the reason below it.
        return outcome_lines(outcome, t)
    me = Color(position.turn)
    them = me.other
    side, other = color_word(me, t), color_word(them, t)
    step = position.step
    if step is Step.PLACE:
        n = position.in_hand(me)
        first = position.first_jare
        if first is not None and position.variant.family == "shax":
            detail = t.ngettext(
                "{n} stone in hand; {color} formed the first jare and removes first",
                "{n} stones in hand; {color} formed the first jare and removes first",
                n,
                color=_small(first, t),
            )
        else:
            detail = t.ngettext("{n} stone in hand", "{n} stones in hand", n)
        return t.gettext("{side} to place", side=side), detail
    if step is Step.REMOVE:
        if position.phase is Phase.REMOVAL:
            detail = t.gettext(
                "a {color} stone, any one: the opening removal", color=_small(them, t)
            )
        else:
            detail = t.gettext(
                "a {color} stone, any one: {mover} formed a jare",
                color=_small(them, t),
                mover=_small(me, t),
            )
        return t.gettext("{side} to remove", side=side), detail
    if step is Step.FREE:
        return (
            t.gettext("{side} must free {other}", side=side, other=other),
            t.gettext(
                "jid i sii aan jar aheyn: {blocked} cannot move, so {mover} moves to open a "
                "way (no capture)",
                blocked=_small(them, t),
                mover=_small(me, t),
            ),
        )
    left = MOVE_LIMIT - position.clock
    head = t.gettext("{side} to move", side=side)
    if left <= MOVE_LIMIT // 2:
        return head, t.ngettext(
            "{n} move without a capture until a draw",
            "{n} moves without a capture until a draw",
            left,
        )
    return head, t.gettext("a stone along a line to the next empty point")


def status_text(
    position: Position, outcome: Outcome | None = None, t: Translator | None = None
) -> str:
    """The status in one line, e.g. ``'White to place (12 in hand)'`` or
    ``'White must free Black (jid i sii aan jar aheyn)'``."""
    t = t or translator(None)
    outcome = outcome or position.outcome
    if outcome is not None:
        head, reason = outcome_lines(outcome, t)
        return t.gettext("{headline}: {reason}", headline=head, reason=reason)
    me = Color(position.turn)
    side = color_word(me, t)
    if position.step is Step.PLACE:
        return t.gettext("{side} to place ({n} in hand)", side=side, n=position.in_hand(me))
    if position.step is Step.REMOVE:
        return t.gettext("{side} must remove a {color} stone", side=side, color=_small(me.other, t))
    if position.step is Step.FREE:
        return t.gettext(
            "{side} must free {other} (jid i sii aan jar aheyn)",
            side=side,
            other=color_word(me.other, t),
        )
    return t.gettext("{side} to move", side=side)
