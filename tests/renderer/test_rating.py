"""Ratings in pictures: each player's rating on their card beside the name, and the small
picture of a player's rating over their games."""

from __future__ import annotations

import io

import pytest
from PIL import Image, ImageChops

from engine import Position
from renderer import BoardView, render_board, render_rating_history
from renderer.layout import make_layout
from renderer.panel import card_name
from renderer.rating import HEIGHT, MARGIN_LEFT, MARGIN_RIGHT, MARGIN_TOP, WIDTH, rating_axis

RECORD = ["d7", "a7", "g7"]


def open_png(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def changed_box(a: bytes, b: bytes) -> tuple[int, int, int, int] | None:
    return ImageChops.difference(open_png(a).convert("RGB"), open_png(b).convert("RGB")).getbbox()


def test_a_rating_is_drawn_on_its_players_card_right_of_the_board() -> None:
    plain = render_board("shax", RECORD, BoardView(white_name="Cali", black_name="Bashir"))
    rated = render_board(
        "shax",
        RECORD,
        BoardView(white_name="Cali", black_name="Bashir", white_rating="1532?"),
    )
    box = changed_box(plain, rated)
    assert box is not None
    _, height = open_png(plain).size
    # White's card is the lower one, in the panel right of the square board.
    assert box[0] > height and box[1] > height // 2


def test_a_name_makes_room_for_the_rating_and_a_bots_level_stays_whole() -> None:
    lay = make_layout(Position.initial("shax").variant)
    assert card_name(lay, "Caasha", "1532?")[0] == "Caasha"
    alone, size_alone, _ = card_name(lay, "Cabdiraxmaan Cali")
    beside, size_beside, _ = card_name(lay, "Cabdiraxmaan Cali", "1532?")
    assert alone == "Cabdiraxmaan Cali"
    assert size_beside < size_alone or beside != alone


def test_the_rating_picture_draws_the_history_and_is_the_same_for_the_same_ratings() -> None:
    history = [1500.0, 1662.4, 1580.0, 1610.0, 1700.2, 1655.0]
    png = render_rating_history(history)
    img = open_png(png)
    assert img.size == (WIDTH, HEIGHT) and img.format == "PNG"
    assert render_rating_history(history) == png
    assert render_rating_history([*history, 1720.0]) != png
    assert render_rating_history(history, theme="night") != png


def test_a_first_rating_alone_still_makes_a_picture() -> None:
    assert open_png(render_rating_history([1500.0])).size == (WIDTH, HEIGHT)


def test_no_ratings_or_an_unknown_theme_is_refused() -> None:
    with pytest.raises(ValueError):
        render_rating_history([])
    with pytest.raises(ValueError):
        render_rating_history([1500.0], theme="neon")


def test_the_rating_axis_holds_every_rating_in_a_few_whole_steps() -> None:
    for lowest, highest in [(1500, 1500), (1400, 1620), (1000, 2100), (1490.5, 1509.5)]:
        low, high, step = rating_axis(lowest, highest)
        assert low <= lowest and highest <= high
        assert low % step == 0 and high % step == 0
        assert 2 <= (high - low) / step <= 6


def test_the_rating_pictures_axes_are_titled_in_the_readers_language() -> None:
    history = [1500.0, 1540.0, 1525.0]
    english = open_png(render_rating_history(history)).convert("RGB")
    somali = open_png(render_rating_history(history, language="so")).convert("RGB")
    ratings = (0, 0, MARGIN_LEFT, MARGIN_TOP - 10)  # above the ratings up the left
    games = (MARGIN_LEFT, HEIGHT - 16, WIDTH - MARGIN_RIGHT, HEIGHT)  # under the numbers
    for box in (ratings, games):
        for img in (english, somali):
            assert len(img.crop(box).getcolors(10_000) or []) > 1, box  # words drawn
        assert english.crop(box) != somali.crop(box)
