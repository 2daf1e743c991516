"""Replays: one frame per action plus the start, a long last frame, the right stones."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from engine import VARIANT_IDS, Color, Outcome, RecordError, Termination, iter_positions
from renderer import (
    REPLAY_FILENAME,
    REPLAY_SCALE,
    BoardView,
    board_geometry,
    get_theme,
    render_replay,
)
from tests.renderer.games import random_record


def frame_count(img: Image.Image) -> int:
    return int(getattr(img, "n_frames", 1))


def open_gif(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    assert img.format == "GIF"
    return img


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_a_replay_has_a_frame_per_action_and_the_start(variant: str) -> None:
    record = random_record(variant, 4)[:60]
    img = open_gif(render_replay(variant, record))
    assert frame_count(img) == len(record) + 1
    assert REPLAY_FILENAME.endswith(".gif")


def test_the_last_frame_lasts_longest() -> None:
    record = random_record("shax", 8)[:30]
    img = open_gif(render_replay("shax", record))
    durations = []
    for k in range(frame_count(img)):
        img.seek(k)
        durations.append(img.info["duration"])
    assert durations[-1] > max(durations[:-1])
    assert all(500 <= d <= 1000 for d in durations[1:-1])


def test_an_empty_record_is_one_still_frame() -> None:
    img = open_gif(render_replay("jar", ""))
    assert frame_count(img) == 1


@pytest.mark.parametrize("variant", VARIANT_IDS)
def test_every_frame_shows_the_stones_of_its_position(variant: str) -> None:
    record = random_record(variant, 6)[:80]
    view = BoardView(theme="night", flip=True)
    theme = get_theme(view.theme)
    img = open_gif(render_replay(variant, record, view))
    geometry = board_geometry(variant, flip=True, scale=REPLAY_SCALE)
    for k, (position, _) in enumerate(iter_positions(variant, record)):
        img.seek(k)
        frame = img.convert("RGB")
        assert frame.size[0] < 880  # replay frames are drawn smaller than the live board
        for name, xy in geometry.items():
            stone = position.at(name)
            expected = {
                Color.WHITE: theme.white_stone,
                Color.BLACK: theme.black_stone,
                None: theme.point,
            }[stone]
            assert frame.getpixel(xy) == expected, (k, name)


def test_the_views_outcome_shows_on_the_last_frame_only() -> None:
    record = random_record("shax", 3)[:20]
    resigned = BoardView(outcome=Outcome(Color.WHITE, Termination.RESIGNATION))
    a = open_gif(render_replay("shax", record))
    b = open_gif(render_replay("shax", record, resigned))
    frames = []
    for k in (len(record) - 1, len(record)):
        a.seek(k)
        b.seek(k)
        frames.append((a.convert("RGB").tobytes(), b.convert("RGB").tobytes()))
    assert frames[0][0] == frames[0][1]
    assert frames[1][0] != frames[1][1]


def test_a_replay_is_deterministic() -> None:
    record = random_record("shax-small", 2)[:50]
    assert render_replay("shax-small", record) == render_replay("shax-small", " ".join(record))


def test_a_bad_record_raises_before_drawing() -> None:
    with pytest.raises(RecordError, match="action 2"):
        render_replay("shax", "d7 zz9")
