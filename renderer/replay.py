"""An animated GIF of a whole record: one frame per action, a long pause at the end."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import replace

from PIL import Image

from engine import Action, Color, Position, Variant, get_variant, iter_positions
from renderer.board import BoardView, compose, to_palette
from renderer.theme import get_theme

REPLAY_FILENAME = "replay.gif"
"""The replay is a GIF (every Discord client animates it); use this name for the file."""
REPLAY_SCALE = 0.75
"""Replay frames are drawn smaller than the live board: still readable in a preview."""
FRAME_MS = 750
FIRST_MS = 1000
LAST_MS = 3000


def render_replay(
    variant: str | Variant, record: str | Sequence[str], view: BoardView | None = None
) -> bytes:
    """GIF bytes replaying ``record``: the empty board, then one frame per action.

    Raises the engine's :class:`~engine.RecordError` for a bad record. Nothing of
    the end shows before it: the view's outcome (e.g. a resignation) and the series
    stones the result earned appear on the last frame only (see
    :func:`series_before`). Pillow's GIF optimiser keeps only what changed in each
    frame (``disposal=1`` draws a frame over the one before).
    """
    v = get_variant(variant)
    steps = list(iter_positions(v, record))  # fails early on a bad record
    view = view or BoardView()
    frames = _frames(v, steps, view)  # drawn one at a time as the GIF is written
    first = next(frames)
    durations = [FRAME_MS] * len(steps)
    durations[0] = FIRST_MS if len(steps) > 1 else LAST_MS
    durations[-1] = LAST_MS
    buf = io.BytesIO()
    first.save(
        buf,
        format="GIF",
        save_all=True,
        append_images=frames,
        duration=durations,
        loop=0,
        disposal=1,
        optimize=True,
    )
    return buf.getvalue()


def series_before(view: BoardView, winner: Color | None, over: bool) -> tuple[Color | None, int]:
    """The series stones as they stood while the game was played, from the view's
    stones after it: a game won by the holder added one stone; a draw, or a game not
    over, changed nothing. A holder with one stone has just won it, and whatever the
    loser held before is not known here: no stones are shown then."""
    color, stones = view.series_color, view.series_stones
    if color is None or stones <= 0:
        return None, 0
    if over and winner is color:
        return (color, stones - 1) if stones > 1 else (None, 0)
    return color, stones


def _frames(
    v: Variant, steps: list[tuple[Position, Action | None]], view: BoardView
) -> Iterator[Image.Image]:
    """Each step as a palette image; the view's outcome and the series it earned on the
    last one only."""
    theme = get_theme(view.theme)
    end = view.outcome or steps[-1][0].outcome
    color, stones = series_before(view, end.winner if end else None, end is not None)
    live = replace(view, outcome=None, series_color=color, series_stones=stones)
    for k, (position, action) in enumerate(steps):
        previous = steps[k - 1][0] if k else None
        before_last = steps[k - 1][1] if k else None
        earlier = (steps[k - 2][0], before_last) if k > 1 and before_last else None
        frame_view = view if k == len(steps) - 1 else live
        img = compose(position, action, previous, frame_view, REPLAY_SCALE, k, earlier)
        yield to_palette(img, v, theme, REPLAY_SCALE)
