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


def frames_rgb(data: bytes) -> list[bytes]:
    """Every frame as shown (each drawn over the one before), as RGB bytes."""
    from PIL import ImageSequence

    return [f.convert("RGB").tobytes() for f in ImageSequence.Iterator(open_gif(data))]


JAR_BLACK_WINS = "a1 a3 a2 b3 b2 c2 c2-c3"  # no line placed: black moves first, forms a3 b3 c3


def test_series_stones_earned_by_the_game_appear_on_the_last_frame_only() -> None:
    from renderer.replay import series_before

    no_series = frames_rgb(render_replay("jar", JAR_BLACK_WINS))
    first_win = frames_rgb(
        render_replay("jar", JAR_BLACK_WINS, BoardView(series_color=Color.BLACK, series_stones=1))
    )
    # Black's first stone is this game's: no frame before the end may show it.
    assert first_win[:-1] == no_series[:-1]
    assert first_win[-1] != no_series[-1]
    # A longer series: every frame shows the stones as they stood, one more at the end.
    third = frames_rgb(
        render_replay("jar", JAR_BLACK_WINS, BoardView(series_color=Color.BLACK, series_stones=3))
    )
    # Had the game been drawn, the two stones black held would have stood throughout.
    drawn = BoardView(
        series_color=Color.BLACK,
        series_stones=2,
        outcome=Outcome(None, Termination.AGREEMENT),
    )
    assert third[:-1] == frames_rgb(render_replay("jar", JAR_BLACK_WINS, drawn))[:-1]
    assert third[0] != no_series[0]
    view = BoardView(series_color=Color.WHITE, series_stones=2)
    assert series_before(view, Color.WHITE, over=True) == (Color.WHITE, 1)
    assert series_before(view, None, over=True) == (Color.WHITE, 2)  # a draw changes nothing
    assert series_before(view, Color.BLACK, over=False) == (Color.WHITE, 2)
