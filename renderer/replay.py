"""An animated GIF of a whole record: one frame per action, a long pause at the end."""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from dataclasses import replace

from PIL import Image, ImageChops

from engine import Action, Position, Variant, get_variant, iter_positions
from renderer.board import PALETTE_SIZE, BoardView, compose, to_palette
from renderer.theme import get_theme

REPLAY_FILENAME = "replay.gif"
"""The replay is a GIF (every Discord client animates it); use this name for the file."""
REPLAY_SCALE = 0.75
"""Replay frames are drawn smaller than the live board: still readable in a preview."""
FRAME_MS = 750
FIRST_MS = 1000
LAST_MS = 3000
UNCHANGED = PALETTE_SIZE
"""The palette index left free for "same as the previous frame" (transparent)."""


def render_replay(
    variant: str | Variant, record: str | Sequence[str], view: BoardView | None = None
) -> bytes:
    """GIF bytes replaying ``record``: the empty board, then one frame per action.

    Raises the engine's :class:`~engine.RecordError` for a bad record. The view's
    outcome (e.g. a resignation) shows on the last frame only. Frames are drawn
    one at a time; only their palette images are held (~0.26 MB each).
    """
    v = get_variant(variant)
    steps = list(iter_positions(v, record))  # fails early on a bad record
    view = view or BoardView()
    frames = _frames(v, steps, view)
    first = next(frames)
    durations = [FRAME_MS] * len(steps)
    durations[0] = FIRST_MS if len(steps) > 1 else LAST_MS
    durations[-1] = LAST_MS
    buf = io.BytesIO()
    first.save(
        buf,
        format="GIF",
        save_all=True,
        append_images=_deltas(first, frames),
        duration=durations,
        loop=0,
        disposal=1,
        transparency=UNCHANGED,
        optimize=False,
    )
    return buf.getvalue()


def _frames(
    v: Variant, steps: list[tuple[Position, Action | None]], view: BoardView
) -> Iterator[Image.Image]:
    """Each step as a palette image; the view's outcome on the last one only."""
    theme = get_theme(view.theme)
    live = replace(view, outcome=None)
    for k, (position, action) in enumerate(steps):
        previous = steps[k - 1][0] if k else None
        before_last = steps[k - 1][1] if k else None
        earlier = (steps[k - 2][0], before_last) if k > 1 and before_last else None
        frame_view = view if k == len(steps) - 1 else live
        img = compose(position, action, previous, frame_view, REPLAY_SCALE, k, earlier)
        yield to_palette(img, v, theme, REPLAY_SCALE)


def _deltas(first: Image.Image, frames: Iterator[Image.Image]) -> Iterator[Image.Image]:
    """Each frame with the pixels unchanged since the one before made transparent:
    a GIF frame is drawn over the previous one, and transparent runs cost little."""
    before = first
    for after in frames:
        size = after.size
        a = Image.frombytes("L", size, before.tobytes())
        b = Image.frombytes("L", size, after.tobytes())
        unchanged = ImageChops.difference(a, b).point(_ZERO_TO_WHITE, "1")
        delta = after.copy()
        delta.paste(UNCHANGED, mask=unchanged)
        yield delta
        before = after


_ZERO_TO_WHITE = [255] + [0] * 255
