"""The side panel: a card per player (name, stones on board, in hand, taken),
what the player to act must do, the last action, and the caption strip.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from PIL import Image, ImageDraw

from engine import Action, Color, Outcome, Phase, Position
from engine.moments import Moment
from renderer import sprites
from renderer.layout import Layout
from renderer.text import (
    clean,
    color_word,
    draw_text,
    fit,
    fit_shrinking,
    is_tagged,
    status_lines,
    text_width,
    wrap,
)
from renderer.theme import RGB, Theme
from shax_i18n import Translator, translator


def moment_word(moment: Moment, t: Translator) -> str:
    """A named moment's cry on the picture: ``"Irmaan!"``."""
    if moment is Moment.IRMAAN:
        return t.pgettext("moment", "Irmaan!")
    if moment is Moment.LABA_QAAD:
        return t.pgettext("moment", "Laba-qaad!")
    if moment is Moment.HAARIG:
        return t.pgettext("moment", "Haarig!")
    return t.pgettext("moment", "Oodan!")


SERIES_SHOWN = 6
"""Series stones drawn one by one in the central square (two rows of three); beyond
this, one stone and the count."""
PEBBLE = 9.0
"""Radius of a pebble (a stone in hand, taken, or of the series) at scale 1."""
PANEL_SERIES_SHOWN = 8
"""The same in the panel's narrower row (jar): beyond it, one stone and the count."""
NAME_LEFT = 52
"""Where a name starts in its card, right of the stone (scale 1)."""
NAME_MIN = 20
"""The smallest size (scale 1) a long name shrinks to before it is cut; the name's
usual size is 30."""


def draw_panel(
    img: Image.Image,
    lay: Layout,
    theme: Theme,
    position: Position,
    last: Sequence[Action],
    outcome: Outcome | None,
    players: tuple[tuple[str, str], tuple[str, str]],
    series: tuple[Color, int] | None,
    ply: int | None = None,
    t: Translator | None = None,
    moments: Sequence[Moment] = (),
) -> None:
    """The panel right of the board; its words in ``t``'s language (English when none),
    with the named ``moments`` the last action made ("Irmaan!") after it. ``players``
    are white's and black's name and rating (``""`` when unrated). ``series`` is
    drawn here only when the board has no central square (jar: its centre b2 is a
    point)."""
    t = t or translator(None)
    d = ImageDraw.Draw(img)
    pad = lay.px(14)
    x0 = lay.panel_x + pad
    x1 = lay.panel_x + lay.panel_w - pad
    card_h = lay.px(128)
    top_color = Color.WHITE if lay.flip else Color.BLACK
    active = None if outcome else position.to_move
    winner = outcome.winner if outcome else None
    top_y, bottom_y = pad, lay.height - pad - card_h
    for color, y in ((top_color, top_y), (top_color.other, bottom_y)):
        box = (x0, y, x1, y + card_h)
        _draw_card(
            img,
            d,
            lay,
            theme,
            position,
            players[color.value],
            color,
            box,
            lit=color is active or color is winner,
            t=t,
        )

    # What happens now, centred between the cards; a finished game on a plate
    # in the winner's stone colour.
    head, detail = status_lines(position, outcome, t)
    inset = lay.px(14) if outcome else 0
    width = x1 - x0 - 2 * inset
    hs, ds = lay.px(36), lay.px(24)
    head_lines = wrap(head, hs, width, max_lines=2)
    detail_lines = wrap(detail, ds, width, max_lines=4) if detail else []
    v = position.variant
    note = ""
    if last:
        actions = " ".join(a.notation(v) for a in last)
        note = t.gettext("Last: {actions}", actions=actions)
        if ply:  # left out where a two-part turn leaves no room
            with_ply = t.gettext("Last: {actions}  ·  action {n}", actions=actions, n=ply)
            if text_width(with_ply, lay.px(24)) <= x1 - x0:
                note = with_ply
    cry = "  ".join(moment_word(m, t) for m in moments)
    hl, dl = lay.px(42), lay.px(30)
    room = bottom_y - (top_y + card_h) - 2 * lay.px(8)
    while True:
        text_h = len(head_lines) * hl + len(detail_lines) * dl
        block = text_h + 2 * inset + (lay.px(12) + dl if note else 0) + (dl if cry else 0)
        if series is not None:
            block += lay.px(44)
        if block <= room or len(detail_lines) <= 1:
            break
        # Too tall for the space between the cards: the detail gives way, with an ellipsis.
        detail_lines = wrap(detail, ds, width, max_lines=len(detail_lines) - 1)
    y = (top_y + card_h + bottom_y - block) // 2
    fg, muted = theme.text, theme.muted
    if outcome:
        plate, fg, muted, rim = _plate_colors(theme, outcome.winner)
        box = (x0, y, x1, y + text_h + 2 * inset)
        d.rounded_rectangle(box, radius=lay.px(10), fill=rim)
        e = lay.px(2)
        inner = (x0 + e, y + e, x1 - e, y + text_h + 2 * inset - e)
        d.rounded_rectangle(inner, radius=lay.px(8), fill=plate)
        y += inset
    for line in head_lines:
        draw_text(img, (x0 + inset, y), line, hs, fg)
        y += hl
    for line in detail_lines:
        draw_text(img, (x0 + inset, y + lay.px(2)), line, ds, muted)
        y += dl
    y += inset
    if note:
        y += lay.px(10)
        draw_text(img, (x0, y), fit(note, ds, x1 - x0), ds, theme.text)
        y += dl
    if cry:
        draw_text(img, (x0, y), fit(cry, ds, x1 - x0), ds, theme.label)
        y += dl
    if series is not None:
        _draw_series_row(img, lay, theme, series, x0, y + lay.px(30), t)


def _draw_series_row(
    img: Image.Image,
    lay: Layout,
    theme: Theme,
    series: tuple[Color, int],
    x: int,
    y: int,
    t: Translator,
) -> None:
    """``series ●●●``: the series stones in the panel, for boards without a central square."""
    color, stones = series
    size = lay.px(22)
    word = t.gettext("series")
    draw_text(img, (x, y), word, size, theme.muted, "lm")
    x += round(text_width(word, size)) + lay.px(10)
    pr = PEBBLE * lay.scale
    step = round(pr * 2.4)
    shown = stones if stones <= PANEL_SERIES_SHOWN else 1
    pebble_row(img, lay, theme, color is Color.BLACK, shown, (x, y), pr, step)
    if shown < stones:
        draw_text(img, (x + step + lay.px(4), y), f"x {stones}", size, theme.muted, "lm")


def _plate_colors(theme: Theme, winner: Color | None) -> tuple[RGB, RGB, RGB, RGB]:
    """Plate, text, detail text and rim colours for a result: the winner's stone colour."""
    light, dark = theme.white_stone, theme.black_stone
    if winner is Color.WHITE:
        return light, dark, _mix(dark, light, 0.35), theme.white_rim
    if winner is Color.BLACK:
        return dark, light, _mix(light, dark, 0.3), theme.black_rim
    return theme.card, theme.text, theme.muted, theme.mark


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


RATING_SIZE = 24
"""The size of a rating on a card (scale 1), right of the name; it shrinks with a name
that must be smaller."""
TAGGED_MIN = 16
"""The smallest size (scale 1) a name with a closing part in brackets, a bot's level
(``Shax bot (medium)``), shrinks to before the words before it are cut."""


class CardName(NamedTuple):
    """A player's name as their card shows it: the words, their size, the rating's size."""

    name: str
    size: int
    rating_size: int


def card_name(lay: Layout, name: str, rating: str = "") -> CardName:
    """A player's name as their card shows it, beside the rating: shrunk (the rating with
    it) until it fits, then cut; a bot's name with its level shrinks further before its
    words are cut, and its level is kept whole (:func:`~renderer.text.fit_shrinking`)."""
    room = lay.panel_w - 2 * lay.px(14) - lay.px(NAME_LEFT) - lay.px(8)
    text = clean(name)
    floor = lay.px(TAGGED_MIN if is_tagged(text) else NAME_MIN)

    def beside(size: int) -> tuple[float, int]:
        rating_size = min(lay.px(RATING_SIZE), size)
        taken = text_width(rating, rating_size) + lay.px(10) if rating else 0
        return room - taken, rating_size

    for size in range(lay.px(30), floor - 1, -1):
        width, rating_size = beside(size)
        if text_width(text, size) <= width:
            return CardName(text, size, rating_size)
    width, rating_size = beside(floor)
    return CardName(*fit_shrinking(text, floor, floor, width), rating_size)


def _draw_card(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    lay: Layout,
    theme: Theme,
    position: Position,
    player: tuple[str, str],
    color: Color,
    box: tuple[int, int, int, int],
    lit: bool,
    t: Translator,
) -> None:
    """A player's card: stone, name and rating; stones on board and in hand; the stones
    still to place beside the board, later the opponent's stones this player took.
    ``lit``: this player is to act (or has won)."""
    x0, y0, x1, y1 = box
    radius = lay.px(10)
    if lit:
        e = lay.px(3)
        d.rounded_rectangle((x0 - e, y0 - e, x1 + e, y1 + e), radius=radius + e, fill=theme.mark)
    d.rounded_rectangle(box, radius=radius, fill=theme.card)
    black = color is Color.BLACK
    sprites.paste(img, sprites.stone(theme, black, lay.px(15)), (x0 + lay.px(27), y0 + lay.px(30)))
    # Only a player without a name is called by the colour; any name is drawn.
    name, rating = player
    shown = card_name(lay, name.strip() or color_word(color, t), rating)
    draw_text(
        img, (x0 + lay.px(NAME_LEFT), y0 + lay.px(30)), shown.name, shown.size, theme.text, "lm"
    )
    if rating:
        at = (x1 - lay.px(14), y0 + lay.px(30))
        draw_text(img, at, rating, shown.rating_size, theme.muted, "rm")
    v = position.variant
    on_board = position.count(color)
    hand = position.in_hand(color)
    ss = lay.px(24)
    row_y = y0 + lay.px(102)
    px = x0 + lay.px(14)
    if position.phase is Phase.PLACEMENT:
        info = t.gettext(
            "{on_board} on board  ·  {in_hand} in hand", on_board=on_board, in_hand=hand
        )
        pebbles, pebble_black = hand, black
    else:
        taken = v.pieces - position.count(color.other) - position.in_hand(color.other)
        if position.blocked is color:
            info = t.gettext("{on_board} on board  ·  blocked", on_board=on_board)
        else:
            info = t.gettext("{on_board} on board", on_board=on_board)
        pebbles, pebble_black = taken, not black
        if taken:
            took = t.gettext("took")
            draw_text(img, (px, row_y), took, ss, theme.muted, "lm")
            px += round(text_width(took, ss)) + lay.px(8)
    draw_text(img, (x0 + lay.px(14), y0 + lay.px(66)), info, ss, theme.muted, "lm")
    pr = PEBBLE * lay.scale
    pebble_row(img, lay, theme, pebble_black, pebbles, (px, row_y), pr, round(pr * 2.3))


def pebble_row(
    img: Image.Image,
    lay: Layout,
    theme: Theme,
    black: bool,
    n: int,
    start: tuple[int, int],
    pr: float,
    step: int,
) -> None:
    """``n`` pebbles in a row from ``start`` (left edge, middle), on a tray of the
    theme's :attr:`~renderer.theme.Theme.tray` so black pebbles read on a dark card."""
    if n <= 0:
        return
    x, y = start
    m = lay.px(3)
    right = x + round(2 * pr) + (n - 1) * step
    half = round(pr) + m
    ImageDraw.Draw(img).rounded_rectangle(
        (x - m, y - half, right + m, y + half), radius=half, fill=theme.tray
    )
    peb = sprites.pebble(theme, black, pr)
    for k in range(n):
        sprites.paste(img, peb, (x + round(pr) + k * step, y))


def draw_series(
    img: Image.Image,
    lay: Layout,
    theme: Theme,
    color: Color,
    stones: int,
    centre: tuple[int, int],
    per_row: int,
    t: Translator,
) -> None:
    """The series score: one small stone per consecutive win of ``color`` (source 004),
    under the word "series" so it is not taken for a stone in play, centred on ``centre``.

    Four in a row are a *gal*, five a *gabad*; the name is written under them. Beyond
    :data:`SERIES_SHOWN`, one stone and the count.
    """
    if stones <= 0:
        return
    cx, cy = centre
    pr = PEBBLE * lay.scale
    step = round(pr * 2.5)
    shown = stones if stones <= SERIES_SHOWN else 1
    rows = (shown + per_row - 1) // per_row
    peb = sprites.pebble(theme, color is Color.BLACK, pr)
    wide = min(per_row, shown)
    word = {4: "gal", 5: "gabad"}.get(stones)
    if shown < stones:
        word = f"x {stones}"
    size, line = lay.px(20), lay.px(22)
    m = lay.px(4)
    half_h = round(pr) + m
    tray_h = (rows - 1) * step + 2 * half_h
    y = cy - (line + tray_h + (line if word else 0)) // 2
    draw_text(img, (cx, y + line // 2), t.gettext("series"), size, theme.label, "mm")
    y += line
    half_w = (wide - 1) * step // 2 + half_h
    box = (cx - half_w, y, cx + half_w, y + tray_h)
    ImageDraw.Draw(img).rounded_rectangle(box, radius=half_h, fill=theme.tray)
    top = y + half_h
    for k in range(shown):
        row, col = divmod(k, per_row)
        in_row = min(per_row, shown - row * per_row)
        x = cx - (in_row - 1) * step // 2 + col * step
        sprites.paste(img, peb, (x, top + row * step))
    if word:
        draw_text(img, (cx, y + tray_h + line // 2), word, size, theme.label, "mm")


CAPTION_LINES = 2
"""A caption longer than a line wraps onto a second (the strip grows); beyond, it is cut."""
CAPTION_SIZE = 26
CAPTION_LEADING = 32
"""Between the lines of a caption, at scale 1."""


def caption_lines(lay: Layout, caption: str) -> list[str]:
    """``caption`` broken into the lines the strip under the picture shows."""
    return wrap(caption, lay.px(CAPTION_SIZE), lay.width - 2 * lay.px(16), CAPTION_LINES)


def caption_height(lay: Layout, lines: int) -> int:
    """Height of the caption strip holding ``lines`` lines."""
    return lay.caption_h + max(0, lines - 1) * lay.px(CAPTION_LEADING)


def draw_caption(img: Image.Image, lay: Layout, theme: Theme, lines: Sequence[str]) -> None:
    """The caption's lines under board and panel (the image is :func:`caption_height`
    taller)."""
    d = ImageDraw.Draw(img)
    bottom = lay.height + caption_height(lay, len(lines))
    d.rectangle((0, lay.height, lay.width, bottom), fill=theme.card)
    d.line((0, lay.height, lay.width, lay.height), fill=theme.ground_edge, width=lay.px(2))
    leading = lay.px(CAPTION_LEADING)
    y = (lay.height + bottom) // 2 - (len(lines) - 1) * leading // 2
    for k, line in enumerate(lines):
        draw_text(img, (lay.px(16), y + k * leading), line, lay.px(CAPTION_SIZE), theme.text, "lm")
