"""A tournament's standings as a picture: one line a player, as a table.

Plain data in, PNG bytes out. Each line has the player's place, name, points, tie-breaks
and a mark a round (a win, a draw, a loss, a bye, or nothing yet); the words on the
picture (the title, the subtitle and the headings of the columns) come already in the
reader's language, so the same lines draw for every reader. Names of every script are
drawn with the renderer's fonts (:mod:`renderer.text`); a long one shrinks, then is cut.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from PIL import Image, ImageDraw

from renderer.plot import png
from renderer.text import draw_text, fit, fit_shrinking, text_width
from renderer.theme import RGB, Theme, get_theme

STANDINGS_FILENAME = "standings.png"

MarkKind = Literal["win", "draw", "loss", "bye", "none"]
MARK_TEXT: dict[MarkKind, str] = {"win": "1", "draw": "½", "loss": "0", "bye": "+", "none": "·"}
"""What a round's mark says when its line gives no text of its own (a Swiss round's
points; an arena passes each game's points)."""

PAD = 16
"""Around the table."""
TITLE_SIZE = 24
SUBTITLE_SIZE = 15
HEADING_SIZE = 13
NAME_SIZE = 18
NAME_MIN = 13
"""A long name shrinks from ``NAME_SIZE`` to this before it is cut."""
VALUE_SIZE = 16
MARK_SIZE = 14
ROW = 34
"""Height of a line of the table."""
RANK_W = 44
NAME_MIN_W = 160
NAME_MAX_W = 300
VALUE_GAP = 18
"""Between the columns of numbers."""
MARK_W = 26
MARK_GAP = 3
MARKS_SHOWN = 20
"""The last marks a line shows (an arena's games run long); earlier ones give way."""
MIN_WIDTH = 480
PODIUM = 3
"""The places drawn on a disc."""


@dataclass(frozen=True)
class Mark:
    """A round's result on a line: its kind (which sets the colour) and what it says
    (``None``: the kind's usual mark, :data:`MARK_TEXT`)."""

    kind: MarkKind
    text: str | None = None

    @property
    def shown(self) -> str:
        return MARK_TEXT[self.kind] if self.text is None else self.text


@dataclass(frozen=True)
class StandingLine:
    """A player's line: place (shared by equals), name, points, the tie-breaks in the
    order of the headings after the points, and a mark a round, oldest first."""

    rank: int
    name: str
    points: Fraction | int
    tiebreaks: tuple[Fraction | int, ...] = ()
    marks: tuple[Mark, ...] = ()


def points_text(value: Fraction | int) -> str:
    """A score as players write it: ``"2"``, ``"1½"``, ``"½"``, ``"3¾"``; a value that is
    no whole number of quarters, to two decimals."""
    value = Fraction(value)
    sign = "-" if value < 0 else ""
    whole, part = divmod(abs(value), 1)
    quarter = {Fraction(0): "", Fraction(1, 4): "¼", Fraction(1, 2): "½", Fraction(3, 4): "¾"}
    if part not in quarter:
        return f"{float(value):.2f}"
    if part and not whole:
        return sign + quarter[part]
    return f"{sign}{whole}{quarter[part]}"


def render_standings(
    lines: Sequence[StandingLine],
    title: str,
    subtitle: str = "",
    headings: Sequence[str] = (),
    *,
    theme: str = "sand",
) -> bytes:
    """PNG bytes of the standings: ``title`` and ``subtitle`` above, then a heading line
    (``headings``: the points' column, then one per tie-break; the rounds are numbered)
    and ``lines`` in the order given. Raises ``ValueError`` for an unknown theme or a
    line whose tie-breaks do not match the headings."""
    t = get_theme(theme)
    values = max(1, len(headings))
    for line in lines:
        if len(line.tiebreaks) != values - 1:
            raise ValueError(
                f"{line.name!r} has {len(line.tiebreaks)} tie-breaks for {values - 1} headings"
            )
    rounds = min(MARKS_SHOWN, max((len(line.marks) for line in lines), default=0))
    texts = [[points_text(line.points), *map(points_text, line.tiebreaks)] for line in lines]
    value_w = [
        max(
            [text_width(headings[k], HEADING_SIZE) if k < len(headings) else 0.0]
            + [text_width(row[k], VALUE_SIZE) for row in texts]
        )
        for k in range(values)
    ]
    widest = max((text_width(line.name, NAME_SIZE) for line in lines), default=0.0)
    name_w = round(min(NAME_MAX_W, max(NAME_MIN_W, widest + 8)))
    marks_w = rounds * (MARK_W + MARK_GAP)
    table_w = RANK_W + name_w + sum(round(w) + VALUE_GAP for w in value_w) + marks_w
    width = max(MIN_WIDTH, table_w + 2 * PAD)
    top = PAD + 34 + (22 if subtitle.strip() else 0) + 8
    height = top + ROW * (len(lines) + 1) + PAD
    img = Image.new("RGB", (width, height), t.panel)
    d = ImageDraw.Draw(img)
    room = width - 2 * PAD
    draw_text(img, (PAD, PAD + 28), fit(title, TITLE_SIZE, room), TITLE_SIZE, t.text, "ls")
    if subtitle.strip():
        draw_text(
            img, (PAD, PAD + 52), fit(subtitle, SUBTITLE_SIZE, room), SUBTITLE_SIZE, t.muted, "ls"
        )

    columns = Columns(PAD, name_w, [round(w) for w in value_w])
    y = top + ROW // 2
    for k, heading in enumerate(headings):
        x = columns.value_right(k)
        draw_text(img, (x, y), heading, HEADING_SIZE, t.muted, "rm")
    played = {len(line.marks) for line in lines}
    if len(played) == 1:  # a round each (a Swiss): numbered, the last ones if cut
        first = played.pop() - rounds + 1
        for r in range(rounds):
            at = (columns.mark_centre(r), y)
            draw_text(img, at, str(first + r), HEADING_SIZE, t.muted, "mm")
    d.line((PAD, top + ROW, width - PAD, top + ROW), fill=t.ground_edge, width=2)
    for i, (line, row) in enumerate(zip(lines, texts, strict=True)):
        y0 = top + ROW * (i + 1)
        if i % 2:
            d.rectangle((PAD, y0 + 1, width - PAD, y0 + ROW), fill=t.card)
        _draw_line(img, d, t, columns, line, row, y0 + ROW // 2, rounds)
    return png(img)


@dataclass(frozen=True)
class Columns:
    """Where each column of the table stands (x in pixels)."""

    left: int
    name_w: int
    value_w: list[int]

    @property
    def name_x(self) -> int:
        return self.left + RANK_W

    def value_right(self, k: int) -> int:
        """The right edge of number column ``k`` (0: the points)."""
        x = self.name_x + self.name_w
        return x + sum(w + VALUE_GAP for w in self.value_w[: k + 1]) - VALUE_GAP // 2

    def mark_centre(self, r: int) -> int:
        start = self.name_x + self.name_w + sum(w + VALUE_GAP for w in self.value_w)
        return start + r * (MARK_W + MARK_GAP) + MARK_W // 2


def _draw_line(
    img: Image.Image,
    d: ImageDraw.ImageDraw,
    t: Theme,
    columns: Columns,
    line: StandingLine,
    row: Sequence[str],
    y: int,
    rounds: int,
) -> None:
    """One player's line, centred on ``y``."""
    rank_x = columns.left + RANK_W // 2 - 4
    if 1 <= line.rank <= PODIUM:
        r = 13
        d.ellipse((rank_x - r, y - r, rank_x + r, y + r), fill=t.mark)
        draw_text(img, (rank_x, y), str(line.rank), VALUE_SIZE, t.mark_edge, "mm")
    else:
        draw_text(img, (rank_x, y), str(line.rank), VALUE_SIZE, t.muted, "mm")
    name, size = fit_shrinking(line.name, NAME_SIZE, NAME_MIN, columns.name_w - 8)
    draw_text(img, (columns.name_x, y), name, size, t.text, "lm")
    for k, value in enumerate(row):
        fill = t.text if k == 0 else t.muted
        draw_text(img, (columns.value_right(k), y), value, VALUE_SIZE, fill, "rm")
    shown = line.marks[-rounds:] if rounds else ()
    for r, mark in enumerate(shown):
        _draw_mark(img, d, t, mark, columns.mark_centre(r), y)


def _mark_colours(t: Theme, kind: MarkKind) -> tuple[RGB | None, RGB]:
    """The cell's fill (``None``: none) and the mark's colour."""
    if kind == "win":
        return t.mark, t.mark_edge
    if kind == "draw":
        return t.ground, t.text
    if kind == "loss":
        return None, t.text
    return None, t.muted


def _draw_mark(
    img: Image.Image, d: ImageDraw.ImageDraw, t: Theme, mark: Mark, x: int, y: int
) -> None:
    fill, ink = _mark_colours(t, mark.kind)
    half = MARK_W // 2
    box = (x - half, y - half + 2, x + half, y + half - 2)
    if fill is not None:
        d.rounded_rectangle(box, radius=5, fill=fill)
    elif mark.kind == "bye":
        d.rounded_rectangle(box, radius=5, outline=t.muted, width=1)
    text = fit(mark.shown, MARK_SIZE, MARK_W - 2)
    draw_text(img, (x, y), text, MARK_SIZE, ink, "mm")
