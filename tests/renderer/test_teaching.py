"""The teacher's pictures: a suggested action drawn on the board, the evaluation plot."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from renderer import PLOT_FILENAME, BoardView, board_geometry, get_theme, render_board
from renderer.plot import (
    HEIGHT,
    MARGIN_BOTTOM,
    MARGIN_LEFT,
    MARGIN_RIGHT,
    MARGIN_TOP,
    WIDTH,
    render_evaluation,
)

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png(data: bytes) -> Image.Image:
    assert data.startswith(PNG_MAGIC)
    return Image.open(io.BytesIO(data)).convert("RGB")


def count(img: Image.Image, color: tuple[int, int, int]) -> int:
    colors = img.getcolors(maxcolors=img.width * img.height) or []
    return sum(n for n, c in colors if c == color)


SELECT = get_theme("sand").select


def test_no_suggestion_draws_nothing_in_the_suggestion_colour() -> None:
    assert count(png(render_board("shax", "d7 a7")), SELECT) == 0


def test_a_suggested_move_is_an_arrow_between_its_points() -> None:
    # Jar's movement phase: the arrow runs from a1 to a2 along the file.
    record = "a1 b1 c2 b2 c3 a3"
    img = png(render_board("jar", record, BoardView(suggestion="a1-a2")))
    g = board_geometry("jar")
    (x, y0), (_, y1) = g["a1"], g["a2"]
    between = [img.getpixel((x, y)) for y in range(min(y0, y1) + 40, max(y0, y1) - 40)]
    assert between.count(SELECT) > len(between) // 2
    assert img.getpixel(g["c2"]) == get_theme("sand").white_stone  # stones stay as they are


def test_a_suggested_placement_rings_its_point_and_a_removal_crosses_it() -> None:
    placed = png(render_board("shax", "d7", BoardView(suggestion="g7")))
    removed = png(render_board("shax-small", "", BoardView(suggestion="xa1")))
    assert count(placed, SELECT) > 100
    assert count(removed, SELECT) > 50
    x, y = board_geometry("shax")["g7"]
    ring = [placed.getpixel((x + dx, y)) for dx in range(-40, 41)]
    assert SELECT in ring


@pytest.mark.parametrize("text", ["zz9", "", "a1-a9"])
def test_a_suggestion_that_is_no_action_is_ignored(text: str) -> None:
    assert render_board("shax", "d7", BoardView(suggestion=text)) == render_board("shax", "d7")


def test_the_plot_has_its_size_and_fills_the_side_that_stands_better() -> None:
    theme = get_theme("sand")
    img = png(render_evaluation([0, 200, 400, 400, -300, -600], [4], limit=1000))
    assert img.size == (WIDTH, HEIGHT)
    middle = (MARGIN_TOP + HEIGHT - MARGIN_BOTTOM) // 2
    left, right = MARGIN_LEFT, WIDTH - MARGIN_RIGHT
    early = left + (right - left) * 2 // 5  # white ahead: white's colour above the middle
    late = right - 3  # black ahead at the end: black's colour below the middle
    assert img.getpixel((early, middle - 10)) == theme.white_stone
    assert img.getpixel((late, middle + 20)) == theme.black_stone
    assert img.getpixel((late, middle - 20)) == theme.ground


def test_turning_points_are_marked_on_the_curve() -> None:
    theme = get_theme("night")
    plain = png(render_evaluation([0, 100, -100, 50], theme="night"))
    marked = png(render_evaluation([0, 100, -100, 50], [1, 2], theme="night"))
    assert count(plain, theme.mark) == 0
    assert count(marked, theme.mark) > 2 * 100


def test_the_plot_survives_one_value_and_refuses_a_bad_limit() -> None:
    assert png(render_evaluation([0])).size == (WIDTH, HEIGHT)
    assert png(render_evaluation([])).size == (WIDTH, HEIGHT)
    with pytest.raises(ValueError):
        render_evaluation([0, 1], limit=0)
    assert PLOT_FILENAME.endswith(".png") and MARGIN_TOP > 0


def test_the_plots_names_stay_inside_the_picture_and_a_bots_level_is_shown() -> None:
    theme = get_theme("sand")
    for white, black in (("Shax bot (master)", "Cabdiraxmaan Maxamed Xasan"), ("محمد علي", "李雷")):
        img = png(render_evaluation([0, 100, -50], white_name=white, black_name=black))
        edge = img.crop((0, 0, 4, HEIGHT)).getcolors(10_000) or []
        assert {c for _, c in edge} == {theme.panel}, (white, black)
    # The whole name of the bot, level included, beside the chart.
    bot = png(render_evaluation([0, 1], white_name="Shax bot (master)"))
    cut = png(render_evaluation([0, 1], white_name="Shax bot (maste…"))
    assert bot.crop((0, 0, MARGIN_LEFT, HEIGHT // 2)) != cut.crop((0, 0, MARGIN_LEFT, HEIGHT // 2))


def test_a_short_games_axis_numbers_every_action() -> None:
    from renderer.plot import axis_ticks

    assert axis_ticks(4) == [0, 1, 2, 3]
    assert axis_ticks(9) == [0, 2, 4, 6, 8]
    assert 4 <= len(axis_ticks(73)) <= 7 and axis_ticks(73)[:2] == [0, 20]
    assert axis_ticks(1) == axis_ticks(0) == []
    # Under the right end of a four-value curve, its last action's number.
    img = png(render_evaluation([0, 100, -50, 20]))
    right = WIDTH - MARGIN_RIGHT
    under = img.crop((right - 8, HEIGHT - MARGIN_BOTTOM + 2, right + 8, HEIGHT - 18))
    assert len(under.getcolors(10_000) or []) > 1


CHAT_WIDTH = 400
"""Discord shows an attachment 400 to 550 px wide."""


def test_a_suggested_moves_arrow_head_is_clear_at_chat_size() -> None:
    record = "d5 d7 a4 d1 f6 f4 e4 d3 g7 c3 e3 b4 e5 b2 c5 b6 a7 f2 d2 g4 c4 d6 a1 g1 xg1 xd2"
    img = png(render_board("shax", record, BoardView(suggestion="g4-g1")))
    g = board_geometry("shax")
    (x, y0), (_, y1) = g["g4"], g["g1"]
    widths = [
        sum(img.getpixel((x + dx, y)) == SELECT for dx in range(-40, 41)) for y in range(y0, y1)
    ]
    at_chat_size = max(widths) * CHAT_WIDTH / img.width
    assert at_chat_size >= 12  # the shaft is about 3 px there


def inked(img: Image.Image, box: tuple[int, int, int, int]) -> bool:
    """Whether anything but the panel's colour is drawn in ``box``."""
    colors = img.crop(box).getcolors(10_000) or []
    return {c for _, c in colors} != {get_theme("sand").panel}


def test_the_curve_has_a_scale_of_stones_and_its_axes_are_titled_in_the_readers_language() -> None:
    values = [0, 300, -500, 1000]
    english = png(render_evaluation(values))
    somali = png(render_evaluation(values, language="so"))
    right = WIDTH - MARGIN_RIGHT
    bottom = HEIGHT - MARGIN_BOTTOM
    middle = (MARGIN_TOP + bottom) // 2
    # The stones written right of the chart: at the top, the middle and the bottom edge.
    for y in (MARGIN_TOP, middle, bottom):
        assert inked(english, (right + 3, y - 6, WIDTH, y + 6)), y
    title = (right - 120, 0, WIDTH, MARGIN_TOP - 8)  # the scale's title, above it
    actions = (MARGIN_LEFT, HEIGHT - 16, right, HEIGHT)  # under the action numbers
    for box in (title, actions):
        assert inked(english, box) and inked(somali, box)
        assert english.crop(box) != somali.crop(box)
