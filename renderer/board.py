"""Board pictures: the static board drawn once per (variant, theme, flip, scale),
then stones, marks and the panel composed on a copy for each request.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import (
    Action,
    Color,
    Kind,
    NotationError,
    Outcome,
    Phase,
    Position,
    Step,
    Variant,
    get_variant,
    iter_bits,
    parse_action,
    split_record,
)
from engine import iter_positions as _iter_positions
from engine.moments import Moment, irmaan_appeared, moments_after
from renderer import sprites
from renderer.layout import Layout, make_layout
from renderer.panel import (
    caption_height,
    caption_lines,
    draw_caption,
    draw_panel,
    draw_series,
)
from renderer.sprites import SS
from renderer.text import draw_text, text_width
from renderer.theme import Theme, get_theme
from shax_i18n import translator

SHOWN_MOMENTS = (Moment.LABA_QAAD, Moment.IRMAAN, Moment.HAARIG, Moment.OODAN)
"""The named moments the picture cries (engine.moments), in this order."""

POINT_NAME_SIZE = 24
"""Size of the point names written on the points (scale 1)."""
ADVICE_HEAD = 28
"""Length of a suggested move's arrow head (scale 1): about 13 px at chat size."""
PNG_LEVEL = 6
"""zlib level for PNGs: on palette images it costs ~3 ms and beats 1 by a fifth in size."""


@dataclass(frozen=True)
class BoardView:
    """How to show a position, beyond what the position itself says. Plain, picklable data."""

    white_name: str = ""
    black_name: str = ""
    """A player without a name is called by the colour, in the picture's language."""
    white_rating: str = ""
    black_rating: str = ""
    """Each player's rating as players read it (``"1532"``, ``"1500?"`` while provisional),
    on their card beside the name; none in an unrated game."""
    series_color: Color | None = None
    """The player holding the series stones (source 004), if anyone."""
    series_stones: int = 0
    """Consecutive wins of that player: one small stone each in the central square
    (in the panel for jar, whose centre is a point)."""
    outcome: Outcome | None = None
    """An ending the record cannot show: resignation, agreement, timeout. Shown
    instead of the position's own outcome."""
    highlight: tuple[str, ...] = ()
    """Extra points to ring, e.g. the stone chosen in a two-step move. Unknown names are
    ignored."""
    theme: str = "sand"
    """``"sand"`` or ``"night"`` (:data:`renderer.THEME_NAMES`); others raise ``ValueError``."""
    flip: bool = False
    """Draw from black's side (rank 1 at the top)."""
    caption: str | None = None
    """A line of text under the board and panel (the image grows by a strip)."""
    language: str = "en"
    """The language of the words on the picture (``shax_i18n.LANGUAGES``)."""
    point_names: bool = False
    """Write each empty point's name on it (``a7``), as the rules' picture does."""
    suggestion: str | None = None
    """An action in notation drawn as advice, in the ``select`` colour: a move's arrow,
    a ring where to place, a cross on the stone to remove. One that is not an action on
    this board is ignored."""


DEFAULT_VIEW = BoardView()


# -- the static board ---------------------------------------------------------


@lru_cache(maxsize=32)
def static_board(variant: Variant, theme: Theme, flip: bool, scale: float) -> Image.Image:
    """Ground, lines, points, point names and the empty panel. Shared: always ``.copy()`` it."""
    lay = make_layout(variant, scale, flip)
    big = Image.new("RGB", (lay.width * SS, lay.height * SS), theme.panel)
    d = ImageDraw.Draw(big)
    # The ground, with a darker rim like a board traced in the sand.
    rim = lay.px(6)
    d.rectangle((0, 0, lay.board * SS - 1, lay.height * SS - 1), fill=theme.ground_edge)
    d.rounded_rectangle(
        (rim * SS, rim * SS, (lay.board - rim) * SS - 1, (lay.height - rim) * SS - 1),
        radius=lay.px(14) * SS,
        fill=theme.ground,
    )
    half_w = lay.line_w * SS / 2
    for a, b in variant.edges:
        (x0, y0), (x1, y1) = lay.centres[a], lay.centres[b]
        x0, x1 = sorted((x0, x1))
        y0, y1 = sorted((y0, y1))
        d.rectangle(
            (
                (x0 + 0.5) * SS - half_w,
                (y0 + 0.5) * SS - half_w,
                (x1 + 0.5) * SS + half_w - 1,
                (y1 + 0.5) * SS + half_w - 1,
            ),
            fill=theme.line,
        )
    for x, y in lay.centres:
        r = lay.dot_r * SS
        cx, cy = (x + 0.5) * SS, (y + 0.5) * SS
        d.ellipse((cx - r, cy - r, cx + r, cy + r), fill=theme.point)
    img = big.reduce(SS)
    for x, y in lay.centres:  # exact, whatever the filter did
        img.putpixel((x, y), theme.point)
    _draw_labels(img, lay, theme)
    return img


def _draw_labels(img: Image.Image, lay: Layout, theme: Theme) -> None:
    size = lay.px(26)
    gap = lay.stone_r + lay.px(16)
    for k in range(lay.grid):
        x = lay.file_x(k)
        draw_text(img, (x, lay.grid_max + gap), chr(ord("a") + k), size, theme.label, "mm")
        y = lay.rank_y(k)
        draw_text(img, (lay.grid_min - gap, y), str(k + 1), size, theme.label, "mm")


# -- composing a position -----------------------------------------------------


def compose(
    position: Position,
    last_action: Action | None = None,
    previous: Position | None = None,
    view: BoardView | None = None,
    scale: float = 1.0,
    ply: int | None = None,
    earlier: tuple[Position, Action] | None = None,
) -> Image.Image:
    """The picture of ``position`` as an RGB image (see :func:`render_position`).

    ``ply``, when known, is the number of actions played, shown with the last one.
    ``earlier`` is the action before ``last_action`` and the position it was
    played in: when the last action is a capture, the move whose jare earned it
    is drawn too, so the picture tells the whole turn.
    """
    view = view or DEFAULT_VIEW
    theme = get_theme(view.theme)
    v = position.variant
    lay = make_layout(v, scale, view.flip)
    base = static_board(v, theme, view.flip, scale)
    caption = caption_lines(lay, view.caption) if view.caption else []
    if caption:
        height = lay.height + caption_height(lay, len(caption))
        img = Image.new("RGB", (lay.width, height), theme.panel)
        img.paste(base, (0, 0))
    else:
        img = base.copy()
    d = ImageDraw.Draw(img)
    outcome = view.outcome or position.outcome

    # Under the stones: a new jare, the path of a move.
    drawn = [(previous, last_action)]
    if _is_capture(previous, last_action) and earlier is not None:
        drawn.insert(0, earlier)
    for before, action in drawn:
        if action is None:
            continue
        if before is not None:
            for line in new_jare(before, action):
                _draw_jare(d, lay, theme, line)
        if action.kind is Kind.MOVE:
            _draw_path(img, d, lay, theme, action)
    advice = _suggested(v, view.suggestion)
    if advice is not None and advice.kind is Kind.MOVE:
        _draw_path(img, d, lay, theme, advice, advice=True)

    r = lay.stone_r
    white = sprites.stone(theme, False, r)
    black = sprites.stone(theme, True, r)
    for i in iter_bits(position.white):
        sprites.paste(img, white, lay.centres[i])
    for i in iter_bits(position.black):
        sprites.paste(img, black, lay.centres[i])

    if view.point_names:
        _draw_point_names(img, lay, theme, v, position.white | position.black)

    # Over the stones: rings and crosses, which never reach a point's centre.
    ring_w = max(2.0, 4.0 * scale)
    ring_r = r - 0.5
    if last_action is not None:
        if last_action.kind is Kind.REMOVE:
            mark = sprites.removed_mark(theme.mark, theme.mark_edge, r, lay.dot_r + 3.0)
        else:
            mark = sprites.ring(theme.mark, theme.mark_edge, ring_r, ring_w)
        sprites.paste(img, mark, lay.centres[last_action.dst])
    if view.highlight:
        mark = sprites.ring(theme.select, theme.mark_edge, ring_r, ring_w)
        for name in view.highlight:
            point = v.index.get(name)
            if point is not None:
                sprites.paste(img, mark, lay.centres[point])
    if advice is not None and advice.kind is not Kind.MOVE:
        if advice.kind is Kind.REMOVE:
            mark = sprites.removed_mark(theme.select, theme.mark_edge, r, lay.dot_r + 3.0)
        else:
            mark = sprites.ring(theme.select, theme.mark_edge, ring_r, ring_w)
        sprites.paste(img, mark, lay.centres[advice.dst])

    series = None
    if view.series_color is not None and view.series_stones > 0:
        series = (view.series_color, view.series_stones)
    t = translator(view.language)
    if series is not None and v.family == "shax":
        # Inside the inner square, between its stones: rows of three, a gal as a square.
        per_row = 2 if series[1] == 4 else 3
        draw_series(img, lay, theme, series[0], series[1], lay.centre, per_row, t)
        series = None
    players = ((view.white_name, view.white_rating), (view.black_name, view.black_rating))
    last = [action for _, action in drawn if action is not None]
    moments = _moments(previous, last_action, position)
    draw_panel(img, lay, theme, position, last, outcome, players, series, ply, t, moments)
    if caption:
        draw_caption(img, lay, theme, caption)
    return img


def _draw_point_names(
    img: Image.Image, lay: Layout, theme: Theme, variant: Variant, occupied: int
) -> None:
    """Each empty point's name on a small plate centred on the point."""
    d = ImageDraw.Draw(img)
    size = lay.px(POINT_NAME_SIZE)
    half_h = lay.px(POINT_NAME_SIZE * 0.62)
    edge = lay.px(2)
    for i, name in enumerate(variant.points):
        if occupied >> i & 1:
            continue
        x, y = lay.centres[i]
        half_w = round(text_width(name, size) / 2) + lay.px(6)
        box = (x - half_w, y - half_h, x + half_w, y + half_h)
        d.rounded_rectangle(box, radius=half_h, fill=theme.card, outline=theme.line, width=edge)
        draw_text(img, (x, y), name, size, theme.text, "mm")


def _moments(
    previous: Position | None, action: Action | None, position: Position
) -> tuple[Moment, ...]:
    """The named moments the last action made, in the order the picture cries them (an
    irmaan whoever has it: the last action may have given the opponent one)."""
    if previous is None or action is None:
        return ()
    found = moments_after(previous, action, position)
    if irmaan_appeared(previous, position):
        found |= {Moment.IRMAAN}
    return tuple(m for m in SHOWN_MOMENTS if m in found)


def _suggested(variant: Variant, text: str | None) -> Action | None:
    """The suggested action of a view, if it is one on this board."""
    if not text:
        return None
    try:
        return parse_action(variant, text)
    except NotationError:
        return None


def _is_capture(previous: Position | None, action: Action | None) -> bool:
    return (
        action is not None
        and action.kind is Kind.REMOVE
        and previous is not None
        and previous.phase is Phase.MOVEMENT
    )


def new_jare(previous: Position, action: Action) -> list[int]:
    """The lines of three ``action`` completed, as masks; none for a freeing move,
    which is oodan (closed) and captures nothing."""
    if action.kind is Kind.REMOVE or previous.is_over:
        return []
    if previous.step is Step.FREE:
        return []
    mask = previous.jare_formed(action)
    return [line for line in previous.variant.lines if mask & line == line]


def _draw_jare(d: ImageDraw.ImageDraw, lay: Layout, theme: Theme, line: int) -> None:
    pts = [lay.centres[i] for i in iter_bits(line)]
    xs = [p[0] for p in pts]
    ys = [p[1] for p in pts]
    w = lay.px(6)
    e = lay.px(2)
    box = (min(xs) - w - e, min(ys) - w - e, max(xs) + w + e, max(ys) + w + e)
    d.rounded_rectangle(box, radius=w + e, fill=theme.mark_edge)
    inner = (box[0] + e, box[1] + e, box[2] - e, box[3] - e)
    d.rounded_rectangle(inner, radius=w, fill=theme.mark)


def _draw_path(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    lay: Layout,
    theme: Theme,
    action: Action,
    advice: bool = False,
) -> None:
    """A move's way: a small ring where the stone stood and an arrow to where it is, in
    the mark colour. ``advice``: a suggested move, in the ``select`` colour, whose arrow
    reaches to the empty point with a head that stays clear at chat size."""
    color = theme.select if advice else theme.mark
    (x0, y0), (x1, y1) = lay.centres[action.src], lay.centres[action.dst]
    r = lay.dot_r + lay.px(2) if advice else lay.stone_r
    ghost_r = lay.dot_r + 2.5 * lay.scale
    ghost_w = max(2.0, 3.5 * lay.scale)
    ghost = sprites.ring(color, theme.mark_edge, ghost_r, ghost_w)
    sprites.paste(img, ghost, (x0, y0))
    dx = (x1 > x0) - (x1 < x0)
    dy = (y1 > y0) - (y1 < y0)
    direction = {(1, 0): "e", (-1, 0): "w", (0, -1): "n", (0, 1): "s"}.get((dx, dy))
    if direction is None:  # no board here has diagonals; the two rings must do if one ever does
        return
    start = round(ghost_r + ghost_w + 2)
    head = lay.px(ADVICE_HEAD if advice else 15)
    tip = r + lay.px(4)
    sx, sy = x0 + dx * start, y0 + dy * start
    tx, ty = x1 - dx * tip, y1 - dy * tip
    hx, hy = tx - dx * (head - 2), ty - dy * (head - 2)
    w = lay.px(3)
    e = lay.px(2)
    box = (min(sx, hx) - w, min(sy, hy) - w, max(sx, hx) + w, max(sy, hy) + w)
    d.rectangle((box[0] - e, box[1] - e, box[2] + e, box[3] + e), fill=theme.mark_edge)
    d.rectangle(box, fill=color)
    sprites.paste(img, sprites.arrow_head(color, theme.mark_edge, head, direction), (tx, ty))


# -- palette and PNG ----------------------------------------------------------


PALETTE_SIZE = 255
"""Colours in the shared palette; one index stays free, which Pillow's GIF optimiser
uses in replays for the pixels a frame leaves unchanged."""


@lru_cache(maxsize=32)
def palette(variant: Variant, theme: Theme, scale: float) -> Image.Image:
    """One palette per board look, holding every theme colour exactly.

    Drawn from a showcase of everything a picture can contain, so quantizing a
    picture to it is lossless to the eye, fast (no colour search per image) and
    the same for every frame of a replay.
    """
    sample = _showcase(variant, theme, scale)
    exact = sorted(set(_theme_colors(theme)))
    quant = sample.quantize(PALETTE_SIZE - len(exact), method=Image.Quantize.MEDIANCUT)
    flat = quant.getpalette() or []
    found = [tuple(flat[i : i + 3]) for i in range(0, 3 * (PALETTE_SIZE - len(exact)), 3)]
    # Pillow maps colours to a palette through a cache of 4-level cells, so an
    # entry close to a theme colour could steal it; keep the theme colours clear.
    clear = [c for c in found if min(_distance2(c, e) for e in exact) > NEAR**2]
    colors = [v for rgb in (*clear, *exact) for v in rgb]
    pal = Image.new("P", (1, 1))
    pal.putpalette(colors)
    probe = Image.new("RGB", (len(exact), 1))
    probe.putdata(exact)
    mapped = probe.quantize(palette=pal, dither=Image.Dither.NONE).convert("RGB")
    if [mapped.getpixel((i, 0)) for i in range(len(exact))] != exact:
        # Two theme colours nearly alike: one would be drawn as the other.
        raise ValueError(f"theme {theme.name!r}: its colours must differ by more than {NEAR}")
    return pal


NEAR = 8
"""Palette entries nearer than this (RGB distance) to a theme colour are dropped."""


def _distance2(a: tuple[int, ...], b: tuple[int, ...]) -> int:
    return sum((x - y) ** 2 for x, y in zip(a, b, strict=True))


def _theme_colors(theme: Theme) -> list[tuple[int, int, int]]:
    return [value for value in vars(theme).values() if isinstance(value, tuple)]


def _showcase(variant: Variant, theme: Theme, scale: float) -> Image.Image:
    """Pictures with every kind of stone, mark, plate and text, stacked into one sample.

    The positions are made up (stones on every other point); only their looks matter.
    """
    from engine import Termination

    n = variant.size
    white = sum(1 << i for i in range(0, n, 2))
    black = sum(1 << i for i in range(1, n, 2))
    hand = (variant.pieces // 2, variant.pieces // 3)
    placing = Position(variant, white, black, hand, 0, Phase.PLACEMENT, Step.PLACE)
    a, b = variant.edges[0]  # a white and a black point side by side; a is emptied
    moving = Position(variant, white & ~(1 << a), black, (0, 0), 1, Phase.MOVEMENT, Step.MOVE)
    name = theme.name
    looks = [
        (
            placing,
            Action(Kind.PLACE, max(iter_bits(variant.lines[0]))),
            BoardView(
                theme=name,
                series_color=Color.BLACK,
                series_stones=5,
                highlight=variant.points[-1:],
                caption="Your turn: move a stone 0123456789",
                outcome=Outcome(Color.WHITE, Termination.RESIGNATION),
            ),
        ),
        (
            moving,
            Action(Kind.MOVE, a, b),
            BoardView(
                theme=name,
                flip=True,
                outcome=Outcome(Color.BLACK, Termination.TIMEOUT),
                suggestion="-".join(variant.points[i] for i in variant.edges[-1]),
            ),
        ),
        (
            moving,
            Action(Kind.REMOVE, a),
            BoardView(theme=name, series_color=Color.WHITE, series_stones=2, point_names=True),
        ),
    ]
    shots = [compose(p, action, None, view, scale) for p, action, view in looks]
    sheet = Image.new("RGB", (max(s.width for s in shots), sum(s.height for s in shots)))
    y = 0
    for shot in shots:
        sheet.paste(shot, (0, y))
        y += shot.height
    return sheet


def to_palette(img: Image.Image, variant: Variant, theme: Theme, scale: float) -> Image.Image:
    """``img`` mapped to the shared palette of its board look (no dithering)."""
    return img.quantize(palette=palette(variant, theme, scale), dither=Image.Dither.NONE)


def encode_png(img: Image.Image) -> bytes:
    """PNG bytes of ``img``."""
    buf = io.BytesIO()
    img.save(buf, format="PNG", compress_level=PNG_LEVEL)
    return buf.getvalue()


def render_image(
    position: Position,
    last_action: Action | None = None,
    previous: Position | None = None,
    view: BoardView | None = None,
    scale: float = 1.0,
    ply: int | None = None,
    earlier: tuple[Position, Action] | None = None,
) -> Image.Image:
    """The picture as a palette image, ready to encode (arguments as :func:`compose`)."""
    view = view or DEFAULT_VIEW
    img = compose(position, last_action, previous, view, scale, ply, earlier)
    return to_palette(img, position.variant, get_theme(view.theme), scale)


# -- public entry points ------------------------------------------------------


def render_position(
    position: Position,
    last_action: Action | None = None,
    previous: Position | None = None,
    view: BoardView | None = None,
) -> bytes:
    """PNG bytes of ``position``.

    ``last_action``, the action that led here, is marked: a placed stone ringed,
    a move's path drawn, a removed stone's point crossed. Given ``previous``
    (the position before it), a new jare is drawn thick in the mark colour.
    """
    return encode_png(render_image(position, last_action, previous, view))


@dataclass(frozen=True)
class LastStep:
    """The end of a record: what a picture of it needs to tell the last turn."""

    position: Position
    action: Action | None
    """The last action, ``None`` for an empty record."""
    previous: Position | None
    """The position the last action was played in."""
    earlier: tuple[Position, Action] | None
    """The action before the last one and the position it was played in."""
    ply: int
    """Number of actions in the record."""


def last_step(variant: str | Variant, record: str | Sequence[str]) -> LastStep:
    """The final position of a record and the actions that led to it.

    Raises the engine's :class:`~engine.RecordError` for a bad record.
    """
    trail: list[tuple[Position, Action | None]] = []
    for step in _iter_positions(get_variant(variant), record):
        trail.append(step)
        del trail[:-3]
    position, action = trail[-1]
    previous = trail[-2][0] if len(trail) > 1 else None
    earlier = None
    if len(trail) == 3 and trail[1][1] is not None:
        earlier = (trail[0][0], trail[1][1])
    ply = len(split_record(record))
    return LastStep(position, action, previous, earlier, ply)


def render_board(
    variant: str | Variant, record: str | Sequence[str], view: BoardView | None = None
) -> bytes:
    """PNG bytes of the position at the end of ``record``, its last action marked.

    Raises the engine's :class:`~engine.RecordError` (a ``ValueError``) for a bad
    record, and ``ValueError`` for an unknown variant or theme.
    """
    end = last_step(variant, record)
    picture = render_image(
        end.position, end.action, end.previous, view, ply=end.ply, earlier=end.earlier
    )
    return encode_png(picture)


def warm_up(
    variants: Sequence[str | Variant] = ("shax", "shax-small", "jar"),
    themes: Sequence[str] = ("sand", "night"),
    scales: Sequence[float] = (1.0,),
) -> None:
    """Draw the cached parts (static boards, sprites, palettes) ahead of the first
    request, e.g. once at bot start-up: the first picture of a look costs ~0.3 s."""
    for variant in variants:
        v = get_variant(variant)
        for name in themes:
            for scale in scales:
                theme = get_theme(name)
                static_board(v, theme, False, scale)
                palette(v, theme, scale)
