"""Where everything goes: the board square, the point centres, the side panel.

All sizes derive from one ``scale`` (1.0 for the live board, smaller for replay
frames), so a layout is a pure function of (variant, scale, flip) and cached.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache

from engine import Variant, get_variant

BOARD = 560
"""Side of the board square at scale 1 (pixels)."""
PANEL = 320
"""Width of the side panel at scale 1."""
CAPTION = 50
"""Height of the caption strip under board and panel, when there is a caption."""
LABEL_SPACE = 40
"""Space beyond a stone on the outer line for the point names."""
MAX_SPACING = 165
"""Jar's 3x3 grid would look empty at full width; the grid spacing is capped."""
MAX_STONE = 34
"""Stone radius cap (scale 1); below it a stone is about a third of the spacing."""


@dataclass(frozen=True)
class Layout:
    """Pixel geometry of one picture. Point centres are integer pixel coordinates."""

    variant_id: str
    grid: int
    """Points per side of the grid: 7, 5 or 3."""
    scale: float
    flip: bool
    width: int
    height: int
    """Without a caption; a caption adds :attr:`caption_h` below."""
    board: int
    panel_x: int
    panel_w: int
    caption_h: int
    spacing: float
    """Between neighbouring grid lines, a whole number of pixels."""
    centres: tuple[tuple[int, int], ...]
    """Pixel centre of each point, by point index."""
    stone_r: int
    dot_r: int
    line_w: int
    grid_min: int
    grid_max: int
    """The grid's extent (same on both axes): centres of the first and last file."""

    def px(self, value: float) -> int:
        """A scale-1 length at this layout's scale, rounded, at least 1."""
        return max(1, round(value * self.scale))

    @property
    def centre(self) -> tuple[int, int]:
        """The middle of the board square."""
        mid = (self.grid_min + self.grid_max) // 2
        return mid, mid

    def file_x(self, file: int) -> int:
        """Pixel x of a grid file (0 = a), honouring flip."""
        return self._axis(self.grid - 1 - file if self.flip else file)

    def rank_y(self, rank: int) -> int:
        """Pixel y of a grid rank (0 = rank 1), honouring flip (rank 1 at the top)."""
        return self._axis(rank if self.flip else self.grid - 1 - rank)

    def _axis(self, k: int) -> int:
        return self.grid_min + round(k * self.spacing)


def _odd(n: int) -> int:
    return n if n % 2 else n + 1


@lru_cache(maxsize=32)
def make_layout(variant: Variant, scale: float = 1.0, flip: bool = False) -> Layout:
    """The layout of ``variant`` at ``scale``; ``flip`` draws from black's side."""
    board = round(BOARD * scale)
    grid = variant.grid
    # The margin holds a stone on the outer line and the names beyond it; the
    # stone's size depends on the spacing, so take the larger of the two guesses.
    spacing = MAX_SPACING * scale
    for _ in range(3):
        stone_r = min(0.34 * spacing, MAX_STONE * scale)
        margin = stone_r + LABEL_SPACE * scale
        spacing = min((board - 2 * margin) / (grid - 1), MAX_SPACING * scale)
    spacing = float(int(spacing))  # whole pixels: every segment and mark lands alike
    stone_r = round(min(0.34 * spacing, MAX_STONE * scale))
    span = round(spacing * (grid - 1))
    grid_min = (board - span) // 2
    grid_max = grid_min + span
    layout = Layout(
        variant_id=variant.id,
        grid=grid,
        scale=scale,
        flip=flip,
        width=board + round(PANEL * scale),
        height=board,
        board=board,
        panel_x=board,
        panel_w=round(PANEL * scale),
        caption_h=round(CAPTION * scale),
        spacing=spacing,
        centres=(),
        stone_r=stone_r,
        dot_r=max(2, round(5.5 * scale)),
        line_w=_odd(max(1, round(3 * scale))),
        grid_min=grid_min,
        grid_max=grid_max,
    )
    coords = (variant.coords(i) for i in range(variant.size))
    centres = tuple((layout.file_x(f), layout.rank_y(r)) for f, r in coords)
    return replace(layout, centres=centres)


def board_geometry(
    variant: str | Variant, *, flip: bool = False, scale: float = 1.0
) -> dict[str, tuple[int, int]]:
    """Point name -> pixel centre ``(x, y)`` in the image :func:`render_board` makes.

    The same for every theme and with or without a caption (the caption strip
    is added below the board). Replay frames use ``scale=REPLAY_SCALE``.
    """
    v = get_variant(variant)
    layout = make_layout(v, scale, flip)
    return {name: layout.centres[i] for i, name in enumerate(v.points)}
